import v8 from 'node:v8'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { SearchQuery } from '#contract/search'
import { factsFromRows } from './listing-facts'
import { wholeView } from './listing-view'
import { type PoolAsk, SEARCHER_OLD_START_MB, SearchPool, THREAD_LIMITS } from './search-pool'

// What the pool's searchers hold: a young generation of the size set for the instance's threads, and no copy the
// instance has replaced once a search of the new one was posted (decision 0092).

const pool = new SearchPool(2, (err) => {
  if (!/pool stopped/.test(err.message)) throw err
})
afterAll(() => pool.stop())
const copiesHeld = () => pool.searchers.map((s) => s.copies.size)

const ask: PoolAsk = {
  query: SearchQuery.parse({}),
  sort: 'newest',
  paging: { pageSize: 24, offset: 0 },
  nowMs: Date.now(),
  facets: false,
}

describe('the search pool’s memory', () => {
  it('runs its searchers with the threads’ heap limits', () => {
    expect(THREAD_LIMITS.maxYoungGenerationSizeMb).toBeGreaterThan(0)
    for (const { worker } of pool.searchers)
      expect(worker.resourceLimits?.maxYoungGenerationSizeMb).toBe(THREAD_LIMITS.maxYoungGenerationSizeMb)
  })

  it('starts its searchers with their first old generation, and gives the process its own back once they run', async () => {
    // This file's pool running (a search answered on each searcher): its own flags were given and put back before.
    const view = wholeView(factsFromRows('0', []))
    await Promise.all([pool.ask(view, ask), pool.ask(view, ask)])
    const flags = vi.spyOn(v8, 'setFlagsFromString')
    try {
      const started = new SearchPool(2, () => undefined)
      expect(flags.mock.calls.map(([flag]) => flag)).toEqual([
        `--initial-old-space-size=${SEARCHER_OLD_START_MB}`,
      ])
      await Promise.all(
        started.searchers.map(({ worker }) => new Promise((ran) => worker.once('online', ran))),
      )
      // Put back when the last searcher ran (before this test heard it), to the process's own (none here: V8's).
      expect(flags.mock.calls.map(([flag]) => flag)).toEqual([
        `--initial-old-space-size=${SEARCHER_OLD_START_MB}`,
        '--initial-old-space-size=0',
      ])
      started.stop()
    } finally {
      flags.mockRestore()
    }
  }, 120_000)

  it('lets go of a replaced copy in every searcher once one searcher is sent the new copy', async () => {
    const old = wholeView(factsFromRows('1', []))
    // Two searches at once: one on each searcher, both then hold the old copy.
    await Promise.all([pool.ask(old, ask), pool.ask(old, ask)])
    expect(copiesHeld()).toEqual([1, 1])
    const next = wholeView(factsFromRows('2', []))
    await pool.ask(next, ask)
    expect(copiesHeld().sort()).toEqual([0, 1])
    // A view of the new copy on the other searcher does not drop it from the first.
    await Promise.all([pool.ask(next, ask), pool.ask(next, ask)])
    expect(copiesHeld()).toEqual([1, 1])
    // Each searcher loads the server's modules when it starts: slow on a busy machine.
  }, 120_000)

  it('refuses a search it cannot send to a searcher, and counts nothing in flight for it', async () => {
    const view = wholeView(factsFromRows('4', []))
    // A paging with a function (as a list's paging has): no thread can be sent it.
    const unsendable = { ...ask, paging: { ...ask.paging, finish: () => undefined } } as unknown as PoolAsk
    await expect(pool.ask(view, unsendable)).rejects.toThrow()
    expect(pool.searchers.map((s) => s.pending)).toEqual([0, 0])
    expect(await pool.ask(view, ask)).toEqual({ ids: [], total: undefined, facets: undefined })
  }, 120_000)
})
