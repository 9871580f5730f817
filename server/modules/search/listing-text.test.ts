import { type SQL, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SearchQuery, type SearchResult } from '#contract/search'
import { rowsOf } from '#server/lib/paging'
import { createBrand, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import type { ListingFacts } from './listing-facts'
import { currentFacts, loadFacts, readVersion } from './listing-feed'
import { matchText } from './listing-text'
import { resolveText, searchProducts } from './search.queries'

// A text search from the listings' facts in memory: the copy matches the words itself, as PostgreSQL matches them
// against search_vector, and ranks best match as SQL does. Every answer must be exactly the one SQL gives.

let t: TestApp
let lenovo = ''

beforeAll(async () => {
  t = await createTestApp()
  lenovo = (await createBrand(t.db, { name: 'Lenovo' })).id
  const dell = (await createBrand(t.db, { name: 'Dell' })).id
  const apple = (await createBrand(t.db, { name: 'Apple' })).id
  const seller = await createUser(t.db, { role: 'seller' })
  // 400 listings: names, processors and descriptions that share words in different places (a model in one name and
  // another's description, a processor word in a name), posted 41 minutes apart, a tenth with the same posting time
  // so pages end inside ties; some sold or removed, which must never match.
  await t.db.execute(sql`
    insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
      description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on,
      battery_health_pct, is_sold, removed_at)
    select
      (array['ThinkPad X1 Carbon Gen 9', 'ThinkPad T14', 'IdeaPad 5 Pro', 'XPS 13 9310', 'Latitude 5420',
        'MacBook Air M2', 'MacBook Pro 14 M1 Pro', 'Inspiron 15 Ryzen Edition'])[1 + i % 8],
      (array[${lenovo}::uuid, ${lenovo}::uuid, ${lenovo}::uuid, ${dell}::uuid, ${dell}::uuid, ${apple}::uuid,
        ${apple}::uuid, ${dell}::uuid])[1 + i % 8],
      ${seller.id}, '+880 1711 000000', 30000 + (i * 7919) % 150000, 250000,
      (array['Carbon fibre lid, quieter than my old ThinkPad.', 'Battery holds 6 hours.',
        'Bought for university, like an XPS but cheaper.', 'Air vents cleaned, keyboard like new.',
        'Pro display, no dead pixels.'])[1 + i % 5],
      (array['Excellent', 'Good', 'Fair'])[1 + i % 3], 'Dhaka', 1,
      (array['Intel Core i7-1185G7', 'Intel Core i5-1135G7', 'AMD Ryzen 7 5800U', 'Apple M2', 'Apple M1 Pro',
        'AMD Ryzen 5 5500U'])[1 + i % 6],
      (array[8, 16, 32])[1 + i % 3], (array[256, 512, 1024])[1 + (i / 3) % 3], 14,
      case when i % 10 = 0 then now() - interval '1 day' else now() - make_interval(mins => i * 41) end,
      case when i % 4 = 0 then null else 70 + i % 30 end, i % 19 = 0, case when i % 23 = 0 then now() end
    from generate_series(1, 400) i`)
})

afterAll(async () => {
  await t?.close()
})

const TEXTS = [
  'thinkpad',
  'thinkpad x1',
  'thnkpad',
  'x1 carbn',
  'macbok air m2',
  'ryzen 7',
  'core i5',
  'carbon',
  'think',
  'air m',
  'pro',
  'dell xps',
  'university',
  'xyzzy',
]

const query = (fields: Record<string, string>) => SearchQuery.parse(fields)

/** The search from the copy, and whether its page came from the copy (a read of rows by id, `unnest`). */
async function fromFacts(q: SearchQuery): Promise<{ result: SearchResult; fromCopy: boolean }> {
  const execute = vi.spyOn(t.db, 'execute')
  try {
    const result = await searchProducts(t.db, q)
    const dialect = new PgDialect()
    const fromCopy = execute.mock.calls.some(([s]) => dialect.sqlToQuery(s as SQL).sql.includes('unnest('))
    return { result, fromCopy }
  } finally {
    execute.mockRestore()
  }
}

describe('a text search from the listings’ facts', () => {
  it('matches each listing as search_vector does', async () => {
    const facts = (await loadFacts(t.db)) as ListingFacts
    const ids = await rowsOf<{ id: string }>(
      t.db,
      sql`select id from products where is_sold = false and removed_at is null and expired_at is null
        order by posted_on desc nulls last, id desc nulls last`,
    )
    expect(ids.length).toBe(facts.size)
    for (const text of TEXTS) {
      const match = await resolveText(t.db, text)
      if (!match) throw new Error(text)
      expect(match.plain, text).toBe(true)
      const expected = await rowsOf<{ id: string }>(
        t.db,
        sql`select id from products where is_sold = false and removed_at is null and expired_at is null
          and search_vector @@ to_tsquery('simple', ${match.tsquery})
          order by posted_on desc nulls last, id desc nulls last`,
      )
      const got = matchText(facts.text, facts.size, match)
      expect(
        Array.from(got.rows, (r) => ids[r]?.id),
        text,
      ).toEqual(expected.map((r) => r.id))
      if (text !== 'xyzzy') expect(expected.length, text).toBeGreaterThan(0)
    }
  })

  it('answers every sort, filter and facet as SQL does, page by page, by cursor and by page number', async () => {
    await loadFacts(t.db)
    expect(currentFacts(t.db, await readVersion(t.db))).toBeDefined()
    let answeredFromCopy = 0
    // Every sort for a word, a typo and a prefix; best match and a price order for the rest.
    const sortsOf = (text: string) =>
      ['thinkpad', 'thnkpad', 'air m'].includes(text)
        ? ['relevance', 'newest', 'price_asc', 'price_desc']
        : ['relevance', 'price_asc']
    for (const text of TEXTS.slice(0, 10)) {
      for (const filters of [{}, { brand: lenovo, max_price: '1200', min_battery_pct: '80' }] as Record<
        string,
        string
      >[]) {
        for (const sort of filters.brand ? ['relevance', 'price_asc'] : sortsOf(text)) {
          const fields = { q: text, sort, ...filters, page_size: '20' }
          let cursor: string | undefined
          let pages = 0
          do {
            const q = query({ ...fields, facets: pages === 0 ? '1' : '0', ...(cursor ? { cursor } : {}) })
            const fromSql = await searchProducts(t.db, q, { facts: false })
            const { result, fromCopy } = await fromFacts(q)
            expect(result, `${JSON.stringify(fields)} page ${pages}`).toEqual(fromSql)
            if (fromCopy) answeredFromCopy++
            cursor = fromSql.next_cursor ?? undefined
            pages++
          } while (cursor)
          const third = query({ ...fields, page_size: '12', page: '3' })
          expect(await searchProducts(t.db, third), JSON.stringify(fields)).toEqual(
            await searchProducts(t.db, third, { facts: false }),
          )
        }
      }
    }
    // The comparison is with the copy's answers, not with SQL's again.
    expect(answeredFromCopy).toBeGreaterThan(60)
  }, 120_000)

  it('is used once a listing’s words change, the change applied without reading the copy again', async () => {
    await loadFacts(t.db)
    const q = query({ q: 'zenbook' })
    expect((await searchProducts(t.db, q)).total).toBe(0)
    const [one] = await rowsOf<{ id: string }>(
      t.db,
      sql`select id from products where is_sold = false and removed_at is null limit 1`,
    )
    await t.db.execute(sql`update products set description = 'Faster than a ZenBook.' where id = ${one?.id}`)
    const { result, fromCopy } = await fromFacts(q)
    expect(result.items.map((p) => p._id)).toEqual([one?.id])
    expect(result).toEqual(await searchProducts(t.db, q, { facts: false }))
    expect(fromCopy).toBe(true)
  })
})
