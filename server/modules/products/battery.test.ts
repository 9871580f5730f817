// Battery evidence: health and cycles on a listing, checked against the grade, shown on every listing,
// and a search filter with its facet count. Every refusal leaves the row as it was.

import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Product } from '#contract/products'
import { SearchResult } from '#contract/search'
import { products } from '#server/db/schema'
import { bearerFor, insertUser } from '#server/test/auth-helpers'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp
let sellerAuth: Record<string, string>
let brandId: string

const listing = (extra: Record<string, unknown> = {}) => ({
  name: 'Battery Laptop 14',
  category_id: brandId,
  seller_phone: '(512) 555-0100',
  resale_price: 499,
  original_price: 999,
  description: 'Fully working, light marks on the lid, charger included.',
  condition: 'Good',
  location: 'Austin, TX',
  uses: 2,
  processor: 'Intel Core i5-1235U',
  ram_gb: 16,
  storage_gb: 512,
  screen_inches: 14,
  img: '/images/laptop-placeholder.svg',
  ...extra,
})

beforeAll(async () => {
  t = await createTestApp()
  const seller = await insertUser(t.db, { role: 'seller' })
  sellerAuth = await bearerFor(t.app, seller)
  brandId = (await createBrand(t.db, { name: 'Framework' })).id
})

afterAll(async () => {
  await t?.close()
})

async function post(body: unknown) {
  return t.app.inject({ method: 'POST', url: '/api/products', headers: sellerAuth, payload: body as object })
}
async function read(id: string) {
  return Product.parse((await t.app.inject({ method: 'GET', url: `/api/products/${id}` })).json())
}
async function count() {
  return (await t.db.select({ id: products.id }).from(products)).length
}

describe('battery fields on a listing', () => {
  it('keeps health and cycles and sends them with the listing', async () => {
    const res = await post(listing({ battery_health_pct: 91, battery_cycles: 212, condition: 'Excellent' }))
    expect(res.statusCode).toBe(201)
    const product = await read(res.json().insertedId)
    expect(product.battery_health_pct).toBe(91)
    expect(product.battery_cycles).toBe(212)
  })

  it('takes a listing without them as "not reported"', async () => {
    const res = await post(listing())
    expect(res.statusCode).toBe(201)
    const product = await read(res.json().insertedId)
    expect(product.battery_health_pct).toBeNull()
    expect(product.battery_cycles).toBeNull()
  })

  it.each([
    ['health of 0', { battery_health_pct: 0 }, 'battery_health_pct'],
    ['health of 140%', { battery_health_pct: 140 }, 'battery_health_pct'],
    ['health of 101%', { battery_health_pct: 101 }, 'battery_health_pct'],
    ['a fractional health', { battery_health_pct: 90.5 }, 'battery_health_pct'],
    ['health as text', { battery_health_pct: 'lots' }, 'battery_health_pct'],
    ['cycles below 0', { battery_cycles: -1 }, 'battery_cycles'],
    ['Excellent at 84%', { condition: 'Excellent', battery_health_pct: 84 }, 'battery_health_pct'],
    ['Good at 74%', { condition: 'Good', battery_health_pct: 74 }, 'battery_health_pct'],
  ])('refuses %s with 400 naming the field, adding nothing', async (_name, extra, field) => {
    const before = await count()
    const res = await post(listing(extra))
    expect(res.statusCode).toBe(400)
    expect(Object.keys(res.json().error.fields ?? {})).toContain(field)
    expect(await count()).toBe(before)
  })

  it('accepts each grade at its minimum, and Fair with any health', async () => {
    for (const [condition, pct] of [
      ['Excellent', 85],
      ['Good', 75],
      ['Fair', 40],
    ] as const) {
      const res = await post(listing({ condition, battery_health_pct: pct }))
      expect(res.statusCode, `${condition} ${pct}`).toBe(201)
    }
  })

  it('checks an edit against the listing as it will be: grade and battery changed one at a time', async () => {
    const created = await post(listing({ condition: 'Good', battery_health_pct: 80, battery_cycles: 300 }))
    const id = created.json().insertedId as string
    const patch = (body: unknown) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/products/${id}`,
        headers: sellerAuth,
        payload: body as object,
      })

    // Raising the grade above what the stored battery allows.
    const up = await patch({ condition: 'Excellent' })
    expect(up.statusCode).toBe(400)
    expect(up.json().error.fields).toHaveProperty('battery_health_pct')
    // Lowering the battery below what the stored grade allows.
    const down = await patch({ battery_health_pct: 70 })
    expect(down.statusCode).toBe(400)
    expect(down.json().error.fields).toHaveProperty('battery_health_pct')
    const negative = await patch({ battery_cycles: -5 })
    expect(negative.statusCode).toBe(400)
    expect(negative.json().error.fields).toHaveProperty('battery_cycles')
    const [row] = await t.db.select().from(products).where(eq(products.id, id))
    expect(row).toMatchObject({ condition: 'Good', batteryHealthPct: 80, batteryCycles: 300 })

    // Both together, and clearing the reading (null) then changing the grade freely.
    expect((await patch({ condition: 'Excellent', battery_health_pct: 92 })).statusCode).toBe(200)
    expect((await patch({ battery_health_pct: null, battery_cycles: null })).statusCode).toBe(200)
    expect((await patch({ condition: 'Good' })).statusCode).toBe(200)
    const product = await read(id)
    expect(product).toMatchObject({ condition: 'Good', battery_health_pct: null, battery_cycles: null })
  })
})

describe('the battery filter', () => {
  let filterBrand: string
  beforeAll(async () => {
    filterBrand = (await createBrand(t.db, { name: 'Battery Brand' })).id
    const seller = await createUser(t.db, { role: 'seller' })
    const make = (batteryHealthPct: number | null, condition: 'Excellent' | 'Good' | 'Fair', extra = {}) =>
      createProduct(t.db, { seller, brand: { id: filterBrand }, batteryHealthPct, condition, ...extra })
    await make(95, 'Excellent')
    await make(80, 'Good')
    await make(79, 'Good')
    await make(60, 'Fair')
    await make(null, 'Good')
    await make(99, 'Excellent', { isSold: true })
  })

  const search = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/search?brand=${filterBrand}&${query}` })
    expect(res.statusCode, res.body).toBe(200)
    return SearchResult.parse(res.json())
  }

  it('keeps listings at or above the health asked, leaving out those that report none', async () => {
    const page = await search('min_battery_pct=80')
    expect(page.items.map((p) => p.battery_health_pct).sort()).toEqual([80, 95])
    expect((await search('min_battery_pct=96')).items).toEqual([])
  })

  it('counts "Battery 80% or more" as a facet, under the other filters', async () => {
    const all = await search('facets=1')
    expect(all.facets?.battery).toEqual([{ value: '80', label: 'Battery 80% or more', count: 2 }])
    const good = await search('facets=1&condition=Good')
    expect(good.facets?.battery).toEqual([{ value: '80', label: 'Battery 80% or more', count: 1 }])
    // The battery filter narrows the other facets, while its own count ignores it.
    const filtered = await search('facets=1&min_battery_pct=80')
    expect(filtered.facets?.battery[0]?.count).toBe(2)
    expect(filtered.facets?.condition.map((c) => [c.value, c.count])).toEqual([
      ['Excellent', 1],
      ['Good', 1],
    ])
  })

  it.each(['0', '101', 'x', '80.5'])('refuses min_battery_pct=%s with 400 naming it', async (value) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/search?min_battery_pct=${value}` })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.fields).toHaveProperty('min_battery_pct')
  })
})
