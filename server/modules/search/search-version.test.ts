import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SearchResult } from '#contract/search'
import { openDatabase } from '#server/database'
import { products } from '#server/db/schema'
import { rowsOf } from '#server/lib/paging'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { countsSnapshot, facetSums } from './counts-snapshot'

// Each instance sums its own copy of listing_counts; the version row says whether the copy is current. A copy that
// missed a commit would give wrong totals and facet counts, so these tests change the counts in every way a copy
// could miss and read through the app right after.

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

describe('the copy of listing_counts', () => {
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
    // Unchanged counts reuse the copy: the same object comes back.
    expect(await countsSnapshot(t.db)).toBe(await countsSnapshot(t.db))

    await t.db.update(products).set({ isSold: true, soldAt: new Date() }).where(eq(products.id, made.id))
    const sold = await browse()
    expect(sold.total).toBe(start.total)
    expect(sold.facets?.ram.find((c) => c.value === '64')?.count ?? 0).toBe(ram64())
  })

  it('sums each facet over every other facet’s choices, as SQL does', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const dell = (await createBrand(t.db, { name: 'Dell' })).id
    for (let i = 0; i < 12; i++)
      await createProduct(t.db, {
        brand: { id: i % 2 ? dell : brand },
        seller,
        ramGb: [8, 16, 32][i % 3],
        condition: (['Excellent', 'Good', 'Fair'] as const)[i % 3],
        batteryHealthPct: [90, 70, null][i % 3],
      })
    const snapshot = await countsSnapshot(t.db)
    const f = { sets: { brand: new Set([dell]), ram: new Set(['16', '32']) }, floors: {}, flag: true }
    const sums = facetSums(snapshot, f)
    const inSql = async (where: string) =>
      Number(
        (
          await rowsOf<{ n: string | null }>(
            t.db,
            sql.raw(`select sum(n)::text as n from listing_counts where ${where}`),
          )
        )[0]?.n ?? 0,
      )
    expect(facetSums(snapshot, f).total).toBe(
      await inSql(`brand_id = '${dell}' and ram_gb in (16, 32) and battery_80`),
    )
    expect(sums.ram.get('8') ?? 0).toBe(await inSql(`brand_id = '${dell}' and ram_gb = 8 and battery_80`))
    expect(sums.brand.get(brand) ?? 0).toBe(
      await inSql(`brand_id = '${brand}' and ram_gb in (16, 32) and battery_80`),
    )
    expect(sums.battery80).toBe(await inSql(`brand_id = '${dell}' and ram_gb in (16, 32) and battery_80`))
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
        const otherCopy = await countsSnapshot(other.db)
        await createProduct(other.db, { brand: { id: brand }, seller })
        expect((await browse(`brand=${brand}`)).total).toBe(start.total + 1)
        // And the other way round: this instance writes, the other's copy follows.
        await createProduct(t.db, { brand: { id: brand }, seller })
        const otherNow = await countsSnapshot(other.db)
        expect(otherNow).not.toBe(otherCopy)
        expect(facetSums(otherNow, { sets: { brand: new Set([brand]) }, floors: {} }).total).toBe(
          start.total + 2,
        )
      } finally {
        await other.close()
      }
    },
  )
})
