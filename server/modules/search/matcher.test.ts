// The matcher decides in memory which saved searches a new listing matches; search decides in SQL which listings
// a query finds. They must agree: for many searches and listings, the matcher's answer is the search's.
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SearchResult } from '#contract/search'
import { brands, products } from '#server/db/schema'
import { rowsOf } from '#server/lib/paging'
import { createProduct, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { type MatchedListing, SearchIndex } from './matcher'
import { parseSavedQuery } from './saved-query'
import { resolveText } from './search.queries'

let t: TestApp
const brandIds: string[] = []
const listingIds: string[] = []

const NAMES = [
  'ThinkPad X1 Carbon',
  'XPS 13 Plus',
  'Zenbook 14 OLED',
  'MacBook Air',
  'Latitude 7420',
  'Spectre x360',
]
const PROCESSORS = ['Intel Core i5-1235U', 'Intel Core i7-1165G7', 'AMD Ryzen 7 5800U', 'Apple M2']

beforeAll(async () => {
  t = await createTestApp()
  const seller = await createUser(t.db, { role: 'seller' })
  for (const name of ['Lenovo', 'Dell', 'Apple']) {
    const [row] = await t.db
      .insert(brands)
      .values({ name: `${name} ${randomUUID().slice(0, 4)}`, imageUrl: '/x.svg' })
      .returning({ id: brands.id })
    if (row) brandIds.push(row.id)
  }
  for (let i = 0; i < 36; i++) {
    const p = await createProduct(t.db, {
      seller,
      brand: { id: brandIds[i % 3] as string },
      name: `${NAMES[i % NAMES.length]} ${i}`,
      processor: PROCESSORS[i % PROCESSORS.length] as string,
      ramGb: [8, 16, 32][i % 3] as number,
      storageGb: [256, 512, 1024][(i >> 1) % 3] as number,
      screenInches: [13.3, 14, 15.6][(i >> 2) % 3] as number,
      condition: (['Excellent', 'Good', 'Fair'] as const)[(i >> 1) % 3],
      resalePriceCents: 30_000 + ((i * 7919) % 120_000),
      batteryHealthPct: i % 5 === 0 ? null : 70 + ((i * 13) % 30),
    })
    listingIds.push(p.id)
  }
})

afterAll(async () => {
  await t?.close()
})

const QUERIES = [
  '',
  'q=thinkpad',
  'q=thnkpad',
  'q=xps 13',
  'q=macbook air',
  'q=ryzen',
  'q=zenbo',
  'condition=Good,Fair&max_price=900',
  'ram=16&storage=512,1024',
  'screen=14&processor=intel-core-i7',
  'processor=apple-m&min_battery_pct=80',
  'min_battery_pct=85&min_ram_gb=16',
  'min_price=500&max_price=1100&condition=Excellent',
  'min_storage_gb=512&q=latitude',
  'q=spectre&ram=8,32',
]

describe('the alert matcher', () => {
  it('finds exactly the listings search finds, for every kind of filter', async () => {
    const facts = await rowsOf<{
      id: string
      seller_id: string
      brand_id: string
      condition: MatchedListing['condition']
      price: number
      ram_gb: number
      storage_gb: number
      screen_inches: number
      processor_family: string | null
      battery_health_pct: number | null
      words: string[]
    }>(
      t.db,
      sql`select id, seller_id, brand_id, condition, resale_price_cents as price, ram_gb, storage_gb, screen_inches,
        processor_family, battery_health_pct, tsvector_to_array(search_vector) as words from ${products}`,
    )
    const listings: MatchedListing[] = facts.map((f) => ({
      id: f.id,
      sellerId: 'someone-else',
      brandId: f.brand_id,
      condition: f.condition,
      resalePriceCents: f.price,
      ramGb: f.ram_gb,
      storageGb: f.storage_gb,
      screenInches: f.screen_inches,
      processorFamily: f.processor_family,
      batteryHealthPct: f.battery_health_pct,
      words: f.words,
    }))
    const sizes: number[] = []
    const queries = [
      ...QUERIES,
      `brand=${brandIds[0]}&q=carbon`,
      `brand=${brandIds[1]},${brandIds[2]}&max_price=800`,
    ]
    for (const query of queries) {
      const { filters } = parseSavedQuery(query)
      const text = filters.q ? await resolveText(t.db, filters.q) : null
      const index = new SearchIndex()
      index.add({ id: 's', userId: 'u', filters, textQuery: text?.tsquery ?? null })
      const matched = listings.filter((l) => index.matchesOf(l).length > 0).map((l) => l.id)

      const res = await t.app.inject({ url: `/api/search?${query}${query ? '&' : ''}page_size=100` })
      expect(res.statusCode, query).toBe(200)
      const found = SearchResult.parse(res.json()).items.map((p) => p._id)
      expect(matched.sort(), query).toEqual(found.sort())
      sizes.push(found.length)
    }
    // The queries narrow the catalogue in different ways: none of them is trivially all or nothing.
    expect(sizes[0]).toBe(listingIds.length)
    expect(sizes.slice(1).filter((n) => n > 0 && n < listingIds.length).length).toBe(sizes.length - 1)
  })

  it("leaves out the search owner's own listings and listings posted before the search was saved", () => {
    const { filters } = parseSavedQuery('')
    const index = new SearchIndex()
    index.add({ id: 'mine', userId: 'seller-1', filters, textQuery: null })
    index.add({ id: 'later', userId: 'buyer-1', filters, textQuery: null, since: 2_000 })
    index.add({ id: 'earlier', userId: 'buyer-2', filters, textQuery: null, since: 500 })
    const listing: MatchedListing = {
      id: 'l1',
      sellerId: 'seller-1',
      brandId: 'b',
      condition: 'Good',
      resalePriceCents: 50_000,
      ramGb: 16,
      storageGb: 512,
      screenInches: 14,
      processorFamily: null,
      batteryHealthPct: null,
      words: [],
      postedAt: 1_000,
    }
    expect(index.matchesOf(listing).map((m) => m.searchId)).toEqual(['earlier'])
  })
})
