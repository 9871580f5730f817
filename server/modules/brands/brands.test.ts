import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BrandList } from '#contract/brands'
import type { Db } from '#server/db/client'
import { brands, products, users } from '#server/db/schema'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp

async function insertBrand(db: Db, name: string) {
  const [row] = await db
    .insert(brands)
    .values({ name, imageUrl: `/media/brands/${name.toLowerCase()}.svg` })
    .returning()
  if (!row) throw new Error('brand not inserted')
  return row.id
}

let n = 0
async function insertProduct(
  db: Db,
  brandId: string,
  sellerId: string,
  values: Partial<typeof products.$inferInsert> = {},
) {
  await db.insert(products).values({
    name: `Laptop ${++n}`,
    brandId,
    sellerId,
    resalePriceCents: 50_000,
    originalPriceCents: 90_000,
    description: 'Works well.',
    condition: 'Good',
    location: 'Dhaka',
    usesYears: 1,
    processor: 'Intel Core i5',
    ramGb: 8,
    storageGb: 256,
    screenInches: 14,
    ...values,
  })
}

const ids = { Lenovo: '', Apple: '', Dell: '', MSI: '' }

beforeAll(async () => {
  t = await createTestApp()
  const { db } = t
  await db.insert(users).values([
    { id: 'seller', name: 'Seller', email: 'seller@example.test', role: 'seller' },
    { id: 'gone', name: 'Gone', email: 'gone@example.test', role: 'seller', disabledAt: new Date() },
  ])
  for (const name of ['Lenovo', 'Apple', 'Dell', 'MSI'] as const) ids[name] = await insertBrand(db, name)
  const { Apple, Dell, Lenovo } = ids
  await insertProduct(db, Apple, 'seller')
  await insertProduct(db, Apple, 'seller', { isAdvertised: true })
  await insertProduct(db, Apple, 'seller', { isSold: true })
  await insertProduct(db, Apple, 'seller', { removedAt: new Date() })
  await insertProduct(db, Apple, 'gone')
  await insertProduct(db, Dell, 'seller')
  await insertProduct(db, Lenovo, 'gone')
})

afterAll(async () => {
  await t?.close()
})

describe('GET /api/brands', () => {
  it('lists every brand by name, counting only the laptops still for sale', async () => {
    const res = await t.app.inject('/api/brands')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const list = BrandList.parse(res.json())
    expect(list).toEqual([
      { _id: ids.Apple, brand_name: 'Apple', brand_img: '/media/brands/apple.svg', product_count: 2 },
      { _id: ids.Dell, brand_name: 'Dell', brand_img: '/media/brands/dell.svg', product_count: 1 },
      { _id: ids.Lenovo, brand_name: 'Lenovo', brand_img: '/media/brands/lenovo.svg', product_count: 0 },
      { _id: ids.MSI, brand_name: 'MSI', brand_img: '/media/brands/msi.svg', product_count: 0 },
    ])
  })

  it('sends exactly the fields of the contract', async () => {
    const list = (await t.app.inject('/api/brands')).json() as Record<string, unknown>[]
    for (const brand of list)
      expect(Object.keys(brand).sort()).toEqual(['_id', 'brand_img', 'brand_name', 'product_count'])
  })
})
