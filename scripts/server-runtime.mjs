// What a server process starts with beyond its code: node flags and environment that can only be given when the
// process starts (V8 sizes the main thread's heap, and glibc sets up its allocator, before any of the server runs).
// Every way of starting an instance uses these: `npm start` (scripts/start.mjs), `npm run serve`, `npm run dev`, the
// end-to-end server (scripts/e2e-server.mjs), the image (scripts/image.sh), the systemd unit
// (deploy/systemd/laptop-market@.service), the cluster harness and the scale bench, so that what is measured is what
// runs (server/server-runtime.test.ts checks the copies in the image and the
// unit). docs/decisions/0106-*.
import { spawn } from 'node:child_process'
import path from 'node:path'

/**
 * Every thread's young generation at most 8 MB a half, as the search threads' (search-pool.ts): V8 takes the flag over
 * a thread's own `resourceLimits`. V8 otherwise sizes the main thread's from the machine's memory (a new space of 128
 * MB on a machine of 24 GB), shrinks it while the instance is quiet and grows it back under traffic: the instance's
 * memory moved by a hundred MB with the traffic, not with what it holds. With 16 MB a half the search threads' heaps
 * grew from about 40 MB to 58 (the flag over their 8); a lower bound (`--min-semi-space-size`) grew them too.
 * `--expose-gc`: a thread that lets go of a copy of the listings asks for a full collection when idle (server/lib/let-go.ts).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8', '--expose-gc']

/**
 * glibc's allocator (the arrays of the copy and of the kept answers, the driver's and the responses' buffers are
 * allocated with it): two arenas rather than one per thread that ever allocated (16 on 2 cores), each keeping what
 * its thread freed; blocks of 128 KB and more mapped on their own and given back when freed, instead of glibc raising
 * that threshold to 32 MB after the first large block freed; and free memory at the top of an arena given back past
 * 128 KB.
 */
export const SERVER_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
}

/** The environment of a server process: SERVER_ENV under `env` (a setting given there wins). */
export const serverEnv = (env = process.env) => ({ ...SERVER_ENV, ...env })

/**
 * Runs the compiled server (`dist/app/main.js` under `root`) in a process of its own with SERVER_NODE_FLAGS and
 * SERVER_ENV, passing on SIGINT and SIGTERM, and exits as it does (`npm start`, `npm run serve`).
 */
export function runServer(root) {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, 'dist/app/main.js')], {
    cwd: root,
    stdio: 'inherit',
    env: serverEnv(),
  })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}
