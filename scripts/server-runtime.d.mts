export declare const SERVER_NODE_FLAGS: string[]
export declare const SERVER_ENV: Record<string, string>
export declare const serverEnv: (env?: NodeJS.ProcessEnv) => NodeJS.ProcessEnv
export declare function runServer(root: string): void
