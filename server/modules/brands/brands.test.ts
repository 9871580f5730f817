import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BrandList } from '#contract/brands'
import type { Db } from '#server/db/client'
import { createBrand, createProduct, createUser, type NewProduct } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp

async function insertBrand(db: Db, name: string) {
  return (await createBrand(db, { name, imageUrl: `/media/brands/${name.toLowerCase()}.svg` })).id
}

async function insertProduct(
  db: Db,
  brandId: string,
  sellerId: string,
  values: Omit<NewProduct, 'seller' | 'brand'> = {},
) {
  await createProduct(db, { ...values, seller: { id: sellerId }, brand: { id: brandId } })
}

const ids = { Lenovo: '', Apple: '', Dell: '', MSI: '' }

beforeAll(async () => {
  t = await createTestApp()
  const { db } = t
  await createUser(db, { id: 'seller', role: 'seller' })
  await createUser(db, { id: 'gone', role: 'seller', disabled: true })
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
