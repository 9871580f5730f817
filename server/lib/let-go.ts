import { constants, type EventLoopUtilization, PerformanceObserver, performance } from 'node:perf_hooks'

// A copy of the listings lives in shared memory (SharedArrayBuffer), held by every thread it was handed to. V8 frees
// it only once each of those threads has collected its handles in a full collection, which a thread that allocates
// little (a search thread of a quiet instance, the main thread between requests) may not run for hours: measured, an
// idle thread kept every copy it was handed, 250 MB each. So a thread that lets go of a copy makes sure one runs
// (decision 0163): a busy thread runs its own within seconds, concurrently with its work; one asked for stops the thread
// for the whole of it (150 ms for a 280 MB heap, up to 300 ms on an instance's main thread as a copy landed), so it is
// asked for only when the thread is idle, or has not collected by itself for a long while. Decision 0164.

type Collect = (options: { type: 'major'; execution: 'async' }) => void

/** How often a thread that let go of a copy looks whether it has collected, or is idle. */
const LOOK_EVERY_MS = 250
/** Busy less than this share of the last look's time: a collection asked for holds up (almost) nothing. */
const IDLE_BELOW = 0.2
/** Busy this long without two full collections of its own: asked for anyway. */
const ASK_AFTER_MS = 30_000

/** One wait per thread: a copy let go of during it is covered by the count starting again. */
let waiting:
  | { since: number; majors: number; started: number; used: EventLoopUtilization; stop: () => void }
  | undefined

/**
 * Makes sure this thread runs a full collection that starts after now: the second of its own (the first may have begun
 * marking before), or one asked of V8 once the thread is idle or after ASK_AFTER_MS. Only where the process exposes the
 * collector (`--expose-gc`, which every way of starting a server gives: scripts/server-runtime.mjs); else (tests)
 * nothing.
 */
export function collectLetGo(): void {
  const collector = () => (globalThis as { gc?: Collect }).gc
  if (!collector()) return
  const now = performance.now()
  if (waiting) {
    waiting.since = now
    waiting.majors = 0
    return
  }
  const majors = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind
      if (waiting && kind === constants.NODE_PERFORMANCE_GC_MAJOR && entry.startTime > waiting.since)
        waiting.majors++
    }
    if (waiting && waiting.majors >= 2) waiting.stop()
  })
  majors.observe({ entryTypes: ['gc'] })
  const look = setInterval(() => {
    const w = waiting
    if (!w) return
    const busy = performance.eventLoopUtilization(w.used).utilization
    w.used = performance.eventLoopUtilization()
    if (busy < IDLE_BELOW || performance.now() - w.started > ASK_AFTER_MS) {
      w.stop()
      collector()?.({ type: 'major', execution: 'async' })
    }
  }, LOOK_EVERY_MS).unref()
  waiting = {
    since: now,
    majors: 0,
    started: now,
    used: performance.eventLoopUtilization(),
    stop: () => {
      clearInterval(look)
      majors.disconnect()
      waiting = undefined
    },
  }
}
