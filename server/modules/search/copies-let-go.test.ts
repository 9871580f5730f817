import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SearchQuery } from '#contract/search'
import { readPaging } from '#server/lib/paging'
import { createTestApp } from '#server/test/test-app'
import { SERVER_NODE_FLAGS } from '../../../scripts/server-runtime.mjs'
import { factsFromRows } from './listing-facts'
import { loadFacts } from './listing-feed'
import { type FactsView, markedPart, wholeView } from './listing-view'
import { type PoolAsk, SearchPool, type ToSearcher } from './search-pool'

// A copy let go of leaves memory (server/lib/let-go.ts): six copies of 64 MB handed to both search threads in turn, as
// a quiet instance's copies made again, each dropped as the next comes. With the server's node flags the process holds
// about one; without the full collection a thread asks for, the idle search threads kept every one.

const MB_A_COPY = 64

/** The process's RSS after each copy, in MB, run with `flags`. */
async function rssAfterEach(flags: string[]): Promise<number[]> {
  const script = path.join(import.meta.dirname, 'copies-let-go-check.ts')
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...flags, '--import', 'tsx', script, String(MB_A_COPY)],
    { encoding: 'utf8', timeout: 60_000 },
  )
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '[]')
}

describe('copies let go of', () => {
  it('leave memory with the server node flags, and pile up without the collection they ask for', async () => {
    const [kept, piled] = await Promise.all([
      rssAfterEach(SERVER_NODE_FLAGS),
      rssAfterEach(SERVER_NODE_FLAGS.filter((flag) => flag !== '--expose-gc')),
    ])
    const growth = (rss: number[]) => (rss.at(-1) as number) - (rss[0] as number)
    // Five copies more than the first: about none more held, against about five.
    expect(growth(kept), `RSS ${kept.join(', ')} MB`).toBeLessThan(2 * MB_A_COPY)
    expect(growth(piled), `RSS ${piled.join(', ')} MB`).toBeGreaterThan(3 * MB_A_COPY)
  }, 120_000)
})

describe('which copies a search thread collects at once', () => {
  it('a base let go of, not a settled part', async () => {
    const pool = new SearchPool(2, () => undefined)
    const told: ToSearcher[] = []
    for (const { worker } of pool.searchers) {
      const post = worker.postMessage.bind(worker)
      worker.postMessage = (message: ToSearcher) => {
        told.push(message)
        post(message)
      }
    }
    const query = SearchQuery.parse({})
    const ask: PoolAsk = {
      query,
      sort: 'newest',
      paging: readPaging(query),
      nowMs: Date.now(),
      facets: false,
    }
    // Both searchers at once (each holds what it is asked of); answers do not matter here.
    const askBoth = (view: FactsView) => Promise.allSettled([pool.ask(view, ask), pool.ask(view, ask)])
    const copyOfSize = (version: string, size: number) => ({ ...factsFromRows(version, []), size })
    const first = copyOfSize('1', 1_000)
    const part = copyOfSize('2', 10)
    const withPart = wholeView(first)
    withPart.parts.push(markedPart(part))
    const later = copyOfSize('3', 900)
    await askBoth(wholeView(first))
    await askBoth(withPart)
    await askBoth({ ...withPart, parts: withPart.parts.slice(0, 1) })
    await askBoth(wholeView(later))
    pool.stop()
    const copyIds = (copy: object) =>
      told.flatMap((m) =>
        m.type === 'copy' && m.copy.version === (copy as { version: string }).version ? [m.id] : [],
      )
    const drops = (copy: object) =>
      told.flatMap((m) => (m.type === 'drop-copy' && copyIds(copy).includes(m.id) ? [m.collect] : []))
    expect(drops(part)).toEqual([false, false])
    expect(drops(first)).toEqual([true, true])
  }, 60_000)
})

describe('the main thread', () => {
  // The process's own collector (a run with --expose-gc) is put back after the spy.
  const own = (globalThis as { gc?: unknown }).gc
  afterEach(() => {
    ;(globalThis as { gc?: unknown }).gc = own
  })

  it('makes sure of a full collection when a new copy replaces the view (asked for, the thread being idle)', async () => {
    const gc = vi.fn()
    ;(globalThis as { gc?: unknown }).gc = gc
    const t = await createTestApp()
    try {
      // What opening the app let go of is collected first (server/lib/let-go.ts waits for one idle moment).
      await new Promise((resolve) => setTimeout(resolve, 600))
      gc.mockClear()
      await loadFacts(t.db)
      await vi.waitFor(() => expect(gc).toHaveBeenCalledWith({ type: 'major', execution: 'async' }), {
        timeout: 5_000,
        interval: 50,
      })
    } finally {
      await t.close()
    }
  }, 60_000)
})
