// Offers through the API: who sees them, who takes each step, every amount rule, the limits, expiry through the
// job queue, an accepted offer as a booking at the agreed price with its hold, the lapse, the sale at the agreed
// price (payment, price guide) and the other offers closed when the laptop sells.

import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Booking } from '#contract/bookings'
import { ErrorBody } from '#contract/errors'
import { Offer, OfferAnswer, OfferList } from '#contract/offers'
import { PaymentResult } from '#contract/payments'
import { Product } from '#contract/products'
import { bookings, offers, payments, priceGuides, productHolds, products } from '#server/db/schema'
import type { OutgoingEmail } from '#server/mail/transport'
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
import { eraseAccount } from '../account/erase.service'
import { expireOffer, lapseOffer, remindOffer } from './offers.jobs'

const CARD = { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' }

let t: TestApp
let brand: BrandRow
let seller: UserRow
let buyer: UserRow
let otherBuyer: UserRow
let otherSeller: UserRow
let admin: UserRow

beforeAll(async () => {
  t = await createTestApp({ OFFER_HOURS: '48', HOLD_SECONDS: '900' })
  brand = await createBrand(t.db)
  seller = await createUser(t.db, { role: 'seller' })
  otherSeller = await createUser(t.db, { role: 'seller' })
  buyer = await createUser(t.db, { role: 'buyer' })
  otherBuyer = await createUser(t.db, { role: 'buyer' })
  admin = await createUser(t.db, { role: 'admin' })
})

afterAll(async () => {
  await t?.close()
})

beforeEach(async () => {
  await t.app.ctx.jobs.drain('email')
  t.outbox.length = 0
})

async function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, who: UserRow, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: await bearerFor(t.app, who),
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

/** A $420 listing of `seller`'s (price and settings overridable). */
async function listing(overrides: Omit<Partial<typeof products.$inferInsert>, 'images'> = {}) {
  return createProduct(t.db, {
    seller,
    brand,
    resalePriceCents: 42_000,
    processor: 'Intel Core i7-1185G7',
    ramGb: 32,
    storageGb: 1024,
    ...overrides,
  })
}

async function offer(productId: string, amount: number, who: UserRow = buyer, note?: string) {
  const res = await call(
    'POST',
    `/api/products/${productId}/offers`,
    who,
    note ? { amount, note } : { amount },
  )
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { insertedId: string }).insertedId
}

async function read(id: string, who: UserRow = buyer) {
  const res = await call('GET', `/api/offers/${id}`, who)
  expect(res.statusCode, res.body).toBe(200)
  return Offer.parse(res.json())
}

function refusal(res: { statusCode: number; json(): unknown }, status: number) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status)
  return ErrorBody.parse(res.json()).error
}

async function sent(): Promise<string[]> {
  await t.app.ctx.jobs.drain('email')
  const out: OutgoingEmail[] = [...t.outbox]
  t.outbox.length = 0
  return out
    .map((e) => `${e.headers['X-Laptop-Market-Email']} → ${e.to.replace(/^.*</, '').replace('>', '')}`)
    .sort()
}

/** Pays as the payment page does: the hold, then the test card. */
async function pay(bookingId: string, who: UserRow = buyer) {
  await call('POST', `/api/bookings/${bookingId}/hold`, who)
  return call('POST', '/api/payments/test', who, { bookingId, card: CARD })
}

describe('making an offer', () => {
  it('records it, tells the seller, and shows it to the two parties only', async () => {
    const product = await listing()
    const id = await offer(product.id, 380, buyer, 'Would you take $380? I can pick it up today.')
    expect(await sent()).toEqual([`offer-received → ${seller.email}`])
    const asBuyer = await read(id, buyer)
    expect(asBuyer).toMatchObject({
      role: 'buyer',
      state: 'open',
      waitingFor: 'seller',
      amount: 380,
      amount_cents: 38_000,
      asking_price_cents: 42_000,
      rounds: 1,
      roundsLeft: 2,
      note: 'Would you take $380? I can pick it up today.',
      bookingId: null,
    })
    expect(asBuyer.events.map((e) => [e.kind, e.by, e.amount_cents])).toEqual([['offer', 'buyer', 38_000]])
    const hoursLeft = (Date.parse(asBuyer.expiresAt ?? '') - Date.now()) / 3_600_000
    expect(hoursLeft).toBeGreaterThan(47.9)
    expect(hoursLeft).toBeLessThanOrEqual(48)
    expect((await read(id, seller)).role).toBe('seller')
    for (const who of [otherBuyer, otherSeller, admin]) {
      expect(refusal(await call('GET', `/api/offers/${id}`, who), 404).code).toBe('NOT_FOUND')
    }
    const mine = OfferList.parse((await call('GET', '/api/offers?role=buyer', buyer)).json())
    expect(mine.map((o) => o._id)).toContain(id)
    const theirs = OfferList.parse(
      (await call('GET', `/api/offers?role=seller&productId=${product.id}`, seller)).json(),
    )
    expect(theirs.map((o) => o._id)).toEqual([id])
    expect(OfferList.parse((await call('GET', '/api/offers?role=seller', otherSeller)).json())).toEqual([])
    expect(OfferList.parse((await call('GET', '/api/offers?role=buyer', otherBuyer)).json())).toEqual([])
  })

  it('never changes the listing price for anyone else', async () => {
    const product = await listing()
    const id = await offer(product.id, 380)
    const counter = await call('PUT', `/api/offers/${id}/counter`, seller, { amount: 400 })
    expect(counter.statusCode).toBe(200)
    const accepted = OfferAnswer.parse((await call('PUT', `/api/offers/${id}/accept`, buyer)).json())
    expect(accepted.bookingId).toBeTruthy()
    const detail = Product.parse((await call('GET', `/api/products/${product.id}`, otherBuyer)).json())
    expect(detail.resale_price_cents).toBe(42_000)
    const booked = await call('POST', '/api/bookings', otherBuyer, {
      productId: product.id,
      phoneNumber: '(312) 555-0100',
      location: 'Chicago, IL',
    })
    expect(booked.statusCode).toBe(201)
    const theirs = Booking.parse(
      (
        await call('GET', `/api/bookings/${(booked.json() as { insertedId: string }).insertedId}`, otherBuyer)
      ).json(),
    )
    expect(theirs.price_cents).toBe(42_000)
  })

  it('refuses bad amounts with 400 naming the field, and changes nothing', async () => {
    const product = await listing({ offerFloorCents: 30_000 })
    const cases: [unknown, RegExp][] = [
      [380.123, /two decimals/],
      ['380', /amount/i],
      [0, /more than \$0/],
      [-5, /more than \$0/],
      [420, /less than the asking price of \$420/],
      [500, /less than the asking price/],
      [209.99, /under half the asking price \(\$210\)/],
      [299.99, /The seller is not taking offers under \$300/],
    ]
    for (const [amount, message] of cases) {
      const err = refusal(await call('POST', `/api/products/${product.id}/offers`, buyer, { amount }), 400)
      expect(err.code).toBe('VALIDATION')
      expect(err.fields?.amount, String(amount)).toMatch(message)
    }
    const extra = refusal(
      await call('POST', `/api/products/${product.id}/offers`, buyer, { amount: 350, price: 1 }),
      400,
    )
    expect(extra.code).toBe('VALIDATION')
    const longNote = refusal(
      await call('POST', `/api/products/${product.id}/offers`, buyer, { amount: 350, note: 'x'.repeat(501) }),
      400,
    )
    expect(longNote.fields?.note).toMatch(/under 500/)
    const rows = await t.db.select().from(offers).where(eq(offers.productId, product.id))
    expect(rows).toEqual([])
    // At the floor itself it is taken.
    await offer(product.id, 300)
  })

  it('refuses offers where the listing does not take them', async () => {
    const off = await listing({ offersEnabled: false })
    expect(
      refusal(await call('POST', `/api/products/${off.id}/offers`, buyer, { amount: 380 }), 409).message,
    ).toBe('The seller is not taking offers on this laptop')
    const own = await listing()
    expect(
      refusal(await call('POST', `/api/products/${own.id}/offers`, seller, { amount: 380 }), 403).code,
    ).toBe('FORBIDDEN')
    const unconfirmed = await createUser(t.db, { role: 'buyer', emailVerified: false })
    expect(
      refusal(await call('POST', `/api/products/${own.id}/offers`, unconfirmed, { amount: 380 }), 403)
        .message,
    ).toMatch(/Confirm your email address/)
    const sold = await listing({ isSold: true })
    expect(
      refusal(await call('POST', `/api/products/${sold.id}/offers`, buyer, { amount: 380 }), 409).message,
    ).toMatch(/sold/)
    const removed = await listing({ removedAt: new Date() })
    refusal(await call('POST', `/api/products/${removed.id}/offers`, buyer, { amount: 380 }), 404)
    refusal(
      await call('POST', `/api/products/00000000-0000-4000-8000-000000000000/offers`, buyer, { amount: 380 }),
      404,
    )
    refusal(await call('POST', `/api/products/not-an-id/offers`, buyer, { amount: 380 }), 400)
  })

  it('allows one open offer per buyer and listing, and five open offers per buyer', async () => {
    const limited = await createUser(t.db, { role: 'buyer' })
    const first = await listing()
    await offer(first.id, 380, limited)
    expect(
      refusal(await call('POST', `/api/products/${first.id}/offers`, limited, { amount: 390 }), 409).message,
    ).toMatch(/already have an open offer/)
    for (let i = 0; i < 4; i++) await offer((await listing()).id, 300, limited)
    const sixth = await listing()
    const err = refusal(await call('POST', `/api/products/${sixth.id}/offers`, limited, { amount: 300 }), 429)
    expect(err.message).toMatch(/5 open offers/)
    // One answered (declined) frees a place.
    const [anyOpen] = OfferList.parse((await call('GET', '/api/offers?role=buyer&open=true', limited)).json())
    expect(
      (await call('PUT', `/api/offers/${anyOpen?._id}/decline`, seller, { reason: 'Too low' })).statusCode,
    ).toBe(200)
    await offer(sixth.id, 300, limited)
  })
})

describe('answering an offer', () => {
  it('lets the seller counter between the offer and the asking price, the buyer between theirs and the counter', async () => {
    const product = await listing()
    const id = await offer(product.id, 350)
    await sent()
    for (const amount of [350, 340, 420, 430]) {
      const err = refusal(await call('PUT', `/api/offers/${id}/counter`, seller, { amount }), 400)
      expect(err.fields?.amount).toBe('Counter with an amount between $350 and $420')
    }
    refusal(await call('PUT', `/api/offers/${id}/counter`, seller, { amount: 400.001 }), 400)
    expect((await call('PUT', `/api/offers/${id}/counter`, seller, { amount: 400 })).statusCode).toBe(200)
    expect(await sent()).toEqual([`offer-countered → ${buyer.email}`])
    // Now it waits for the buyer: the seller cannot take another step on it.
    for (const step of ['accept', 'counter', 'decline'] as const) {
      const err = refusal(
        await call(
          'PUT',
          `/api/offers/${id}/${step}`,
          seller,
          step === 'counter' ? { amount: 410 } : undefined,
        ),
        409,
      )
      expect(err.message).toMatch(/waiting for the buyer's answer/)
    }
    for (const amount of [350, 400, 345]) {
      const err = refusal(await call('PUT', `/api/offers/${id}/counter`, buyer, { amount }), 400)
      expect(err.fields?.amount).toBe('Counter with an amount between $350 and $400')
    }
    expect((await call('PUT', `/api/offers/${id}/counter`, buyer, { amount: 375 })).statusCode).toBe(200)
    expect(await sent()).toEqual([`offer-countered → ${seller.email}`])
    // Three rounds made: the seller can only accept or decline now.
    const err = refusal(await call('PUT', `/api/offers/${id}/counter`, seller, { amount: 390 }), 409)
    expect(err.message).toMatch(/3 rounds .* accept or decline/)
    const view = await read(id, seller)
    expect(view).toMatchObject({
      state: 'open',
      waitingFor: 'seller',
      amount_cents: 37_500,
      rounds: 3,
      roundsLeft: 0,
    })
    expect(view.events.map((e) => `${e.kind}:${e.by}:${e.amount_cents}`)).toEqual([
      'offer:buyer:35000',
      'counter:seller:40000',
      'counter:buyer:37500',
    ])
    // Declined, a new offer would be a fourth round.
    expect(
      (await call('PUT', `/api/offers/${id}/decline`, seller, { reason: 'Firm at $390' })).statusCode,
    ).toBe(200)
    expect(await sent()).toEqual([`offer-declined → ${buyer.email}`])
    expect((await read(id)).declineReason).toBe('Firm at $390')
    expect(
      refusal(await call('POST', `/api/products/${product.id}/offers`, buyer, { amount: 380 }), 409).message,
    ).toMatch(/3 rounds of offers/)
  })

  it('gives each step to the right party (403) in the right state (409 naming it)', async () => {
    const product = await listing()
    const id = await offer(product.id, 380)
    expect(refusal(await call('PUT', `/api/offers/${id}/decline`, buyer), 403).message).toMatch(
      /Only the seller/,
    )
    expect(refusal(await call('PUT', `/api/offers/${id}/withdraw`, seller), 403).message).toMatch(
      /Only the buyer/,
    )
    expect(refusal(await call('PUT', `/api/offers/${id}/accept`, buyer), 409).message).toMatch(
      /waiting for the seller's answer/,
    )
    for (const who of [otherBuyer, otherSeller, admin]) {
      for (const step of ['accept', 'decline', 'withdraw'] as const) {
        refusal(await call('PUT', `/api/offers/${id}/${step}`, who), 404)
      }
      refusal(await call('PUT', `/api/offers/${id}/counter`, who, { amount: 400 }), 404)
    }
    expect((await call('PUT', `/api/offers/${id}/withdraw`, buyer)).statusCode).toBe(200)
    for (const [step, who] of [
      ['accept', seller],
      ['decline', seller],
      ['withdraw', buyer],
    ] as const) {
      expect(refusal(await call('PUT', `/api/offers/${id}/${step}`, who), 409).message).toMatch(
        /this offer is withdrawn/,
      )
    }
    expect(
      refusal(await call('PUT', `/api/offers/${id}/counter`, seller, { amount: 400 }), 409).message,
    ).toMatch(/withdrawn/)
    // A new offer on the same listing is the second round.
    const again = await offer(product.id, 390)
    expect((await read(again)).rounds).toBe(2)
  })

  it('makes an accepted offer a booking at the agreed price, held for the buyer, paid at that price', async () => {
    const product = await listing()
    const earlier = await createBooking(t.db, { buyer, product })
    const id = await offer(product.id, 380)
    const rival = await offer(product.id, 360, otherBuyer)
    expect((await call('PUT', `/api/offers/${id}/counter`, seller, { amount: 400 })).statusCode).toBe(200)
    await sent()
    const answer = OfferAnswer.parse((await call('PUT', `/api/offers/${id}/accept`, buyer)).json())
    expect(answer).toMatchObject({ acknowledged: true, state: 'accepted', bookingId: earlier.id })
    expect(await sent()).toEqual([`offer-accepted → ${seller.email}`])
    const accepted = await read(id)
    expect(accepted).toMatchObject({ state: 'accepted', bookingId: earlier.id, amount_cents: 40_000 })
    expect(Date.parse(accepted.payBy ?? '') - Date.now()).toBeGreaterThan(890_000)
    const booking = Booking.parse((await call('GET', `/api/bookings/${earlier.id}`, buyer)).json())
    expect(booking.price_cents).toBe(40_000)
    const [hold] = await t.db.select().from(productHolds).where(eq(productHolds.productId, product.id))
    expect(hold?.bookingId).toBe(earlier.id)
    // Another buyer's accepted offer cannot take the laptop while it is held.
    expect((await call('PUT', `/api/offers/${rival}/counter`, seller, { amount: 410 })).statusCode).toBe(200)
    expect(refusal(await call('PUT', `/api/offers/${rival}/accept`, otherBuyer), 409).message).toMatch(
      /Another buyer is paying/,
    )
    // Steps on an accepted offer are refused naming the state.
    expect(refusal(await call('PUT', `/api/offers/${id}/withdraw`, buyer), 409).message).toMatch(
      /this offer is accepted/,
    )

    const paid = await pay(earlier.id)
    expect(paid.statusCode, paid.body).toBe(200)
    expect(PaymentResult.parse(paid.json()).amount_cents).toBe(40_000)
    const [payment] = await t.db.select().from(payments).where(eq(payments.bookingId, earlier.id))
    expect(payment?.amountCents).toBe(40_000)
    expect((await read(id)).state).toBe('paid')
    const [listingNow] = await t.db.select().from(products).where(eq(products.id, product.id))
    expect(listingNow).toMatchObject({ isSold: true, resalePriceCents: 42_000 })
    // The rival's open offer closed when the laptop sold, and its buyer was told.
    const closed = await read(rival, otherBuyer)
    expect(closed.state).toBe('declined')
    expect(closed.events.at(-1)?.kind).toBe('sold')
    const mail = await sent()
    expect(mail).toContain(`offer-declined → ${otherBuyer.email}`)
    expect(mail).toContain(`deal-paid → ${buyer.email}`)
    // The price guide learnt the sale at the agreed price.
    const guide = await t.db
      .select()
      .from(priceGuides)
      .where(
        and(eq(priceGuides.brandId, brand.id), eq(priceGuides.ramGb, 32), eq(priceGuides.storageGb, 1024)),
      )
    expect(guide.length).toBeGreaterThan(0)
    for (const row of guide) expect(row.medianCents).toBe(40_000)
  })

  it('lets the seller accept an offer: the buyer gets a new booking at that price and is emailed to pay', async () => {
    const product = await listing()
    const id = await offer(product.id, 395)
    await sent()
    const answer = OfferAnswer.parse((await call('PUT', `/api/offers/${id}/accept`, seller)).json())
    expect(answer.bookingId).toBeTruthy()
    expect(await sent()).toEqual([`offer-accepted → ${buyer.email}`])
    const booking = Booking.parse((await call('GET', `/api/bookings/${answer.bookingId}`, buyer)).json())
    expect(booking).toMatchObject({ price_cents: 39_500, status: 'unpaid', productId: product.id })
    // The seller's double click: the second finds it accepted.
    expect(refusal(await call('PUT', `/api/offers/${id}/accept`, seller), 409).message).toMatch(/accepted/)
  })

  it('lapses an accepted offer unpaid when its hold ends: the laptop is free, at its own price', async () => {
    const product = await listing()
    const id = await offer(product.id, 380)
    const { bookingId } = OfferAnswer.parse((await call('PUT', `/api/offers/${id}/accept`, seller)).json())
    if (!bookingId) throw new Error('no booking')
    const lapseJobs = (await t.db.execute(
      sql`select start_after > now() + interval '14 minutes' as later from pgboss.job
        where name = 'offers.lapse' and data->>'offerId' = ${id}`,
    )) as unknown as { rows: { later: boolean }[] }
    expect(lapseJobs.rows.map((r) => r.later)).toEqual([true])
    // The hold runs out (the database's clock decides).
    await t.db
      .update(productHolds)
      .set({ holdUntil: sql`now() - interval '1 second'` })
      .where(eq(productHolds.bookingId, bookingId))
    await t.db.update(offers).set({ payBy: sql`now() - interval '1 second'` }).where(eq(offers.id, id))
    expect((await read(id)).state).toBe('lapsed')
    // Paying or holding again at the agreed price is refused until the lapse is recorded.
    expect(refusal(await call('POST', `/api/bookings/${bookingId}/hold`, buyer), 409).message).toMatch(
      /lapsed/,
    )
    expect(
      refusal(await call('POST', '/api/payments/test', buyer, { bookingId, card: CARD }), 409).code,
    ).toBe('CONFLICT')
    expect(await lapseOffer(t.db, id)).toBe(true)
    expect(await lapseOffer(t.db, id)).toBe(false)
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, bookingId))
    expect(row?.priceCents).toBe(42_000)
    expect((await read(id)).events.at(-1)?.kind).toBe('lapsed')
    // Another buyer can have the laptop now.
    const other = await offer(product.id, 400, otherBuyer)
    expect((await call('PUT', `/api/offers/${other}/accept`, seller)).statusCode).toBe(200)
  })

  it('declines open offers when the seller marks the laptop sold', async () => {
    const product = await listing()
    const id = await offer(product.id, 380)
    await sent()
    expect((await call('PUT', `/api/products/${product.id}/sold`, seller)).statusCode).toBe(200)
    expect((await read(id)).state).toBe('declined')
    expect(await sent()).toEqual([`offer-declined → ${buyer.email}`])
  })
})

describe('expiry through the job queue', () => {
  it('queues the expiry and the reminder; an unanswered offer expires and cannot be answered', async () => {
    const product = await listing()
    const id = await offer(product.id, 380)
    await sent()
    const jobs = (await t.db.execute(
      sql`select name, extract(epoch from (start_after - now()))::float8 as seconds from pgboss.job
        where data->>'offerId' = ${id} order by name`,
    )) as unknown as { rows: { name: string; seconds: number }[] }
    const byName = Object.fromEntries(jobs.rows.map((r) => [r.name, r.seconds]))
    expect(byName['offers.expire']).toBeGreaterThan(48 * 3600 - 60)
    expect(byName['offers.remind']).toBeGreaterThan(42 * 3600 - 60)
    expect(byName['offers.remind']).toBeLessThan(42 * 3600 + 60)
    // Not yet due: the job changes nothing.
    expect(await expireOffer(t.db, id, 1)).toBe(false)
    expect(await remindOffer(t.app.ctx, id, 1)).toBe(true)
    expect(await sent()).toEqual([`offer-expiring → ${seller.email}`])
    await t.db.update(offers).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(offers.id, id))
    expect((await read(id)).state).toBe('expired')
    expect(refusal(await call('PUT', `/api/offers/${id}/accept`, seller), 409).message).toMatch(
      /this offer is expired/,
    )
    expect(await remindOffer(t.app.ctx, id, 1)).toBe(false)
    // A job for an earlier round does nothing; the current one expires it, once.
    expect(await expireOffer(t.db, id, 2)).toBe(false)
    expect(await expireOffer(t.db, id, 1)).toBe(true)
    expect(await expireOffer(t.db, id, 1)).toBe(false)
    expect((await read(id)).events.at(-1)?.kind).toBe('expired')
    // The buyer may offer again (a second round).
    await offer(product.id, 385)
  })
})

describe("the seller's settings", () => {
  it('keeps a floor under the price and offers on or off per listing, shown only to the seller', async () => {
    const product = await listing()
    const bad = refusal(await call('PATCH', `/api/products/${product.id}`, seller, { offer_floor: 420 }), 400)
    expect(bad.fields?.offer_floor).toMatch(/under the resale price/)
    expect(
      (
        await call('PATCH', `/api/products/${product.id}`, seller, {
          offer_floor: 350,
          offers_enabled: false,
        })
      ).statusCode,
    ).toBe(200)
    const [row] = await t.db.select().from(products).where(eq(products.id, product.id))
    expect(row).toMatchObject({ offerFloorCents: 35_000, offersEnabled: false })
    const publicView = Product.parse((await call('GET', `/api/products/${product.id}`, buyer)).json())
    expect(publicView.offers_enabled).toBe(false)
    expect(publicView.offer_floor).toBeUndefined()
    await call('PATCH', `/api/products/${product.id}`, seller, { offers_enabled: true })
    await offer(product.id, 360)
    const own = (
      await call('GET', `/api/products?email=${encodeURIComponent(seller.email)}`, seller)
    ).json() as Product[]
    const mine = own.find((p) => p._id === product.id)
    expect(mine).toMatchObject({ offers_waiting: 1, offer_floor: 350, offers_enabled: true })
  })
})

describe('erasing an account', () => {
  it("closes the person's open offers, as a buyer and on their listings", async () => {
    const leaving = await createUser(t.db, { role: 'buyer' })
    const product = await listing()
    const theirs = await offer(product.id, 380, leaving)
    const other = await createUser(t.db, { role: 'seller' })
    const onTheirs = await createProduct(t.db, { seller: other, brand, resalePriceCents: 42_000 })
    const fresh = await createUser(t.db, { role: 'buyer' })
    const toThem = await offer(onTheirs.id, 380, fresh)
    await eraseAccount(t.db, leaving.id, t.app.ctx.mail)
    await eraseAccount(t.db, other.id, t.app.ctx.mail)
    expect((await read(theirs, seller)).state).toBe('withdrawn')
    expect((await read(toThem, fresh)).state).toBe('declined')
    refusal(await call('PUT', `/api/offers/${theirs}/accept`, seller), 409)
  })
})
