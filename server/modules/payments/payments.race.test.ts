// Many buyers pay for one laptop at the same moment, over and over: exactly one sale each time; and offers on
// one laptop answered at the same moment settle to one outcome and one sale.
// Runs on PGlite (`--project server`) and on PostgreSQL (`--project server-postgres`), where the
// payments really run side by side on separate connections.

import { and, count, eq, gt, isNull, ne, or } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { PaymentResult } from '#contract/payments'
import { bookings, offers, payments, productHolds, products } from '#server/db/schema'
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

// On PostgreSQL the payments run side by side on separate connections, and each round is a new race: 100 of them.
// PGlite runs one statement at a time, so its rounds replay nearly one schedule (of 100 rounds, 95 had the first buyer
// win and 5 the second, at no particular rounds): 30 rounds there, which most runs see both schedules in, at a third of
// the time. PAYMENT_RACE_ROUNDS sets either.
const ROUNDS = Number(process.env.PAYMENT_RACE_ROUNDS ?? (process.env.TEST_DB === 'postgres' ? 100 : 30))
const BUYERS = 8

let t: TestApp
let brand: BrandRow
let seller: UserRow
let buyers: { user: UserRow; headers: Record<string, string> }[]

beforeAll(async () => {
  t = await createTestApp({ LIVE_HOLDS_PER_BUYER: '100' })
  brand = await createBrand(t.db)
  seller = await createUser(t.db, { role: 'seller' })
  // Accounts straight from the factory and genuine bearer tokens: no password hashing.
  buyers = []
  for (let i = 0; i < BUYERS; i++) {
    const user = await createUser(t.db, { role: 'buyer' })
    buyers.push({ user, headers: await bearerFor(t.app, user) })
  }
})

afterAll(async () => {
  await t?.close()
})

/** As the payment page does: the hold (whatever it answers), then the card. */
async function pay(headers: Record<string, string>, bookingId: string) {
  await t.app.inject({ method: 'POST', url: `/api/bookings/${bookingId}/hold`, headers })
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/test',
    headers,
    payload: { bookingId, card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' } },
  })
}

describe('one laptop, many buyers paying at once', () => {
  it(`sells it exactly once, ${ROUNDS} times over`, { timeout: 240_000 }, async () => {
    const started = Date.now()
    for (let round = 0; round < ROUNDS; round++) {
      const product = await createProduct(t.db, {
        seller,
        brand,
        isAdvertised: true,
        resalePriceCents: 10_000 + round,
        images: [],
      })
      const booked = await t.db
        .insert(bookings)
        .values(
          buyers.map(({ user }) => ({
            productId: product.id,
            buyerId: user.id,
            productName: product.name,
            productImage: '/images/laptop-placeholder.svg',
            priceCents: product.resalePriceCents,
            userName: user.name,
            email: user.email,
            phoneNumber: '(312) 555-0100',
            location: 'Chicago, IL',
          })),
        )
        .returning({ id: bookings.id, buyerId: bookings.buyerId })
      const bookingOf = new Map(booked.map((b) => [b.buyerId, b.id]))

      // Every buyer at once, and the first of them clicks Pay twice.
      const attempts = buyers.map(({ user, headers }) => ({
        headers,
        bookingId: bookingOf.get(user.id) ?? '',
      }))
      const first = attempts[0]
      if (first) attempts.push({ ...first })
      const answers = await Promise.all(attempts.map((a) => pay(a.headers, a.bookingId)))

      const statuses = answers.map((r) => r.statusCode)
      const context = `round ${round}: ${statuses.join(',')}`
      expect(
        statuses.filter((s) => s === 200),
        context,
      ).toHaveLength(1)
      expect(
        statuses.filter((s) => s === 409),
        context,
      ).toHaveLength(attempts.length - 1)
      for (const res of answers) {
        // Refused for another buyer's hold (RESERVED), or because the laptop is sold or paid meanwhile.
        if (res.statusCode === 409)
          expect(['CONFLICT', 'RESERVED']).toContain(ErrorBody.parse(res.json()).error.code)
      }
      const winnerIndex = statuses.indexOf(200)
      const winner = attempts[winnerIndex]
      const receipt = PaymentResult.parse(answers[winnerIndex]?.json())
      expect(receipt.amount_cents).toBe(product.resalePriceCents)

      const [sold] = await t.db.select().from(products).where(eq(products.id, product.id))
      expect(sold?.isSold, context).toBe(true)
      const paidBookings = await t.db
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(eq(bookings.productId, product.id), eq(bookings.isPaid, true)))
      expect(
        paidBookings.map((b) => b.id),
        context,
      ).toEqual([winner?.bookingId])
      const rows = await t.db.select().from(payments).where(eq(payments.productId, product.id))
      expect(rows, context).toHaveLength(1)
      expect(rows[0], context).toMatchObject({
        bookingId: winner?.bookingId,
        status: 'succeeded',
        transactionId: receipt.transactionId,
        amountCents: product.resalePriceCents,
      })
    }
    console.info(`${ROUNDS} rounds of ${BUYERS + 1} payments in ${Date.now() - started} ms`)

    // Across every round: no payment without its booking, no booking paid twice, one sale per laptop.
    const orphans = await t.db
      .select({ id: payments.id })
      .from(payments)
      .leftJoin(bookings, eq(bookings.id, payments.bookingId))
      .where(
        or(
          isNull(bookings.id),
          ne(bookings.productId, payments.productId),
          ne(bookings.buyerId, payments.buyerId),
        ),
      )
    expect(orphans).toEqual([])
    const paidTwice = await t.db
      .select({ bookingId: payments.bookingId })
      .from(payments)
      .where(eq(payments.status, 'succeeded'))
      .groupBy(payments.bookingId)
      .having(gt(count(), 1))
    expect(paidTwice).toEqual([])
    const unpaidWithPayment = await t.db
      .select({ id: bookings.id })
      .from(bookings)
      .innerJoin(payments, and(eq(payments.bookingId, bookings.id), eq(payments.status, 'succeeded')))
      .where(eq(bookings.isPaid, false))
    expect(unpaidWithPayment).toEqual([])
    const [sales] = await t.db.select({ n: count() }).from(payments).where(eq(payments.status, 'succeeded'))
    const [paid] = await t.db.select({ n: count() }).from(bookings).where(eq(bookings.isPaid, true))
    const [soldCount] = await t.db.select({ n: count() }).from(products).where(eq(products.isSold, true))
    expect([sales?.n, paid?.n, soldCount?.n]).toEqual([ROUNDS, ROUNDS, ROUNDS])
  })
})

// Offers: the same listing's offers answered at the same moment settle to one outcome, and one sale.
describe('offers answered at once', () => {
  const OFFER_ROUNDS = 20

  async function offerOn(productId: string, headers: Record<string, string>, amount: number) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/products/${productId}/offers`,
      headers,
      payload: { amount },
    })
    expect(res.statusCode, res.body).toBe(201)
    return (res.json() as { insertedId: string }).insertedId
  }
  const step = (offerId: string, action: 'accept' | 'withdraw', headers: Record<string, string>) =>
    t.app.inject({ method: 'PUT', url: `/api/offers/${offerId}/${action}`, headers })

  it(`a double accept, or an accept against a withdrawal, has one outcome (${OFFER_ROUNDS} times)`, {
    timeout: 240_000,
  }, async () => {
    const sellerHeaders = await bearerFor(t.app, seller)
    const [a, b] = buyers
    if (!a || !b) throw new Error('buyers missing')
    for (let round = 0; round < OFFER_ROUNDS; round++) {
      const product = await createProduct(t.db, { seller, brand, resalePriceCents: 40_000, images: [] })
      // Two clicks on Accept.
      const first = await offerOn(product.id, a.headers, 350)
      const clicks = await Promise.all([
        step(first, 'accept', sellerHeaders),
        step(first, 'accept', sellerHeaders),
      ])
      expect(clicks.map((r) => r.statusCode).sort()).toEqual([200, 409])
      const [acceptedRow] = await t.db.select().from(offers).where(eq(offers.id, first))
      expect(acceptedRow?.status).toBe('accepted')
      const booked = await t.db
        .select()
        .from(bookings)
        .where(and(eq(bookings.productId, product.id), eq(bookings.buyerId, a.user.id)))
      expect(booked.map((x) => x.priceCents)).toEqual([35_000])

      // The seller accepts while the buyer withdraws.
      const other = await createProduct(t.db, { seller, brand, resalePriceCents: 40_000, images: [] })
      const second = await offerOn(other.id, b.headers, 360)
      const [accept, withdraw] = await Promise.all([
        step(second, 'accept', sellerHeaders),
        step(second, 'withdraw', b.headers),
      ])
      expect([accept.statusCode, withdraw.statusCode].sort()).toEqual([200, 409])
      const [row] = await t.db.select().from(offers).where(eq(offers.id, second))
      const holds = await t.db.select().from(productHolds).where(eq(productHolds.productId, other.id))
      if (accept.statusCode === 200) {
        expect(row?.status).toBe('accepted')
        expect(holds).toHaveLength(1)
      } else {
        expect(row?.status).toBe('withdrawn')
        expect(holds).toEqual([])
      }
    }
  })

  it(`two offers accepted at once on one laptop give one hold and one sale (${OFFER_ROUNDS} times)`, {
    timeout: 240_000,
  }, async () => {
    const sellerHeaders = await bearerFor(t.app, seller)
    const [a, b] = buyers
    if (!a || !b) throw new Error('buyers missing')
    for (let round = 0; round < OFFER_ROUNDS; round++) {
      const product = await createProduct(t.db, { seller, brand, resalePriceCents: 40_000, images: [] })
      // Both buyers booked it at its price first: the accepted offer reprices its buyer's booking.
      for (const x of [a, b]) await createBooking(t.db, { buyer: x.user, product })
      const offerIds = [await offerOn(product.id, a.headers, 350), await offerOn(product.id, b.headers, 370)]
      const answers = await Promise.all(offerIds.map((id) => step(id, 'accept', sellerHeaders)))
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409])
      // Both buyers pay at once: the loser's booking (at the listing price) finds the laptop held.
      const rows = await t.db.select().from(bookings).where(eq(bookings.productId, product.id))
      expect(rows).toHaveLength(2)
      const attempts = rows.map((r) => ({
        headers: r.buyerId === a.user.id ? a.headers : b.headers,
        bookingId: r.id,
      }))
      const paid = await Promise.all(attempts.map((x) => pay(x.headers, x.bookingId)))
      expect(paid.filter((r) => r.statusCode === 200)).toHaveLength(1)
      const sales = await t.db
        .select()
        .from(payments)
        .where(and(eq(payments.productId, product.id), eq(payments.status, 'succeeded')))
      expect(sales).toHaveLength(1)
      const winner = answers.findIndex((r) => r.statusCode === 200)
      expect(sales[0]?.amountCents).toBe(winner === 0 ? 35_000 : 37_000)
      const states = await t.db
        .select({ status: offers.status })
        .from(offers)
        .where(eq(offers.productId, product.id))
      expect(states.map((s) => s.status).sort()).toEqual(['accepted', 'declined'])
    }
  })
})
