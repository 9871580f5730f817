// Ship or meet, per listing: the seller chooses, the parcel follows the screen size unless the seller sets it, a
// listing that ships needs the address it ships from, and that address stays with the seller and admins.

import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PARCEL_SIZES } from '#contract/delivery'
import { Product } from '#contract/products'
import { products, uploads } from '#server/db/schema'
import { bearerFor, insertUser } from '#server/test/auth-helpers'
import { createBrand } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

type Headers = Record<string, string>
let t: TestApp
let sellerAuth: Headers
let buyerAuth: Headers
let adminAuth: Headers
let sellerId: string
let brandId: string

const shipFrom = {
  name: 'Sally Seller',
  street1: '500 Congress Ave',
  city: 'Austin',
  state: 'tx',
  zip: '78701',
}

beforeAll(async () => {
  t = await createTestApp()
  const seller = await insertUser(t.db, { role: 'seller' })
  sellerId = seller.id
  sellerAuth = await bearerFor(t.app, seller)
  buyerAuth = await bearerFor(t.app, await insertUser(t.db, { role: 'buyer' }))
  adminAuth = await bearerFor(t.app, await insertUser(t.db, { role: 'admin' }))
  brandId = (await createBrand(t.db, { name: 'Dell' })).id
})
afterAll(async () => {
  await t?.close()
})

async function photo(): Promise<string> {
  const [row] = await t.db
    .insert(uploads)
    .values({
      uploaderId: sellerId,
      cardUrl: `/media/products/${randomUUID()}-card.webp`,
      detailUrl: `/media/products/${randomUUID()}-detail.webp`,
      width: 1600,
      height: 1200,
      bytes: 1000,
    })
    .returning({ id: uploads.id })
  if (!row) throw new Error('no upload')
  return row.id
}

async function body(overrides: Record<string, unknown> = {}) {
  return {
    name: `Dell XPS ${randomUUID().slice(0, 6)}`,
    category_id: brandId,
    seller_phone: '(512) 555-0142',
    resale_price: 650,
    original_price: 1300,
    description: 'Fully working, light marks on the lid, comes with its charger.',
    condition: 'Good',
    location: 'Austin, TX',
    uses: 2,
    processor: 'Intel Core i7-1185G7',
    ram_gb: 16,
    storage_gb: 512,
    screen_inches: 15.6,
    images: [await photo()],
    ...overrides,
  }
}

async function post(payload: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/products',
    headers: sellerAuth,
    payload: payload as object,
  })
}
async function read(id: string, auth: Headers) {
  const res = await t.app.inject({ method: 'GET', url: `/api/products/${id}`, headers: auth })
  expect(res.statusCode, res.body).toBe(200)
  return Product.parse(res.json())
}

describe('ship or meet per listing', () => {
  it('is meet in person unless the seller says otherwise', async () => {
    const res = await post(await body())
    expect(res.statusCode, res.body).toBe(201)
    const product = await read(res.json().insertedId, buyerAuth)
    expect(product.delivery).toBe('meet')
    expect(product.ship_from).toBeUndefined()
  })

  it('ships in the box its screen size implies, with the usual weight, unless the seller sets them', async () => {
    const res = await post(await body({ delivery: 'both', ship_from: shipFrom, screen_inches: 13.3 }))
    expect(res.statusCode, res.body).toBe(201)
    const id = res.json().insertedId
    const product = await read(id, buyerAuth)
    expect(product.delivery).toBe('both')
    expect(product.parcel).toEqual({
      size: 'small',
      weight_oz: PARCEL_SIZES.small.weightOz,
      size_is_default: true,
      weight_is_default: true,
    })
    // The address it ships from is the seller's and the admins' only.
    expect(product.ship_from).toBeUndefined()
    expect((await read(id, sellerAuth)).ship_from).toMatchObject({ street1: '500 Congress Ave', state: 'TX' })
    expect((await read(id, adminAuth)).ship_from).toMatchObject({ zip: '78701' })

    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/products/${id}`,
      headers: sellerAuth,
      payload: { parcel_size: 'medium', parcel_weight_oz: 96 },
    })
    expect(edit.statusCode, edit.body).toBe(200)
    expect((await read(id, buyerAuth)).parcel).toMatchObject({ size: 'medium', weight_oz: 96 })
  })

  it('refuses a listing that ships without an address to ship from, or with a bad one, naming the field', async () => {
    const before = (await t.db.select({ id: products.id }).from(products)).length
    const none = await post(await body({ delivery: 'ship' }))
    expect(none.statusCode).toBe(400)
    expect(none.json().error.fields).toMatchObject({ ship_from: 'Enter the address it ships from' })
    const badZip = await post(await body({ delivery: 'ship', ship_from: { ...shipFrom, zip: '7870' } }))
    expect(badZip.statusCode).toBe(400)
    expect(JSON.stringify(badZip.json().error.fields)).toContain('Enter a 5-digit ZIP code')
    const badState = await post(await body({ delivery: 'ship', ship_from: { ...shipFrom, state: 'ZZ' } }))
    expect(JSON.stringify(badState.json().error.fields)).toContain('Enter a US state as two letters, like CA')
    const badWeight = await post(await body({ delivery: 'ship', ship_from: shipFrom, parcel_weight_oz: 5 }))
    expect(JSON.stringify(badWeight.json().error.fields)).toContain('Parcel weight must be at least 16 oz')
    const badDelivery = await post(await body({ delivery: 'drone' }))
    expect(JSON.stringify(badDelivery.json().error.fields)).toContain('Choose how the buyer gets the laptop')
    expect((await t.db.select({ id: products.id }).from(products)).length).toBe(before)
  })

  it('lets an edit turn shipping on only with an address, kept or given', async () => {
    const res = await post(await body())
    const id = res.json().insertedId
    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/api/products/${id}`,
      headers: sellerAuth,
      payload: { delivery: 'ship' },
    })
    expect(refused.statusCode).toBe(400)
    const [row] = await t.db.select().from(products).where(eq(products.id, id))
    expect(row?.delivery).toBe('meet')
    const ok = await t.app.inject({
      method: 'PATCH',
      url: `/api/products/${id}`,
      headers: sellerAuth,
      payload: { delivery: 'ship', ship_from: shipFrom },
    })
    expect(ok.statusCode, ok.body).toBe(200)
    expect((await read(id, buyerAuth)).delivery).toBe('ship')
  })
})
