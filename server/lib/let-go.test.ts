import { constants } from 'node:perf_hooks'
import v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { collectLetGo, FullCollections } from './let-go'

// A thread that lets go of a copy asks V8 for a full collection, which stops it for the whole of it, only when it is
// idle; a busy thread's own collections do the work without stopping it (decision 0164).

const own = (globalThis as { gc?: unknown }).gc
afterEach(() => {
  ;(globalThis as { gc?: unknown }).gc = own
})

/** V8's own full collection, run at once (a stand-in for the two a busy thread runs by itself). */
function realCollector(): () => void {
  v8.setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

/** Keeps this thread busy (most of its time in work, as under searches) for `ms`. */
async function busyFor(ms: number, during?: (at: number) => void) {
  const end = performance.now() + ms
  for (let at = 0; performance.now() < end; at++) {
    const until = performance.now() + 40
    while (performance.now() < until) {
      // Spinning: work the thread's loop counts as busy.
    }
    during?.(at)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** Lets go of a copy with the collector V8 would be asked for replaced by a spy, returned. */
function letGo(askAfterMs?: number) {
  const gc = vi.fn()
  ;(globalThis as { gc?: unknown }).gc = gc
  collectLetGo(askAfterMs)
  return gc
}

describe('a copy let go of', () => {
  it('is collected at once, asked of V8, by a thread with nothing else to do', async () => {
    const gc = letGo()
    expect(gc).not.toHaveBeenCalled()
    await vi.waitFor(() => expect(gc).toHaveBeenCalledWith({ type: 'major', execution: 'async' }), {
      timeout: 2_000,
      interval: 50,
    })
    expect(gc).toHaveBeenCalledTimes(1)
  })

  it('is left to a busy thread’s own full collections, which do not stop it', async () => {
    const collect = realCollector()
    const gc = letGo()
    // Two of the thread's own, at once (not incremental: their starts unseen), the second surely after the let go.
    await busyFor(1_000, (at) => {
      if (at === 2 || at === 6) collect()
    })
    // Idle now: had the wait not ended with them, it would ask here.
    await new Promise((resolve) => setTimeout(resolve, 800))
    expect(gc).not.toHaveBeenCalled()
  })

  it('is asked for once the thread is idle, when it has run only one of its own', async () => {
    const collect = realCollector()
    const gc = letGo()
    await busyFor(600, (at) => {
      if (at === 2) collect()
    })
    expect(gc).not.toHaveBeenCalled()
    // Its first may have begun marking before the copy was let go of: once idle, it asks.
    await vi.waitFor(() => expect(gc).toHaveBeenCalledTimes(1), { timeout: 2_000, interval: 50 })
  })

  it('is asked for while busy once the thread has gone too long without one of its own', async () => {
    const gc = letGo(400)
    let askedAt: number | undefined
    await busyFor(900, (at) => {
      if (askedAt === undefined && gc.mock.calls.length > 0) askedAt = at
    })
    // Asked while the thread was still busy (its loop over 80% in work), not once it went idle.
    expect(askedAt).toBeDefined()
    expect(gc).toHaveBeenCalledTimes(1)
  })
})

describe('a full collection begun after a copy was let go of', () => {
  const marking = (startTime: number) => ({ kind: constants.NODE_PERFORMANCE_GC_INCREMENTAL, startTime })
  const major = (startTime: number) => ({ kind: constants.NODE_PERFORMANCE_GC_MAJOR, startTime })
  const minor = (startTime: number) => ({ kind: constants.NODE_PERFORMANCE_GC_MINOR, startTime })

  it('is one whose marking began after it, ended by its last pause', () => {
    const seen = new FullCollections(100)
    expect(seen.sawOneSince([minor(110), marking(120)])).toBe(false)
    expect(seen.sawOneSince([minor(130), major(300)])).toBe(true)
  })

  it('is not one whose marking began before, though it ended after: the next is', () => {
    const seen = new FullCollections(100)
    expect(seen.sawOneSince([marking(50), major(300)])).toBe(false)
    expect(seen.sawOneSince([marking(400), major(500)])).toBe(true)
  })

  it('is the second of those whose start was not seen', () => {
    const seen = new FullCollections(100)
    expect(seen.sawOneSince([major(300)])).toBe(false)
    expect(seen.sawOneSince([major(500)])).toBe(true)
  })

  it('begins after the last copy let go of', () => {
    const seen = new FullCollections(100)
    expect(seen.sawOneSince([marking(120)])).toBe(false)
    seen.restart(200)
    expect(seen.sawOneSince([major(300)])).toBe(false)
    expect(seen.sawOneSince([marking(450), major(500)])).toBe(true)
  })
})
