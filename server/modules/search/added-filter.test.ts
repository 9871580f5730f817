import { eq, type SQL, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FACETS, FILTERS } from '#contract/filters'
import { SavedSearchList } from '#contract/saved-searches'
import { SearchQuery, SearchResult } from '#contract/search'
import { alertItems, products } from '#server/db/schema'
import { recordListed } from '#server/lib/alert-events'
import { isOnSale } from '#server/lib/on-sale'
import { rowsOf } from '#server/lib/paging'
import { seededRandom } from '#server/lib/seeded-random'
import { runAlertMatching } from '#server/modules/alerts'
import { bearerFor } from '#server/test/auth-helpers'
import { type BrandRow, createBrand, createProduct, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { readFilters, writeFilters } from '../../../web/src/features/products/search-params'
import { loadFacts } from './listing-feed'
import { searchProducts } from './search.queries'

// A facet filter is one declaration (contract/filters.ts). The display's size bucket — `display` in the table, on the
// existing screen_inches column, no migration — was added that way, and nothing else was written for it: here it is
// searched through the API, answered by the copy of the listings and by SQL, narrows every facet's
// counts and has its own, is kept by a saved search in its words and spelling, decides whether a new listing
// alerts that search, and is one of the page's filter parameters.

let t: TestApp
let brands: BrandRow[] = []
let seller: UserRow
let buyer: UserRow
const rnd = seededRandom(24)
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)] as T
const SCREENS = [11.6, 13.3, 13.9, 14, 15.6, 15.99, 16, 17.3]

beforeAll(async () => {
  t = await createTestApp()
  brands = [await createBrand(t.db, { name: 'Dell' }), await createBrand(t.db, { name: 'Lenovo' })]
  seller = await createUser(t.db, { role: 'seller' })
  buyer = await createUser(t.db, { role: 'buyer' })
  for (let i = 0; i < 60; i++) {
    await createProduct(t.db, {
      seller,
      brand: pick(brands),
      screenInches: pick(SCREENS),
      ramGb: pick([8, 16, 32]),
      condition: pick(['Excellent', 'Good', 'Fair'] as const),
      resalePriceCents: Math.floor(200 + rnd() * 1800) * 100,
    })
  }
}, 400_000)

afterAll(async () => {
  await t?.close()
})

async function search(query: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/search?${query}` })
  expect(res.statusCode, res.body).toBe(200)
  return SearchResult.parse(res.json())
}

/** The plain SQL reference: listings on sale passing `where`, and their counts by brand and by RAM. */
async function reference(where: SQL) {
  const ids = (
    await rowsOf<{ id: string }>(t.db, sql`select id from ${products} where ${isOnSale} and ${where}`)
  ).map((r) => r.id)
  const by = async (column: SQL) =>
    Object.fromEntries(
      (
        await rowsOf<{ v: string; n: number }>(
          t.db,
          sql`select ${column}::text as v, count(*)::int as n from ${products} where ${isOnSale} and ${where} group by 1`,
        )
      ).map((r) => [r.v, Number(r.n)]),
    )
  return { ids: ids.sort(), brand: await by(sql`${products.brandId}`), ram: await by(sql`${products.ramGb}`) }
}

const counts = (choices: { value: string; count: number }[] | undefined) =>
  Object.fromEntries((choices ?? []).map((c) => [c.value, c.count]))

const BUCKETS = {
  compact: sql`${products.screenInches} < 14`,
  standard: sql`${products.screenInches} >= 14 and ${products.screenInches} < 16`,
  large: sql`${products.screenInches} >= 16`,
}

describe('a facet filter added by one declaration', () => {
  it('is searched, by the copy and SQL alike, and narrows every facet as the SQL reference', async () => {
    expect(FILTERS.display.column).toBe('screenInches')
    for (const [bucket, where] of Object.entries(BUCKETS)) {
      const ref = await reference(where)
      expect(ref.ids.length, bucket).toBeGreaterThan(0)
      const q = SearchQuery.parse({ display: bucket, facets: '1', page_size: '100' })
      for (const withCopy of [false, true]) {
        if (withCopy) await loadFacts(t.db)
        const found = await search(`display=${bucket}&facets=1&page_size=100`)
        expect(found.items.map((p) => p._id).sort()).toEqual(ref.ids)
        expect(found.total).toBe(ref.ids.length)
        expect(counts(found.facets?.brand)).toEqual(ref.brand)
        expect(counts(found.facets?.ram)).toEqual(ref.ram)
      }
      // The copy and SQL agree whole (items in order, totals, every facet).
      expect(await searchProducts(t.db, q)).toEqual(await searchProducts(t.db, q, { facts: false }))
    }
    // Its own facet: each bucket with its label and count, in the declared order, whatever else is chosen.
    const all = await search(`display=large&brand=${brands[0]?.id}&facets=1`)
    const perBucket = await Promise.all(
      Object.values(BUCKETS).map(
        async (where) =>
          (await reference(sql`${where} and ${products.brandId} = ${brands[0]?.id}`)).ids.length,
      ),
    )
    expect(all.facets?.display).toEqual(
      [
        { value: 'compact', label: 'Compact (under 14″)', count: perBucket[0] },
        { value: 'standard', label: 'Standard (14–15.9″)', count: perBucket[1] },
        { value: 'large', label: 'Large (16″ and up)', count: perBucket[2] },
      ].filter((c) => (c.count ?? 0) > 0),
    )
    expect(FACETS.map((f) => f.name)).toContain('display')
    // Beside other filters, and on every page of a cursor walk, the copy current.
    const where = sql`${BUCKETS.standard} and ${products.brandId} = ${brands[0]?.id}`
    const ref = await reference(where)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: SearchResult = await search(
        `display=standard&brand=${brands[0]?.id}&sort=price_asc&page_size=7${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(page.total).toBe(ref.ids.length)
      seen.push(...page.items.map((p) => p._id))
      cursor = page.next_cursor
    } while (cursor)
    expect(seen.sort()).toEqual(ref.ids)
  })

  it('refuses a value its schema refuses, naming it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/search?display=huge' })
    expect(res.statusCode).toBe(400)
    expect(res.body).toContain('display')
  })

  it('is one of the page’s filter parameters, read and written as the API reads it', () => {
    expect(readFilters(new URLSearchParams('display=large&display=compact'))).toEqual({ display: 'large' })
    expect(readFilters(new URLSearchParams('display=huge'))).toEqual({})
    expect(writeFilters({ screen: 13, display: 'compact', brand: 'b' }).toString()).toBe(
      'brand=b&screen=13&display=compact',
    )
  })

  it('is kept by a saved search, in its spelling and its words, and decides its alerts', async () => {
    const auth = await bearerFor(t.app, buyer)
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/saved-searches',
      headers: auth,
      payload: { query: `display=large&brand=${brands[1]?.id}`, alert: 'instant' },
    })
    expect(saved.statusCode, saved.body).toBe(201)
    const [kept] = SavedSearchList.parse(
      (await t.app.inject({ method: 'GET', url: '/api/saved-searches', headers: auth })).json(),
    )
    expect(kept?.query).toBe(`brand=${brands[1]?.id}&display=large`)
    expect(kept?.label).toBe('Lenovo · Large (16″ and up)')

    // Two new Lenovo listings: a 16-inch one (it matches), a 15.9-inch one (it does not).
    const large = await createProduct(t.db, { seller, brand: brands[1] as BrandRow, screenInches: 16 })
    const standard = await createProduct(t.db, { seller, brand: brands[1] as BrandRow, screenInches: 15.9 })
    await t.db.transaction(async (tx) => {
      await recordListed(tx, large.id)
      await recordListed(tx, standard.id)
    })
    await runAlertMatching(t.app.ctx)
    const alerted = await t.db
      .select({ productId: alertItems.productId })
      .from(alertItems)
      .where(eq(alertItems.savedSearchId, kept?._id as string))
    expect(alerted.map((a) => a.productId)).toEqual([large.id])
  })
})
