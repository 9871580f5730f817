import { eq, type SQL, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { unsetWhenEmpty, wholeNumber } from '#contract/paging'
import { SavedSearchList } from '#contract/saved-searches'
import { SearchResult } from '#contract/search'
import { alertItems, products } from '#server/db/schema'
import { recordListed } from '#server/lib/alert-events'
import { isOnSale } from '#server/lib/on-sale'
import { rowsOf } from '#server/lib/paging'
import { runAlertMatching } from '#server/modules/alerts'
import { bearerFor } from '#server/test/auth-helpers'
import { type BrandRow, createBrand, createProduct, createUser, type UserRow } from '#server/test/factories'
import { random } from '#server/test/random'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { addFilter } from './filters'
import { loadFacts } from './listing-feed'
import { searchProducts } from './search.queries'

// A filter is one row of the table (filters.ts). A row added here — "used for at most N years", on a column no search
// filtered by — is searched through the API, narrows every facet's counts, is kept by a saved search in its words and
// spelling, and decides whether a new listing alerts that search. It declares neither kept counts nor a column in the
// copy of the listings: with the copy current, such a search is answered by SQL, and equals a plain SQL reference.

let t: TestApp
let removeFilter = () => {}
let brands: BrandRow[] = []
let seller: UserRow
let buyer: UserRow
const rnd = random(24)
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)] as T

beforeAll(async () => {
  // Added while this file runs (its worker's other files share the table), before the app is built: the search
  // route's query schema takes it.
  removeFilter = addFilter('max_uses_years', {
    param: unsetWhenEmpty(wholeNumber(0, 50, 'Years used')),
    sql: (years: number) => sql`${products.usesYears} <= ${years}`,
    alert: (years: number) => (l) => Number(l.usesYears) <= years,
    alertColumns: { usesYears: sql<number>`${products.usesYears}` },
    describe: (years: number) => `used for at most ${years} year${years === 1 ? '' : 's'}`,
  })
  t = await createTestApp()
  brands = [await createBrand(t.db, { name: 'Dell' }), await createBrand(t.db, { name: 'Lenovo' })]
  seller = await createUser(t.db, { role: 'seller' })
  buyer = await createUser(t.db, { role: 'buyer' })
  for (let i = 0; i < 60; i++) {
    await createProduct(t.db, {
      seller,
      brand: pick(brands),
      usesYears: pick([0, 1, 2, 3, 5, 8]),
      ramGb: pick([8, 16, 32]),
      condition: pick(['Excellent', 'Good', 'Fair'] as const),
      resalePriceCents: Math.floor(200 + rnd() * 1800) * 100,
    })
  }
}, 120_000)

afterAll(async () => {
  removeFilter()
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

describe('a filter added to the one table', () => {
  it('is searched and narrows the facets, by SQL with or without a current copy, as the SQL reference', async () => {
    for (const years of [0, 2, 5]) {
      const ref = await reference(sql`${products.usesYears} <= ${years}`)
      for (const withCopy of [false, true]) {
        if (withCopy) await loadFacts(t.db)
        const found = await search(`max_uses_years=${years}&facets=1&page_size=100`)
        expect(found.items.map((p) => p._id).sort()).toEqual(ref.ids)
        expect(found.items.every((p) => p.uses <= years)).toBe(true)
        expect(found.total).toBe(ref.ids.length)
        expect(counts(found.facets?.brand)).toEqual(ref.brand)
        expect(counts(found.facets?.ram)).toEqual(ref.ram)
      }
    }
    // Beside the table's own filters, and on every page of a cursor walk, the copy current.
    const where = sql`${products.usesYears} <= 3 and ${products.brandId} = ${brands[0]?.id}`
    const ref = await reference(where)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: SearchResult = await search(
        `max_uses_years=3&brand=${brands[0]?.id}&sort=price_asc&page_size=7${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(page.total).toBe(ref.ids.length)
      seen.push(...page.items.map((p) => p._id))
      cursor = page.next_cursor
    } while (cursor)
    expect(seen.sort()).toEqual(ref.ids)
    // The engine's two paths agree whole (items in order, totals, facets).
    const q = { max_uses_years: 2, facets: '1', sort: 'price_desc' } as never
    expect(await searchProducts(t.db, q)).toEqual(await searchProducts(t.db, q, { facts: false }))
  })

  it('refuses a value its schema refuses, naming it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/search?max_uses_years=-1' })
    expect(res.statusCode).toBe(400)
    expect(res.body).toContain('max_uses_years')
  })

  it('is kept by a saved search, in its spelling and its words, and decides its alerts', async () => {
    const auth = await bearerFor(t.app, buyer)
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/saved-searches',
      headers: auth,
      payload: { query: `max_uses_years=1&brand=${brands[1]?.id}`, alert: 'instant' },
    })
    expect(saved.statusCode, saved.body).toBe(201)
    const [kept] = SavedSearchList.parse(
      (await t.app.inject({ method: 'GET', url: '/api/saved-searches', headers: auth })).json(),
    )
    expect(kept?.query).toBe(`brand=${brands[1]?.id}&max_uses_years=1`)
    expect(kept?.label).toBe('Lenovo · used for at most 1 year')

    // Two new Lenovo listings: used one year (it matches), used four (it does not).
    const fresh = await createProduct(t.db, { seller, brand: brands[1] as BrandRow, usesYears: 1 })
    const worn = await createProduct(t.db, { seller, brand: brands[1] as BrandRow, usesYears: 4 })
    await t.db.transaction(async (tx) => {
      await recordListed(tx, fresh.id)
      await recordListed(tx, worn.id)
    })
    await runAlertMatching(t.app.ctx)
    const alerted = await t.db
      .select({ productId: alertItems.productId })
      .from(alertItems)
      .where(eq(alertItems.savedSearchId, kept?._id as string))
    expect(alerted.map((a) => a.productId)).toEqual([fresh.id])
  })
})
