// Many buyers pay for one laptop at the same moment, over and over: exactly one sale each time.
// Runs on PGlite (`--project server`) and on PostgreSQL (`--project server-postgres`), where the
// payments really run side by side on separate connections.

import { and, count, eq, gt, isNull, ne, or } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { PaymentResult } from '#contract/payments'
import { bookings, payments, products } from '#server/db/schema'
import { bearerFor } from '#server/test/auth-helpers'
import { type BrandRow, createBrand, createProduct, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

const ROUNDS = 100
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
