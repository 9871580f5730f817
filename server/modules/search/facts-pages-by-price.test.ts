import { describe, expect, it } from 'vitest'
import { SearchQuery } from '#contract/search'
import { pageHits } from './facts-pages'
import { COUNT_FACETS } from './filters'
import { DAY_MS, type FactRow, factsFromRows, idAt } from './listing-facts'
import { textMatchesIn } from './listing-text'

// A page by price of a text search whose filter runs against the price: the Excellent listings, which alone are
// "macbook" among the expensive ones, all cost more than every other listing. A walk up the prices meets none of them
// for most of the copy, so the page is found another way (its candidates picked and put in order), and a walk that
// tests the text by bisection tests only the rows passing the filters. Every page equals the listings filtered and
// sorted one by one.

const SIZE = 20_000

function rowsOf(): FactRow[] {
  const now = Date.now()
  return Array.from({ length: SIZE }, (_, i) => {
    const excellent = i % 10 === 0
    // Unique prices: the Excellent listings above every other.
    const price = excellent ? 200_000 + i : 10_000 + ((i * 7_919) % SIZE) * 7
    const macbook = excellent || i % 10 === 1
    const facets = Object.fromEntries(
      COUNT_FACETS.map((name) => [
        name,
        name === 'condition' ? (excellent ? 'Excellent' : i % 2 ? 'Good' : 'Fair') : String(i % 4),
      ]),
    )
    return {
      ...facets,
      battery: String(40 + (i % 61)),
      price: String(price),
      posted: String(Math.round((now - (i % 300) * DAY_MS - i) * 1000)),
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      words: macbook ? 'laptop macbook' : 'laptop',
      title_words: 'laptop',
      title: 'Laptop',
    } as FactRow
  })
}

const rows = rowsOf()
const copy = factsFromRows('1', rows)
const macbook = textMatchesIn({
  terms: [{ term: 'macbook', prefix: false }],
  phrase: 'macbook',
  bestTier: 2,
})(copy)

describe('pages by price of a text whose filter runs against the price', () => {
  for (const [search, pageSize, page] of [
    // The Excellent ones only: every cheaper "macbook" fails the filter (picked, past the room for a page's places).
    [{ condition: 'Excellent', sort: 'price_asc' }, 24, 1],
    [{ condition: 'Excellent', sort: 'price_asc' }, 24, 30],
    [{ condition: 'Excellent', sort: 'price_desc' }, 24, 3],
    [{ condition: 'Excellent', sort: 'price_asc', max_price: '2040' }, 10, 2],
    // No listing passes: nothing to find, however far a walk goes.
    [{ condition: 'Excellent', sort: 'price_asc', max_price: '1000' }, 24, 1],
    // Most pass: a walk that tests the text by bisection of its matches.
    [{ sort: 'price_asc' }, 24, 1],
    [{ condition: 'Good,Fair', sort: 'price_desc' }, 24, 5],
    [{ condition: 'Good', sort: 'price_asc', min_battery_pct: '90' }, 24, 2],
  ] as const)
    it(`equal the listings sorted one by one: ${JSON.stringify(search)}, page ${page} of ${pageSize}`, () => {
      const q = SearchQuery.parse({ q: 'macbook', ...search })
      const offset = (page - 1) * pageSize
      const hits = pageHits(copy, {
        query: q,
        sort: search.sort,
        paging: { pageSize, offset },
        nowMs: Date.now(),
        text: macbook,
      })
      const maxPrice = 'max_price' in search ? Number(search.max_price) * 100 : Infinity
      const minBattery = 'min_battery_pct' in search ? Number(search.min_battery_pct) : -Infinity
      const conditions = 'condition' in search ? search.condition.split(',') : undefined
      const sign = search.sort === 'price_asc' ? 1 : -1
      const expected = rows
        .filter(
          (r) =>
            r.words.includes('macbook') &&
            (!conditions || conditions.includes(r.condition as string)) &&
            Number(r.price) <= maxPrice &&
            Number(r.battery) >= minBattery,
        )
        .sort((a, b) => sign * (Number(a.price) - Number(b.price)))
        .slice(offset, offset + pageSize + 1)
        .map((r) => r.id)
      expect(hits?.map((h) => idAt(copy, h.r))).toEqual(expected)
      if (conditions?.includes('Excellent') && !('max_price' in search))
        expect(expected.length).toBeGreaterThan(0)
    })
})

// Best match over many matches of a word only descriptions hold: no title holds it, so no match ranks above the
// lowest tier and the page is the newest matches, found without ranking every one. Where a few titles deep in the copy
// do hold it, those come first.
describe('best match over a word in descriptions alone', () => {
  const now = Date.now()
  const worn = (titled: (i: number) => boolean) => {
    const rows = Array.from({ length: SIZE }, (_, i) => {
      const facets = Object.fromEntries(
        COUNT_FACETS.map((name) => [name, name === 'condition' ? 'Good' : '1']),
      )
      return {
        ...facets,
        battery: '80',
        price: String(50_000 + i),
        posted: String(Math.round((now - i * 60_000) * 1000)),
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        words: 'laptop worn',
        title_words: 'laptop',
        title: titled(i) ? 'laptop worn edition' : 'laptop',
      } as FactRow
    })
    const copy = factsFromRows('1', rows)
    const text = textMatchesIn({ terms: [{ term: 'worn', prefix: false }], phrase: 'worn', bestTier: 2 })(
      copy,
    )
    return { rows, copy, text }
  }
  for (const [what, titled] of [
    ['no title holds it', () => false],
    ['a few titles deep in the copy hold it', (i: number) => i % 4_001 === 4_000],
  ] as const)
    it(`ranks as one by one does when ${what}`, () => {
      const { rows, copy, text } = worn(titled)
      expect(text.rows.length).toBe(SIZE)
      for (const page of [1, 3]) {
        const pageSize = 24
        const offset = (page - 1) * pageSize
        const hits = pageHits(copy, {
          query: SearchQuery.parse({ q: 'worn' }),
          sort: 'relevance',
          paging: { pageSize, offset },
          nowMs: now,
          text,
        })
        const tier = (r: FactRow) => (r.title.includes('worn') ? 2 : 0)
        const expected = [...rows]
          .sort((a, b) => tier(b) - tier(a) || Number(b.posted) - Number(a.posted))
          .slice(offset, offset + pageSize + 1)
          .map((r) => r.id)
        expect(hits?.map((h) => idAt(copy, h.r))).toEqual(expected)
      }
    })
})
