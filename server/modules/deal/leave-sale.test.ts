// A listing that leaves sale ends what was under way on it, in the same transaction: open offers close with the
// reason, the hold is released, unpaid bookings are cancelled (and can be booked again once it is back), the
// buyers are emailed. A paid sale whose serial is reported stolen is frozen in the admin's disputes, its money not
// paid out, until an admin refunds or releases it.

import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Booking } from '#contract/bookings'
import { bookings, disputes, offers, productHolds, products } from '#server/db/schema'
import { serialKey } from '#server/modules/listing-reviews'
import { bearerFor } from '#server/test/auth-helpers'
import { dealAt } from '#server/test/deals'
import { type BrandRow, createBrand, createProduct, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { runExpirySweep } from '../products/expiry'

let t: TestApp
let brand: BrandRow
let seller: UserRow
let buyers: UserRow[]
let admin: UserRow

beforeAll(async () => {
  t = await createTestApp({ HOLD_SECONDS: '900', LISTING_REVIEW_FIRST: '3' })
  brand = await createBrand(t.db)
  seller = await createUser(t.db, { role: 'seller' })
  buyers = [
    await createUser(t.db, { role: 'buyer' }),
    await createUser(t.db, { role: 'buyer' }),
    await createUser(t.db, { role: 'buyer' }),
  ]
  admin = await createUser(t.db, { role: 'admin' })
})

afterAll(async () => {
  await t?.close()
})

beforeEach(async () => {
  await t.app.ctx.jobs.drain('email')
  t.outbox.length = 0
})

async function call(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET',
  url: string,
  who: UserRow,
  body?: unknown,
) {
  return t.app.inject({
    method,
    url,
    headers: await bearerFor(t.app, who),
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

async function book(productId: string, who: UserRow) {
  const res = await call('POST', '/api/bookings', who, {
    productId,
    phoneNumber: '(312) 555-0187',
    location: 'Chicago, IL',
  })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { insertedId: string }).insertedId
}

const bookingOf = async (id: string, who: UserRow) =>
  Booking.parse((await call('GET', `/api/bookings/${id}`, who)).json())

/** Emails sent since the test began, to whom and about what. */
async function sent() {
  await t.app.ctx.jobs.drain('email')
  return t.outbox.map((m) => ({ to: m.to, subject: m.subject, text: m.text }))
}

/** A listing with an open offer (buyer 0), a booking holding it (buyer 1) and a booking without a hold (buyer 2). */
async function busyListing(serial?: string) {
  const key = serial ? serialKey(serial) : null
  const product = await createProduct(t.db, {
    seller,
    brand,
    resalePriceCents: 100_000,
    offersEnabled: true,
    ...(key ? { serialHash: key.hash, serialLast4: key.last4 } : {}),
  })
  const [first, second, third] = buyers as [UserRow, UserRow, UserRow]
  const made = await call('POST', `/api/products/${product.id}/offers`, first, { amount: 900 })
  expect(made.statusCode, made.body).toBe(201)
  const held = await book(product.id, second)
  expect((await call('POST', `/api/bookings/${held}/hold`, second)).statusCode).toBe(200)
  const waiting = await book(product.id, third)
  await t.app.ctx.jobs.drain('email')
  t.outbox.length = 0
  return { product, offerId: (made.json() as { insertedId: string }).insertedId, held, waiting }
}

async function expectEnded(busy: Awaited<ReturnType<typeof busyListing>>, reason: RegExp) {
  const [offer] = await t.db.select().from(offers).where(eq(offers.id, busy.offerId))
  expect(offer?.status).toBe('declined')
  expect(offer?.declineReason).toMatch(reason)
  expect(await t.db.select().from(productHolds).where(eq(productHolds.productId, busy.product.id))).toEqual(
    [],
  )
  for (const [id, who] of [
    [busy.held, buyers[1]],
    [busy.waiting, buyers[2]],
  ] as const) {
    const booking = await bookingOf(id, who as UserRow)
    expect(booking.status).toBe('cancelled')
    expect(booking.cancelReason).toMatch(reason)
  }
  const mails = await sent()
  for (const b of buyers) {
    expect(
      mails.some((m) => m.to.includes(b.email) && reason.test(m.text)),
      `${b.email} told: ${JSON.stringify(mails)}`,
    ).toBe(true)
  }
}

describe('a listing that leaves sale ends what was under way on it', () => {
  it('deleted by its seller: the offer declines, the hold ends, both bookings are cancelled, everyone is told', async () => {
    const busy = await busyListing()
    const res = await call('DELETE', `/api/products/${busy.product.id}`, seller)
    expect(res.statusCode, res.body).toBe(200)
    await expectEnded(busy, /taken down/)
  })

  it('rejected for a stolen serial: the same, and the cancelled booking cannot be paid', async () => {
    const busy = await busyListing('SN-LEAVES-STOLEN')
    const res = await call('POST', '/api/stolen-serials', admin, { product_id: busy.product.id })
    expect(res.statusCode, res.body).toBe(201)
    await expectEnded(busy, /reported stolen/)
    const pay = await call('POST', '/api/payments/test', buyers[1] as UserRow, {
      bookingId: busy.held,
      card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' },
    })
    expect(pay.statusCode, pay.body).toBe(409)
  })

  it('sent back to review by its new seller rewriting it: the same, until an admin approves it again', async () => {
    // A new seller (inside LISTING_REVIEW_FIRST, nothing of theirs approved by an admin yet) whose listing is live.
    const newSeller = await createUser(t.db, { role: 'seller' })
    const product = await createProduct(t.db, { seller: newSeller, brand, resalePriceCents: 100_000 })
    const [first] = buyers as [UserRow]
    const booked = await book(product.id, first)
    expect((await call('POST', `/api/bookings/${booked}/hold`, first)).statusCode).toBe(200)
    await t.app.ctx.jobs.drain('email')
    t.outbox.length = 0
    const res = await call('PATCH', `/api/products/${product.id}`, newSeller, { name: 'Rewritten laptop' })
    expect(res.statusCode, res.body).toBe(200)
    const [row] = await t.db.select().from(products).where(eq(products.id, product.id))
    expect(row?.reviewState).toBe('pending')
    expect(await t.db.select().from(productHolds).where(eq(productHolds.productId, product.id))).toEqual([])
    const booking = await bookingOf(booked, first)
    expect(booking.status).toBe('cancelled')
    expect(booking.cancelReason).toMatch(/waiting for review/)
    expect(
      (await sent()).some((m) => m.to.includes(first.email) && /Booking cancelled/.test(m.subject)),
    ).toBe(true)
  })

  it('expired: the bookings are cancelled, and booked again once the seller renews it', async () => {
    const busy = await busyListing()
    await t.db
      .update(products)
      .set({ renewedAt: new Date(Date.now() - 400 * 86_400_000) })
      .where(eq(products.id, busy.product.id))
    const swept = await runExpirySweep(t.app.ctx)
    expect(swept.expired).toBeGreaterThanOrEqual(1)
    await expectEnded(busy, /expired/)
    expect((await call('PUT', `/api/products/${busy.product.id}/renew`, seller)).statusCode).toBe(200)
    const again = await book(busy.product.id, buyers[2] as UserRow)
    expect(again).toBe(busy.waiting)
    expect((await bookingOf(again, buyers[2] as UserRow)).status).toBe('unpaid')
  })
})

describe('a paid sale whose serial is reported stolen', () => {
  it('is frozen in the admin’s disputes (no completion, no payout) until an admin refunds or releases it', async () => {
    for (const outcome of ['refund', 'release'] as const) {
      const [buyer] = buyers as [UserRow]
      const deal = await dealAt(t, 'paid', { buyer, seller, brand })
      const key = serialKey(`SN-PAID-THEN-STOLEN-${outcome}`)
      await t.db
        .update(products)
        .set({ serialHash: key.hash, serialLast4: key.last4 })
        .where(eq(products.id, deal.product.id))
      const res = await call('POST', '/api/stolen-serials', admin, { product_id: deal.product.id })
      expect(res.statusCode, res.body).toBe(201)
      expect((await bookingOf(deal.booking.id, buyer)).status).toBe('disputed')
      // The seller cannot move it on: no handover, so no completion, so no payout.
      const handover = await call('PUT', `/api/bookings/${deal.booking.id}/handed-over`, seller, {})
      expect(handover.statusCode, handover.body).toBe(409)
      expect(handover.json().error.message).toMatch(/disputed/)
      const [dispute] = await t.db
        .select()
        .from(disputes)
        .where(and(eq(disputes.bookingId, deal.booking.id), eq(disputes.status, 'open')))
      expect(dispute?.reason).toMatch(/reported stolen/)
      const listed = (await call('GET', '/api/disputes', admin)).json() as { _id: string }[]
      expect(listed.map((d) => d._id)).toContain(dispute?.id)
      const mails = await sent()
      const told = mails.filter((m) => /on hold/i.test(m.subject)).map((m) => m.to)
      for (const side of [buyer, seller]) expect(told.some((to) => to.includes(side.email))).toBe(true)
      const resolved = await call(
        'PUT',
        `/api/disputes/${dispute?.id}/${outcome}`,
        admin,
        outcome === 'refund' ? { reason: 'The serial number was reported stolen' } : undefined,
      )
      expect(resolved.statusCode, resolved.body).toBe(200)
      const [row] = await t.db.select().from(bookings).where(eq(bookings.id, deal.booking.id))
      expect(row?.stage).toBe(outcome === 'refund' ? 'refunded' : 'completed')
    }
  })

  it('is frozen too while the laptop is on its way to the buyer', async () => {
    const [buyer] = buyers as [UserRow]
    const deal = await dealAt(t, 'paid', { buyer, seller, brand })
    const key = serialKey('SN-SHIPPED-THEN-STOLEN')
    await t.db
      .update(products)
      .set({ serialHash: key.hash, serialLast4: key.last4 })
      .where(eq(products.id, deal.product.id))
    await t.db
      .update(bookings)
      .set({ stage: 'shipped', deliveryMethod: 'ship' })
      .where(eq(bookings.id, deal.booking.id))
    const res = await call('POST', '/api/stolen-serials', admin, { product_id: deal.product.id })
    expect(res.statusCode, res.body).toBe(201)
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, deal.booking.id))
    expect(row?.stage).toBe('disputed')
    const [dispute] = await t.db
      .select()
      .from(disputes)
      .where(and(eq(disputes.bookingId, deal.booking.id), eq(disputes.status, 'open')))
    expect(dispute).toMatchObject({ stageBefore: 'shipped' })
    expect(dispute?.reason).toMatch(/on its way to the buyer/)
  })
})
