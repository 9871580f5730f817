import { describe, expect, it } from 'vitest'
import { SearchQuery } from '#contract/search'
import { pageHits } from './facts-pages'
import { COUNT_FACETS } from './filters'
import { KEPT_ENTRY_BYTES, keptOfThread, TYPED_ARRAY_BYTES } from './kept-per-copy'
import { DAY_MS, type FactRow, factsFromRows } from './listing-facts'
import { wholeView } from './listing-view'
import { searchView } from './search-pool'

// What a search thread keeps of its searches (the matches, counts, outcomes and first hits of those asked lately):
// every kept map is bounded in bytes, the bounds add up to a small known total, and no map passes its own under
// searches asked once each.

const MB = 1024 * 1024

const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
  return seed / 2 ** 31
}

function rowsOf(count: number): FactRow[] {
  const rnd = random(7)
  const now = Date.now()
  return Array.from({ length: count }, (_, i) => {
    const facets = Object.fromEntries(
      COUNT_FACETS.map((name, k) => [
        name,
        name === 'condition'
          ? (['Excellent', 'Good', 'Fair'][i % 3] as string)
          : String((i * (k + 3)) % (5 + k)),
      ]),
    )
    const words = `laptop w${i % 40} v${i % 7}`
    return {
      ...facets,
      battery: String(rnd() < 0.2 ? -1 : 40 + Math.floor(rnd() * 61)),
      price: String(10_000 + Math.floor(rnd() * 290_000)),
      posted: String(Math.round((now - rnd() * 200 * DAY_MS) * 1000)),
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      words,
      title_words: words,
      title: `Laptop W${i % 40}`,
    } as FactRow
  })
}

describe('what a search thread keeps', () => {
  const kept = keptOfThread

  it('is bounded in bytes by maps whose bounds add up to a known total', () => {
    const names = kept.map((k) => k.name)
    expect(new Set(names).size).toBe(names.length)
    for (const name of [
      'text matches',
      'outcomes by combination',
      'counts by combination',
      'facets by combination',
      'facets and their rows',
      'totals',
      'first hits',
      'merged rows of choices',
    ])
      expect(names).toContain(name)
    const total = (listings: number) => kept.reduce((sum, k) => sum + k.maxFor(listings), 0)
    // Filled within a few thousand searches (seconds of an instance's traffic); facets and their rows by searches asked again.
    expect(total(100_000)).toBeLessThanOrEqual(22.5 * MB)
    expect(total(1_000_000)).toBeLessThanOrEqual(109 * MB)
  })

  it('never holds more than a map’s bound, under searches asked once each', () => {
    const copy = factsFromRows('1', rowsOf(6_000))
    const view = wholeView(copy)
    const rnd = random(11)
    const reached = new Set<string>()
    for (let i = 0; i < 1_500; i++) {
      const filters: Record<string, string> = {
        min_price: String(100 + Math.floor(rnd() * 1_500)),
        max_price: String(1_700 + Math.floor(rnd() * 1_300)),
      }
      if (rnd() < 0.5) filters.min_battery_pct = String(40 + Math.floor(rnd() * 50))
      if (rnd() < 0.3) filters.condition = 'Good,Fair'
      if (rnd() < 0.2) filters.posted_within = '30'
      // Several choices of one facet, a deep page: their rows merged into one list, kept ('merged rows of choices').
      if (rnd() < 0.3) filters.ram = `${1 + Math.floor(rnd() * 3)},${4 + Math.floor(rnd() * 3)}`
      const word = `w${Math.floor(rnd() * 40)}`
      const terms =
        rnd() < 0.5
          ? {
              terms: [
                { term: word, prefix: false },
                { term: `v${i % 7}`, prefix: i % 2 === 0 },
              ],
              phrase: word,
              bestTier: 1,
            }
          : undefined
      searchView(view, {
        query: SearchQuery.parse(filters),
        sort: terms && i % 3 === 0 ? 'relevance' : 'newest',
        paging: { pageSize: 24, offset: (filters.ram && i % 2 === 1 ? 29 : i % 4) * 24 },
        nowMs: Date.now(),
        terms,
        facets: i % 2 === 0,
      })
      for (const k of kept) {
        const keyOf = { 'text matches': copy.text, 'outcomes by combination': copy.combos.values }
        const held = k.held(keyOf[k.name as keyof typeof keyOf] ?? copy)
        expect(held.bytes, k.name).toBeLessThanOrEqual(held.max)
        if (held.values > 0 && held.bytes + 64 * 1024 > held.max) reached.add(k.name)
      }
    }
    // Maps were filled to their bounds (what was kept was dropped as searches came), and passed none.
    expect(reached, [...reached].join(', ')).toContain('outcomes by combination')
    expect(kept.find((k) => k.name === 'merged rows of choices')?.held(copy).values).toBeGreaterThan(0)
  })

  it('keeps a search’s facets and the rows they counted only once it is asked a second time', () => {
    const copy = factsFromRows('1', rowsOf(6_000))
    const facetsAndRows = kept.find((k) => k.name === 'facets and their rows')
    const ask = (minPrice: string) =>
      searchView(wholeView(copy), {
        query: SearchQuery.parse({ min_price: minPrice }),
        sort: 'newest',
        paging: { pageSize: 24, offset: 0 },
        nowMs: Date.now(),
        facets: true,
      }).facets
    // Searches asked once (the long tail) keep nothing: a bit a listing each.
    const once = ask('1000')
    for (let i = 0; i < 20; i++) ask(String(1_100 + i))
    expect(facetsAndRows?.held(copy).values).toBe(0)
    // Asked again, the same counts, now kept for the asks after.
    expect(ask('1000')).toEqual(once)
    expect(facetsAndRows?.held(copy).values).toBe(1)
    expect(ask('1000')).toEqual(once)
  })

  it('walks a search asked for the first time only as far as its page, and further as later pages are asked', () => {
    const copy = factsFromRows('1', rowsOf(6_000))
    const firstHits = kept.find((k) => k.name === 'first hits')
    const query = SearchQuery.parse({ min_price: '500' })
    const key = `newest||min_price=500`
    /** The hits kept for the search: its entry's bytes less what surrounds its rows (5 bytes a row). */
    const keptRows = () =>
      ((firstHits?.held(copy).bytes ?? 0) - KEPT_ENTRY_BYTES - key.length - 2 * TYPED_ARRAY_BYTES - 64) / 5
    const page = (n: number) =>
      pageHits(copy, {
        query,
        sort: 'newest',
        paging: { pageSize: 24, offset: (n - 1) * 24 },
        nowMs: Date.now(),
      })?.length
    expect(page(1)).toBe(25)
    // The page and one more (to know there is more): not a walk past it for a next page seldom asked.
    expect(keptRows()).toBe(25)
    // A next page walks again, twice as far as it needs, so paging on walks a few times, not once a page.
    expect(page(2)).toBe(25)
    expect(keptRows()).toBe(98)
    expect(page(3)).toBe(25)
    expect(page(4)).toBe(25)
    expect(keptRows()).toBe(98)
  })
})
