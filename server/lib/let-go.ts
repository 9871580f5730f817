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
/** Busy this long without a full collection of its own begun after the copy was let go of: asked for anyway. */
const ASK_AFTER_MS = 30_000

/** A collection as the thread's `gc` performance entries tell it: its kind (perf_hooks' constants) and start. */
export type Collection = { kind: number; startTime: number }

/**
 * Counts a thread's full collections (`seen`, in order) to tell whether one began after `since`. A full collection
 * is usually incremental: its marking starts (an entry of kind incremental) well before its last pause (kind major),
 * and it is the start that counts. A major whose start was not seen (marking begun before the thread looked, or not
 * incremental) counts only as the second after `since`: the first may have begun marking before.
 */
export class FullCollections {
  private markingFrom: number | undefined
  private majorsAfter = 0

  constructor(private since: number) {}

  /** A copy let go of again: only a collection begun after `at` will do. */
  restart(at: number) {
    this.since = at
    this.majorsAfter = 0
  }

  /** Whether, with `seen`, a full collection begun after `since` has ended. */
  sawOneSince(seen: Iterable<Collection>): boolean {
    let done = false
    for (const { kind, startTime } of seen) {
      if (kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL) this.markingFrom ??= startTime
      if (kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue
      const began = this.markingFrom
      this.markingFrom = undefined
      if (startTime > this.since) this.majorsAfter++
      if ((began !== undefined && began > this.since) || this.majorsAfter >= 2) done = true
    }
    return done
  }
}

/** One wait per thread: a copy let go of during it restarts what counts. */
let waiting:
  | { seen: FullCollections; started: number; used: EventLoopUtilization; stop: () => void }
  | undefined

/**
 * Makes sure this thread runs a full collection that starts after now: one of its own (FullCollections), or one asked
 * of V8 once the thread is idle or after `askAfterMs` (ASK_AFTER_MS; tests shorten it). Only where the process exposes the collector (`--expose-gc`,
 * which every way of starting a server gives: scripts/server-runtime.mjs); else (tests) nothing.
 */
export function collectLetGo(askAfterMs = ASK_AFTER_MS): void {
  const collector = () => (globalThis as { gc?: Collect }).gc
  if (!collector()) return
  const now = performance.now()
  if (waiting) {
    waiting.seen.restart(now)
    return
  }
  const collections = new PerformanceObserver((list) => {
    const seen = list.getEntries().map((entry) => ({
      kind: (entry as { detail?: { kind?: number } }).detail?.kind ?? 0,
      startTime: entry.startTime,
    }))
    if (waiting?.seen.sawOneSince(seen)) waiting.stop()
  })
  collections.observe({ entryTypes: ['gc'] })
  const look = setInterval(() => {
    const w = waiting
    if (!w) return
    const busy = performance.eventLoopUtilization(w.used).utilization
    w.used = performance.eventLoopUtilization()
    if (busy < IDLE_BELOW || performance.now() - w.started > askAfterMs) {
      w.stop()
      collector()?.({ type: 'major', execution: 'async' })
    }
  }, LOOK_EVERY_MS).unref()
  waiting = {
    seen: new FullCollections(now),
    started: now,
    used: performance.eventLoopUtilization(),
    stop: () => {
      clearInterval(look)
      collections.disconnect()
      waiting = undefined
    },
  }
}
