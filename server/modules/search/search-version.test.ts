import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SearchQuery, SearchResult } from '#contract/search'
import { openDatabase } from '#server/database'
import { products } from '#server/db/schema'
import { rowsOf } from '#server/lib/paging'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { searchProducts } from './search.queries'

// The version row moves on at every commit that changes what search reads; each instance's copy of the listings is
// current when it is at that version. A copy that missed a commit would give wrong totals and facet counts, so these
// tests change the listings in ways a copy could miss and read through the app right after.

let t: TestApp
let brand = ''

beforeAll(async () => {
  t = await createTestApp()
  brand = (await createBrand(t.db, { name: 'Lenovo' })).id
})

afterAll(async () => {
  await t?.close()
})

const version = async () =>
  Number(
    (await rowsOf<{ v: string }>(t.db, sql`select version::text as v from listing_counts_version`))[0]?.v,
  )

async function browse(query = '') {
  const res = await t.app.inject({ url: `/api/search?facets=1&page_size=1&${query}` })
  expect(res.statusCode, res.body).toBe(200)
  return SearchResult.parse(res.json())
}

describe('the version row', () => {
  it('moves on once per committed transaction that changes a count or a filtered column, and not otherwise', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const before = await version()
    await createProduct(t.db, { brand: { id: brand }, seller, ramGb: 16 })
    expect(await version()).toBe(before + 1)

    // Three listings in one transaction: one step.
    await t.db.transaction(async (tx) => {
      for (const ramGb of [8, 16, 32]) await createProduct(tx, { brand: { id: brand }, seller, ramGb })
    })
    expect(await version()).toBe(before + 2)

    // Rolled back: no step, and the counts are as they were.
    await t.db
      .transaction(async (tx) => {
        await createProduct(tx, { brand: { id: brand }, seller })
        throw new Error('roll back')
      })
      .catch(() => undefined)
    expect(await version()).toBe(before + 2)

    // A price edit changes no count, but search filters on the price (the listings' facts copy): one step.
    const [first] = await t.db.select({ id: products.id }).from(products).limit(1)
    await t.db
      .update(products)
      .set({ resalePriceCents: 54_321 })
      .where(eq(products.id, first?.id ?? ''))
    expect(await version()).toBe(before + 3)

    // Its description: no count changes, but a text search from the facts copy reads its words: one step.
    await t.db
      .update(products)
      .set({ description: 'Barely used.' })
      .where(eq(products.id, first?.id ?? ''))
    expect(await version()).toBe(before + 4)

    // A change to nothing search reads (where it is): no step.
    await t.db
      .update(products)
      .set({ location: 'Khulna' })
      .where(eq(products.id, first?.id ?? ''))
    expect(await version()).toBe(before + 4)
  })

  it('is read again after each change, so totals and facets are never behind', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const start = await browse()
    const ram64 = () => start.facets?.ram.find((c) => c.value === '64')?.count ?? 0
    const made = await createProduct(t.db, { brand: { id: brand }, seller, ramGb: 64 })
    const after = await browse()
    expect(after.total).toBe(start.total + 1)
    expect(after.facets?.ram.find((c) => c.value === '64')?.count).toBe(ram64() + 1)

    await t.db.update(products).set({ isSold: true, soldAt: new Date() }).where(eq(products.id, made.id))
    const sold = await browse()
    expect(sold.total).toBe(start.total)
    expect(sold.facets?.ram.find((c) => c.value === '64')?.count ?? 0).toBe(ram64())
  })

  it.runIf(process.env.TEST_DB === 'postgres')(
    'follows a listing another instance adds, on its very next request',
    async () => {
      const [row] = await rowsOf<{ name: string }>(t.db, sql`select current_database() as name`)
      const url = new URL(process.env.TEST_DATABASE_URL ?? '')
      url.pathname = `/${row?.name}`
      const other = await openDatabase({ driver: 'postgres', url: url.toString(), max: 2 })
      try {
        const seller = await createUser(other.db, { role: 'seller' })
        const start = await browse(`brand=${brand}`)
        await createProduct(other.db, { brand: { id: brand }, seller })
        expect((await browse(`brand=${brand}`)).total).toBe(start.total + 1)
        // And the other way round: this instance writes, the other's next search counts it.
        await createProduct(t.db, { brand: { id: brand }, seller })
        const fromOther = await searchProducts(other.db, SearchQuery.parse({ brand }))
        expect(fromOther.total).toBe(start.total + 2)
      } finally {
        await other.close()
      }
    },
  )
})
