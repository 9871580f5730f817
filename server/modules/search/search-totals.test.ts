import { eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SearchResult } from '#contract/search'
import { products, users } from '#server/db/schema'
import { rowsOf } from '#server/lib/paging'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

// listing_counts (the totals and facet counts of searches without text, price or date) is kept by triggers on
// products and users: after every kind of write it must equal a count over the listings themselves.

let t: TestApp
let lenovo = ''
let dell = ''

beforeAll(async () => {
  t = await createTestApp()
  lenovo = (await createBrand(t.db, { name: 'Lenovo' })).id
  dell = (await createBrand(t.db, { name: 'Dell' })).id
})

afterAll(async () => {
  await t?.close()
})

type CountRow = { key: string; n: number }

/** listing_counts as kept, and as counted from the available listings now. */
async function keptAndCounted(): Promise<{ kept: CountRow[]; counted: CountRow[] }> {
  const key = (p: string) =>
    sql.raw(
      `${p}brand_id::text || '/' || ${p}condition || '/' || ${p}ram_gb || '/' || ${p}storage_gb || '/' || ${p}screen_class || '/' || ${p}processor_family || '/' || ${p}battery_80`,
    )
  const kept = await rowsOf<CountRow>(
    t.db,
    sql`select ${key('')} as key, n from listing_counts where n <> 0 order by 1`,
  )
  const counted = await rowsOf<CountRow>(
    t.db,
    sql`select ${key('')} as key, count(*)::int as n from (
      select p.brand_id, p.condition, p.ram_gb, p.storage_gb, floor(p.screen_inches)::int as screen_class,
        coalesce(p.processor_family, '') as processor_family, coalesce(p.battery_health_pct >= 80, false) as battery_80
      from products p
      where p.is_sold = false and p.removed_at is null
        and not exists (select 1 from users u where u.id = p.seller_id and u.disabled_at is not null)) a
    group by 1 order by 1`,
  )
  return { kept, counted }
}

async function expectCountsKept() {
  const { kept, counted } = await keptAndCounted()
  expect(kept).toEqual(counted)
}

async function search(query: string) {
  const res = await t.app.inject({ url: `/api/search?${query}` })
  expect(res.statusCode, res.body).toBe(200)
  return SearchResult.parse(res.json())
}

describe('listing_counts', () => {
  it('follows listings added, sold, removed, edited and deleted, and sellers disabled and enabled', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const other = await createUser(t.db, { role: 'seller' })
    const made = []
    for (let i = 0; i < 6; i++) {
      made.push(
        await createProduct(t.db, {
          brand: { id: i % 2 ? lenovo : dell },
          seller: i < 4 ? seller : other,
          ramGb: i % 3 ? 16 : 8,
          screenInches: i % 2 ? 14 : 15.6,
          processor: i % 2 ? 'Intel Core i7-1165G7' : 'Some chip',
          condition: i % 3 === 0 ? 'Fair' : 'Good',
          batteryHealthPct: [null, 79, 80, 95][i % 4],
        }),
      )
    }
    await expectCountsKept()
    const [a, b, c, d, e] = made.map((p) => p.id) as [string, string, string, string, string]

    await t.db.update(products).set({ isSold: true, soldAt: new Date() }).where(eq(products.id, a))
    await expectCountsKept()
    await t.db.update(products).set({ removedAt: new Date() }).where(eq(products.id, b))
    await expectCountsKept()
    // A price edit changes no count; a spec edit moves the listing to another combination.
    await t.db.update(products).set({ resalePriceCents: 12_345 }).where(eq(products.id, c))
    await t.db.update(products).set({ ramGb: 64, condition: 'Excellent' }).where(eq(products.id, c))
    await expectCountsKept()
    // A battery reading crossing 80% moves it between "Battery 80% or more" and the rest.
    await t.db.update(products).set({ batteryHealthPct: 90 }).where(eq(products.id, c))
    await expectCountsKept()
    await t.db.update(products).set({ batteryHealthPct: null }).where(eq(products.id, c))
    await expectCountsKept()
    // Several rows in one statement, two of them landing in the same combination.
    await t.db
      .update(products)
      .set({ ramGb: 32, screenInches: 13.3 })
      .where(inArray(products.id, [d, e]))
    await expectCountsKept()

    await t.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, seller.id))
    await expectCountsKept()
    // A listing added by a disabled seller is not counted; enabling the seller counts it with the rest.
    await createProduct(t.db, { brand: { id: lenovo }, seller })
    await expectCountsKept()
    await t.db.update(users).set({ disabledAt: null }).where(eq(users.id, seller.id))
    await expectCountsKept()

    await t.db.delete(products).where(eq(products.id, e))
    await expectCountsKept()
    await t.db.update(products).set({ isSold: false, soldAt: null }).where(eq(products.id, a))
    await expectCountsKept()
  })

  it('gives the same totals and facets as counting the listings', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    for (let i = 0; i < 30; i++)
      await createProduct(t.db, {
        brand: { id: i % 3 ? lenovo : dell },
        seller,
        ramGb: [8, 16, 32][i % 3],
        storageGb: [256, 512][i % 2],
        condition: (['Excellent', 'Good', 'Fair'] as const)[i % 3],
        batteryHealthPct: i % 3 === 2 ? null : [85, 95, 78, 70][i % 4],
      })
    // page_size=1: past the first page the total is summed from listing_counts, not taken from the page.
    for (const query of [
      '',
      `brand=${lenovo}`,
      'condition=Good,Fair&ram=16',
      'min_ram_gb=16&storage=512',
      'min_battery_pct=80',
      `min_battery_pct=80&brand=${dell}&ram=8,32`,
    ]) {
      const summed = await search(`facets=1&page_size=1&${query}`)
      // The same filters with a price filter no listing fails: counted from the listings.
      const counted = await search(`facets=1&page_size=1&min_price=0.01&${query}`)
      expect(summed.total, query).toBe(counted.total)
      expect(summed.total_is_estimate).toBe(false)
      expect(summed.facets, query).toEqual(counted.facets)
      const all = await search(`page_size=100&${query}`)
      expect(summed.total, query).toBe(all.items.length)
    }
    const brandPage = await t.app.inject({ url: `/api/category/${lenovo}?page_size=1` })
    expect(brandPage.headers['x-total-count']).toBe(
      String((await search(`brand=${lenovo}&page_size=100`)).items.length),
    )
  })
})
