// The Stripe path end to end: the real `stripe` SDK inside the app talks to a local fake Stripe server,
// and webhooks are signed with the SDK's own test helper, as Stripe would sign them.

import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import Stripe from 'stripe'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { PaymentConfig, PaymentIntentAnswer } from '#contract/payments'
import { bookings, paymentEvents, payments, productHolds, products } from '#server/db/schema'
import { bearerFor } from '#server/test/auth-helpers'
import {
  type BrandRow,
  type CreatedProduct,
  createBooking,
  createBrand,
  createProduct,
  createUser,
  type UserRow,
} from '#server/test/factories'
import { type FakeIntent, type FakeStripe, startFakeStripe } from '#server/test/fake-stripe'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { createStripeIntent } from './payments.service'
import { createStripeClient } from './stripe-client'

const WEBHOOK_SECRET = 'whsec_test_laptop_market_0123456789'
const SECRET_KEY = 'sk_test_laptop_market'

let fake: FakeStripe
let t: TestApp
/** Only for signing test webhooks; the app has its own client. */
const signer = new Stripe(SECRET_KEY)
let brand: BrandRow
let buyer: UserRow
let otherBuyer: UserRow
let seller: UserRow

beforeAll(async () => {
  fake = await startFakeStripe()
  t = await createTestApp({
    LIVE_HOLDS_PER_BUYER: '100',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_laptop_market',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
    PUBLIC_CACHE_TTL_MS: '60000',
  })
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer' })
  otherBuyer = await createUser(t.db, { role: 'buyer' })
  seller = await createUser(t.db, { role: 'seller' })
})

afterAll(async () => {
  await t?.close()
  await fake?.close()
})

beforeEach(() => {
  fake.reset()
})

async function call(method: 'GET' | 'POST', url: string, who: UserRow | null, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: who ? await bearerFor(t.app, who) : {},
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

/** A Stripe client made as the app makes its own, pointed at the fake server. */
function appStripe() {
  return createStripeClient({
    secretKey: SECRET_KEY,
    publishableKey: 'pk_test_laptop_market',
    webhookSecret: WEBHOOK_SECRET,
    apiBase: fake.url,
  })
}

function errorOf(res: { json(): unknown }) {
  return ErrorBody.parse(res.json()).error
}

async function listingWithBooking(priceCents = 89_900, who: UserRow = buyer) {
  const product = await createProduct(t.db, {
    seller,
    brand,
    isAdvertised: true,
    resalePriceCents: priceCents,
  })
  const booking = await createBooking(t.db, { buyer: who, product })
  return { product, booking }
}

/** The payment page's hold, which paying needs. */
async function hold(bookingId: string, who: UserRow = buyer) {
  const res = await call('POST', `/api/bookings/${bookingId}/hold`, who)
  expect(res.statusCode).toBe(200)
}

/** The hold on a listing runs out, as time passing would end it. */
async function expireHold(productId: string) {
  await t.db
    .update(productHolds)
    .set({ holdUntil: sql`now() - interval '1 second'` })
    .where(eq(productHolds.productId, productId))
}

/** POST /api/payments/intent as the web page does (after its hold); the intent as the fake server holds it. */
async function intentFor(bookingId: string, who: UserRow = buyer) {
  await hold(bookingId, who)
  const res = await call('POST', '/api/payments/intent', who, { bookingId })
  expect(res.statusCode).toBe(200)
  const answer = PaymentIntentAnswer.parse(res.json())
  const intent = [...fake.intents.values()].find((i) => i.client_secret === answer.clientSecret)
  if (!intent) throw new Error('the client secret names no intent at the fake Stripe server')
  return { answer, intent }
}

type Delivery = { secret?: string; timestamp?: number; signature?: string | null; contentType?: string }

/** Delivers a webhook payload the way Stripe does: raw JSON with a Stripe-Signature header. */
function deliver(payload: string, opts: Delivery = {}) {
  const header =
    opts.signature !== undefined
      ? opts.signature
      : signer.webhooks.generateTestHeaderString({
          payload,
          secret: opts.secret ?? WEBHOOK_SECRET,
          ...(opts.timestamp ? { timestamp: opts.timestamp } : {}),
        })
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: {
      'content-type': opts.contentType ?? 'application/json; charset=utf-8',
      ...(header === null ? {} : { 'stripe-signature': header }),
    },
    payload,
  })
}

function outcomeOf(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBe(200)
  return (res.json() as { received: boolean; outcome: string }).outcome
}

/** The customer pays at Stripe; the event Stripe would then send. */
function succeeded(intent: FakeIntent) {
  return fake.event('payment_intent.succeeded', fake.succeed(intent.id))
}

async function state(product: CreatedProduct) {
  const [p] = await t.db.select().from(products).where(eq(products.id, product.id))
  const bs = await t.db.select().from(bookings).where(eq(bookings.productId, product.id))
  const pays = await t.db.select().from(payments).where(eq(payments.productId, product.id))
  if (!p) throw new Error('product missing')
  return { product: p, bookings: bs, payments: pays }
}

async function advertisedIds(): Promise<string[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/advertised_product' })
  return (res.json() as { _id: string }[]).map((p) => p._id)
}

describe('Stripe mode', () => {
  it('tells the page to use Stripe with the publishable key', async () => {
    const res = await call('GET', '/api/payments/config', null)
    expect(PaymentConfig.parse(res.json())).toEqual({
      mode: 'stripe',
      publishableKey: 'pk_test_laptop_market',
      fee: { basis_points: 500, min_cents: 0 },
    })
  })

  it('has no test card processor (404)', async () => {
    const { booking } = await listingWithBooking()
    const res = await call('POST', '/api/payments/test', buyer, {
      bookingId: booking.id,
      card: { number: '4242424242424242', expiry: '12 / 40', cvc: '123' },
    })
    expect(res.statusCode).toBe(404)
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id))
    expect(row?.isPaid).toBe(false)
  })
})

describe('POST /api/payments/intent', () => {
  it("creates one PaymentIntent per booking, for the listing's price, with an idempotency key", async () => {
    const { product, booking } = await listingWithBooking(123_400)
    const first = await intentFor(booking.id)
    expect(first.answer.amount_cents).toBe(123_400)
    expect(first.answer.clientSecret).toBe(first.intent.client_secret)
    expect(first.intent).toMatchObject({
      amount: 123_400,
      currency: 'usd',
      automatic_payment_methods: { enabled: true },
      metadata: { bookingId: booking.id, productId: product.id, buyerId: buyer.id },
    })

    const second = await intentFor(booking.id)
    expect(second.intent.id).toBe(first.intent.id)
    expect(fake.intents.size).toBe(1)
    const creates = fake.callsTo('POST', '/v1/payment_intents')
    expect(creates).toHaveLength(2)
    expect(new Set(creates.map((c) => c.idempotencyKey)).size).toBe(1)
    expect(creates[0]?.idempotencyKey).toContain(booking.id)

    // The pending payment is on record once, and nothing is paid or sold yet.
    const after = await state(product)
    expect(after.payments).toHaveLength(1)
    expect(after.payments[0]).toMatchObject({
      provider: 'stripe',
      transactionId: first.intent.id,
      status: 'pending',
      amountCents: 123_400,
      bookingId: booking.id,
    })
    expect(after.product.isSold).toBe(false)
    expect(after.bookings[0]?.isPaid).toBe(false)
  })

  it('gives the same intent when two requests for it arrive at once', async () => {
    const { product, booking } = await listingWithBooking()
    const answers = await Promise.all([1, 2, 3].map(() => intentFor(booking.id)))
    expect(new Set(answers.map((a) => a.intent.id)).size).toBe(1)
    expect(fake.intents.size).toBe(1)
    expect((await state(product)).payments).toHaveLength(1)
  })

  it('keeps the same intent when the listing is renamed between two visits to the payment page', async () => {
    const { product, booking } = await listingWithBooking()
    const first = await intentFor(booking.id)
    await t.db.update(products).set({ name: 'Renamed laptop' }).where(eq(products.id, product.id))
    const second = await intentFor(booking.id)
    expect(second.intent.id).toBe(first.intent.id)
  })

  it('refuses before asking Stripe: 401 signed out, 403 not your booking, 404 unknown, 409 paid or sold', async () => {
    const { product, booking } = await listingWithBooking()
    expect((await call('POST', '/api/payments/intent', null, { bookingId: booking.id })).statusCode).toBe(401)
    for (const who of [otherBuyer, seller]) {
      const res = await call('POST', '/api/payments/intent', who, { bookingId: booking.id })
      expect(res.statusCode).toBe(403)
    }
    expect((await call('POST', '/api/payments/intent', buyer, { bookingId: randomUUID() })).statusCode).toBe(
      404,
    )
    expect((await call('POST', '/api/payments/intent', buyer, { bookingId: 'nope' })).statusCode).toBe(400)

    const late = await createBooking(t.db, { buyer: otherBuyer, product })
    await t.db.update(bookings).set({ isPaid: true, paidAt: new Date() }).where(eq(bookings.id, booking.id))
    await t.db.update(products).set({ isSold: true, soldAt: new Date() }).where(eq(products.id, product.id))
    const paid = await call('POST', '/api/payments/intent', buyer, { bookingId: booking.id })
    expect(paid.statusCode).toBe(409)
    expect(errorOf(paid).message).toBe('This booking is already paid')
    const sold = await call('POST', '/api/payments/intent', otherBuyer, { bookingId: late.id })
    expect(sold.statusCode).toBe(409)
    expect(errorOf(sold).message).toBe('This laptop has already been sold')

    expect(fake.calls).toEqual([])
  })
  it("answers a provider failure as our own 500, not as Stripe's status and message", async () => {
    const { product, booking } = await listingWithBooking()
    await hold(booking.id)
    for (const [status, message] of [
      [401, 'Invalid API Key provided'],
      [400, 'Amount must be at least $0.50 usd'],
      [402, 'Your card was declined.'],
    ] as const) {
      fake.failNext('/v1/payment_intents', status, message)
      const res = await call('POST', '/api/payments/intent', buyer, { bookingId: booking.id })
      expect(res.statusCode).toBe(500)
      expect(errorOf(res).code).toBe('INTERNAL')
      expect(errorOf(res).message).not.toContain(message)
    }
    expect((await state(product)).payments).toEqual([])
    // What the log gets: which call failed and Stripe's reason.
    fake.failNext('/v1/payment_intents', 401, 'Invalid API Key provided')
    const session = { ...buyer, isVerified: false }
    await expect(createStripeIntent(t.db, appStripe(), session, booking.id)).rejects.toThrow(
      'Stripe PaymentIntent creation failed: Invalid API Key provided',
    )
    // Stripe is back: the intent is made.
    expect((await intentFor(booking.id)).answer.amount_cents).toBe(product.resalePriceCents)
  })
})

describe('POST /api/payments/webhook', () => {
  it('pays on a verified payment_intent.succeeded, once, even when it is delivered twice', async () => {
    const { product, booking } = await listingWithBooking(77_700)
    const { intent } = await intentFor(booking.id)
    expect(await advertisedIds()).toContain(product.id)

    const event = succeeded(intent)
    expect(outcomeOf(await deliver(event.payload))).toBe('paid')
    expect(outcomeOf(await deliver(event.payload))).toBe('duplicate')

    const after = await state(product)
    expect(after.product.isSold).toBe(true)
    expect(after.bookings[0]).toMatchObject({ id: booking.id, isPaid: true })
    expect(after.payments).toHaveLength(1)
    expect(after.payments[0]).toMatchObject({
      transactionId: intent.id,
      status: 'succeeded',
      amountCents: 77_700,
      provider: 'stripe',
    })
    expect(fake.refunds).toEqual([])
    expect(await advertisedIds()).not.toContain(product.id)

    const read = await call('GET', `/api/bookings/${booking.id}`, buyer)
    expect(read.json()).toMatchObject({ status: 'paid' })
    expect((await call('POST', '/api/payments/intent', buyer, { bookingId: booking.id })).statusCode).toBe(
      409,
    )
  })

  it('handles the same event delivered twice at the same moment once', async () => {
    const { product, booking } = await listingWithBooking()
    const { intent } = await intentFor(booking.id)
    const event = succeeded(intent)
    const outcomes = await Promise.all([deliver(event.payload), deliver(event.payload)])
    expect(outcomes.map(outcomeOf).sort()).toEqual(['duplicate', 'paid'])
    const after = await state(product)
    expect(after.payments.filter((p) => p.status === 'succeeded')).toHaveLength(1)
    expect(fake.refunds).toEqual([])
  })

  it('refuses a bad signature, a missing one, or a payload that was changed, with 400 and no change', async () => {
    const { product, booking } = await listingWithBooking()
    const { intent } = await intentFor(booking.id)
    const event = succeeded(intent)

    const wrongSecret = await deliver(event.payload, { secret: 'whsec_somebody_else' })
    expect(wrongSecret.statusCode).toBe(400)
    expect(errorOf(wrongSecret)).toEqual({ code: 'VALIDATION', message: 'Invalid webhook signature' })
    expect((await deliver(event.payload, { signature: null })).statusCode).toBe(400)
    expect((await deliver(event.payload, { signature: 'garbage' })).statusCode).toBe(400)
    expect((await deliver(event.payload, { signature: 't=1,v1=abc' })).statusCode).toBe(400)

    const header = signer.webhooks.generateTestHeaderString({
      payload: event.payload,
      secret: WEBHOOK_SECRET,
    })
    const forged = event.payload.replace(`"amount":${intent.amount}`, '"amount":100')
    expect(forged).not.toBe(event.payload)
    expect((await deliver(forged, { signature: header })).statusCode).toBe(400)

    const after = await state(product)
    expect(after.product.isSold).toBe(false)
    expect(after.bookings[0]?.isPaid).toBe(false)
    expect(after.payments.map((p) => p.status)).toEqual(['pending'])
    const stored = await t.db.select().from(paymentEvents).where(eq(paymentEvents.id, event.id))
    expect(stored).toEqual([])

    // Stripe's genuine delivery of that event still counts.
    expect(outcomeOf(await deliver(event.payload))).toBe('paid')
  })

  it('refuses an event signed more than 300 seconds ago with 400', async () => {
    const { product, booking } = await listingWithBooking()
    const { intent } = await intentFor(booking.id)
    const event = succeeded(intent)
    const old = Math.floor(Date.now() / 1000) - 301
    const res = await deliver(event.payload, { timestamp: old })
    expect(res.statusCode).toBe(400)
    expect((await state(product)).product.isSold).toBe(false)

    const recent = Math.floor(Date.now() / 1000) - 200
    expect(outcomeOf(await deliver(event.payload, { timestamp: recent }))).toBe('paid')
  })

  it('makes the intent for the booked price when the seller raised it since the booking, and pays it', async () => {
    const { product, booking } = await listingWithBooking(30_000)
    await t.db.update(products).set({ resalePriceCents: 9_999_900 }).where(eq(products.id, product.id))
    const { intent, answer } = await intentFor(booking.id)
    expect(answer.amount_cents).toBe(30_000)
    expect(intent.amount).toBe(30_000)
    expect(outcomeOf(await deliver(succeeded(intent).payload))).toBe('paid')
    const after = await state(product)
    expect(after.payments[0]).toMatchObject({ status: 'succeeded', amountCents: 30_000 })
  })

  it('refunds, and changes nothing, when the amount no longer matches what is due', async () => {
    const { product, booking } = await listingWithBooking(60_000)
    const { intent } = await intentFor(booking.id)
    // The seller lowers the price after the intent was made; the customer then pays the old amount.
    await t.db.update(products).set({ resalePriceCents: 55_000 }).where(eq(products.id, product.id))
    const event = succeeded(intent)
    expect(outcomeOf(await deliver(event.payload))).toBe('refunded')
    expect(outcomeOf(await deliver(event.payload))).toBe('duplicate')

    const after = await state(product)
    expect(after.product.isSold).toBe(false)
    expect(after.bookings[0]?.isPaid).toBe(false)
    expect(after.payments).toHaveLength(1)
    expect(after.payments[0]).toMatchObject({
      transactionId: intent.id,
      status: 'refunded',
      failureReason: 'The amount did not match the listing',
    })
    expect(fake.refunds).toHaveLength(1)
    expect(fake.refunds[0]).toMatchObject({ payment_intent: intent.id, amount: 60_000 })
    expect(fake.callsTo('POST', '/v1/refunds')).toHaveLength(1)

    // Still payable: a new intent for the new price pays.
    const again = await intentFor(booking.id)
    expect(again.intent.id).not.toBe(intent.id)
    expect(again.intent.amount).toBe(55_000)
    expect(outcomeOf(await deliver(succeeded(again.intent).payload))).toBe('paid')
    expect((await state(product)).product.isSold).toBe(true)
  })

  it('refunds an intent made outside the app for a smaller amount, a wrong currency, or another buyer', async () => {
    const { product, booking } = await listingWithBooking(50_000)
    const metadata = { bookingId: booking.id, productId: product.id, buyerId: buyer.id }
    const cheap = fake.createIntent({ amount: 100, metadata })
    const euros = fake.createIntent({ amount: 50_000, currency: 'eur', metadata })
    const stranger = fake.createIntent({ amount: 50_000, metadata: { ...metadata, buyerId: otherBuyer.id } })
    for (const intent of [cheap, euros, stranger]) {
      expect(outcomeOf(await deliver(succeeded(intent).payload))).toBe('refunded')
    }
    const after = await state(product)
    expect(after.product.isSold).toBe(false)
    expect(after.bookings[0]?.isPaid).toBe(false)
    expect(after.payments.every((p) => p.status === 'refunded')).toBe(true)
    expect(fake.refunds.map((r) => r.payment_intent).sort()).toEqual([cheap.id, euros.id, stranger.id].sort())
  })

  it('two buyers both paying at Stripe: one sale, the other refunded exactly once', async () => {
    const product = await createProduct(t.db, { seller, brand, isAdvertised: true, resalePriceCents: 99_000 })
    const first = await createBooking(t.db, { buyer, product })
    const second = await createBooking(t.db, { buyer: otherBuyer, product })
    // The first buyer's hold runs out while they are at Stripe; the second buyer holds it and pays too.
    const a = (await intentFor(first.id, buyer)).intent
    await expireHold(product.id)
    const b = (await intentFor(second.id, otherBuyer)).intent
    const eventA = succeeded(a)
    const eventB = succeeded(b)

    const outcomes = await Promise.all([deliver(eventA.payload), deliver(eventB.payload)])
    expect(outcomes.map(outcomeOf).sort()).toEqual(['paid', 'refunded'])
    // Both delivered again, also at once: nothing more happens.
    const again = await Promise.all([deliver(eventA.payload), deliver(eventB.payload)])
    expect(again.map(outcomeOf)).toEqual(['duplicate', 'duplicate'])

    const after = await state(product)
    const won = after.payments.find((p) => p.status === 'succeeded')
    const lost = after.payments.find((p) => p.status === 'refunded')
    expect(after.payments).toHaveLength(2)
    expect(won && lost).toBeTruthy()
    expect(after.product.isSold).toBe(true)
    // The buyer holding the laptop gets it, whichever success arrives first.
    expect(won?.bookingId).toBe(second.id)
    expect(after.bookings.filter((bk) => bk.isPaid).map((bk) => bk.id)).toEqual([second.id])
    expect([
      'The laptop was sold to someone else',
      'Another buyer held the laptop when the payment arrived',
    ]).toContain(lost?.failureReason)

    expect(fake.refunds).toHaveLength(1)
    expect(fake.refunds[0]?.payment_intent).toBe(lost?.transactionId)
    expect(fake.callsTo('POST', '/v1/refunds')).toHaveLength(1)

    const loserBooking = lost?.bookingId === first.id ? first : second
    const loser = loserBooking.id === first.id ? buyer : otherBuyer
    const read = await call('GET', `/api/bookings/${loserBooking.id}`, loser)
    expect(read.json()).toMatchObject({ status: 'sold', paid: false })
  })

  it('refunds a payment for a listing taken down meanwhile', async () => {
    const { product, booking } = await listingWithBooking()
    const { intent } = await intentFor(booking.id)
    await t.db.update(products).set({ removedAt: new Date() }).where(eq(products.id, product.id))
    expect(outcomeOf(await deliver(succeeded(intent).payload))).toBe('refunded')
    const after = await state(product)
    expect(after.product.isSold).toBe(false)
    expect(after.bookings[0]?.isPaid).toBe(false)
    expect(fake.refunds).toHaveLength(1)
  })

  it('refunds, once, a payment that arrives after the buyer cancelled the booking, and keeps it cancelled', async () => {
    const { product, booking } = await listingWithBooking()
    const { intent } = await intentFor(booking.id)
    const cancelled = await t.app.inject({
      method: 'PUT',
      url: `/api/bookings/${booking.id}/cancel-booking`,
      headers: await bearerFor(t.app, buyer),
    })
    expect(cancelled.statusCode).toBe(200)
    const event = succeeded(intent)
    expect(outcomeOf(await deliver(event.payload))).toBe('refunded')
    expect(outcomeOf(await deliver(event.payload))).toBe('duplicate')
    const after = await state(product)
    expect(after.product.isSold).toBe(false)
    expect(after.bookings[0]).toMatchObject({ isPaid: false, stage: 'cancelled' })
    expect(after.payments).toMatchObject([
      { status: 'refunded', failureReason: 'The booking was cancelled before the payment arrived' },
    ])
    expect(fake.refunds).toHaveLength(1)
  })

  it('when the refund fails at Stripe, answers 500 so Stripe redelivers, and refunds once on redelivery', async () => {
    const product = await createProduct(t.db, { seller, brand, resalePriceCents: 30_000 })
    const first = await createBooking(t.db, { buyer, product })
    const second = await createBooking(t.db, { buyer: otherBuyer, product })
    // Both holds have run out when the first success arrives: nobody else holds the laptop, so it buys it.
    const a = (await intentFor(first.id, buyer)).intent
    await expireHold(product.id)
    const b = (await intentFor(second.id, otherBuyer)).intent
    await expireHold(product.id)
    expect(outcomeOf(await deliver(succeeded(a).payload))).toBe('paid')

    const eventB = succeeded(b)
    // Stripe is down for the first attempt and the SDK's retries.
    fake.failNext('/v1/refunds', 503, 'Service unavailable', 3)
    const failed = await deliver(eventB.payload)
    expect(failed.statusCode).toBe(500)
    expect(fake.refunds).toEqual([])
    const pending = (await state(product)).payments.find((p) => p.transactionId === b.id)
    expect(pending?.status).toBe('pending')

    expect(outcomeOf(await deliver(eventB.payload))).toBe('refunded')
    expect(outcomeOf(await deliver(eventB.payload))).toBe('duplicate')
    expect(fake.refunds).toHaveLength(1)
    expect(fake.refunds[0]?.payment_intent).toBe(b.id)
  })

  it('records a failed payment and leaves the booking payable', async () => {
    const { product, booking } = await listingWithBooking()
    const { intent } = await intentFor(booking.id)
    const failedIntent = { ...intent, last_payment_error: { message: 'Your card was declined.' } }
    const event = fake.event('payment_intent.payment_failed', failedIntent)
    expect(outcomeOf(await deliver(event.payload))).toBe('failed')
    const after = await state(product)
    expect(after.payments[0]).toMatchObject({ status: 'failed', failureReason: 'Your card was declined.' })
    expect(after.bookings[0]?.isPaid).toBe(false)
    expect(after.product.isSold).toBe(false)
    // The customer tries again on the same intent and it succeeds.
    expect(outcomeOf(await deliver(succeeded(intent).payload))).toBe('paid')
  })

  it('ignores other events and events for unknown bookings, each stored once', async () => {
    const { product, booking } = await listingWithBooking()
    const { intent } = await intentFor(booking.id)
    const other = fake.event('charge.refunded', { id: 'ch_1', object: 'charge' })
    expect(outcomeOf(await deliver(other.payload))).toBe('ignored')
    expect(outcomeOf(await deliver(other.payload))).toBe('duplicate')
    const noBooking = fake.event('payment_intent.succeeded', { ...fake.succeed(intent.id), metadata: {} })
    expect(outcomeOf(await deliver(noBooking.payload))).toBe('ignored')
    const unknown = fake.event('payment_intent.succeeded', {
      ...fake.succeed(intent.id),
      metadata: { bookingId: randomUUID() },
    })
    expect(outcomeOf(await deliver(unknown.payload))).toBe('ignored')
    expect((await state(product)).product.isSold).toBe(false)
    expect(fake.refunds).toEqual([])
  })

  it('keeps a sale when an earlier payment_failed event for the same intent arrives late', async () => {
    const { product, booking } = await listingWithBooking()
    const { intent } = await intentFor(booking.id)
    const declined = fake.event('payment_intent.payment_failed', {
      ...intent,
      last_payment_error: { message: 'Your card was declined.' },
    })
    // Stripe does not promise order: the success is delivered first, the earlier failure after it.
    expect(outcomeOf(await deliver(succeeded(intent).payload))).toBe('paid')
    await deliver(declined.payload)
    const after = await state(product)
    expect(after.payments).toHaveLength(1)
    expect(after.payments[0]).toMatchObject({ status: 'succeeded', failureReason: null })
    expect(after.bookings[0]?.isPaid).toBe(true)
  })

  it('does not refund the sale itself when another succeeded event names the intent that paid', async () => {
    const { product, booking } = await listingWithBooking()
    const { intent } = await intentFor(booking.id)
    expect(outcomeOf(await deliver(succeeded(intent).payload))).toBe('paid')
    const another = fake.event('payment_intent.succeeded', fake.succeed(intent.id))
    expect(outcomeOf(await deliver(another.payload))).toBe('duplicate')
    expect(fake.refunds).toEqual([])
    const after = await state(product)
    expect(after.payments).toHaveLength(1)
    expect(after.payments[0]?.status).toBe('succeeded')
    expect(after.bookings[0]?.isPaid).toBe(true)
  })

  it('counts a payment already refunded at Stripe (after its idempotency key expired) as refunded', async () => {
    const product = await createProduct(t.db, { seller, brand, resalePriceCents: 20_000 })
    const first = await createBooking(t.db, { buyer, product })
    const second = await createBooking(t.db, { buyer: otherBuyer, product })
    // Both holds have run out when the first success arrives: nobody else holds the laptop, so it buys it.
    const a = (await intentFor(first.id, buyer)).intent
    await expireHold(product.id)
    const b = (await intentFor(second.id, otherBuyer)).intent
    await expireHold(product.id)
    expect(outcomeOf(await deliver(succeeded(a).payload))).toBe('paid')
    const eventB = succeeded(b)
    // Refunded earlier under another key (by the app before a crash, or by hand in the dashboard).
    await appStripe().refunds.create({ payment_intent: b.id }, { idempotencyKey: 'by-hand' })
    expect(outcomeOf(await deliver(eventB.payload))).toBe('refunded')
    expect(fake.refunds).toHaveLength(1)
    const lost = (await state(product)).payments.find((p) => p.transactionId === b.id)
    expect(lost?.status).toBe('refunded')
  })
})

describe('PUT /api/disputes/{id}/refund with Stripe', () => {
  it("gives the money back through Stripe's refund call, once, and marks the sale refunded", async () => {
    const admin = await createUser(t.db, { role: 'admin' })
    const { booking } = await listingWithBooking(45_600)
    const { intent } = await intentFor(booking.id)
    expect(outcomeOf(await deliver(succeeded(intent).payload))).toBe('paid')
    const problem = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${booking.id}/problem`,
      headers: await bearerFor(t.app, buyer),
      payload: { reason: 'The charger in the box is for another model.' },
    })
    expect(problem.statusCode).toBe(201)
    const disputeId = (problem.json() as { insertedId: string }).insertedId

    const refund = await t.app.inject({
      method: 'PUT',
      url: `/api/disputes/${disputeId}/refund`,
      headers: await bearerFor(t.app, admin),
      payload: { reason: 'Not as described: the screen is cracked' },
    })
    expect(refund.statusCode).toBe(200)
    expect(fake.refunds).toHaveLength(1)
    expect(fake.refunds[0]).toMatchObject({ payment_intent: intent.id, amount: 45_600 })
    expect(fake.callsTo('POST', '/v1/refunds')[0]?.idempotencyKey).toBe(`refund-${intent.id}`)
    const [payment] = await t.db.select().from(payments).where(eq(payments.transactionId, intent.id))
    expect(payment?.status).toBe('refunded')
    const read = await call('GET', `/api/bookings/${booking.id}`, buyer)
    expect(read.json()).toMatchObject({ status: 'refunded', paid: true })
  })

  it('changes nothing when Stripe refuses the refund, so the admin can try again', async () => {
    const admin = await createUser(t.db, { role: 'admin' })
    const { booking } = await listingWithBooking(12_300)
    const { intent } = await intentFor(booking.id)
    expect(outcomeOf(await deliver(succeeded(intent).payload))).toBe('paid')
    const problem = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${booking.id}/problem`,
      headers: await bearerFor(t.app, buyer),
      payload: { reason: 'It never arrived at the meeting point.' },
    })
    const disputeId = (problem.json() as { insertedId: string }).insertedId
    fake.failNext('/v1/refunds', 400, 'Refunds are paused on this account')
    const failed = await t.app.inject({
      method: 'PUT',
      url: `/api/disputes/${disputeId}/refund`,
      headers: await bearerFor(t.app, admin),
      payload: { reason: 'Not as described: the screen is cracked' },
    })
    expect(failed.statusCode).toBe(500)
    const [payment] = await t.db.select().from(payments).where(eq(payments.transactionId, intent.id))
    expect(payment?.status).toBe('succeeded')
    expect((await call('GET', `/api/bookings/${booking.id}`, buyer)).json()).toMatchObject({
      status: 'disputed',
    })
  })
})

describe('a Stripe success after the hold moved on', () => {
  it('is refunded automatically while another buyer holds the laptop, and that buyer can still pay', async () => {
    const product = await createProduct(t.db, { seller, brand, resalePriceCents: 41_000 })
    const first = await createBooking(t.db, { buyer, product })
    const second = await createBooking(t.db, { buyer: otherBuyer, product })
    const late = (await intentFor(first.id, buyer)).intent
    await expireHold(product.id)
    await hold(second.id, otherBuyer)

    expect(outcomeOf(await deliver(succeeded(late).payload))).toBe('refunded')
    const after = await state(product)
    expect(after.product.isSold).toBe(false)
    expect(after.payments.find((p) => p.transactionId === late.id)).toMatchObject({
      status: 'refunded',
      failureReason: 'Another buyer held the laptop when the payment arrived',
    })
    expect(fake.refunds.map((r) => r.payment_intent)).toEqual([late.id])

    const next = (await intentFor(second.id, otherBuyer)).intent
    expect(outcomeOf(await deliver(succeeded(next).payload))).toBe('paid')
    expect((await state(product)).bookings.find((b) => b.id === second.id)?.isPaid).toBe(true)
  })

  it('refuses to make an intent without a live hold, or while another buyer holds the laptop', async () => {
    const product = await createProduct(t.db, { seller, brand, resalePriceCents: 42_000 })
    const first = await createBooking(t.db, { buyer, product })
    const second = await createBooking(t.db, { buyer: otherBuyer, product })
    const none = await call('POST', '/api/payments/intent', buyer, { bookingId: first.id })
    expect(none.statusCode).toBe(409)
    expect(errorOf(none).message).toBe(
      'Your hold on this laptop has ended. Hold it again from the payment page, then pay.',
    )
    await hold(second.id, otherBuyer)
    const reserved = await call('POST', '/api/payments/intent', buyer, { bookingId: first.id })
    expect(reserved.statusCode).toBe(409)
    expect(errorOf(reserved).code).toBe('RESERVED')
    expect(fake.calls).toEqual([])
  })
})

describe('PUT /api/bookings/{id}/cancel with Stripe', () => {
  const reason = 'The battery swelled after the photos were taken.'
  const cancel = async (bookingId: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/bookings/${bookingId}/cancel`,
      headers: await bearerFor(t.app, seller),
      payload: { reason },
    })

  it("the seller's cancellation refunds the whole payment through Stripe, once, and takes the listing down", async () => {
    const { product, booking } = await listingWithBooking(38_800)
    const { intent } = await intentFor(booking.id)
    expect(outcomeOf(await deliver(succeeded(intent).payload))).toBe('paid')
    const res = await cancel(booking.id)
    expect(res.statusCode).toBe(200)
    expect(fake.refunds).toHaveLength(1)
    expect(fake.refunds[0]).toMatchObject({ payment_intent: intent.id, amount: 38_800 })
    const after = await state(product)
    expect(after.payments[0]?.status).toBe('refunded')
    expect(after.bookings[0]?.stage).toBe('refunded')
    expect(after.product.removedAt).not.toBeNull()
    expect((await cancel(booking.id)).statusCode).toBe(409)
    expect(fake.callsTo('POST', '/v1/refunds')).toHaveLength(1)
  })

  it('changes nothing when Stripe refuses the refund, so the seller can try again', async () => {
    const { product, booking } = await listingWithBooking(38_900)
    const { intent } = await intentFor(booking.id)
    expect(outcomeOf(await deliver(succeeded(intent).payload))).toBe('paid')
    fake.failNext('/v1/refunds', 400, 'Refunds are paused on this account')
    expect((await cancel(booking.id)).statusCode).toBe(500)
    const after = await state(product)
    expect(after.payments[0]?.status).toBe('succeeded')
    expect(after.bookings[0]?.stage).toBe('paid')
    expect(after.product.removedAt).toBeNull()
    expect((await cancel(booking.id)).statusCode).toBe(200)
    expect(fake.refunds).toHaveLength(1)
  })
})
