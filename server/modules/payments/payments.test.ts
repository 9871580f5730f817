import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { PaymentConfig, PaymentResult } from '#contract/payments'
import { bookings, payments, products } from '#server/db/schema'
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
import { createTestApp, type TestApp } from '#server/test/test-app'

const GOOD = '4242 4242 4242 4242'
const DECLINED = '4000 0000 0000 0002'
const NO_FUNDS = '4000 0000 0000 9995'

/** An expiry some years ahead, as MM / YY. */
function futureExpiry(yearsAhead = 3): string {
  const now = new Date()
  return `${String(now.getUTCMonth() + 1).padStart(2, '0')} / ${String((now.getUTCFullYear() + yearsAhead) % 100).padStart(2, '0')}`
}

let t: TestApp
let brand: BrandRow
let buyer: UserRow
let otherBuyer: UserRow
let seller: UserRow
let admin: UserRow

beforeAll(async () => {
  // A long public-cache lifetime: a sale must clear it, or the sold laptop would stay on the home page.
  t = await createTestApp({ PUBLIC_CACHE_TTL_MS: '60000', LIVE_HOLDS_PER_BUYER: '100' })
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer' })
  otherBuyer = await createUser(t.db, { role: 'buyer' })
  seller = await createUser(t.db, { role: 'seller' })
  admin = await createUser(t.db, { role: 'admin' })
})

afterAll(async () => {
  await t?.close()
})

async function call(method: 'GET' | 'POST', url: string, who: UserRow | null, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: who ? await bearerFor(t.app, who) : {},
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

function errorOf(res: { json(): unknown }) {
  return ErrorBody.parse(res.json()).error
}

/** Pays as the payment page does: the hold first (whatever it answers), then the card. */
async function pay(bookingId: string, who: UserRow | null = buyer, card: Record<string, unknown> = {}) {
  await call('POST', `/api/bookings/${bookingId}/hold`, who)
  return call('POST', '/api/payments/test', who, {
    bookingId,
    card: { number: GOOD, expiry: futureExpiry(), cvc: '123', ...card },
  })
}

async function listingWithBooking(priceCents = 64_900, who: UserRow = buyer) {
  const product = await createProduct(t.db, {
    seller,
    brand,
    isAdvertised: true,
    resalePriceCents: priceCents,
  })
  const booking = await createBooking(t.db, { buyer: who, product })
  return { product, booking }
}

async function state(product: CreatedProduct, bookingId: string) {
  const [p] = await t.db.select().from(products).where(eq(products.id, product.id))
  const [b] = await t.db.select().from(bookings).where(eq(bookings.id, bookingId))
  const pays = await t.db.select().from(payments).where(eq(payments.productId, product.id))
  if (!p || !b) throw new Error('rows missing')
  return { product: p, booking: b, payments: pays }
}

async function listedIds(url: string): Promise<string[]> {
  const res = await t.app.inject({ method: 'GET', url })
  expect(res.statusCode).toBe(200)
  return (res.json() as { _id: string }[]).map((p) => p._id)
}

describe('GET /api/payments/config', () => {
  it('says test mode when no Stripe keys are set, to anyone', async () => {
    for (const who of [null, buyer]) {
      const res = await call('GET', '/api/payments/config', who)
      expect(res.statusCode).toBe(200)
      expect(PaymentConfig.parse(res.json())).toEqual({
        mode: 'test',
        fee: { basis_points: 500, min_cents: 0 },
      })
    }
  })

  it('has no Stripe intents in test mode (404), and still asks for a sign-in first (401)', async () => {
    const { booking } = await listingWithBooking()
    const res = await call('POST', '/api/payments/intent', buyer, { bookingId: booking.id })
    expect(res.statusCode).toBe(404)
    expect((await call('POST', '/api/payments/intent', null, { bookingId: booking.id })).statusCode).toBe(401)
    expect((await call('POST', '/api/payments/webhook', null, {})).statusCode).toBe(404)
  })
})

describe('POST /api/payments/test', () => {
  it('4242 4242 4242 4242 pays: payment recorded, booking paid, laptop sold and off the lists', async () => {
    const { product, booking } = await listingWithBooking(71_250)
    // Loaded (and cached) before the sale.
    expect(await listedIds('/api/advertised_product')).toContain(product.id)
    expect(await listedIds(`/api/category/${brand.id}`)).toContain(product.id)

    const res = await pay(booking.id)
    expect(res.statusCode).toBe(200)
    const result = PaymentResult.parse(res.json())
    expect(result).toMatchObject({ status: 'succeeded', amount_cents: 71_250 })
    expect(result.transactionId).toMatch(/^test_/)

    const after = await state(product, booking.id)
    expect(after.payments).toHaveLength(1)
    expect(after.payments[0]).toMatchObject({
      bookingId: booking.id,
      buyerId: buyer.id,
      amountCents: 71_250,
      currency: 'usd',
      provider: 'test',
      transactionId: result.transactionId,
      status: 'succeeded',
      failureReason: null,
    })
    expect(after.booking.isPaid).toBe(true)
    expect(after.booking.paidAt).toBeInstanceOf(Date)
    expect(after.product.isSold).toBe(true)
    expect(after.product.soldAt).toBeInstanceOf(Date)

    expect(await listedIds('/api/advertised_product')).not.toContain(product.id)
    expect(await listedIds(`/api/category/${brand.id}`)).not.toContain(product.id)
    const detail = await t.app.inject({ method: 'GET', url: `/api/products/${product.id}` })
    expect(detail.json()).toMatchObject({ sellStatus: true })
  })

  it('takes the number with or without spaces or dashes, and an expiry without spaces', async () => {
    const a = await listingWithBooking()
    expect((await pay(a.booking.id, buyer, { number: '4242424242424242' })).statusCode).toBe(200)
    const b = await listingWithBooking()
    const expiry = futureExpiry().replace(/ /g, '')
    expect((await pay(b.booking.id, buyer, { number: '4242-4242-4242-4242', expiry })).statusCode).toBe(200)
  })

  it('accepts a card that expires at the end of this month', async () => {
    const { booking } = await listingWithBooking()
    expect((await pay(booking.id, buyer, { expiry: futureExpiry(0) })).statusCode).toBe(200)
  })

  it.each([
    [DECLINED, 'Your card was declined.'],
    [NO_FUNDS, 'Your card has insufficient funds.'],
  ])('%s is refused with 402 and its reason; the booking stays payable', async (number, message) => {
    const { product, booking } = await listingWithBooking(55_500)
    const res = await pay(booking.id, buyer, { number })
    expect(res.statusCode).toBe(402)
    expect(errorOf(res)).toEqual({ code: 'PAYMENT_FAILED', message })

    const after = await state(product, booking.id)
    expect(after.booking.isPaid).toBe(false)
    expect(after.product.isSold).toBe(false)
    expect(after.payments).toHaveLength(1)
    expect(after.payments[0]).toMatchObject({
      status: 'failed',
      failureReason: message,
      amountCents: 55_500,
      provider: 'test',
      bookingId: booking.id,
    })
    expect(await listedIds('/api/advertised_product')).toContain(product.id)

    const read = await call('GET', `/api/bookings/${booking.id}`, buyer)
    expect(read.json()).toMatchObject({ status: 'unpaid', paid: false })

    // The same booking, a good card: paid.
    expect((await pay(booking.id)).statusCode).toBe(200)
    const final = await state(product, booking.id)
    expect(final.booking.isPaid).toBe(true)
    expect(final.payments.map((p) => p.status).sort()).toEqual(['failed', 'succeeded'])
  })

  it.each([
    [
      'a number that fails the Luhn check',
      { number: '4242 4242 4242 4241' },
      'card.number',
      'Your card number is invalid',
    ],
    ['a short number', { number: '4242 4242' }, 'card.number', 'Your card number is incomplete'],
    [
      'letters in the number',
      { number: '4242 abcd 4242 4242' },
      'card.number',
      'Your card number is incomplete',
    ],
    ['no number', { number: undefined }, 'card.number', 'Card number is required'],
    [
      'an expiry in the past',
      { expiry: '01 / 20' },
      'card.expiry',
      'Your card’s expiration date is in the past',
    ],
    ['last month', { expiry: 'LAST_MONTH' }, 'card.expiry', 'Your card’s expiration date is in the past'],
    ['month 13', { expiry: '13 / 40' }, 'card.expiry', 'Enter the expiry as MM / YY'],
    ['a four-digit year', { expiry: '12 / 2040' }, 'card.expiry', 'Enter the expiry as MM / YY'],
    ['a two-digit CVC', { cvc: '12' }, 'card.cvc', 'Your card’s security code is incomplete'],
    ['a five-digit CVC', { cvc: '12345' }, 'card.cvc', 'Your card’s security code is incomplete'],
    ['letters in the CVC', { cvc: '12a' }, 'card.cvc', 'Your card’s security code is incomplete'],
  ])('refuses %s with 400 naming the field, and charges nothing', async (_case, card, field, message) => {
    const { product, booking } = await listingWithBooking()
    const last = new Date()
    last.setUTCDate(1)
    last.setUTCMonth(last.getUTCMonth() - 1)
    const lastMonth = `${String(last.getUTCMonth() + 1).padStart(2, '0')} / ${String(last.getUTCFullYear() % 100).padStart(2, '0')}`
    const patched = 'expiry' in card && card.expiry === 'LAST_MONTH' ? { expiry: lastMonth } : card
    const res = await pay(booking.id, buyer, patched)
    expect(res.statusCode).toBe(400)
    const error = errorOf(res)
    expect(error.code).toBe('VALIDATION')
    expect(error.fields?.[field]).toBe(message)
    const after = await state(product, booking.id)
    expect(after.payments).toEqual([])
    expect(after.booking.isPaid).toBe(false)
  })

  it('refuses a malformed booking id with 400 and an unknown one with 404', async () => {
    const bad = await pay('not-a-uuid')
    expect(bad.statusCode).toBe(400)
    expect(errorOf(bad).fields).toEqual({ bookingId: 'Must be a valid id' })
    expect((await pay(randomUUID())).statusCode).toBe(404)
  })

  it("lets only the booking's buyer pay: 401 signed out, 403 for the seller, another buyer or an admin", async () => {
    const { product, booking } = await listingWithBooking()
    expect((await pay(booking.id, null)).statusCode).toBe(401)
    for (const who of [otherBuyer, seller, admin]) {
      const res = await pay(booking.id, who)
      expect(res.statusCode).toBe(403)
      expect(errorOf(res).message).toBe('Only the buyer who booked this laptop can pay for it')
    }
    // A refused caller's declined card leaves no trace either.
    expect((await pay(booking.id, otherBuyer, { number: DECLINED })).statusCode).toBe(403)
    const after = await state(product, booking.id)
    expect(after.payments).toEqual([])
    expect(after.booking.isPaid).toBe(false)
    expect(after.product.isSold).toBe(false)
  })

  it('refuses to pay a paid booking again (409), and keeps the one payment', async () => {
    const { product, booking } = await listingWithBooking()
    expect((await pay(booking.id)).statusCode).toBe(200)
    const again = await pay(booking.id)
    expect(again.statusCode).toBe(409)
    expect(errorOf(again)).toEqual({ code: 'CONFLICT', message: 'This booking is already paid' })
    expect((await pay(booking.id, buyer, { number: DECLINED })).statusCode).toBe(409)
    const after = await state(product, booking.id)
    expect(after.payments).toHaveLength(1)
  })

  it('refuses a booking the buyer cancelled (409, saying so) and charges nothing', async () => {
    const { product, booking } = await listingWithBooking()
    expect((await call('POST', `/api/bookings/${booking.id}/hold`, buyer)).statusCode).toBe(200)
    const cancelled = await t.app.inject({
      method: 'PUT',
      url: `/api/bookings/${booking.id}/cancel-booking`,
      headers: await bearerFor(t.app, buyer),
    })
    expect(cancelled.statusCode).toBe(200)
    const res = await call('POST', '/api/payments/test', buyer, {
      bookingId: booking.id,
      card: { number: GOOD, expiry: futureExpiry(), cvc: '123' },
    })
    expect(res.statusCode).toBe(409)
    expect(errorOf(res).message).toBe('You cannot pay for it: this booking is cancelled')
    const after = await state(product, booking.id)
    expect(after.payments).toEqual([])
    expect(after.product.isSold).toBe(false)
  })

  it("refuses another buyer's booking of a laptop that was sold (409) before charging anything", async () => {
    const { product, booking } = await listingWithBooking()
    const late = await createBooking(t.db, { buyer: otherBuyer, product })
    expect((await pay(booking.id)).statusCode).toBe(200)
    const res = await pay(late.id, otherBuyer)
    expect(res.statusCode).toBe(409)
    expect(errorOf(res).message).toBe('This laptop has already been sold')
    const late2 = await state(product, late.id)
    expect(late2.booking.isPaid).toBe(false)
    expect(late2.payments.filter((p) => p.bookingId === late.id)).toEqual([])
  })

  it('refuses a listing taken down or whose seller was deleted (409)', async () => {
    const removed = await listingWithBooking()
    await t.db.update(products).set({ removedAt: new Date() }).where(eq(products.id, removed.product.id))
    const res = await pay(removed.booking.id)
    expect(res.statusCode).toBe(409)
    expect(errorOf(res).message).toBe('This listing is no longer available')

    const goneSeller = await createUser(t.db, { role: 'seller', disabled: true })
    const product = await createProduct(t.db, { seller: goneSeller, brand })
    const booking = await createBooking(t.db, { buyer, product })
    expect((await pay(booking.id)).statusCode).toBe(409)
    expect((await state(product, booking.id)).payments).toEqual([])
  })

  it('charges the booked price, not what the client says', async () => {
    const { product, booking } = await listingWithBooking(40_000)
    await call('POST', `/api/bookings/${booking.id}/hold`, buyer)
    const res = await call('POST', '/api/payments/test', buyer, {
      bookingId: booking.id,
      card: { number: GOOD, expiry: futureExpiry(), cvc: '123' },
      amount: 1,
    })
    expect(res.statusCode).toBe(400)
    const ok = await pay(booking.id)
    expect(PaymentResult.parse(ok.json()).amount_cents).toBe(40_000)
    expect((await state(product, booking.id)).payments[0]?.amountCents).toBe(40_000)
  })

  it('never charges a price raised after the booking; the booking shows what paying will charge', async () => {
    const { product, booking } = await listingWithBooking(10_000)
    await t.db.update(products).set({ resalePriceCents: 9_999_900 }).where(eq(products.id, product.id))
    const shown = await call('GET', `/api/bookings/${booking.id}`, buyer)
    expect(shown.json()).toMatchObject({ price_cents: 10_000, booked_price_cents: 10_000 })
    const ok = await pay(booking.id)
    expect(PaymentResult.parse(ok.json()).amount_cents).toBe(10_000)
    const after = await state(product, booking.id)
    expect(after.payments[0]?.amountCents).toBe(10_000)
    expect(after.booking.priceCents).toBe(10_000)
  })

  it('passes on a price lowered after the booking, and shows both prices', async () => {
    const { product, booking } = await listingWithBooking(50_000)
    await t.db.update(products).set({ resalePriceCents: 45_000 }).where(eq(products.id, product.id))
    const shown = await call('GET', `/api/bookings/${booking.id}`, buyer)
    expect(shown.json()).toMatchObject({ price_cents: 45_000, booked_price_cents: 50_000 })
    expect(PaymentResult.parse((await pay(booking.id)).json()).amount_cents).toBe(45_000)
  })
})
