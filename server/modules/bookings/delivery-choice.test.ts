// The buyer's delivery before paying: rates quoted by the carrier (the built-in test carrier, through EasyPost's
// SDK) from the listing's ship-from address to the buyer's, then meet in person or one of those rates, its price
// read back from the carrier. Refused with nothing changed: a method the listing does not offer, a bad address, a
// rate not quoted for this listing and address, someone else's booking, a paid one. Paying a shipped-only laptop
// with no rate chosen is refused on every payment start. The address is the buyer's, the seller's once paid, and
// admins'.
import { eq } from 'drizzle-orm'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Booking } from '#contract/bookings'
import { RateQuoteAnswer } from '#contract/delivery'
import { ErrorBody } from '#contract/errors'
import { bookings, payments, productHolds } from '#server/db/schema'
import type { SessionUser } from '#server/lib/session'
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
import { createStripeIntent } from '../payments/payments.service'

let t: TestApp
let brand: BrandRow
let buyer: UserRow
let otherBuyer: UserRow
let seller: UserRow
let otherSeller: UserRow
let admin: UserRow

const shipFrom = {
  name: 'Sam Seller',
  street1: '417 Montgomery St',
  city: 'San Francisco',
  state: 'CA',
  zip: '94104',
  country: 'US',
}
const home = {
  name: 'Bea Buyer',
  street1: '179 N Harbor Dr',
  street2: 'Apt 4',
  city: 'Redondo Beach',
  state: 'CA',
  zip: '90277',
}
const GOOD = '4242 4242 4242 4242'
const QUOTES_PER_MINUTE = 12

beforeAll(async () => {
  // Room for this file's quotes by one buyer; the limit's own test uses a buyer of its own.
  t = await createTestApp({
    TEST_CARRIER_SECONDS: '3600',
    LIVE_HOLDS_PER_BUYER: '100',
    SHIPPING_QUOTES_PER_MINUTE: String(QUOTES_PER_MINUTE),
  })
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer' })
  otherBuyer = await createUser(t.db, { role: 'buyer' })
  seller = await createUser(t.db, { role: 'seller' })
  otherSeller = await createUser(t.db, { role: 'seller' })
  admin = await createUser(t.db, { role: 'admin' })
})

afterAll(async () => {
  await t?.close()
})

async function call(method: 'GET' | 'POST' | 'PUT', url: string, who: UserRow | null, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: who ? await bearerFor(t.app, who) : {},
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}
const errorOf = (res: { json(): unknown }) => ErrorBody.parse(res.json()).error

/** A listing of `seller`'s offering `delivery`, booked (unpaid) by `buyer`. */
async function booked(delivery: 'meet' | 'ship' | 'both', priceCents = 50_000) {
  const product = await createProduct(t.db, {
    seller,
    brand,
    isAdvertised: true,
    resalePriceCents: priceCents,
    delivery,
    shipFrom: delivery === 'meet' ? null : shipFrom,
    screenInches: 14,
  })
  const booking = await createBooking(t.db, { buyer, product })
  return { product, booking }
}

async function row(bookingId: string) {
  const [b] = await t.db.select().from(bookings).where(eq(bookings.id, bookingId))
  if (!b) throw new Error('no booking')
  return b
}
const deliveryOf = async (bookingId: string) => {
  const b = await row(bookingId)
  return {
    method: b.deliveryMethod,
    cents: b.shippingCents,
    address: b.shippingAddress,
    rate: b.shippingRate,
  }
}

async function quote(bookingId: string, address: unknown = home, who: UserRow = buyer) {
  return call('POST', `/api/bookings/${bookingId}/shipping-rates`, who, { address })
}
async function quoted(bookingId: string, address: unknown = home) {
  const res = await quote(bookingId, address)
  expect(res.statusCode, res.body).toBe(200)
  return RateQuoteAnswer.parse(res.json())
}
async function ship(bookingId: string, q: RateQuoteAnswer, pick = 0, address: unknown = home, who = buyer) {
  const rate = q.rates[pick]
  if (!rate) throw new Error('no rate')
  return call('PUT', `/api/bookings/${bookingId}/delivery`, who, {
    method: 'ship',
    address,
    shipment_id: rate.shipment_id,
    rate_id: rate.rate_id,
  })
}
async function pay(bookingId: string, who: UserRow = buyer) {
  await call('POST', `/api/bookings/${bookingId}/hold`, who)
  return call('POST', '/api/payments/test', who, {
    bookingId,
    card: { number: GOOD, expiry: `12 / ${(new Date().getUTCFullYear() + 3) % 100}`, cvc: '123' },
  })
}

describe('quoting rates for a booking', () => {
  it('gives the carrier’s rates from the listing’s ship-from address, cheapest first, marked test mode', async () => {
    const { booking } = await booked('ship')
    const q = await quoted(booking.id)
    expect(q.test_mode).toBe(true)
    expect(q.rates.length).toBeGreaterThan(1)
    const amounts = q.rates.map((r) => r.amount_cents)
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b))
    for (const r of q.rates) {
      expect(r.shipment_id).toBe(q.shipment_id)
      expect(r.carrier).toMatch(/\w/)
      expect(r.amount_cents).toBeGreaterThan(0)
    }
    // Quoting keeps nothing on the booking.
    expect((await deliveryOf(booking.id)).method).toBe('meet')
  })

  it('refuses a listing met in person only, a bad address, and callers other than the buyer', async () => {
    const meetOnly = await booked('meet')
    const res = await quote(meetOnly.booking.id)
    expect(res.statusCode).toBe(409)
    expect(errorOf(res).message).toMatch(/not shipped/)

    const { booking } = await booked('both')
    const bad = await quote(booking.id, { ...home, zip: '9027', state: 'Cal' })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(errorOf(bad).fields ?? {}).join(' ')).toMatch(/zip/)
    const missing = await quote(booking.id, { name: 'Bea Buyer', city: 'Redondo Beach' })
    expect(missing.statusCode).toBe(400)
    const foreign = await quote(booking.id, { ...home, country: 'CA' })
    expect(foreign.statusCode).toBe(400)

    expect((await quote(booking.id, home, otherBuyer)).statusCode).toBe(404)
    expect((await quote(booking.id, home, otherSeller)).statusCode).toBe(404)
    expect((await quote(booking.id, home, seller)).statusCode).toBe(403)
    expect((await quote(booking.id, home, admin)).statusCode).toBe(403)
    expect(
      (await call('POST', `/api/bookings/${booking.id}/shipping-rates`, null, { address: home })).statusCode,
    ).toBe(401)
  })
})

describe('the buyer’s limit on quotes', () => {
  it('answers 429 past SHIPPING_QUOTES_PER_MINUTE quotes by one buyer, without asking the carrier; other buyers quote on', async () => {
    const quoter = await createUser(t.db, { role: 'buyer' })
    const product = await createProduct(t.db, { seller, brand, delivery: 'ship', shipFrom, screenInches: 14 })
    const mine = await createBooking(t.db, { buyer: quoter, product })
    for (let i = 0; i < QUOTES_PER_MINUTE; i++) {
      const res = await quote(mine.id, home, quoter)
      expect(res.statusCode, res.body).toBe(200)
    }
    const over = await quote(mine.id, { ...home, street1: '1 Other St' }, quoter)
    expect(over.statusCode, over.body).toBe(429)
    expect(errorOf(over).code).toBe('RATE_LIMITED')
    expect(errorOf(over).message).toMatch(/too quickly\. Please wait \d+ seconds/)
    // The wait the message gives is the Retry-After the client is told.
    const wait = Number(/wait (\d+) seconds/.exec(errorOf(over).message)?.[1])
    expect(over.headers['retry-after']).toBe(String(wait))
    // Counted per buyer: another buyer of the same listing is not held back by it.
    const theirs = await createBooking(t.db, { buyer: otherBuyer, product })
    expect((await quote(theirs.id, home, otherBuyer)).statusCode).toBe(200)
  })
})

describe('choosing the delivery', () => {
  it('keeps the chosen rate at the carrier’s price with the address, and paying charges laptop + shipping', async () => {
    const { booking } = await booked('ship', 50_000)
    const q = await quoted(booking.id)
    const chosen = q.rates[1]
    if (!chosen) throw new Error('no second rate')
    const res = await ship(booking.id, q, 1)
    expect(res.statusCode, res.body).toBe(200)
    const view = Booking.parse(res.json())
    expect(view.delivery?.method).toBe('ship')
    expect(view.delivery?.offered).toBe('ship')
    expect(view.delivery?.shipping_cents).toBe(chosen.amount_cents)
    expect(view.delivery?.address?.street1).toBe(home.street1)
    expect(view.delivery?.rate).toEqual({
      carrier: chosen.carrier,
      service: chosen.service,
      amount_cents: chosen.amount_cents,
      delivery_days: chosen.delivery_days,
    })
    const kept = await deliveryOf(booking.id)
    expect(kept).toMatchObject({
      method: 'ship',
      cents: chosen.amount_cents,
      address: { ...home, country: 'US' },
      rate: { shipmentId: q.shipment_id, rateId: chosen.rate_id, amountCents: chosen.amount_cents },
    })

    const paid = await pay(booking.id)
    expect(paid.statusCode, paid.body).toBe(200)
    expect(paid.json().amount_cents).toBe(50_000 + chosen.amount_cents)
    const [payment] = await t.db.select().from(payments).where(eq(payments.bookingId, booking.id))
    expect(payment?.amountCents).toBe(50_000 + chosen.amount_cents)
  })

  it('never takes a price from the browser: an unknown rate, a rate quoted to another address or for another listing', async () => {
    const { booking } = await booked('ship')
    const q = await quoted(booking.id)
    const first = q.rates[0]
    if (!first) throw new Error('no rate')
    const put = (body: Record<string, unknown>) =>
      call('PUT', `/api/bookings/${booking.id}/delivery`, buyer, { method: 'ship', address: home, ...body })

    const unknownRate = await put({ shipment_id: q.shipment_id, rate_id: 'rate_0000' })
    expect(unknownRate.statusCode).toBe(400)
    expect(errorOf(unknownRate).message).toMatch(/get the rates again/)
    const unknownShipment = await put({
      shipment_id: 'shp_00000000000000000000000000000000',
      rate_id: first.rate_id,
    })
    expect(unknownShipment.statusCode).toBe(400)
    const priced = await put({ shipment_id: q.shipment_id, rate_id: first.rate_id, amount_cents: 1 })
    expect(priced.statusCode).toBe(400)

    // A cheap quote to a neighbour's address passed off for another address.
    const elsewhere = await put({
      shipment_id: q.shipment_id,
      rate_id: first.rate_id,
      address: { ...home, street1: '1 Other St', zip: '10001', city: 'New York', state: 'NY' },
    })
    expect(elsewhere.statusCode).toBe(400)

    // A rate quoted for another listing (another parcel) used on this booking.
    const small = await createProduct(t.db, {
      seller,
      brand,
      isAdvertised: true,
      delivery: 'ship',
      shipFrom,
      screenInches: 13,
      parcelWeightOz: 16,
    })
    const smallBooking = await createBooking(t.db, { buyer, product: small })
    const cheap = await quoted(smallBooking.id)
    const borrowed = await ship(booking.id, cheap)
    expect(borrowed.statusCode).toBe(400)

    expect(await deliveryOf(booking.id)).toEqual({ method: 'meet', cents: 0, address: null, rate: null })
  })

  it('refuses a method the listing does not offer, and switching back to meeting drops the shipping', async () => {
    const shipOnly = await booked('ship')
    const meet = await call('PUT', `/api/bookings/${shipOnly.booking.id}/delivery`, buyer, { method: 'meet' })
    expect(meet.statusCode).toBe(409)
    expect(errorOf(meet).message).toMatch(/shipped only/)

    const meetOnly = await booked('meet')
    const shipMeet = await call('PUT', `/api/bookings/${meetOnly.booking.id}/delivery`, buyer, {
      method: 'ship',
      address: home,
      shipment_id: 'shp_00000000000000000000000000000000',
      rate_id: 'rate_00000000000000000000000000000000',
    })
    expect(shipMeet.statusCode).toBe(409)
    expect(errorOf(shipMeet).message).toMatch(/not shipped/)
    expect((await deliveryOf(meetOnly.booking.id)).method).toBe('meet')

    const { booking } = await booked('both', 40_000)
    expect((await ship(booking.id, await quoted(booking.id))).statusCode).toBe(200)
    expect((await deliveryOf(booking.id)).method).toBe('ship')
    const back = await call('PUT', `/api/bookings/${booking.id}/delivery`, buyer, { method: 'meet' })
    expect(back.statusCode).toBe(200)
    expect(await deliveryOf(booking.id)).toEqual({ method: 'meet', cents: 0, address: null, rate: null })
    const paid = await pay(booking.id)
    expect(paid.json().amount_cents).toBe(40_000)
  })

  it('refuses a bad address, someone else’s booking, and any change once paid', async () => {
    const { booking } = await booked('both')
    const q = await quoted(booking.id)
    expect((await ship(booking.id, q, 0, { ...home, street1: '' })).statusCode).toBe(400)
    expect((await ship(booking.id, q, 0, { ...home, extra: 'x' })).statusCode).toBe(400)
    const unknownMethod = await call('PUT', `/api/bookings/${booking.id}/delivery`, buyer, {
      method: 'drone',
    })
    expect(unknownMethod.statusCode).toBe(400)
    expect((await ship(booking.id, q, 0, home, otherBuyer)).statusCode).toBe(404)
    expect((await ship(booking.id, q, 0, home, seller)).statusCode).toBe(403)
    expect((await ship(booking.id, q, 0, home, admin)).statusCode).toBe(403)
    expect(await deliveryOf(booking.id)).toEqual({ method: 'meet', cents: 0, address: null, rate: null })

    expect((await ship(booking.id, q)).statusCode).toBe(200)
    expect((await pay(booking.id)).statusCode).toBe(200)
    const before = await deliveryOf(booking.id)
    const meet = await call('PUT', `/api/bookings/${booking.id}/delivery`, buyer, { method: 'meet' })
    expect(meet.statusCode).toBe(409)
    expect(errorOf(meet).message).toMatch(/paid/)
    expect((await ship(booking.id, q, 1)).statusCode).toBe(409)
    expect((await quote(booking.id)).statusCode).toBe(409)
    expect(await deliveryOf(booking.id)).toEqual(before)
  })
})

describe('paying a laptop shipped only', () => {
  it('is refused with no rate chosen, on the test card and on a Stripe intent start, and nothing is charged', async () => {
    const { booking, product } = await booked('ship')
    const res = await pay(booking.id)
    expect(res.statusCode).toBe(409)
    expect(errorOf(res).message).toBe(
      'This laptop is shipped only: choose a shipping address and rate before paying',
    )

    await t.db
      .insert(productHolds)
      .values({ productId: product.id, bookingId: booking.id, holdUntil: new Date(Date.now() + 600_000) })
      .onConflictDoNothing()
    const buyerSession: SessionUser = {
      id: buyer.id,
      name: buyer.name,
      email: buyer.email,
      role: buyer.role,
      isVerified: false,
    }
    // Refused before Stripe is called (this client points nowhere).
    const stripe = new Stripe('sk_test_unused', { host: '127.0.0.1', port: 9, protocol: 'http' })
    await expect(createStripeIntent(t.db, stripe, buyerSession, booking.id)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This laptop is shipped only: choose a shipping address and rate before paying',
    })
    expect(await t.db.select().from(payments).where(eq(payments.bookingId, booking.id))).toEqual([])
    expect((await row(booking.id)).isPaid).toBe(false)

    expect((await ship(booking.id, await quoted(booking.id))).statusCode).toBe(200)
    expect((await pay(booking.id)).statusCode).toBe(200)
  })
})

describe('who sees the address', () => {
  it('the buyer and admins always, the seller once paid, nobody else', async () => {
    const { booking } = await booked('ship')
    expect((await ship(booking.id, await quoted(booking.id))).statusCode).toBe(200)
    const addressFor = async (who: UserRow) => {
      const res = await call('GET', `/api/bookings/${booking.id}`, who)
      return res.statusCode === 200 ? (Booking.parse(res.json()).delivery?.address ?? null) : res.statusCode
    }
    expect(await addressFor(buyer)).toMatchObject({ street1: home.street1 })
    expect(await addressFor(admin)).toMatchObject({ street1: home.street1 })
    expect(await addressFor(seller)).toBeNull()
    expect(await addressFor(otherSeller)).toBe(403)
    expect(await addressFor(otherBuyer)).toBe(403)
    // The seller's own bookings list (as a buyer) and a stranger's list carry nothing of it.
    const list = await call('GET', `/api/bookings?email=${encodeURIComponent(buyer.email)}`, seller)
    expect(list.statusCode).toBe(403)

    expect((await pay(booking.id)).statusCode).toBe(200)
    expect(await addressFor(seller)).toMatchObject({ street1: home.street1, zip: home.zip })
    expect(await addressFor(otherSeller)).toBe(403)
    const adminList = await call('GET', `/api/bookings?email=${encodeURIComponent(buyer.email)}`, admin)
    expect(JSON.stringify(adminList.json())).toContain(home.street1)
  })
})
