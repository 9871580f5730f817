// A shipped sale's return through the carrier: the accepted return's label bought once by the `returns.label` job
// (from the buyer's address to the listing's ship-from address, the cheapest rate), its cost posted from the seller's
// available money to the carrier, a retry buying and posting nothing; the test carrier delivering it back starts the
// seller's days to check it, and the buyer is refunded (by the seller's word, or when those days pass). The ledger
// balances at every step.
import { and, eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parcelOf } from '#contract/delivery'
import { BookingReturn } from '#contract/returns'
import {
  bookings,
  ledgerEntries,
  ledgerTransactions,
  parcels,
  payments,
  returns,
  testCarrierObjects,
} from '#server/db/schema'
import { balanceOf, ledgerCheck, sellerBalances } from '#server/modules/ledger'
import { type ParcelRow, quoteRates } from '#server/modules/shipping'
import { bearerFor } from '#server/test/auth-helpers'
import { type BrandRow, createBrand, createUser, type UserRow } from '#server/test/factories'
import { fileBody } from '#server/test/multipart'
import { DELIVER_TO, deliverParcel, SHIP_FROM, shippedDealAt } from '#server/test/shipped-deals'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { handleTrackerEvent } from '../shipping/tracking'
import { buyReturnLabel } from './buy-return-label'
import { findReturns, refundUnansweredReturns } from './returns.service'
import { returnsDeps } from './returns-deps'

let t: TestApp
let brand: BrandRow
let buyer: UserRow
let seller: UserRow
let admin: UserRow
let png: Buffer

beforeAll(async () => {
  t = await createTestApp({
    INSPECTION_DAYS: '3',
    RETURN_CONFIRM_DAYS: '3',
    LIVE_HOLDS_PER_BUYER: '100',
    TEST_CARRIER_SECONDS: '3600',
  })
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer', name: 'Bea Buyer', email: 'bea@example.test' })
  seller = await createUser(t.db, { role: 'seller', name: 'Sam Seller', email: 'sam@example.test' })
  admin = await createUser(t.db, { role: 'admin', name: 'Ada Admin' })
  png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3a6ea5' } })
    .png()
    .toBuffer()
})

afterAll(async () => {
  await t?.close()
})

beforeEach(async () => {
  await t.app.ctx.jobs.drain('email')
  t.outbox.length = 0
})

async function call(method: 'GET' | 'POST' | 'PUT', url: string, who: UserRow, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: await bearerFor(t.app, who),
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

async function sent(): Promise<string[]> {
  await t.app.ctx.jobs.drain('email')
  const out = t.outbox.map((e) => `${e.to.replace(/^.*</, '').replace('>', '')}: ${e.subject}`).sort()
  t.outbox.length = 0
  return out
}

/** A delivered shipped sale whose buyer returned it (not as described). */
async function returnedSale() {
  const deal = await shippedDealAt(t, 'delivered', {
    buyer,
    seller,
    brand,
    priceCents: 50_000,
    name: 'XPS 13',
  })
  const body = fileBody(png, 'screen.png', 'image/png')
  const photo = await t.app.inject({
    method: 'POST',
    url: `/api/bookings/${deal.booking.id}/return-photos`,
    headers: { ...(await bearerFor(t.app, buyer)), ...body.headers },
    payload: body.payload,
  })
  expect(photo.statusCode, photo.body).toBe(201)
  const opened = await call('POST', `/api/bookings/${deal.booking.id}/return`, buyer, {
    reason: 'The battery lasts forty minutes, the listing said five hours.',
    failed_check: 'battery_as_described',
    photos: [(photo.json() as { _id: string })._id],
  })
  expect(opened.statusCode, opened.body).toBe(201)
  return { ...deal, returnId: (opened.json() as { insertedId: string }).insertedId }
}

async function returnOf(bookingId: string, who: UserRow = buyer) {
  const res = await call('GET', `/api/bookings/${bookingId}/return`, who)
  expect(res.statusCode, res.body).toBe(200)
  return BookingReturn.parse(res.json()).return
}

const returnParcels = (returnId: string) =>
  t.db
    .select()
    .from(parcels)
    .where(and(eq(parcels.purpose, 'return'), eq(parcels.returnId, returnId)))

async function returnLabelPostings(bookingId: string) {
  return t.db
    .select({ account: ledgerEntries.accountId, amount: ledgerEntries.amountCents })
    .from(ledgerTransactions)
    .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
    .where(and(eq(ledgerTransactions.bookingId, bookingId), eq(ledgerTransactions.kind, 'return_label')))
}

/** The labels the test carrier sold (shipments bought), whatever recorded them. */
const labelsSold = async () =>
  (
    await t.db
      .select({ body: testCarrierObjects.body })
      .from(testCarrierObjects)
      .where(eq(testCarrierObjects.kind, 'shipment'))
  ).filter((s) => (s.body as { postage_label?: unknown }).postage_label).length

const PARCEL = parcelOf({ screenInches: 13, parcelSize: null, parcelWeightOz: null })

const carrierShipments = async () =>
  (await t.db.select({ id: testCarrierObjects.id }).from(testCarrierObjects)).length

describe('the return label job', () => {
  it('buys the label once, from the buyer back to the ship-from address; the seller pays it; a retry buys nothing', async () => {
    const { booking, returnId } = await returnedSale()
    const before = {
      available: (await sellerBalances(t.db, seller.id)).available,
      carriers: await balanceOf(t.db, { kind: 'carriers' }),
    }
    await sent()
    const accepted = await call('PUT', `/api/bookings/${booking.id}/return/accept`, seller)
    expect(accepted.statusCode, accepted.body).toBe(200)
    expect((await returnOf(booking.id))?.status).toBe('accepted')

    expect(await t.app.ctx.jobs.drain('returns.label')).toBe(1)
    const [parcel, ...more] = await returnParcels(returnId)
    expect(more).toEqual([])
    expect(parcel).toMatchObject({ bookingId: booking.id, mode: 'test', status: 'pre_transit' })
    // The label goes from the buyer's address to the listing's ship-from address.
    const [shipment] = await t.db
      .select({ body: testCarrierObjects.body })
      .from(testCarrierObjects)
      .where(eq(testCarrierObjects.id, parcel?.carrierShipmentId ?? ''))
    const addresses = shipment?.body as { from_address: { zip: string }; to_address: { zip: string } }
    expect(addresses.from_address.zip).toBe(DELIVER_TO.zip)
    expect(addresses.to_address.zip).toBe(SHIP_FROM.zip)

    const cost = parcel?.costCents ?? 0
    expect(cost).toBeGreaterThan(0)
    expect((await returnLabelPostings(booking.id)).sort((a, b) => a.amount - b.amount)).toEqual([
      { account: `available:${seller.id}`, amount: -cost },
      { account: 'carriers', amount: cost },
    ])
    expect((await sellerBalances(t.db, seller.id)).available).toBe(before.available - cost)
    expect(await balanceOf(t.db, { kind: 'carriers' })).toBe(before.carriers + cost)
    expect((await ledgerCheck(t.db)).balanced).toBe(true)

    const ret = await returnOf(booking.id)
    expect(ret).toMatchObject({
      status: 'label_bought',
      label: {
        trackingCode: parcel?.trackingCode,
        status: 'pre_transit',
        costCents: cost,
      },
    })
    expect(ret?.label?.url).toMatch(/\.pdf/)
    expect(await sent()).toEqual([
      'bea@example.test: Your return label for “XPS 13”',
      'bea@example.test: Your return of “XPS 13” is accepted',
    ])

    // A retry (the queue's, or a second instance's): no quote, no label, no posting, no email.
    const shipments = await carrierShipments()
    await t.app.ctx.jobs.send('returns.label', { returnId })
    expect(await t.app.ctx.jobs.drain('returns.label')).toBe(1)
    expect(await returnParcels(returnId)).toHaveLength(1)
    expect(await returnLabelPostings(booking.id)).toHaveLength(2)
    expect(await carrierShipments()).toBe(shipments)
    expect((await sellerBalances(t.db, seller.id)).available).toBe(before.available - cost)
    expect(await sent()).toEqual([])
  })

  it('two runs at once (a retry after a timeout, a second instance) buy one label at the carrier and post it once', async () => {
    const { booking, returnId } = await returnedSale()
    const accepted = await call('PUT', `/api/bookings/${booking.id}/return/accept`, seller)
    expect(accepted.statusCode, accepted.body).toBe(200)
    const deps = returnsDeps(t.app.ctx)
    const before = await labelsSold()
    const outcomes = await Promise.all([
      buyReturnLabel(t.app.ctx, deps, returnId),
      buyReturnLabel(t.app.ctx, deps, returnId),
    ])
    expect(outcomes.sort()).toEqual(['already', 'bought'])
    expect(await labelsSold()).toBe(before + 1)
    const [parcel, ...more] = await returnParcels(returnId)
    expect(more).toEqual([])
    const [ret] = await t.db.select().from(returns).where(eq(returns.id, returnId))
    expect(ret).toMatchObject({ status: 'label_bought', labelShipmentId: parcel?.carrierShipmentId })
    expect(await returnLabelPostings(booking.id)).toHaveLength(2)
    expect((await ledgerCheck(t.db)).balanced).toBe(true)
    // The queued job, later: it buys nothing more.
    await t.app.ctx.jobs.drain('returns.label')
    expect(await labelsSold()).toBe(before + 1)
    expect(await returnLabelPostings(booking.id)).toHaveLength(2)
  })

  it('a return refunded after its shipment was quoted: the label is voided at the carrier and nothing is posted', async () => {
    const { booking, returnId } = await returnedSale()
    const accepted = await call('PUT', `/api/bookings/${booking.id}/return/accept`, seller)
    expect(accepted.statusCode, accepted.body).toBe(200)
    // A run quoted and wrote its shipment, then stopped; the return ended (refunded) before the retry bought.
    const quote = await quoteRates(t.app.ctx, { from: DELIVER_TO, to: SHIP_FROM, parcel: PARCEL })
    await t.db
      .update(returns)
      .set({ status: 'refunded', labelShipmentId: quote.shipmentId, labelRateId: quote.rates[0]?.rateId })
      .where(eq(returns.id, returnId))
    expect(await buyReturnLabel(t.app.ctx, returnsDeps(t.app.ctx), returnId)).toBe('not_needed')
    const [parcel] = await returnParcels(returnId)
    expect(parcel?.status).toBe('cancelled')
    const [shipment] = await t.db
      .select({ body: testCarrierObjects.body })
      .from(testCarrierObjects)
      .where(eq(testCarrierObjects.id, quote.shipmentId))
    expect((shipment?.body as { refund_status?: string } | undefined)?.refund_status).toBe('submitted')
    expect(await returnLabelPostings(booking.id)).toEqual([])
    // The acceptance's queued job, later: nothing more bought, voided or posted.
    await t.app.ctx.jobs.drain('returns.label')
    expect(await returnParcels(returnId)).toHaveLength(1)
    expect(await returnLabelPostings(booking.id)).toEqual([])
  })

  it('an admin’s acceptance of a declined return buys the label too; a return not accepted gets none', async () => {
    const { booking, returnId } = await returnedSale()
    await t.app.ctx.jobs.send('returns.label', { returnId })
    expect(await t.app.ctx.jobs.drain('returns.label')).toBe(1)
    expect(await returnParcels(returnId)).toEqual([])
    const declined = await call('PUT', `/api/bookings/${booking.id}/return/decline`, seller, {
      reason: 'It left here holding a five-hour charge.',
    })
    expect(declined.statusCode).toBe(200)
    const decided = await call('PUT', `/api/returns/${returnId}/decide`, admin, {
      decision: 'accept',
      reason: 'The battery report shows 41 percent of design capacity.',
    })
    expect(decided.statusCode, decided.body).toBe(200)
    expect(await t.app.ctx.jobs.drain('returns.label')).toBe(1)
    expect(await returnParcels(returnId)).toHaveLength(1)
    expect((await returnOf(booking.id, seller))?.status).toBe('label_bought')
    expect((await ledgerCheck(t.db)).balanced).toBe(true)
  })
})

describe('delivered back', () => {
  async function labelled() {
    const sale = await returnedSale()
    expect((await call('PUT', `/api/bookings/${sale.booking.id}/return/accept`, seller)).statusCode).toBe(200)
    await t.app.ctx.jobs.drain('returns.label')
    const [parcel] = await returnParcels(sale.returnId)
    if (!parcel) throw new Error('No return label')
    return { ...sale, returnParcel: parcel }
  }

  /** The carrier's word that a return parcel will not reach the seller (its tracker's webhook). */
  async function lose(parcel: ParcelRow, status: 'failure' | 'return_to_sender') {
    const at = new Date().toISOString()
    const outcome = await handleTrackerEvent(t.app.ctx, {
      id: `evt_${status}_${parcel.id}`,
      description: 'tracker.updated',
      result: { id: parcel.trackerId, status, tracking_details: [{ status, message: 'Lost', datetime: at }] },
    } as never)
    expect(outcome).toBe('updated')
  }

  const stageOf = async (bookingId: string) =>
    (await t.db.select({ stage: bookings.stage }).from(bookings).where(eq(bookings.id, bookingId)))[0]?.stage

  it('a return parcel the carrier loses waits for an admin, who refunds the buyer', async () => {
    const { booking, returnId, returnParcel } = await labelled()
    expect((await findReturns(t.db, 'awaiting')).map((r) => r._id)).not.toContain(returnId)
    await lose(returnParcel, 'failure')
    const waiting = (await findReturns(t.db, 'awaiting')).find((r) => r._id === returnId)
    expect(waiting).toMatchObject({ status: 'label_bought', label: { status: 'failure' } })
    expect(await stageOf(booking.id)).toBe('returning')
    const listed = await call('GET', '/api/returns?status=awaiting', admin)
    expect(listed.statusCode, listed.body).toBe(200)
    expect((listed.json() as { _id: string }[]).map((r) => r._id)).toContain(returnId)
    await sent()

    const decided = await call('PUT', `/api/returns/${returnId}/decide`, admin, {
      decision: 'accept',
      reason: 'The carrier lost the parcel on its way back: the buyer is refunded.',
    })
    expect(decided.statusCode, decided.body).toBe(200)
    expect(await stageOf(booking.id)).toBe('refunded')
    const [payment] = await t.db.select().from(payments).where(eq(payments.bookingId, booking.id))
    expect(payment?.status).toBe('refunded')
    expect(await returnOf(booking.id)).toMatchObject({
      status: 'refunded',
      decisionReason: 'The carrier lost the parcel on its way back: the buyer is refunded.',
    })
    expect((await findReturns(t.db, 'awaiting')).map((r) => r._id)).not.toContain(returnId)
    expect((await ledgerCheck(t.db)).balanced).toBe(true)
    expect((await sent()).length).toBe(2)
    // Decided once: a second answer is refused.
    const again = await call('PUT', `/api/returns/${returnId}/decide`, admin, {
      decision: 'refuse',
      reason: 'The carrier lost the parcel on its way back.',
    })
    expect(again.statusCode).toBe(409)
  })

  it('a return parcel back with the buyer: an admin can release the sale to the seller instead', async () => {
    const { booking, returnId, returnParcel } = await labelled()
    // Before the carrier gives up, an admin cannot end a return on its way.
    const early = await call('PUT', `/api/returns/${returnId}/decide`, admin, {
      decision: 'refuse',
      reason: 'The buyer keeps the laptop after all.',
    })
    expect(early.statusCode).toBe(409)
    await lose(returnParcel, 'return_to_sender')
    expect((await findReturns(t.db, 'awaiting')).map((r) => r._id)).toContain(returnId)
    const decided = await call('PUT', `/api/returns/${returnId}/decide`, admin, {
      decision: 'refuse',
      reason: 'The laptop went back to the buyer, who keeps it: the seller is paid.',
    })
    expect(decided.statusCode, decided.body).toBe(200)
    expect(await stageOf(booking.id)).toBe('completed')
    expect((await returnOf(booking.id))?.status).toBe('refused')
    expect((await ledgerCheck(t.db)).balanced).toBe(true)
  })

  it('the carrier delivers it back: the seller has RETURN_CONFIRM_DAYS to check it; as sent, the buyer is refunded', async () => {
    const { booking, returnId, returnParcel } = await labelled()
    const answerEarly = await call('PUT', `/api/bookings/${booking.id}/return/back`, seller, {
      as_sent: true,
    })
    expect(answerEarly.statusCode).toBe(409)
    await sent()

    await deliverParcel(t, returnParcel)
    const [row] = await t.db.select().from(returns).where(eq(returns.id, returnId))
    expect(row?.status).toBe('delivered_back')
    const [back] = await returnParcels(returnId)
    expect(back?.status).toBe('delivered')
    expect(row?.deliveredBackAt?.toISOString()).toBe(back?.statusAt?.toISOString())
    // The deal waits for the seller: still returning, nothing refunded.
    const [deal] = await t.db
      .select({ stage: bookings.stage })
      .from(bookings)
      .where(eq(bookings.id, booking.id))
    expect(deal?.stage).toBe('returning')
    expect(await sent()).toEqual(['sam@example.test: “XPS 13” is back with you: check it'])

    const answered = await call('PUT', `/api/bookings/${booking.id}/return/back`, seller, { as_sent: true })
    expect(answered.statusCode, answered.body).toBe(200)
    const [payment] = await t.db.select().from(payments).where(eq(payments.bookingId, booking.id))
    expect(payment?.status).toBe('refunded')
    expect((await returnOf(booking.id))?.status).toBe('refunded')
    expect((await ledgerCheck(t.db)).balanced).toBe(true)
  })

  it('no answer within RETURN_CONFIRM_DAYS of the delivery back: the buyer is refunded by itself, once', async () => {
    const { booking, returnId, returnParcel } = await labelled()
    await deliverParcel(t, returnParcel)
    const deps = returnsDeps(t.app.ctx)
    expect(await refundUnansweredReturns(t.db, deps)).not.toContain(returnId)
    await t.db
      .update(returns)
      .set({ deliveredBackAt: sql`now() - interval '3 days 1 minute'` })
      .where(eq(returns.id, returnId))
    expect(await refundUnansweredReturns(t.db, deps)).toContain(returnId)
    expect(await refundUnansweredReturns(t.db, deps)).not.toContain(returnId)
    const [deal] = await t.db
      .select({ stage: bookings.stage })
      .from(bookings)
      .where(eq(bookings.id, booking.id))
    expect(deal?.stage).toBe('refunded')
    expect((await ledgerCheck(t.db)).balanced).toBe(true)
    // The seller kept nothing of the sale and paid the return label.
    const [label] = await returnParcels(returnId)
    const own = await t.db
      .select({ amount: ledgerEntries.amountCents })
      .from(ledgerTransactions)
      .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
      .where(
        and(
          eq(ledgerTransactions.bookingId, booking.id),
          sql`${ledgerEntries.accountId} in (${`held:${seller.id}`}, ${`available:${seller.id}`})`,
        ),
      )
    expect(own.reduce((s, r) => s + r.amount, 0)).toBe(-(label?.costCents ?? 0))
  })
})
