// Where a worker thread's script is: the TypeScript source beside the module that starts it (run through tsx), or, in
// the compiled server (dist/app, scripts/build-server.mjs), the .js the build writes for it beside the compiled code.
// Every worker the server starts is found here, and its name is one of the build's entries (worker-script.test.ts).

/** The script `name` beside the module at `from` (its `import.meta.url`), and the node flags that run it. */
export function workerScript(name: string, from: string): { url: URL; execArgv: string[] } {
  const compiled = from.endsWith('.js')
  return {
    url: new URL(`./${name}.${compiled ? 'js' : 'ts'}`, from),
    execArgv: compiled ? [] : ['--import', 'tsx'],
  }
}
