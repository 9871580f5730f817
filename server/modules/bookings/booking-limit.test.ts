// Booking was a free way to email a seller: every booking tells the seller. A buyer's open bookings (unpaid,
// of listings still on sale, from the last 7 days) are limited, so one account cannot book listing after
// listing; paying for one, or a listing selling, frees a place.

import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bookings, products } from '#server/db/schema'
import { bearerFor } from '#server/test/auth-helpers'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp({ OPEN_BOOKINGS_PER_BUYER: '3' })
})
afterAll(async () => {
  await t?.close()
})

describe('open bookings per buyer', () => {
  it('refuses a fourth unpaid booking with 429, changing nothing, until one is no longer open', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const brand = await createBrand(t.db)
    const buyer = await createUser(t.db, { role: 'buyer' })
    const headers = await bearerFor(t.app, buyer)
    const book = async () => {
      const product = await createProduct(t.db, { seller, brand })
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/bookings',
        headers,
        payload: { productId: product.id, phoneNumber: '+1 555 010 0000', location: 'Austin, TX' },
      })
      return { res, product }
    }
    const first = await book()
    for (let i = 0; i < 2; i++) expect((await book()).res.statusCode).toBe(201)
    const refused = await book()
    expect(refused.res.statusCode).toBe(429)
    expect(refused.res.json().error.message).toMatch(
      /3 unpaid bookings from the last 7 days, the most at once/,
    )
    expect(await t.db.select().from(bookings).where(eq(bookings.productId, refused.product.id))).toEqual([])

    // The first listing sells to someone else: that booking is no longer open, and a place is free.
    await t.db
      .update(products)
      .set({ isSold: true, soldAt: new Date() })
      .where(eq(products.id, first.product.id))
    expect((await book()).res.statusCode).toBe(201)
  })
})
