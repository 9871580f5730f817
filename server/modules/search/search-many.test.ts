import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SearchQuery, type SearchResult } from '#contract/search'
import { rowsOf } from '#server/lib/paging'
import { createBrand, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { loadFacts } from './listing-feed'
import { searchProducts, TEXT_TOTAL_THRESHOLD } from './search.queries'

// A text with more matches than a text search counts: best match then reads the newest listings until it has a page
// of the best tier, instead of ranking every match. Its pages must be exactly those of the full ranking, worked out
// here in SQL from the listings themselves. Each test runs twice: by SQL, and from the listings' facts in memory,
// which match the text themselves and count every match.

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
  const lenovo = (await createBrand(t.db, { name: 'Lenovo' })).id
  const seller = await createUser(t.db, { role: 'seller' })
  // 1,300 listings, one a minute back from now:
  // - every third a "ThinkPad T14" (the best tier for "thinkpad"),
  // - the rest IdeaPads that name a ThinkPad in their description (the lowest tier),
  // - "Carbon" in the name of the 10 oldest only, and in the description of every IdeaPad,
  // - "Intel Core i5" as the processor of four in five, "Core Intel i5" of the fifth.
  await t.db.execute(sql`
    insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
      description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on)
    select
      case when i > 1290 then 'ThinkPad X1 Carbon' when i % 3 = 0 then 'ThinkPad T14' else 'IdeaPad 5' end,
      ${lenovo}, ${seller.id}, '+880 1711 000000', 50000 + i, 90000,
      case when i % 3 = 0 or i > 1290 then 'A sturdy laptop.' else 'Carbon grey, quieter than a ThinkPad.' end,
      'Good', 'Dhaka', 2, case when i % 5 = 0 then 'Core Intel i5-1135G7' else 'Intel Core i5-1135G7' end,
      16, 512, 14, now() - make_interval(mins => i)
    from generate_series(1, 1300) i`)
})

afterAll(async () => {
  await t?.close()
})

/** Which way searches are answered: by SQL alone, or from the facts' copy (loaded for the purpose). */
let facts = false

async function search(query: string): Promise<SearchResult> {
  const q = SearchQuery.parse(Object.fromEntries(new URLSearchParams(query)))
  return searchProducts(t.db, q, { facts })
}

/** Every match of some words in best-match order, ranked in SQL over all of them. */
async function fullRanking(...words: string[]): Promise<string[]> {
  const rows = await rowsOf<{ id: string }>(
    t.db,
    sql`select id from products
      where search_vector @@ to_tsquery('simple', ${words.join(' & ')})
      order by ((position(${words.join(' ')} in search_title) > 0)::int * 2
        + (search_vector @@ to_tsquery('simple', ${words.map((w) => `${w}:A`).join(' & ')}))::int) desc,
        posted_on desc, id desc`,
  )
  return rows.map((r) => r.id)
}

/** Every page of a text search by cursor. */
async function pageAll(q: string, pageSize: number): Promise<string[]> {
  const seen: string[] = []
  let cursor: string | null = null
  do {
    const page: SearchResult = await search(
      `q=${q}&page_size=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    )
    seen.push(...page.items.map((p) => p._id))
    cursor = page.next_cursor
  } while (cursor)
  return seen
}

describe.each([
  ['by SQL', false],
  ['from the facts', true],
])('best match with many matches, %s', (_, fromFacts) => {
  beforeAll(async () => {
    facts = fromFacts
    if (fromFacts) await loadFacts(t.db)
  })

  it('counts up to the text threshold and says so (the facts count every match)', async () => {
    const first = await search('q=thinkpad&page_size=5')
    expect(first.total_is_estimate).toBe(!fromFacts)
    expect(first.total).toBe(fromFacts ? 1300 : TEXT_TOTAL_THRESHOLD)
    const few = await search('q=t14&page_size=5')
    expect(few.total_is_estimate).toBe(false)
    expect(few.total).toBe(430)
  })

  it('gives the full ranking page by page, through the best tier and on into the rest', async () => {
    const expected = await fullRanking('thinkpad')
    expect(expected.length).toBe(1300)
    const first = await search('q=thinkpad&page_size=30')
    expect(first.items.map((p) => p._id)).toEqual(expected.slice(0, 30))
    expect(first.items.every((p) => p.name.startsWith('ThinkPad'))).toBe(true)
    const byCursor = await pageAll('thinkpad', 100)
    expect(byCursor).toEqual(expected)
    const third = await search('q=thinkpad&page_size=30&page=3')
    expect(third.items.map((p) => p._id)).toEqual(expected.slice(60, 90))
  })

  it('ranks every match when the best tier is too rare to fill a page from the newest', async () => {
    // "carbon": the 10 oldest have it in their name; 860 IdeaPads in their description.
    const expected = await fullRanking('carbon')
    const first = await search('q=carbon&page_size=25')
    expect(first.items.map((p) => p._id)).toEqual(expected.slice(0, 25))
    expect(first.items.slice(0, 10).every((p) => p.name === 'ThinkPad X1 Carbon')).toBe(true)
    expect(await pageAll('carbon', 100)).toEqual(expected)
  })

  it('starts from the words in a row when no listing has every word in its brand or name', async () => {
    // "core i5" is in processors only: the best a listing can do is to hold the words in a row.
    const expected = await fullRanking('core', 'i5')
    expect(expected.length).toBe(1300)
    const first = await search('q=core%20i5&page_size=25')
    expect(first.total_is_estimate).toBe(!fromFacts)
    expect(first.items.map((p) => p._id)).toEqual(expected.slice(0, 25))
    expect(first.items.every((p) => p.processor.startsWith('Intel Core'))).toBe(true)
    expect(await pageAll('core%20i5', 100)).toEqual(expected)
  })
})
