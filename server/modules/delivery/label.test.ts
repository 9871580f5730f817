// The seller's shipping label (POST /api/bookings/:id/label, docs/decisions/0084) against the built-in test carrier
// through EasyPost's SDK: bought once at the rate the buyer paid for, the deal shipped and the shipping money moved
// to the carrier in one transaction; a second click (or two at once) gets the same parcel; refusals change nothing;
// the race with the ship-within job never ends shipped and refunded, and a label bought for a sale cancelled
// meanwhile is voided at the carrier; no tracking step before delivered releases money.
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Booking } from '#contract/bookings'
import type { ShippingLabelAnswer } from '#contract/delivery'
import {
  bookingEvents,
  bookings,
  ledgerTransactions,
  parcels,
  payments,
  testCarrierObjects,
} from '#server/db/schema'
import { balanceOf, ledgerCheck, sellerBalances } from '#server/modules/ledger'
import { advanceTracker, buyLabel } from '#server/modules/shipping'
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
import { shippedDealAt } from '#server/test/shipped-deals'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { completeOverdueSales } from '../bookings/deal.service'
import { carrierOf } from '../shipping/carrier'
import { cancelLateShipments } from './ship-late'

let t: TestApp
let brand: BrandRow
let seller: UserRow
let otherSeller: UserRow
let buyer: UserRow

beforeAll(async () => {
  t = await createTestApp({ TEST_CARRIER_SECONDS: '3600', INSPECTION_DAYS: '2', SHIP_WITHIN_DAYS: '3' })
  brand = await createBrand(t.db)
  seller = await createUser(t.db, { role: 'seller' })
  otherSeller = await createUser(t.db, { role: 'seller' })
  buyer = await createUser(t.db, { role: 'buyer' })
})
afterAll(async () => {
  await t?.close()
})
beforeEach(async () => {
  await t.app.ctx.jobs.drain('email')
  t.outbox.length = 0
})

/** A paid shipped sale (the buyer's address and a rate the test carrier quoted); its shipping in `shippingCents`. */
async function sale() {
  const deal = await shippedDealAt(t, 'paid', { buyer, seller, brand })
  return { ...deal, shippingCents: deal.booking.shippingCents }
}

/** A booking to be shipped that is not paid yet. */
async function unpaidSale() {
  const product = await createProduct(t.db, { seller, brand, delivery: 'ship' })
  const booking = await createBooking(t.db, {
    buyer,
    product,
    deliveryMethod: 'ship',
    shippingCents: 900,
    shippingRate: {
      shipmentId: 'shp_unpaid',
      rateId: 'rate_unpaid',
      carrier: 'USPS',
      service: 'Priority',
      amountCents: 900,
      deliveryDays: 2,
    },
  })
  return { booking }
}

async function buy(bookingId: string, who: UserRow = seller) {
  return t.app.inject({
    method: 'POST',
    url: `/api/bookings/${bookingId}/label`,
    headers: await bearerFor(t.app, who),
  })
}

async function read(bookingId: string, who: UserRow): Promise<Booking> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/bookings/${bookingId}`,
    headers: await bearerFor(t.app, who),
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

const stageOf = async (id: string) =>
  (await t.db.select({ stage: bookings.stage }).from(bookings).where(eq(bookings.id, id)))[0]?.stage

const labelPostings = async (id: string) =>
  (
    await t.db
      .select()
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.bookingId, id), eq(ledgerTransactions.kind, 'label')))
  ).length

const parcelsOf = (id: string) => t.db.select().from(parcels).where(eq(parcels.bookingId, id))

/** What a refusal must leave as it was: the stage, parcels, postings and the shipping and carriers accounts. */
async function snapshot(id: string) {
  return {
    stage: await stageOf(id),
    parcels: (await parcelsOf(id)).length,
    postings: (await t.db.select().from(ledgerTransactions).where(eq(ledgerTransactions.bookingId, id)))
      .length,
    shipping: await balanceOf(t.db, { kind: 'shipping' }),
    carriers: await balanceOf(t.db, { kind: 'carriers' }),
  }
}

describe('buying the label', () => {
  it('buys it at the rate the buyer paid for, ships the deal and moves the shipping money to the carrier, once', async () => {
    const { booking, shippingCents } = await sale()
    expect(shippingCents).toBeGreaterThan(0)
    const before = {
      shipping: await balanceOf(t.db, { kind: 'shipping' }),
      carriers: await balanceOf(t.db, { kind: 'carriers' }),
      seller: await sellerBalances(t.db, seller.id),
    }
    // Paid and not shipped yet: the seller sees the address and the date to ship by, no parcel.
    const paidView = await read(booking.id, seller)
    expect(paidView.delivery?.address?.street1).toBe('179 N Harbor Dr')
    expect(paidView.delivery?.ship_by).not.toBeNull()
    expect(paidView.parcel).toBeNull()

    const res = await buy(booking.id)
    expect(res.statusCode, res.body).toBe(200)
    const { parcel } = res.json() as ShippingLabelAnswer
    expect(parcel).toMatchObject({ carrier: 'USPS', status: 'pre_transit', test_mode: true })
    expect(parcel.label_url).toMatch(/\/test-carrier\/labels\/shp_[0-9a-f]+\.pdf$/)
    expect(parcel.tracking_url).toContain(`/test-carrier/track/${parcel.tracking_code}`)
    expect(parcel.events.map((e) => e.status)).toEqual(['pre_transit'])
    expect(await stageOf(booking.id)).toBe('shipped')
    // The label cost is what the buyer paid for shipping: it leaves `shipping` for `carriers`; the seller's
    // money does not move.
    expect(await balanceOf(t.db, { kind: 'shipping' })).toBe(before.shipping - shippingCents)
    expect(await balanceOf(t.db, { kind: 'carriers' })).toBe(before.carriers + shippingCents)
    expect(await sellerBalances(t.db, seller.id)).toEqual(before.seller)
    const [bought] = await parcelsOf(booking.id)
    expect(bought?.costCents).toBe(shippingCents)

    // A second click: the same parcel, nothing bought or posted again.
    const again = await buy(booking.id)
    expect(again.statusCode, again.body).toBe(200)
    expect((again.json() as ShippingLabelAnswer).parcel.tracking_code).toBe(parcel.tracking_code)
    expect(await parcelsOf(booking.id)).toHaveLength(1)
    expect(await labelPostings(booking.id)).toBe(1)
    const shipped = await t.db.select().from(bookingEvents).where(eq(bookingEvents.bookingId, booking.id))
    expect(shipped.filter((e) => e.kind === 'shipped')).toHaveLength(1)
    expect((await ledgerCheck(t.db)).balanced).toBe(true)

    // The deal's answer carries the parcel: the label link for the seller only.
    const asSeller = await read(booking.id, seller)
    expect(asSeller.status).toBe('shipped')
    expect(asSeller.parcel?.label_url).toBe(parcel.label_url)
    const asBuyer = await read(booking.id, buyer)
    expect(asBuyer.parcel?.tracking_code).toBe(parcel.tracking_code)
    expect(asBuyer.parcel?.label_url).toBeNull()
  })

  it('two clicks at once buy one label and both get it', async () => {
    const { booking } = await sale()
    const [a, b] = await Promise.all([buy(booking.id), buy(booking.id)])
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([200, 200])
    expect((a.json() as ShippingLabelAnswer).parcel.tracking_code).toBe(
      (b.json() as ShippingLabelAnswer).parcel.tracking_code,
    )
    expect(await parcelsOf(booking.id)).toHaveLength(1)
    expect(await labelPostings(booking.id)).toBe(1)
    expect(await stageOf(booking.id)).toBe('shipped')
  })
})

describe('refusals change nothing', () => {
  it('refuses the buyer, another seller, an unpaid sale, a met sale and a cancelled one, each with a clear answer', async () => {
    const paid = await sale()
    const unpaid = await unpaidSale()
    const met = await dealAt(t, 'paid', { buyer, seller, brand })
    const late = await sale()
    await t.db
      .update(bookings)
      .set({ shipBy: sql`now() - interval '1 minute'` })
      .where(eq(bookings.id, late.booking.id))
    expect(await cancelLateShipments(t.app.ctx)).toContain(late.booking.id)

    const cases: [string, UserRow, number, string][] = [
      [paid.booking.id, buyer, 403, 'Only the seller can buy the shipping label'],
      [paid.booking.id, otherSeller, 404, 'not found'],
      [unpaid.booking.id, seller, 409, 'this booking is not paid yet'],
      [met.booking.id, seller, 409, 'The buyer chose to meet in person'],
      [late.booking.id, seller, 409, 'this booking is refunded'],
    ]
    for (const [id, who, status, words] of cases) {
      const before = await snapshot(id)
      const res = await buy(id, who)
      expect(res.statusCode, res.body).toBe(status)
      expect(res.json().error.message.toLowerCase()).toContain(words.toLowerCase())
      expect(await snapshot(id)).toEqual(before)
    }
    const missing = await buy('00000000-0000-4000-8000-000000000000')
    expect(missing.statusCode).toBe(404)
  })
})

describe('the race with the ship-within job', () => {
  it('a sale cancelled for shipping late while its label was being bought does not ship: the label is voided at the carrier', async () => {
    const { booking, shippingCents } = await sale()
    await t.db
      .update(bookings)
      .set({ shipBy: sql`now() + interval '1 second'` })
      .where(eq(bookings.id, booking.id))
    const shippingBefore = await balanceOf(t.db, { kind: 'shipping' })
    // The job runs while the carrier sells the label: between the seller's checks and the deal's move.
    const client = await carrierOf(t.app.ctx).client()
    const realBuy = client.Shipment.buy
    client.Shipment.buy = (async (...args: Parameters<typeof realBuy>) => {
      await new Promise((r) => setTimeout(r, 1_100))
      expect(await cancelLateShipments(t.app.ctx)).toEqual([booking.id])
      return realBuy.apply(client.Shipment, args)
    }) as typeof realBuy
    let res: Awaited<ReturnType<typeof buy>>
    try {
      res = await buy(booking.id)
    } finally {
      client.Shipment.buy = realBuy
    }
    expect(res.statusCode, res.body).toBe(409)
    expect(res.json().error.message).toContain('the label just bought was cancelled at the carrier')
    expect(await stageOf(booking.id)).toBe('refunded')
    const [payment] = await t.db.select().from(payments).where(eq(payments.bookingId, booking.id))
    expect(payment?.status).toBe('refunded')
    // The parcel is kept, cancelled; the carrier was asked to refund it and its tracker never moves.
    const [parcel] = await parcelsOf(booking.id)
    expect(parcel?.status).toBe('cancelled')
    const [shipment] = await t.db
      .select({ body: testCarrierObjects.body })
      .from(testCarrierObjects)
      .where(eq(testCarrierObjects.id, parcel?.carrierShipmentId ?? ''))
    expect((shipment?.body as { refund_status?: string } | undefined)?.refund_status).toBe('submitted')
    expect(await advanceTracker(t.app.ctx, parcel?.trackerId ?? '', 'pre_transit')).toBeNull()
    // No label money: the buyer's shipping went back from `shipping`, which is where it was before the sale.
    expect(await labelPostings(booking.id)).toBe(0)
    expect(await balanceOf(t.db, { kind: 'shipping' })).toBe(shippingBefore - shippingCents)
    expect((await ledgerCheck(t.db)).balanced).toBe(true)
    // The seller's next click is a plain refusal, and the deal never reads shipped.
    const again = await buy(booking.id)
    expect(again.statusCode).toBe(409)
    expect((await read(booking.id, seller)).status).toBe('refunded')
  })

  it('a label recorded before the job reaches the sale ships it (the job makes the move), and the click gets that parcel', async () => {
    const { booking } = await sale()
    const rate = booking.shippingRate
    if (!rate) throw new Error('no rate')
    // The carrier sold the label and the parcel is recorded, but the seller's request has not moved the deal yet.
    const parcel = await buyLabel(t.app.ctx, {
      bookingId: booking.id,
      purpose: 'sale',
      shipmentId: rate.shipmentId,
      rateId: rate.rateId,
    })
    await t.db
      .update(bookings)
      .set({ shipBy: sql`now() - interval '1 minute'` })
      .where(eq(bookings.id, booking.id))
    expect(await cancelLateShipments(t.app.ctx)).not.toContain(booking.id)
    expect(await stageOf(booking.id)).toBe('shipped')
    expect(await labelPostings(booking.id)).toBe(1)
    const res = await buy(booking.id)
    expect(res.statusCode, res.body).toBe(200)
    expect((res.json() as ShippingLabelAnswer).parcel.tracking_code).toBe(parcel.trackingCode)
    expect(await labelPostings(booking.id)).toBe(1)
    expect((await ledgerCheck(t.db)).balanced).toBe(true)
  })

  it('run together on due sales, each ends shipped with a live label or refunded with none, never both', async () => {
    const sales = await Promise.all([sale(), sale(), sale()])
    await t.db
      .update(bookings)
      .set({ shipBy: sql`now() - interval '1 minute'` })
      .where(
        sql`${bookings.id} in (${sql.join(
          sales.map((s) => sql`${s.booking.id}`),
          sql`, `,
        )})`,
      )
    const answers = await Promise.all([
      ...sales.map((s) => buy(s.booking.id)),
      cancelLateShipments(t.app.ctx),
    ])
    for (const [i, s] of sales.entries()) {
      const stage = await stageOf(s.booking.id)
      const live = (await parcelsOf(s.booking.id)).filter((p) => p.status !== 'cancelled')
      const res = answers[i] as Awaited<ReturnType<typeof buy>>
      if (stage === 'shipped') {
        expect(res.statusCode, res.body).toBe(200)
        expect(live).toHaveLength(1)
        expect(await labelPostings(s.booking.id)).toBe(1)
      } else {
        expect(stage).toBe('refunded')
        expect(res.statusCode, res.body).toBe(409)
        expect(live).toHaveLength(0)
        expect(await labelPostings(s.booking.id)).toBe(0)
      }
    }
    expect((await ledgerCheck(t.db)).balanced).toBe(true)
  })
})

describe('a parcel delivered before the deal shipped', () => {
  /** The label recorded and the tracker walked to delivered while the seller's request never moved the deal. */
  async function deliveredWhilePaid() {
    const { booking } = await sale()
    const rate = booking.shippingRate
    if (!rate) throw new Error('no rate')
    const parcel = await buyLabel(t.app.ctx, {
      bookingId: booking.id,
      purpose: 'sale',
      shipmentId: rate.shipmentId,
      rateId: rate.rateId,
    })
    let from = 'pre_transit'
    for (;;) {
      const step = await advanceTracker(t.app.ctx, parcel.trackerId, from)
      if (!step) throw new Error('the tracker stopped before delivered')
      await t.app.ctx.jobs.drain('test-carrier.webhook')
      if (step.status === 'delivered') break
      from = step.status
    }
    const [row] = await parcelsOf(booking.id)
    expect(row?.status).toBe('delivered')
    expect(await stageOf(booking.id)).toBe('paid')
    return booking
  }

  async function expectHandedOver(id: string) {
    expect(await stageOf(id)).toBe('handed_over')
    const view = await read(id, buyer)
    expect(view.handedOverAt).toBeTruthy()
    expect(view.autoCompleteAt).toBeTruthy()
    expect((await ledgerCheck(t.db)).balanced).toBe(true)
  }

  it("the seller's second click ships the deal and hands it over: the inspection window starts", async () => {
    const booking = await deliveredWhilePaid()
    const res = await buy(booking.id)
    expect(res.statusCode, res.body).toBe(200)
    await expectHandedOver(booking.id)
  })

  it('the ship-within job ships the deal and hands it over: the inspection window starts', async () => {
    const booking = await deliveredWhilePaid()
    await t.db
      .update(bookings)
      .set({ shipBy: sql`now() - interval '1 minute'` })
      .where(eq(bookings.id, booking.id))
    expect(await cancelLateShipments(t.app.ctx)).not.toContain(booking.id)
    await expectHandedOver(booking.id)
  })
})

describe('tracking and the money', () => {
  it('no step before delivered releases money; delivered starts the inspection window, whose end pays the seller', async () => {
    const { booking } = await sale()
    const res = await buy(booking.id)
    expect(res.statusCode, res.body).toBe(200)
    const [parcel] = await parcelsOf(booking.id)
    if (!parcel) throw new Error('no parcel')
    const before = await sellerBalances(t.db, seller.id)
    let from = 'pre_transit'
    for (const step of ['in_transit', 'out_for_delivery']) {
      expect((await advanceTracker(t.app.ctx, parcel.trackerId, from))?.status).toBe(step)
      expect(await t.app.ctx.jobs.drain('test-carrier.webhook')).toBe(1)
      expect(await stageOf(booking.id)).toBe('shipped')
      expect(await sellerBalances(t.db, seller.id)).toEqual(before)
      from = step
    }
    expect((await advanceTracker(t.app.ctx, parcel.trackerId, from))?.status).toBe('delivered')
    await t.app.ctx.jobs.drain('test-carrier.webhook')
    expect(await stageOf(booking.id)).toBe('handed_over')
    // Delivered is the handover: the money still waits for the buyer or the window's end.
    expect(await sellerBalances(t.db, seller.id)).toEqual(before)
    // The buyer's list and the seller's sale date the completion INSPECTION_DAYS (2) after delivery.
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/bookings?email=${encodeURIComponent(buyer.email)}`,
      headers: await bearerFor(t.app, buyer),
    })
    const listed = (list.json() as Booking[]).find((b) => b._id === booking.id)
    const delivered = listed?.handedOverAt ? Date.parse(listed.handedOverAt) : Number.NaN
    expect(Date.parse(listed?.autoCompleteAt ?? '') - delivered).toBe(2 * 86_400_000)
    const view = await read(booking.id, buyer)
    expect(view.parcel?.events.map((e) => e.status)).toEqual([
      'pre_transit',
      'in_transit',
      'out_for_delivery',
      'delivered',
    ])
    await t.app.ctx.jobs.drain('email')
    const toBuyer = t.outbox.filter((m) => m.to.includes(buyer.email)).map((m) => m.subject)
    expect(toBuyer).toEqual(
      expect.arrayContaining([
        expect.stringContaining('has shipped'),
        expect.stringContaining('is out for delivery'),
        expect.stringContaining('was delivered'),
      ]),
    )
    // The window (INSPECTION_DAYS = 2) ends with no answer: the sale completes and the seller's share is theirs.
    await t.db
      .update(bookings)
      .set({ handedOverAt: sql`now() - interval '2 days 1 minute'` })
      .where(eq(bookings.id, booking.id))
    const { autoCompleteDays, inspectionDays } = t.app.ctx.config.deal
    const done = await completeOverdueSales(
      t.db,
      autoCompleteDays,
      t.app.ctx.mail,
      t.app.ctx.config.payouts.fee,
      500,
      inspectionDays,
    )
    expect(done).toContain(booking.id)
    const after = await sellerBalances(t.db, seller.id)
    expect(after.available).toBeGreaterThan(before.available)
    expect(after.held).toBeLessThan(before.held)
    expect((await ledgerCheck(t.db)).balanced).toBe(true)
  })
})
