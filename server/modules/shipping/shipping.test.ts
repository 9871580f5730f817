// The carrier layer against the built-in test carrier, through EasyPost's real SDK: quoting, buying a label
// (a PDF the test carrier serves) and its tracker; the `tracker.updated` webhook with EasyPost-format
// signatures (good, bad, missing, tampered), replays, unknown trackers, out-of-order events and two
// deliveries of one event at once; the test clock carrying a parcel to delivered (the deal handed over) or
// to failure (a dispute for the admin).
import { createHmac } from 'node:crypto'
import EasyPostClient from '@easypost/api'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { bookingEvents, bookings, carrierEvents, disputes, parcelEvents, parcels } from '#server/db/schema'
import { dealAt } from '#server/test/deals'
import { type BrandRow, createBrand, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { advanceTracker, buyLabel, carrierMode, type ParcelRow, parcelsOfBooking, quoteRates } from '.'
import { carrierOf } from './carrier'

// A secret that NFKD normalisation changes (the ligature ﬁ becomes "fi"), as EasyPost's SDK normalises it.
const SECRET = 'whsec-ﬁeld-test-secret'

let t: TestApp
let brand: BrandRow
let seller: UserRow
let buyer: UserRow

const from = {
  name: 'Sam Seller',
  street1: '417 Montgomery St',
  city: 'San Francisco',
  state: 'CA',
  zip: '94104',
  country: 'US',
}
const to = {
  name: 'Bea Buyer',
  street1: '179 N Harbor Dr',
  city: 'Redondo Beach',
  state: 'CA',
  zip: '90277',
  country: 'US',
}
const laptopParcel = { weightOz: 88, lengthIn: 18, widthIn: 13, heightIn: 4 }

beforeAll(async () => {
  t = await createTestApp({ TEST_CARRIER_SECONDS: '3600', EASYPOST_WEBHOOK_SECRET: SECRET })
  brand = await createBrand(t.db)
  seller = await createUser(t.db, { role: 'seller' })
  buyer = await createUser(t.db, { role: 'buyer' })
})

afterAll(async () => {
  await t?.close()
})

beforeEach(async () => {
  await t.app.ctx.jobs.drain('email')
  t.outbox.length = 0
})

/** EasyPost's signature, computed here from its documentation: HMAC-SHA256 of the raw body under the NFKD secret. */
function easypostSignature(body: string, secret = SECRET) {
  const key = Buffer.from(secret.normalize('NFKD'), 'utf8')
  return `hmac-sha256-hex=${createHmac('sha256', key).update(body, 'utf8').digest('hex')}`
}

let seq = 0
/** A `tracker.updated` event as EasyPost sends it, for `parcel`'s tracker at `status`. */
function trackerEvent(parcel: ParcelRow, status: string, at: string, id = `evt_test${++seq}`) {
  return JSON.stringify({
    object: 'Event',
    id,
    mode: 'test',
    description: 'tracker.updated',
    previous_attributes: { status: 'pre_transit' },
    result: {
      id: parcel.trackerId,
      object: 'Tracker',
      mode: 'test',
      tracking_code: parcel.trackingCode,
      status,
      weight: 88.0,
      carrier: parcel.carrier,
      tracking_details: [{ object: 'TrackingDetail', message: `Now ${status}`, status, datetime: at }],
      updated_at: at,
    },
    created_at: at,
  }).replace('"weight":88', '"weight":88.0')
}

function post(body: string, signature: string | null = easypostSignature(body)) {
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/easypost',
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'x-hmac-signature': signature }),
    },
    payload: body,
  })
}

/** A paid sale with its label bought and the deal on its way (stage shipped). */
async function shippedSale(recipient = to.name) {
  const deal = await dealAt(t, 'paid', { buyer, seller, brand })
  const quote = await quoteRates(t.app.ctx, { from, to: { ...to, name: recipient }, parcel: laptopParcel })
  const parcel = await buyLabel(t.app.ctx, {
    bookingId: deal.booking.id,
    purpose: 'sale',
    shipmentId: quote.shipmentId,
    rateId: at(quote.rates, 0).rateId,
  })
  // The `ship` move belongs to the label's purchase on the deal page; here the sale is put in that stage.
  await t.db.update(bookings).set({ stage: 'shipped' }).where(eq(bookings.id, deal.booking.id))
  return { deal, parcel }
}

/** The list's item at `i`, which the test expects to be there. */
function at<T>(list: readonly T[], i: number): T {
  const item = list[i]
  if (item === undefined) throw new Error(`Expected an item at ${i}`)
  return item
}

const stageOf = async (id: string) =>
  at(
    await t.db
      .select({ stage: bookings.stage, handedOverAt: bookings.handedOverAt })
      .from(bookings)
      .where(eq(bookings.id, id)),
    0,
  )

describe('the SDK and the test carrier', () => {
  it('quotes rates, buys a PDF label with a tracker, and buys it once', async () => {
    expect(carrierMode(t.app.ctx)).toBe('test')
    const deal = await dealAt(t, 'paid', { buyer, seller, brand })
    const quote = await quoteRates(t.app.ctx, { from, to, parcel: laptopParcel })
    expect(quote.shipmentId).toMatch(/^shp_/)
    expect(quote.rates.map((r) => `${r.carrier} ${r.service}`)).toEqual([
      'USPS GroundAdvantage',
      'USPS Priority',
      'UPS Ground',
    ])
    expect(at(quote.rates, 0)).toMatchObject({ amountCents: 525 + 95 * 6, deliveryDays: 5 })

    const parcel = await buyLabel(t.app.ctx, {
      bookingId: deal.booking.id,
      purpose: 'sale',
      shipmentId: quote.shipmentId,
      rateId: at(quote.rates, 1).rateId,
    })
    expect(parcel).toMatchObject({
      mode: 'test',
      carrier: 'USPS',
      service: 'Priority',
      costCents: 895 + 140 * 6,
      status: 'pre_transit',
    })
    expect(parcel.trackingCode).toMatch(/^EZ\d{10}$/)
    const again = await buyLabel(t.app.ctx, {
      bookingId: deal.booking.id,
      purpose: 'sale',
      shipmentId: quote.shipmentId,
      rateId: at(quote.rates, 0).rateId,
    })
    expect(again.id).toBe(parcel.id)

    const label = await t.app.inject({ method: 'GET', url: new URL(parcel.labelUrl).pathname })
    expect(label.statusCode).toBe(200)
    expect(label.headers['content-type']).toBe('application/pdf')
    expect(label.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
    expect(label.rawPayload.toString('latin1')).toContain('TEST MODE')

    // The SDK reads the tracker back from the test carrier, in EasyPost's shape.
    const client = await carrierOf(t.app.ctx).client()
    const tracker = await client.Tracker.retrieve(parcel.trackerId)
    expect(tracker).toMatchObject({
      object: 'Tracker',
      status: 'pre_transit',
      tracking_code: parcel.trackingCode,
    })
    expect(at(tracker.tracking_details, 0)).toMatchObject({ object: 'TrackingDetail', status: 'pre_transit' })

    const listed = at(await parcelsOfBooking(t.db, deal.booking.id), 0)
    expect(listed.events.map((e) => e.status)).toEqual(['pre_transit'])
  })

  it('answers a bad request with EasyPost’s error shape, which the SDK raises', async () => {
    const client = await carrierOf(t.app.ctx).client()
    await expect(client.Shipment.create({ to_address: to } as never)).rejects.toMatchObject({
      statusCode: 422,
      code: 'PARAMETER.REQUIRED',
    })
    await expect(
      quoteRates(t.app.ctx, { from, to, parcel: { ...laptopParcel, weightOz: 0 } }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
    })
    const noKey = new EasyPostClient('x', {
      baseUrl: `${await carrierOf(t.app.ctx).testBaseUrl()}/test-carrier/v2/`,
    })
    Object.assign(noKey, { key: '' })
    await expect(noKey.Tracker.retrieve('trk_x')).rejects.toMatchObject({ statusCode: 401 })
  })
})

describe('POST /api/webhooks/easypost', () => {
  it('acts on a good signature, and refuses a bad, missing or mismatched one changing nothing', async () => {
    const { deal, parcel } = await shippedSale()
    const body = trackerEvent(parcel, 'delivered', '2026-11-20T15:04:05Z')

    const bad = await post(body, easypostSignature(body, 'another-secret'))
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.message).toMatch(/Invalid X-Hmac-Signature/)
    const missing = await post(body, null)
    expect(missing.statusCode).toBe(400)
    expect(missing.json().error.message).toMatch(/Missing X-Hmac-Signature/)
    // The secret as typed, not normalised: EasyPost signs under the NFKD form.
    expect(
      (
        await post(
          body,
          easypostSignature(body, 'x').replace(
            /=.*/,
            `=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
          ),
        )
      ).statusCode,
    ).toBe(400)
    // A body changed after signing (a status swapped).
    const tampered = body.replace('"status":"delivered"', '"status":"in_transit"')
    expect((await post(tampered, easypostSignature(body))).statusCode).toBe(400)
    expect(await t.db.select().from(carrierEvents)).toHaveLength(0)
    expect((await stageOf(deal.booking.id)).stage).toBe('shipped')

    const good = await post(body)
    expect(good.statusCode, good.body).toBe(200)
    expect(good.json()).toEqual({ received: true, outcome: 'updated' })
    const after = await stageOf(deal.booking.id)
    expect(after.stage).toBe('handed_over')
    expect(after.handedOverAt?.toISOString()).toBe('2026-11-20T15:04:05.000Z')
  })

  it('handles a replayed event once', async () => {
    const { deal, parcel } = await shippedSale()
    const body = trackerEvent(parcel, 'in_transit', '2026-11-20T10:00:00Z')
    expect((await post(body)).json().outcome).toBe('updated')
    const replay = await post(body)
    expect(replay.statusCode).toBe(200)
    expect(replay.json().outcome).toBe('duplicate')
    await t.app.ctx.jobs.drain('email')
    expect(t.outbox.filter((m) => m.subject.includes('has shipped'))).toHaveLength(1)
    expect((await stageOf(deal.booking.id)).stage).toBe('shipped')
  })

  it('refuses an event for a tracker it never bought, keeping nothing', async () => {
    const { parcel } = await shippedSale()
    const body = trackerEvent(
      { ...parcel, trackerId: 'trk_not_ours' },
      'delivered',
      '2026-11-20T10:00:00Z',
      'evt_unknown',
    )
    const res = await post(body)
    expect(res.statusCode).toBe(404)
    expect(await t.db.select().from(carrierEvents).where(eq(carrierEvents.id, 'evt_unknown'))).toHaveLength(0)
  })

  it('never moves a deal back on events that arrive out of order', async () => {
    const { deal, parcel } = await shippedSale()
    const hoursOn = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString()
    expect((await post(trackerEvent(parcel, 'delivered', hoursOn(30)))).json().outcome).toBe('updated')
    const late = await post(trackerEvent(parcel, 'out_for_delivery', hoursOn(20)))
    expect(late.json().outcome).toBe('recorded')
    const failedLate = await post(trackerEvent(parcel, 'failure', hoursOn(31)))
    expect(failedLate.json().outcome).toBe('recorded')
    const row = at(await t.db.select().from(parcels).where(eq(parcels.id, parcel.id)), 0)
    expect(row.status).toBe('delivered')
    expect((await stageOf(deal.booking.id)).stage).toBe('handed_over')
    // The late steps are still on the parcel's record, in the order they happened.
    const listed = at(await parcelsOfBooking(t.db, deal.booking.id), 0)
    expect(listed.events.map((e) => e.status)).toEqual([
      'pre_transit',
      'out_for_delivery',
      'delivered',
      'failure',
    ])
  })

  it('acts once when the same event arrives twice at once', async () => {
    const { deal, parcel } = await shippedSale()
    const body = trackerEvent(parcel, 'delivered', '2026-11-22T12:00:00Z')
    const answers = await Promise.all([post(body), post(body), post(body)])
    expect(answers.map((a) => a.json().outcome).sort()).toEqual(['duplicate', 'duplicate', 'updated'])
    const moves = await t.db.select().from(bookingEvents).where(eq(bookingEvents.bookingId, deal.booking.id))
    expect(moves.filter((m) => m.kind === 'delivered')).toHaveLength(1)
    await t.app.ctx.jobs.drain('email')
    expect(t.outbox.filter((m) => m.subject.includes('was delivered'))).toHaveLength(1)
  })
})

describe('the test carrier’s clock', () => {
  it('carries a parcel to delivered, step by step, each told by a signed webhook: the deal is handed over', async () => {
    const { deal, parcel } = await shippedSale()
    let from = 'pre_transit'
    for (const expected of ['in_transit', 'out_for_delivery', 'delivered']) {
      const step = await advanceTracker(t.app.ctx, parcel.trackerId, from)
      expect(step?.status).toBe(expected)
      // A repeated step (a second instance, a retried job) moves nothing.
      expect(await advanceTracker(t.app.ctx, parcel.trackerId, from)).toBeNull()
      expect(await t.app.ctx.jobs.drain('test-carrier.webhook')).toBe(1)
      const row = at(await t.db.select().from(parcels).where(eq(parcels.id, parcel.id)), 0)
      expect(row.status).toBe(expected)
      from = expected
    }
    const after = await stageOf(deal.booking.id)
    expect(after.stage).toBe('handed_over')
    const delivered = at(
      await t.db
        .select()
        .from(parcelEvents)
        .where(eq(parcelEvents.parcelId, parcel.id))
        .then((rows) => rows.filter((r) => r.status === 'delivered')),
      0,
    )
    expect(after.handedOverAt?.toISOString()).toBe(delivered.occurredAt.toISOString())
    await t.app.ctx.jobs.drain('email')
    const toBuyer = t.outbox.filter((m) => m.to.includes(buyer.email)).map((m) => m.subject)
    expect(toBuyer).toEqual(
      expect.arrayContaining([
        expect.stringContaining('has shipped'),
        expect.stringContaining('is out for delivery'),
        expect.stringContaining('was delivered'),
      ]),
    )
    expect(t.outbox.find((m) => m.subject.includes('has shipped'))?.text).toContain('Test mode')
  })

  it('runs on the job queue: with no delay, draining the jobs delivers the parcel', async () => {
    const fast = await createTestApp({ TEST_CARRIER_SECONDS: '0' })
    try {
      const s = await createUser(fast.db, { role: 'seller' })
      const b = await createUser(fast.db, { role: 'buyer' })
      const deal = await dealAt(fast, 'paid', { buyer: b, seller: s, brand: await createBrand(fast.db) })
      const quote = await quoteRates(fast.app.ctx, { from, to, parcel: laptopParcel })
      await buyLabel(fast.app.ctx, {
        bookingId: deal.booking.id,
        purpose: 'sale',
        shipmentId: quote.shipmentId,
        rateId: at(quote.rates, 0).rateId,
      })
      await fast.db.update(bookings).set({ stage: 'shipped' }).where(eq(bookings.id, deal.booking.id))
      for (let i = 0; i < 4; i++) {
        await fast.app.ctx.jobs.drain('test-carrier.step')
        await fast.app.ctx.jobs.drain('test-carrier.webhook')
      }
      const row = at(
        await fast.db
          .select({ stage: bookings.stage })
          .from(bookings)
          .where(eq(bookings.id, deal.booking.id)),
        0,
      )
      expect(row.stage).toBe('handed_over')
    } finally {
      await fast.close()
    }
  })

  it('ends a code ending in failure in failure: the sale waits in the admin’s disputes', async () => {
    const { deal, parcel } = await shippedSale('Bea Buyer failure')
    expect(parcel.trackingCode).toMatch(/^EZ\d{10}failure$/)
    await advanceTracker(t.app.ctx, parcel.trackerId, 'pre_transit')
    await advanceTracker(t.app.ctx, parcel.trackerId, 'in_transit')
    await t.app.ctx.jobs.drain('test-carrier.webhook')
    expect((await stageOf(deal.booking.id)).stage).toBe('disputed')
    const dispute = at(await t.db.select().from(disputes).where(eq(disputes.bookingId, deal.booking.id)), 0)
    expect(dispute).toMatchObject({ status: 'open', stageBefore: 'shipped' })
    expect(dispute.reason).toContain('could not be delivered')
    await t.app.ctx.jobs.drain('email')
    expect(t.outbox.filter((m) => m.subject.includes('could not be delivered'))).toHaveLength(2)
  })

  it('ends a code ending in return_to_sender sent back: the sale waits for an admin', async () => {
    const { deal, parcel } = await shippedSale('Bea Buyer return_to_sender')
    await advanceTracker(t.app.ctx, parcel.trackerId, 'pre_transit')
    await advanceTracker(t.app.ctx, parcel.trackerId, 'in_transit')
    await t.app.ctx.jobs.drain('test-carrier.webhook')
    const row = at(await t.db.select().from(parcels).where(eq(parcels.id, parcel.id)), 0)
    expect(row.status).toBe('return_to_sender')
    expect((await stageOf(deal.booking.id)).stage).toBe('disputed')
  })
})
