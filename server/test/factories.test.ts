import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Product } from '#contract/products'
import { verifyPassword } from '#server/db/password-hash'
import { accounts, productImages } from '#server/db/schema'
import {
  createBooking,
  createBrand,
  createParcel,
  createPayment,
  createProduct,
  createUser,
  PLACEHOLDER_IMAGE_URL,
} from './factories'
import { createTestApp, type TestApp } from './test-app'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})

afterAll(async () => {
  await t?.close()
})

describe('factories', () => {
  it('make users with unique names and emails, and the flags asked for', async () => {
    const a = await createUser(t.db)
    const b = await createUser(t.db)
    expect(a.role).toBe('buyer')
    expect(a.email).not.toBe(b.email)
    expect(a.name).not.toBe(b.name)
    expect(a.verifiedAt).toBeNull()
    expect(a.disabledAt).toBeNull()

    const seller = await createUser(t.db, {
      role: 'seller',
      verified: true,
      disabled: true,
      name: 'Sam Seller',
    })
    expect(seller).toMatchObject({ role: 'seller', name: 'Sam Seller' })
    expect(seller.verifiedAt).toBeInstanceOf(Date)
    expect(seller.disabledAt).toBeInstanceOf(Date)

    const withEmail = await createUser(t.db, { email: 'Mixed.Case@Example.test' })
    expect(withEmail.email).toBe('mixed.case@example.test')
  })

  it('add a credential account that verifies when given a password', async () => {
    const user = await createUser(t.db, { password: 'secret-pass-1' })
    const [credential] = await t.db.select().from(accounts).where(eq(accounts.userId, user.id))
    expect(credential).toMatchObject({ providerId: 'credential', accountId: user.id })
    expect(await verifyPassword({ hash: credential?.password as string, password: 'secret-pass-1' })).toBe(
      true,
    )
    const without = await createUser(t.db)
    expect(await t.db.select().from(accounts).where(eq(accounts.userId, without.id))).toEqual([])
  })

  it('make a listing with one placeholder picture that the API serves', async () => {
    const seller = await createUser(t.db, { role: 'seller', phone: '(512) 555-0111' })
    const brand = await createBrand(t.db)
    const product = await createProduct(t.db, { seller, brand, isAdvertised: true })
    expect(product.sellerPhone).toBe('(512) 555-0111')
    expect(product.images).toHaveLength(1)
    expect(product.images[0]).toMatchObject({ position: 1, cardUrl: PLACEHOLDER_IMAGE_URL })

    const res = await t.app.inject({ method: 'GET', url: `/api/products/${product.id}` })
    expect(res.statusCode).toBe(200)
    const body = res.json() as Product
    expect(body).toMatchObject({ name: product.name, brand_name: brand.name, img: PLACEHOLDER_IMAGE_URL })
  })

  it('take overrides, pictures or none, and stamp soldAt on sold listings', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const brand = await createBrand(t.db, { name: 'Overrides Co' })
    const sold = await createProduct(t.db, {
      seller,
      brand,
      name: 'Sold One',
      condition: 'Fair',
      isSold: true,
      images: [
        { cardUrl: '/media/a-card.webp', detailUrl: '/media/a-detail.webp' },
        { cardUrl: '/media/b-card.webp', detailUrl: '/media/b-detail.webp' },
      ],
    })
    expect(sold).toMatchObject({ name: 'Sold One', condition: 'Fair', isSold: true })
    expect(sold.soldAt).toBeInstanceOf(Date)
    expect(sold.images.map((i) => i.position)).toEqual([1, 2])

    const bare = await createProduct(t.db, { seller, brand, images: [] })
    expect(await t.db.select().from(productImages).where(eq(productImages.productId, bare.id))).toEqual([])
    expect(bare.soldAt).toBeNull()
  })

  it('make bookings and payments from the listing and the buyer', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const buyer = await createUser(t.db)
    const product = await createProduct(t.db, {
      seller,
      brand: await createBrand(t.db),
      resalePriceCents: 65000,
    })
    const booking = await createBooking(t.db, { buyer, product })
    expect(booking).toMatchObject({
      productId: product.id,
      buyerId: buyer.id,
      productName: product.name,
      priceCents: 65000,
      userName: buyer.name,
      email: buyer.email,
      isPaid: false,
      paidAt: null,
    })
    const payment = await createPayment(t.db, { booking })
    expect(payment).toMatchObject({ bookingId: booking.id, amountCents: 65000, status: 'succeeded' })
  })

  it('make a sale’s label and a return’s, each once however often asked', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const product = await createProduct(t.db, { seller, brand: await createBrand(t.db) })
    const booking = await createBooking(t.db, { buyer: await createUser(t.db), product })
    const sale = await createParcel(t.db, { bookingId: booking.id })
    expect(sale).toMatchObject({ purpose: 'sale', returnId: null, mode: 'test', status: 'pre_transit' })
    const returnId = randomUUID()
    const back = await createParcel(t.db, { bookingId: booking.id, returnId, costCents: 1200 })
    expect(back).toMatchObject({ purpose: 'return', returnId, costCents: 1200 })
    expect(back.id).not.toBe(sale.id)
    expect((await createParcel(t.db, { bookingId: booking.id, returnId, costCents: 5 })).id).toBe(back.id)
    expect((await createParcel(t.db, { bookingId: booking.id })).id).toBe(sale.id)
  })
})
