// The built-in test carrier's records and rules, in EasyPost's API shapes (https://docs.easypost.com/docs):
// shipments with rates, buying one (a PDF label and a tracker), trackers, and the test clock that moves a
// tracker one step every TEST_CARRIER_SECONDS, each step told by a signed `tracker.updated` webhook.
// It is a test double of EasyPost's servers, served by this app (test-carrier.routes.ts) and called through
// the real SDK; its records live in the database (test_carrier_objects) so every instance serves the same.
import { createHmac, randomBytes } from 'node:crypto'
import { and, desc, eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import { testCarrierObjects } from '#server/db/schema'

export type EpAddress = {
  name?: string
  company?: string
  street1?: string
  street2?: string
  city?: string
  state?: string
  zip?: string
  country?: string
  phone?: string
}
export type EpParcel = { length?: number; width?: number; height?: number; weight?: number }

export type EpTrackingDetail = {
  object: 'TrackingDetail'
  message: string
  description: string
  status: string
  status_detail: string
  datetime: string
  source: string
  carrier_code: string
  tracking_location: {
    object: 'TrackingLocation'
    city: string | null
    state: string | null
    country: string | null
    zip: string | null
  }
}

export type EpTracker = {
  id: string
  object: 'Tracker'
  mode: 'test'
  tracking_code: string
  status: string
  status_detail: string
  signed_by: string | null
  weight: number | null
  est_delivery_date: string | null
  shipment_id: string | null
  carrier: string
  tracking_details: EpTrackingDetail[]
  public_url: string
  fees: unknown[]
  created_at: string
  updated_at: string
}

type EpRate = { id: string; carrier: string; service: string; rate: string }
type EpShipment = {
  id: string
  to_address?: EpAddress
  from_address?: EpAddress
  parcel?: EpParcel
  rates: EpRate[]
  postage_label: unknown
  selected_rate?: EpRate | null
  tracking_code?: string | null
  tracker?: EpTracker | null
  /** Set once the label's refund is asked for (EasyPost: submitted, then refunded). */
  refund_status?: string | null
}

/** A failure the SDK turns into its ApiError: EasyPost's error body and status. */
export class TestCarrierError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
  body() {
    return { error: { code: this.code, message: this.message, errors: [] } }
  }
}

export const newId = (prefix: string) => `${prefix}_${randomBytes(16).toString('hex')}`
const nowIso = () => new Date().toISOString()

/** The steps a test tracker goes through; codes ending in `failure` or `return_to_sender` end that way. */
export function trackerSteps(trackingCode: string): string[] {
  const code = trackingCode.toLowerCase()
  if (code.endsWith('return_to_sender')) return ['pre_transit', 'in_transit', 'return_to_sender']
  if (code.endsWith('failure')) return ['pre_transit', 'in_transit', 'failure']
  return ['pre_transit', 'in_transit', 'out_for_delivery', 'delivered']
}

const STEP_WORDS: Record<string, { message: string; detail: string }> = {
  pre_transit: { message: 'Pre-Shipment Info Sent to Carrier', detail: 'label_created' },
  in_transit: { message: 'Accepted at Origin Facility', detail: 'arrived_at_facility' },
  out_for_delivery: { message: 'Out for Delivery', detail: 'out_for_delivery' },
  delivered: { message: 'Delivered, In/At Mailbox', detail: 'arrived_at_destination' },
  failure: { message: 'Delivery Attempt Failed: parcel damaged in transit', detail: 'unknown' },
  return_to_sender: { message: 'Return to Sender Processed', detail: 'return' },
}

function trackingDetail(status: string, at: string, place: EpAddress | undefined): EpTrackingDetail {
  const words = STEP_WORDS[status] ?? { message: status, detail: 'unknown' }
  return {
    object: 'TrackingDetail',
    message: words.message,
    description: '',
    status,
    status_detail: words.detail,
    datetime: at,
    source: 'TestCarrier',
    carrier_code: '',
    tracking_location: {
      object: 'TrackingLocation',
      city: place?.city ?? null,
      state: place?.state ?? null,
      country: place?.country ?? null,
      zip: place?.zip ?? null,
    },
  }
}

/** The services the test carrier offers and how it prices a parcel (cents, by weight and size). */
const SERVICES = [
  { carrier: 'USPS', service: 'GroundAdvantage', base: 525, perLb: 95, days: 5 },
  { carrier: 'USPS', service: 'Priority', base: 895, perLb: 140, days: 2 },
  { carrier: 'UPS', service: 'Ground', base: 1150, perLb: 120, days: 3 },
] as const

function cents(amount: number) {
  return (amount / 100).toFixed(2)
}

function requireFields(what: string, value: Record<string, unknown> | undefined, fields: string[]) {
  const missing = fields.filter((f) => value?.[f] === undefined || value?.[f] === null || value?.[f] === '')
  if (missing.length > 0) {
    throw new TestCarrierError(422, 'PARAMETER.REQUIRED', `Missing required parameter: ${what}.${missing[0]}`)
  }
}

async function save(db: Db, id: string, kind: 'shipment' | 'tracker', body: Record<string, unknown>) {
  await db
    .insert(testCarrierObjects)
    .values({ id, kind, body })
    .onConflictDoUpdate({ target: testCarrierObjects.id, set: { body, updatedAt: sql`now()` } })
}

const ID = /^[a-z]{2,12}_[0-9a-f]{32}$/

async function load<T>(db: Db, id: string, kind: 'shipment' | 'tracker', lock = false): Promise<T> {
  if (!ID.test(id)) throw new TestCarrierError(404, 'NOT_FOUND', 'The requested resource could not be found.')
  const q = db
    .select({ body: testCarrierObjects.body })
    .from(testCarrierObjects)
    .where(and(eq(testCarrierObjects.id, id), eq(testCarrierObjects.kind, kind)))
  const [row] = lock ? await q.for('update') : await q
  if (!row) throw new TestCarrierError(404, 'NOT_FOUND', `The requested resource could not be found.`)
  return row.body as T
}

/** POST /shipments: a shipment with one rate per service, priced from the parcel. */
export async function createShipment(
  db: Db,
  input: {
    to_address?: EpAddress
    from_address?: EpAddress
    parcel?: EpParcel
    options?: Record<string, unknown>
  },
) {
  requireFields('shipment', input as Record<string, unknown>, ['to_address', 'from_address', 'parcel'])
  for (const side of ['to_address', 'from_address'] as const) {
    requireFields(`shipment.${side}`, input[side], ['street1', 'city', 'zip', 'country'])
  }
  requireFields('shipment.parcel', input.parcel, ['weight'])
  const parcel = input.parcel as Required<EpParcel>
  if (!(parcel.weight > 0)) {
    throw new TestCarrierError(422, 'PARCEL.WEIGHT.INVALID', 'Parcel weight must be greater than zero.')
  }
  const id = newId('shp')
  const created = nowIso()
  const pounds = Math.ceil(parcel.weight / 16)
  const girth = (parcel.length ?? 0) + 2 * ((parcel.width ?? 0) + (parcel.height ?? 0))
  const rates = SERVICES.map((s) => {
    const amount = s.base + s.perLb * pounds + (girth > 84 ? 1500 : 0)
    return {
      id: newId('rate'),
      object: 'Rate',
      mode: 'test',
      carrier: s.carrier,
      service: s.service,
      rate: cents(amount),
      currency: 'USD',
      retail_rate: cents(Math.round(amount * 1.15)),
      retail_currency: 'USD',
      list_rate: cents(amount),
      list_currency: 'USD',
      delivery_days: s.days,
      delivery_date: null,
      delivery_date_guaranteed: false,
      est_delivery_days: s.days,
      shipment_id: id,
      carrier_account_id: `ca_test_${s.carrier.toLowerCase()}`,
      created_at: created,
      updated_at: created,
    }
  })
  const shipment = {
    id,
    object: 'Shipment',
    mode: 'test',
    reference: null,
    status: 'unknown',
    to_address: { id: newId('adr'), object: 'Address', ...input.to_address },
    from_address: { id: newId('adr'), object: 'Address', ...input.from_address },
    return_address: { id: newId('adr'), object: 'Address', ...input.from_address },
    parcel: { id: newId('prcl'), object: 'Parcel', ...parcel },
    options: { label_format: 'PDF', ...(input.options ?? {}) },
    rates,
    messages: [],
    selected_rate: null,
    postage_label: null,
    tracking_code: null,
    tracker: null,
    fees: [],
    created_at: created,
    updated_at: created,
  }
  await save(db, id, 'shipment', shipment)
  return shipment
}

export async function getShipment(db: Db, id: string) {
  return load<Record<string, unknown>>(db, id, 'shipment')
}

/** The newest tracker with this tracking code, if any. */
export async function trackerByCode(db: Db, code: string): Promise<EpTracker | undefined> {
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(code)) return undefined
  const [row] = await db
    .select({ body: testCarrierObjects.body })
    .from(testCarrierObjects)
    .where(
      and(
        eq(testCarrierObjects.kind, 'tracker'),
        sql`${testCarrierObjects.body}->>'tracking_code' = ${code}`,
      ),
    )
    .orderBy(desc(testCarrierObjects.createdAt))
    .limit(1)
  return row?.body as EpTracker | undefined
}

export async function getTracker(db: Db, id: string) {
  return load<EpTracker>(db, id, 'tracker')
}

/**
 * The tracking code a bought label gets: `EZ` and ten digits, or, when the recipient's name ends in
 * `failure` or `return_to_sender`, that word after them, so a test can ask for a parcel that goes wrong.
 */
function trackingCodeFor(to: EpAddress | undefined) {
  const digits = String(Number.parseInt(randomBytes(5).toString('hex'), 16) % 10_000_000_000).padStart(
    10,
    '0',
  )
  const name = (to?.name ?? '').trim().toLowerCase()
  const ending = name.endsWith('return_to_sender')
    ? 'return_to_sender'
    : name.endsWith('failure')
      ? 'failure'
      : ''
  return `EZ${digits}${ending}`
}

/** A tracker at its first step, saved. */
async function makeTracker(
  db: Db,
  base: string,
  input: {
    trackingCode: string
    carrier: string
    shipmentId: string | null
    place: EpAddress | undefined
    weight: number | null
  },
): Promise<EpTracker> {
  const at = nowIso()
  const tracker: EpTracker = {
    id: newId('trk'),
    object: 'Tracker',
    mode: 'test',
    tracking_code: input.trackingCode,
    status: 'pre_transit',
    status_detail: 'label_created',
    signed_by: null,
    weight: input.weight,
    est_delivery_date: null,
    shipment_id: input.shipmentId,
    carrier: input.carrier,
    tracking_details: [trackingDetail('pre_transit', at, input.place)],
    public_url: `${base}/test-carrier/track/${encodeURIComponent(input.trackingCode)}`,
    fees: [],
    created_at: at,
    updated_at: at,
  }
  await save(db, tracker.id, 'tracker', tracker as unknown as Record<string, unknown>)
  return tracker
}

/** POST /shipments/:id/buy: the label (a PDF this app serves) and a tracker; buying twice is refused. */
export async function buyShipment(
  db: Db,
  id: string,
  rateId: string | undefined,
  base: string,
  started: (tx: Db, tracker: EpTracker) => Promise<unknown>,
) {
  return db.transaction(async (tx) => {
    const shipment = await load<EpShipment>(tx, id, 'shipment', true)
    if (shipment.postage_label) {
      throw new TestCarrierError(422, 'SHIPMENT.POSTAGE.EXISTS', 'Postage already exists for this shipment.')
    }
    const rate = shipment.rates.find((r) => r.id === rateId)
    if (!rate)
      throw new TestCarrierError(
        422,
        'SHIPMENT.RATE.INVALID',
        'The rate is not one of this shipment’s rates.',
      )
    const trackingCode = trackingCodeFor(shipment.to_address)
    const tracker = await makeTracker(tx, base, {
      trackingCode,
      carrier: rate.carrier,
      shipmentId: id,
      place: shipment.from_address,
      weight: shipment.parcel?.weight ?? null,
    })
    const at = nowIso()
    const bought = {
      ...shipment,
      status: 'unknown',
      selected_rate: rate,
      tracking_code: trackingCode,
      tracker,
      postage_label: {
        id: newId('pl'),
        object: 'PostageLabel',
        label_date: at,
        label_file_type: 'application/pdf',
        label_size: '4x6',
        label_resolution: 300,
        label_url: `${base}/test-carrier/labels/${id}.pdf`,
        label_pdf_url: `${base}/test-carrier/labels/${id}.pdf`,
        created_at: at,
        updated_at: at,
      },
      updated_at: at,
    }
    await save(tx, id, 'shipment', bought)
    await started(tx, tracker)
    return { shipment: bought, tracker }
  })
}

/**
 * POST /shipments/:id/refund: the unused label's refund, as EasyPost takes it (refund_status `submitted`); its
 * tracker's clock stops. A shipment with no label, or one already refunded, is refused as EasyPost refuses it.
 */
export async function refundShipment(db: Db, id: string) {
  return db.transaction(async (tx) => {
    const shipment = await load<EpShipment>(tx, id, 'shipment', true)
    if (!shipment.postage_label) {
      throw new TestCarrierError(422, 'SHIPMENT.REFUND.UNAVAILABLE', 'This shipment has no label to refund.')
    }
    if (shipment.refund_status) {
      throw new TestCarrierError(
        422,
        'SHIPMENT.REFUND.EXISTS',
        'A refund was already requested for this shipment.',
      )
    }
    const refunded = { ...shipment, refund_status: 'submitted', updated_at: nowIso() }
    await save(tx, id, 'shipment', refunded)
    return refunded
  })
}

/** POST /trackers: a tracker for a code (test codes ending in `failure` or `return_to_sender` end that way). */
export async function createTracker(
  db: Db,
  input: { tracking_code?: string; carrier?: string },
  base: string,
  started: (tx: Db, tracker: EpTracker) => Promise<unknown>,
) {
  requireFields('tracker', input as Record<string, unknown>, ['tracking_code'])
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(String(input.tracking_code))) {
    throw new TestCarrierError(422, 'TRACKER.TRACKING_CODE.INVALID', 'Invalid tracking code.')
  }
  return db.transaction(async (tx) => {
    const tracker = await makeTracker(tx, base, {
      trackingCode: String(input.tracking_code),
      carrier: input.carrier ?? 'USPS',
      shipmentId: null,
      place: undefined,
      weight: null,
    })
    await started(tx, tracker)
    return tracker
  })
}

/**
 * The test clock's step, in the caller's transaction: moves the tracker from `from` to its next status
 * (nothing when it has moved on already, so a repeated job changes nothing) and gives the `tracker.updated`
 * event to send, or null.
 */
export async function stepTracker(tx: Db, trackerId: string, from: string) {
  {
    const tracker = await load<EpTracker>(tx, trackerId, 'tracker', true)
    if (tracker.status !== from) return null
    const steps = trackerSteps(tracker.tracking_code)
    const next = steps[steps.indexOf(from) + 1]
    if (!next) return null
    const at = nowIso()
    const shipment = tracker.shipment_id
      ? await load<EpShipment>(tx, tracker.shipment_id, 'shipment').catch(() => null)
      : null
    // A refunded label never travels.
    if (shipment?.refund_status) return null
    const place =
      next === 'pre_transit' || next === 'in_transit' ? shipment?.from_address : shipment?.to_address
    const moved: EpTracker = {
      ...tracker,
      status: next,
      status_detail: STEP_WORDS[next]?.detail ?? 'unknown',
      signed_by: next === 'delivered' ? 'Signature on file' : tracker.signed_by,
      tracking_details: [...tracker.tracking_details, trackingDetail(next, at, place)],
      updated_at: at,
    }
    await save(tx, trackerId, 'tracker', moved as unknown as Record<string, unknown>)
    const event = {
      object: 'Event',
      id: newId('evt'),
      mode: 'test',
      description: 'tracker.updated',
      previous_attributes: { status: from },
      result: moved,
      status: 'pending',
      pending_urls: [],
      completed_urls: [],
      user_id: 'user_testcarrier',
      created_at: at,
      updated_at: at,
    }
    return { event, status: next, final: steps.indexOf(next) === steps.length - 1 }
  }
}

/**
 * An event's body as EasyPost sends it: JSON whose whole-number weights are written as decimals (`16.0`):
 * EasyPost's servers write them so, and the signature is over these bytes (the SDK's `validateWebhook`
 * restores the `.0` before checking, see EasyPost/easypost-node#467).
 */
export function eventBody(event: object): string {
  return JSON.stringify(event).replace(/("weight":\s*)(\d+)(\s*)(?=,|\})/g, '$1$2.0')
}

/** EasyPost's webhook signature: `hmac-sha256-hex=` and the hex HMAC-SHA256 of the body under the NFKD secret. */
export function signWebhook(body: string, secret: string): string {
  const key = Buffer.from(secret.normalize('NFKD'), 'utf8')
  return `hmac-sha256-hex=${createHmac('sha256', key).update(body, 'utf8').digest('hex')}`
}
