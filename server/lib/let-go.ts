// A copy of the listings lives in shared memory (SharedArrayBuffer), held by every thread it was handed to. V8 frees
// it only once each of those threads has collected its handles in a full collection, which a thread that allocates
// little (a search thread of a quiet instance, the main thread between requests) may not run for hours: measured, an
// idle thread kept every copy it was handed, 250 MB each. So a thread that lets go of a copy asks for one, run
// concurrently (`execution: 'async'`). Decision 0163.

type Collect = (options: { type: 'major'; execution: 'async' }) => void

/**
 * Asks V8 for a full collection in the background, where the process exposes it (`--expose-gc`, which every way of
 * starting a server gives: scripts/server-runtime.mjs); else (tests) nothing.
 */
export function collectLetGo(): void {
  ;(globalThis as { gc?: Collect }).gc?.({ type: 'major', execution: 'async' })
}
