// "Can this laptop be sold now", on every path that reserves a laptop or takes money: a listing waiting for review,
// rejected, or whose serial was reported stolen takes no offer, no booking, no hold and no payment, whichever step
// it had reached when it left sale. And the rule's SQL and TypeScript forms give the same answer for every
// combination of the facts, and the database's own copies of it (trigger functions) say what the rule says.

import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REVIEW_STATES } from '#contract/listing-reviews'
import { bookings, payments, products, users } from '#server/db/schema'
import { serialKey } from '#server/modules/listing-reviews'
import { bearerFor } from '#server/test/auth-helpers'
import {
  type BrandRow,
  createBooking,
  createBrand,
  createProduct,
  createUser,
  type UserRow,
} from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { isOnSale, type SaleFacts, whyNotOnSale } from './on-sale'
import { rowsOf } from './paging'

const CARD = { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' }

let t: TestApp
let brand: BrandRow
let seller: UserRow
let buyer: UserRow
let admin: UserRow

beforeAll(async () => {
  t = await createTestApp({ HOLD_SECONDS: '900' })
  brand = await createBrand(t.db)
  seller = await createUser(t.db, { role: 'seller' })
  buyer = await createUser(t.db, { role: 'buyer' })
  admin = await createUser(t.db, { role: 'admin' })
})

afterAll(async () => {
  await t?.close()
})

async function call(method: 'POST' | 'PUT', url: string, who: UserRow, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: await bearerFor(t.app, who),
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

const message = (res: { json: () => unknown }) => (res.json() as { error: { message: string } }).error.message

/** A $900 listing of `seller`'s with a serial of its own. */
async function listing(serial: string) {
  const key = serialKey(serial)
  return createProduct(t.db, {
    seller,
    brand,
    resalePriceCents: 100_000,
    offersEnabled: true,
    serialHash: key.hash,
    serialLast4: key.last4,
  })
}

const setReview = (id: string, reviewState: 'pending' | 'rejected') =>
  t.db.update(products).set({ reviewState }).where(eq(products.id, id))

async function paid(bookingId: string) {
  const [row] = await t.db
    .select({ isPaid: bookings.isPaid })
    .from(bookings)
    .where(eq(bookings.id, bookingId))
  const charged = await t.db.select().from(payments).where(eq(payments.bookingId, bookingId))
  return { isPaid: row?.isPaid, charged: charged.filter((p) => p.status === 'succeeded').length }
}

describe('a listing nobody may buy cannot be sold through any path', () => {
  it('an offer on a listing waiting for review, or rejected, is refused with 409', async () => {
    for (const state of ['pending', 'rejected'] as const) {
      const product = await listing(`SN-OFFER-${state}`)
      await setReview(product.id, state)
      const res = await call('POST', `/api/products/${product.id}/offers`, buyer, { amount: 900 })
      expect(res.statusCode, res.body).toBe(409)
      expect(message(res)).toMatch(state === 'pending' ? /waiting for review/ : /not on sale/)
    }
  })

  it('an offer made while on sale cannot be countered, accepted or paid once the listing waits for review', async () => {
    const product = await listing('SN-OFFER-THEN-PENDING')
    const made = await call('POST', `/api/products/${product.id}/offers`, buyer, { amount: 800 })
    expect(made.statusCode, made.body).toBe(201)
    const offerId = (made.json() as { insertedId: string }).insertedId
    await setReview(product.id, 'pending')
    const countered = await call('PUT', `/api/offers/${offerId}/counter`, seller, { amount: 900 })
    expect(countered.statusCode, countered.body).toBe(409)
    const accepted = await call('PUT', `/api/offers/${offerId}/accept`, seller)
    expect(accepted.statusCode, accepted.body).toBe(409)
    expect(message(accepted)).toMatch(/waiting for review/)
  })

  it('an offer accepted before the serial was reported stolen cannot be paid', async () => {
    const product = await listing('SN-ACCEPTED-STOLEN')
    const made = await call('POST', `/api/products/${product.id}/offers`, buyer, { amount: 900 })
    const offerId = (made.json() as { insertedId: string }).insertedId
    const accepted = await call('PUT', `/api/offers/${offerId}/accept`, seller)
    expect(accepted.statusCode, accepted.body).toBe(200)
    const bookingId = (accepted.json() as { bookingId: string }).bookingId
    const stolen = await call('POST', '/api/stolen-serials', admin, { product_id: product.id })
    expect(stolen.statusCode, stolen.body).toBe(201)
    const pay = await call('POST', '/api/payments/test', buyer, { bookingId, card: CARD })
    expect(pay.statusCode, pay.body).toBe(409)
    expect(await paid(bookingId)).toEqual({ isPaid: false, charged: 0 })
  })

  it('a booking made before the serial was reported stolen can be neither held nor paid', async () => {
    const product = await listing('SN-BOOKED-STOLEN')
    const booked = await call('POST', '/api/bookings', buyer, {
      productId: product.id,
      phoneNumber: '(312) 555-0187',
      location: 'Chicago, IL',
    })
    expect(booked.statusCode, booked.body).toBe(201)
    const bookingId = (booked.json() as { insertedId: string }).insertedId
    // Held while on sale, then the serial is reported: the payment under way is refused too.
    const held = await call('POST', `/api/bookings/${bookingId}/hold`, buyer)
    expect(held.statusCode, held.body).toBe(200)
    const stolen = await call('POST', '/api/stolen-serials', admin, { product_id: product.id })
    expect(stolen.statusCode, stolen.body).toBe(201)
    const pay = await call('POST', '/api/payments/test', buyer, { bookingId, card: CARD })
    expect(pay.statusCode, pay.body).toBe(409)
    const again = await call('POST', `/api/bookings/${bookingId}/hold`, buyer)
    expect(again.statusCode, again.body).toBe(409)
    expect(await paid(bookingId)).toEqual({ isPaid: false, charged: 0 })
  })

  it('a booking of a listing waiting for review, made by the test factory, cannot be held or paid', async () => {
    const product = await listing('SN-FACTORY-PENDING')
    const booking = await createBooking(t.db, { buyer, product })
    await setReview(product.id, 'pending')
    const held = await call('POST', `/api/bookings/${booking.id}/hold`, buyer)
    expect(held.statusCode, held.body).toBe(409)
    const pay = await call('POST', '/api/payments/test', buyer, { bookingId: booking.id, card: CARD })
    expect(pay.statusCode, pay.body).toBe(409)
    expect(await paid(booking.id)).toEqual({ isPaid: false, charged: 0 })
  })
})

describe('the rule has one answer', () => {
  it('its SQL and TypeScript forms agree on every combination of the facts', async () => {
    const disabledSeller = await createUser(t.db, { role: 'seller' })
    await t.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, disabledSeller.id))
    const cases: { id: string; facts: SaleFacts }[] = []
    for (const isSold of [false, true])
      for (const removed of [false, true])
        for (const expired of [false, true])
          for (const reviewState of REVIEW_STATES)
            for (const disabled of [false, true]) {
              const when = new Date('2026-01-01T00:00:00Z')
              const facts: SaleFacts = {
                isSold,
                removedAt: removed ? when : null,
                expiredAt: expired ? when : null,
                reviewState,
                sellerDisabledAt: disabled ? when : null,
              }
              const product = await createProduct(t.db, {
                seller: disabled ? disabledSeller : seller,
                brand,
                isSold,
                removedAt: facts.removedAt,
                expiredAt: facts.expiredAt,
                reviewState,
              })
              cases.push({ id: product.id, facts })
            }
    const rows = await t.db
      .select({ id: products.id, onSale: sql<boolean>`${isOnSale}` })
      .from(products)
      .where(
        sql`${products.id} in (${sql.join(
          cases.map((c) => sql`${c.id}`),
          sql`, `,
        )})`,
      )
    const bySql = new Map(rows.map((r) => [r.id, r.onSale]))
    for (const c of cases)
      expect(bySql.get(c.id), JSON.stringify(c.facts)).toBe(whyNotOnSale(c.facts) === null)
    expect(cases.filter((c) => whyNotOnSale(c.facts) === null)).toHaveLength(1)
  })

  it("no trigger function of the database holds a copy of the rule's conditions", async () => {
    // The last copy (listing_counts_apply, which kept the facet counts) went with migration 0054: the database's
    // functions test no listing for sale of their own, so the rule's one home is listingOnSale.
    const list = await rowsOf<{ name: string }>(
      t.db,
      sql`
      select p.proname as name from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prokind = 'f' and p.prosrc ~* '\\mis_sold\\s*=\\s*false'`,
    )
    expect(list.map((f) => f.name)).toEqual([])
  })
})
