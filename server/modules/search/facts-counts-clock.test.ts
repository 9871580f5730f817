import { describe, expect, it } from 'vitest'
import { SearchQuery } from '#contract/search'
import { countFacts, factsFacets } from './facts-counts'
import { COUNT_FACETS } from './filters'
import { DAY_MS, everyRow, type FactRow, factsFromRows } from './listing-facts'

// A copy's counts by combination are read from counts made when the copy was (along each combination's price run),
// at the copy's clock; a search asks at its own. Whatever the clock has moved since (hours, days, a little back),
// the counts equal those read listing by listing at the search's clock.

const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
  return seed / 2 ** 31
}

function rowsOf(count: number): FactRow[] {
  const rnd = random(42)
  const now = Date.now()
  return Array.from({ length: count }, (_, i) => {
    // Most listings are old; some were posted minutes, hours and days ago, on either side of every choice's start.
    const ageMs = rnd() < 0.4 ? rnd() * 100 * DAY_MS : rnd() * 400 * DAY_MS
    const facets = Object.fromEntries(
      COUNT_FACETS.map((name) => [
        name,
        name === 'condition' ? (['Excellent', 'Good', 'Fair'][i % 3] as string) : String(i % 4),
      ]),
    )
    return {
      ...facets,
      battery: String(rnd() < 0.2 ? -1 : 40 + Math.floor(rnd() * 61)),
      price: String(10_000 + Math.floor(rnd() * 290_000)),
      posted: String(Math.round((now - ageMs) * 1000)),
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      words: 'laptop',
      title_words: 'laptop',
      title: 'Laptop',
    } as FactRow
  })
}

const copy = factsFromRows('1', rowsOf(4_000))
const HOUR_MS = 3_600_000

describe('counts by combination as the clock moves', () => {
  for (const [moved, driftMs] of [
    ['at the copy’s clock', 0],
    ['three hours later', 3 * HOUR_MS],
    ['two days later', 2 * DAY_MS],
    ['forty days later (counted listing by listing)', 40 * DAY_MS],
    ['an hour earlier', -HOUR_MS],
  ] as const)
    it(`equal the listings counted one by one, ${moved}`, () => {
      const nowMs = copy.combos.byCombo.at + driftMs
      for (const search of [
        { min_price: '500' },
        { min_price: '300', max_price: '1500' },
        { max_price: '2200', condition: 'Good,Fair' },
        { min_battery_pct: '85' },
        { min_battery_pct: '60', max_price: '900' },
      ]) {
        const q = SearchQuery.parse(search)
        const oneByOne = countFacts(copy, q, nowMs, everyRow(copy))
        expect(factsFacets(copy, q, nowMs), JSON.stringify(search)).toEqual(oneByOne)
        // Asked again (kept at the copy's clock): the same.
        expect(factsFacets(copy, q, nowMs)).toEqual(oneByOne)
      }
    })
})
