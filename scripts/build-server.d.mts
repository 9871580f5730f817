// Types of build-server.mjs for the TypeScript that imports it (server/lib/worker-script.test.ts).

/** The compiled server's entries: each output name (dist/app/<name>.js) and its source file. */
export declare const SERVER_ENTRIES: Record<string, string>

export declare function buildServer(options?: { quiet?: boolean }): Promise<void>
