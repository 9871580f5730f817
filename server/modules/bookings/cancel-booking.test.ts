// A buyer calls off their own unpaid booking (PUT /api/bookings/{id}/cancel-booking): the deal's `cancel` move by the
// buyer. The booking reads as cancelled by them, their hold ends at once, the seller is emailed, and it can be booked
// again later. Every refusal changes nothing. (PUT /api/bookings/{id}/cancel is the seller cancelling a paid sale.)

import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Booking, HoldAnswer } from '#contract/bookings'
import { ErrorBody } from '#contract/errors'
import { Product } from '#contract/products'
import { bookingEvents, bookings, productHolds } from '#server/db/schema'
import type { OutgoingEmail } from '#server/mail/transport'
import { bearerFor } from '#server/test/auth-helpers'
import { dealAt } from '#server/test/deals'
import {
  type BrandRow,
  createBooking,
  createBrand,
  createProduct,
  createUser,
  type UserRow,
} from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp
let brand: BrandRow
let buyer: UserRow
let otherBuyer: UserRow
let seller: UserRow
let admin: UserRow

beforeAll(async () => {
  t = await createTestApp({ BOOKING_EMAIL_GROUP_SECONDS: '300', LIVE_HOLDS_PER_BUYER: '100' })
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer', name: 'Bea Buyer' })
  otherBuyer = await createUser(t.db, { role: 'buyer', name: 'Otto Buyer' })
  seller = await createUser(t.db, { role: 'seller', name: 'Sam Seller' })
  admin = await createUser(t.db, { role: 'admin', name: 'Ada Admin' })
})
afterAll(async () => {
  await t?.close()
})
beforeEach(async () => {
  await t.app.ctx.jobs.drain('email')
  t.outbox.length = 0
})

async function call(method: 'GET' | 'POST' | 'PUT', url: string, who: UserRow | null, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: who ? await bearerFor(t.app, who) : {},
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

const cancel = (id: string, who: UserRow | null = buyer) =>
  call('PUT', `/api/bookings/${id}/cancel-booking`, who)
const hold = (id: string, who: UserRow = buyer) => call('POST', `/api/bookings/${id}/hold`, who)

async function wire(id: string) {
  const res = await call('GET', `/api/bookings/${id}`, buyer)
  expect(res.statusCode).toBe(200)
  return Booking.parse(res.json())
}

/** The emails sent so far, the seller's grouped booking emails included once their delay has passed. */
async function sent({ later = false } = {}): Promise<OutgoingEmail[]> {
  if (later) {
    await t.db.execute(sql`update pgboss.job set start_after = now() - interval '1 second'
      where name = 'bookings.seller-email' and state in ('created', 'retry')`)
  }
  await t.app.ctx.jobs.drain('bookings.seller-email')
  await t.app.ctx.jobs.drain('email')
  const out = [...t.outbox]
  t.outbox.length = 0
  return out
}

async function snapshot(id: string) {
  const [row] = await t.db.select().from(bookings).where(eq(bookings.id, id))
  const events = await t.db.select().from(bookingEvents).where(eq(bookingEvents.bookingId, id))
  const holds = await t.db.select().from(productHolds).where(eq(productHolds.bookingId, id))
  return { row, events: events.length, holds }
}

describe('PUT /api/bookings/{id}/cancel-booking', () => {
  it('cancels the buyer’s unpaid booking: it reads as cancelled by them, the hold ends, the seller is emailed', async () => {
    const product = await createProduct(t.db, { seller, brand, name: 'ThinkPad X1 Carbon' })
    // The seller was told of this booking already (its grouped email went out).
    const booking = await createBooking(t.db, { buyer, product, sellerEmailPending: false })
    const other = await createBooking(t.db, { buyer: otherBuyer, product })
    expect((await hold(booking.id)).statusCode).toBe(200)
    expect((await hold(other.id, otherBuyer)).statusCode).toBe(409)

    const res = await cancel(booking.id)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ acknowledged: true, modifiedCount: 1 })

    expect(await wire(booking.id)).toMatchObject({
      status: 'cancelled',
      cancelledByBuyer: true,
      cancelReason: null,
      paid: false,
    })
    const [event] = await t.db.select().from(bookingEvents).where(eq(bookingEvents.bookingId, booking.id))
    expect(event).toMatchObject({ kind: 'cancelled', actorId: buyer.id, note: null })
    // The laptop is free at once: nobody holds it, and the other buyer can hold it and pay.
    const listing = Product.parse((await call('GET', `/api/products/${product.id}`, null)).json())
    expect(listing.reservedUntil).toBeNull()
    expect(HoldAnswer.parse((await hold(other.id, otherBuyer)).json()).holdUntil).toBeTruthy()

    const emails = await sent()
    expect(emails.map((e) => [e.to, e.subject])).toEqual([
      [`"Sam Seller" <${seller.email}>`, 'Bea Buyer cancelled their booking of “ThinkPad X1 Carbon”'],
    ])
    expect(emails[0]?.text).toContain(
      'Bea Buyer cancelled their booking of “ThinkPad X1 Carbon” before paying. Nothing was paid.',
    )
  })

  it('tells the seller nothing when they were not yet told of the booking: it leaves the grouped email', async () => {
    const lone = await createUser(t.db, { role: 'seller', name: 'Lou Seller' })
    const product = await createProduct(t.db, { seller: lone, brand, name: 'Latitude 7440' })
    const booked = await call('POST', '/api/bookings', buyer, {
      productId: product.id,
      phoneNumber: '+1 555 010 0000',
      location: 'Chicago, IL',
    })
    expect(booked.statusCode).toBe(201)
    const { insertedId } = booked.json() as { insertedId: string }
    expect((await cancel(insertedId)).statusCode).toBe(200)
    expect(await sent({ later: true })).toEqual([])
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, insertedId))
    expect(row?.sellerEmailPending).toBe(false)
  })

  it('is only for the booking’s buyer, and only before payment; every refusal changes nothing', async () => {
    const product = await createProduct(t.db, { seller, brand })
    const booking = await createBooking(t.db, { buyer, product })
    expect((await hold(booking.id)).statusCode).toBe(200)
    const before = await snapshot(booking.id)
    expect((await cancel(booking.id, null)).statusCode).toBe(401)
    expect((await cancel(booking.id, otherBuyer)).statusCode).toBe(404)
    for (const who of [seller, admin]) {
      const res = await cancel(booking.id, who)
      expect(res.statusCode).toBe(403)
      expect(ErrorBody.parse(res.json()).error.message).toBe(
        'Only the buyer who booked this laptop can cancel the booking',
      )
    }
    expect((await cancel('not-an-id')).statusCode).toBe(400)
    expect(await snapshot(booking.id)).toEqual(before)

    const { booking: paid } = await dealAt(t, 'paid', { buyer, seller, brand })
    await sent()
    const paidBefore = await snapshot(paid.id)
    const refused = await cancel(paid.id)
    expect(refused.statusCode).toBe(409)
    expect(ErrorBody.parse(refused.json()).error.message).toBe(
      'You cannot cancel this booking: this booking is paid and waiting for handover',
    )
    expect(await snapshot(paid.id)).toEqual(paidBefore)
    expect(await sent()).toEqual([])
  })

  it('cannot be cancelled twice, held or paid once cancelled; booking again starts afresh with a first hold', async () => {
    const product = await createProduct(t.db, { seller, brand })
    const booking = await createBooking(t.db, { buyer, product, sellerEmailPending: false })
    expect((await hold(booking.id)).statusCode).toBe(200)
    expect((await cancel(booking.id)).statusCode).toBe(200)
    const after = await snapshot(booking.id)
    const twice = await cancel(booking.id)
    expect(twice.statusCode).toBe(409)
    expect(ErrorBody.parse(twice.json()).error.message).toBe(
      'You cannot cancel this booking: this booking is cancelled',
    )
    const held = await hold(booking.id)
    expect(held.statusCode).toBe(409)
    expect(ErrorBody.parse(held.json()).error.message).toBe(
      'You cannot hold this laptop: this booking is cancelled',
    )
    const paid = await call('POST', '/api/payments/test', buyer, {
      bookingId: booking.id,
      card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' },
    })
    expect(paid.statusCode).toBe(409)
    expect(await snapshot(booking.id)).toEqual(after)
    await sent()

    // Booked again: an ordinary unpaid booking, and opening its payment page takes its first hold.
    const again = await call('POST', '/api/bookings', buyer, {
      productId: product.id,
      phoneNumber: '+1 555 010 0000',
      location: 'Chicago, IL',
    })
    expect(again.statusCode).toBe(201)
    expect(await wire(booking.id)).toMatchObject({ status: 'unpaid', cancelledByBuyer: false })
    expect((await hold(booking.id)).statusCode).toBe(200)
    // The seller is told of the booking made again, as of a new one.
    expect((await sent({ later: true })).map((e) => e.to)).toEqual([`"Sam Seller" <${seller.email}>`])
  })

  it('lets the buyer clear a booking of a laptop sold to someone else, without emailing the seller', async () => {
    const product = await createProduct(t.db, { seller, brand })
    const lost = await createBooking(t.db, { buyer: otherBuyer, product, sellerEmailPending: false })
    const won = await createBooking(t.db, { buyer, product, sellerEmailPending: false })
    expect((await hold(won.id)).statusCode).toBe(200)
    const paid = await call('POST', '/api/payments/test', buyer, {
      bookingId: won.id,
      card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' },
    })
    expect(paid.statusCode).toBe(200)
    await sent()
    expect((await cancel(lost.id, otherBuyer)).statusCode).toBe(200)
    expect(await sent()).toEqual([])
  })

  it('reads the latest cancellation: cancelled when the listing left sale, booked again, then cancelled by the buyer', async () => {
    const product = await createProduct(t.db, { seller, brand })
    const booking = await createBooking(t.db, { buyer, product, sellerEmailPending: false })
    // Its earlier life, as the listing's trip through review left it: cancelled with the reason, booked again.
    await t.db.insert(bookingEvents).values([
      {
        bookingId: booking.id,
        kind: 'cancelled',
        note: 'the listing is waiting for review',
        createdAt: new Date(Date.now() - 2 * 3_600_000),
      },
      {
        bookingId: booking.id,
        kind: 'booked_again',
        actorId: buyer.id,
        createdAt: new Date(Date.now() - 3_600_000),
      },
    ])
    expect((await cancel(booking.id)).statusCode).toBe(200)
    expect(await wire(booking.id)).toMatchObject({
      status: 'cancelled',
      cancelledByBuyer: true,
      cancelReason: null,
    })
  })
})
