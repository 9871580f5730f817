// The hold while a buyer pays: taken by the booking's buyer, refused to every other buyer while it lasts,
// ended by the database's clock (not a timer), taken again after, needed to pay, and limited per buyer.

import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HoldAnswer, HoldRefused } from '#contract/bookings'
import { ErrorBody } from '#contract/errors'
import { Product } from '#contract/products'
import { type AppInstance, buildApp } from '#server/app'
import { loadConfig } from '#server/config'
import { bookingHolds, bookings, productHolds } from '#server/db/schema'
import { MemoryMediaStorage } from '#server/lib/storage'
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

const CARD = { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' }

let t: TestApp
/** The same database with holds of two seconds and two holds per listing a day, to watch the clock end them. */
let clock: TestApp
/** A second instance on `t`'s database, as behind a load balancer. */
let second: AppInstance
let brand: BrandRow
let buyer: UserRow
let otherBuyer: UserRow
let seller: UserRow
let admin: UserRow

beforeAll(async () => {
  t = await createTestApp({ HOLD_SECONDS: '900', LIVE_HOLDS_PER_BUYER: '2' })
  clock = await createTestApp({ HOLD_SECONDS: '2', HOLDS_PER_LISTING_PER_DAY: '2' })
  second = await buildApp({
    config: loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PUBLIC_CACHE_TTL_MS: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      AUTH_SECRET: t.app.ctx.config.authSecret ?? '',
    }),
    database: t.app.ctx.database,
    storage: new MemoryMediaStorage(),
    logger: false,
  })
  await second.ready()
})

afterAll(async () => {
  await second?.close()
  await clock?.close()
  await t?.close()
})

async function people(app: TestApp) {
  brand = await createBrand(app.db)
  buyer = await createUser(app.db, { role: 'buyer' })
  otherBuyer = await createUser(app.db, { role: 'buyer' })
  seller = await createUser(app.db, { role: 'seller' })
  admin = await createUser(app.db, { role: 'admin' })
}

async function call(
  app: AppInstance,
  method: 'GET' | 'POST',
  url: string,
  who: UserRow | null,
  body?: unknown,
) {
  return app.inject({
    method,
    url,
    headers: who ? await bearerFor(app, who) : {},
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

function errorOf(res: { json(): unknown }) {
  return ErrorBody.parse(res.json()).error
}

/** A new listing with one booking by `buyer` and one by `otherBuyer`. */
async function listingWithTwoBookings(app: TestApp) {
  const product = await createProduct(app.db, { seller, brand, isAdvertised: true })
  const mine = await createBooking(app.db, { buyer, product })
  const theirs = await createBooking(app.db, { buyer: otherBuyer, product })
  return { product, mine, theirs }
}

const hold = (app: AppInstance, bookingId: string, who: UserRow = buyer) =>
  call(app, 'POST', `/api/bookings/${bookingId}/hold`, who)
/** The buyer's "Hold it again": the only ask that takes a hold once one of the booking has ended. */
const holdAgain = (app: AppInstance, bookingId: string, who: UserRow = buyer) =>
  call(app, 'POST', `/api/bookings/${bookingId}/hold`, who, { again: true })
const pay = (app: AppInstance, bookingId: string, who: UserRow = buyer) =>
  call(app, 'POST', '/api/payments/test', who, { bookingId, card: CARD })

async function reservedUntil(app: AppInstance, product: CreatedProduct) {
  const res = await call(app, 'GET', `/api/products/${product.id}`, null)
  return Product.parse(res.json()).reservedUntil
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Until the database's clock has passed `iso` (the hold's end), then a little more. */
async function waitPast(iso: string) {
  await sleep(Math.max(0, Date.parse(iso) - Date.now()) + 300)
}

describe('POST /api/bookings/{id}/hold', () => {
  beforeAll(async () => {
    await people(t)
  })

  it('holds the laptop for the buyer for HOLD_SECONDS; cards and the detail page say until when', async () => {
    const { product, mine } = await listingWithTwoBookings(t)
    expect(await reservedUntil(t.app, product)).toBeNull()
    const res = await hold(t.app, mine.id)
    expect(res.statusCode).toBe(200)
    const { holdUntil } = HoldAnswer.parse(res.json())
    expect(Math.abs(Date.parse(holdUntil) - (Date.now() + 900_000))).toBeLessThan(60_000)
    expect(await reservedUntil(t.app, product)).toBe(holdUntil)
    const browse = await call(t.app, 'GET', '/api/advertised_product', null)
    const card = (browse.json() as { _id: string; reservedUntil: string | null; seller_id: string }[]).find(
      (p) => p._id === product.id,
    )
    expect(card).toMatchObject({ reservedUntil: holdUntil, seller_id: seller.id })

    // Opening the page again gives the same hold: it is not extended.
    const again = await hold(t.app, mine.id)
    expect(HoldAnswer.parse(again.json()).holdUntil).toBe(holdUntil)
    expect(await t.db.select().from(bookingHolds).where(eq(bookingHolds.bookingId, mine.id))).toHaveLength(1)
  })

  it('refuses another buyer with 409 RESERVED and the time, on any instance, and changes nothing', async () => {
    const { product, mine, theirs } = await listingWithTwoBookings(t)
    const { holdUntil } = HoldAnswer.parse((await hold(t.app, mine.id)).json())
    const before = await t.db.select().from(productHolds).where(eq(productHolds.productId, product.id))
    for (const app of [t.app, second]) {
      const res = await hold(app, theirs.id, otherBuyer)
      expect(res.statusCode).toBe(409)
      const body = HoldRefused.parse(res.json())
      expect(body.error.code).toBe('RESERVED')
      expect(body.error.message).toBe(
        'Another buyer is paying for this laptop. It is reserved until they finish or their time runs out.',
      )
      expect(body.holdUntil).toBe(holdUntil)
      const paid = await pay(app, theirs.id, otherBuyer)
      expect(paid.statusCode).toBe(409)
      expect(errorOf(paid).code).toBe('RESERVED')
    }
    expect(await t.db.select().from(productHolds).where(eq(productHolds.productId, product.id))).toEqual(
      before,
    )
    expect(await t.db.select().from(bookingHolds).where(eq(bookingHolds.bookingId, theirs.id))).toEqual([])
    // The holder pays within the hold; the hold ends with the sale.
    expect((await pay(second, mine.id)).statusCode).toBe(200)
    expect(await reservedUntil(t.app, product)).toBeNull()
    expect((await hold(t.app, theirs.id, otherBuyer)).statusCode).toBe(409)
    expect(errorOf(await hold(t.app, theirs.id, otherBuyer)).message).toBe(
      'You cannot hold this laptop: this booking is sold to another buyer',
    )
  })

  it("is only for the booking's buyer: 404 to outsiders, 403 to the seller and admins, 409 once paid", async () => {
    const { mine } = await listingWithTwoBookings(t)
    expect((await hold(t.app, mine.id, otherBuyer)).statusCode).toBe(404)
    expect((await hold(t.app, mine.id, seller)).statusCode).toBe(403)
    expect((await hold(t.app, mine.id, admin)).statusCode).toBe(403)
    expect((await call(t.app, 'POST', `/api/bookings/${mine.id}/hold`, null)).statusCode).toBe(401)
    expect(await t.db.select().from(productHolds).where(eq(productHolds.bookingId, mine.id))).toEqual([])
    expect((await hold(t.app, mine.id)).statusCode).toBe(200)
    expect((await pay(t.app, mine.id)).statusCode).toBe(200)
    const paid = await hold(t.app, mine.id)
    expect(paid.statusCode).toBe(409)
    expect(errorOf(paid).message).toBe(
      'You cannot hold this laptop: this booking is paid and waiting for handover',
    )
  })

  it('refuses a payment without a live hold', async () => {
    const { mine } = await listingWithTwoBookings(t)
    const res = await pay(t.app, mine.id)
    expect(res.statusCode).toBe(409)
    expect(errorOf(res).message).toBe(
      'Your hold on this laptop has ended. Hold it again from the payment page, then pay.',
    )
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, mine.id))
    expect(row?.isPaid).toBe(false)
  })

  it('limits the live holds of one buyer, saying why', async () => {
    const fresh = await createUser(t.db, { role: 'buyer' })
    const mine = []
    for (let i = 0; i < 3; i++) {
      const product = await createProduct(t.db, { seller, brand })
      mine.push(await createBooking(t.db, { buyer: fresh, product }))
    }
    const statuses = []
    for (const b of mine) statuses.push(await hold(t.app, b.id, fresh))
    expect(statuses.map((s) => s.statusCode)).toEqual([200, 200, 429])
    expect(errorOf(statuses[2] as (typeof statuses)[number])).toEqual({
      code: 'RATE_LIMITED',
      message:
        'You are already paying for 2 other laptops, the most at once. Finish paying for one, or wait for its hold to end, then try again.',
    })
    expect(
      await t.db
        .select()
        .from(productHolds)
        .where(eq(productHolds.bookingId, mine[2]?.id ?? '')),
    ).toEqual([])
  })
})

describe('the hold and the clock', () => {
  beforeAll(async () => {
    await people(clock)
  })

  it('ends by the clock: another buyer takes it, the first cannot pay, and takes it again later', async () => {
    const { product, mine, theirs } = await listingWithTwoBookings(clock)
    const first = HoldAnswer.parse((await hold(clock.app, mine.id)).json())
    expect((await hold(clock.app, theirs.id, otherBuyer)).statusCode).toBe(409)
    await waitPast(first.holdUntil)
    // No timer ran: the row still names the first booking, but its time has passed.
    expect(await reservedUntil(clock.app, product)).toBeNull()
    const taken = await hold(clock.app, theirs.id, otherBuyer)
    expect(taken.statusCode).toBe(200)
    const theirHold = HoldAnswer.parse(taken.json())
    expect(Date.parse(theirHold.holdUntil)).toBeGreaterThan(Date.parse(first.holdUntil))
    const late = await pay(clock.app, mine.id)
    expect(late.statusCode).toBe(409)
    expect(errorOf(late).code).toBe('RESERVED')
    await waitPast(theirHold.holdUntil)
    const again = await holdAgain(clock.app, mine.id)
    expect(again.statusCode).toBe(200)
    expect((await pay(clock.app, mine.id)).statusCode).toBe(200)
  })

  it('takes no hold on a visit once the booking’s hold has ended: 409 HOLD_ENDED with its end, until the buyer asks again', async () => {
    const { product, mine } = await listingWithTwoBookings(clock)
    // The first visit takes the booking's first hold.
    const first = HoldAnswer.parse((await hold(clock.app, mine.id)).json())
    await waitPast(first.holdUntil)
    // However often the page is opened.
    for (let i = 0; i < 2; i++) {
      const visit = await hold(clock.app, mine.id)
      expect(visit.statusCode).toBe(409)
      expect(HoldRefused.parse(visit.json())).toEqual({
        error: {
          code: 'HOLD_ENDED',
          message: 'Your hold on this laptop has ended. Hold it again to pay for it, if nobody else has.',
        },
        holdUntil: first.holdUntil,
      })
    }
    // Nothing was held by those visits: the laptop is free and cannot be paid for.
    expect(await reservedUntil(clock.app, product)).toBeNull()
    expect(
      await clock.db.select().from(bookingHolds).where(eq(bookingHolds.bookingId, mine.id)),
    ).toHaveLength(1)
    expect((await pay(clock.app, mine.id)).statusCode).toBe(409)
    // "Hold it again" takes a new hold; visits during it answer it, as before.
    const again = HoldAnswer.parse((await holdAgain(clock.app, mine.id)).json())
    expect(Date.parse(again.holdUntil)).toBeGreaterThan(Date.parse(first.holdUntil))
    expect(HoldAnswer.parse((await hold(clock.app, mine.id)).json()).holdUntil).toBe(again.holdUntil)
    expect(await reservedUntil(clock.app, product)).toBe(again.holdUntil)
    // A bad ask changes nothing.
    const bad = await call(clock.app, 'POST', `/api/bookings/${mine.id}/hold`, buyer, { again: 'yes' })
    expect(bad.statusCode).toBe(400)
  })

  it('limits the holds one buyer takes on one listing per day, saying when they can try again', async () => {
    const { mine } = await listingWithTwoBookings(clock)
    for (let i = 0; i < 2; i++) {
      const res = await holdAgain(clock.app, mine.id)
      expect(res.statusCode).toBe(200)
      await waitPast(HoldAnswer.parse(res.json()).holdUntil)
    }
    const third = await holdAgain(clock.app, mine.id)
    expect(third.statusCode).toBe(429)
    expect(errorOf(third)).toMatchObject({
      code: 'RATE_LIMITED',
      message:
        'You have held this laptop 2 times in the last 24 hours, the most we allow so that other buyers get their turn. You can hold it again in about 24 hours.',
    })
  })
})
