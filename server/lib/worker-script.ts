import v8 from 'node:v8'
import type { Worker } from 'node:worker_threads'

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

/** The process's own first old-generation size (0: V8's), as its flags gave it. */
const processOldStartMb = Number(
  [...(process.env.NODE_OPTIONS?.split(/\s+/) ?? []), ...process.execArgv]
    .map((arg) => /^--initial[-_]old[-_]space[-_]size=(\d+)$/.exec(arg)?.[1])
    .findLast((mb) => mb !== undefined) ?? 0,
)

/**
 * Starts `count` threads (`start`) whose old generation may reach `mb` before V8 first collects it whole: V8 reads a
 * thread's heap sizes from the process's flags when the thread starts, and a Worker's `resourceLimits` sets only their
 * maxima. The flag is given while the threads start and put back once every one has (a thread started meanwhile
 * elsewhere gets it too). docs/decisions/0137-*.
 */
export function startWithOldGeneration(mb: number, count: number, start: () => Worker): Worker[] {
  if (count <= 0) return []
  v8.setFlagsFromString(`--initial-old-space-size=${mb}`)
  let starting = count
  const started = () => {
    if (--starting === 0) v8.setFlagsFromString(`--initial-old-space-size=${processOldStartMb}`)
  }
  try {
    return Array.from({ length: count }, () => {
      const worker = start()
      let once = false
      const settle = () => {
        if (!once) started()
        once = true
      }
      worker.once('online', settle).once('exit', settle)
      return worker
    })
  } catch (err) {
    starting = 1
    started()
    throw err
  }
}
