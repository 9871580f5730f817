// Rates and labels through the carrier's SDK, and the parcels they make. The carrier is called over HTTP
// (EasyPost, or the test carrier this app serves), so these run outside any open transaction: on the
// embedded database the test carrier's own queries would wait for it.
import { and, asc, eq, inArray } from 'drizzle-orm'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { PARCEL_STATUSES, parcelEvents, parcels } from '#server/db/schema'
import { AppError } from '#server/lib/errors'
import { carrierOf } from './carrier'
import type { ParcelEventRow, ParcelRow, ParcelSpec, ParcelStatus, PostalAddress, RateQuote } from './types'

/** What is read of the SDK's objects (EasyPost's JSON: any field may be missing). */
type EpRate = { id: string; carrier?: string; service?: string; rate?: string; delivery_days?: number | null }
type EpTracker = {
  id?: string
  tracking_code?: string
  carrier?: string
  public_url?: string | null
  created_at?: string
  tracking_details?: { status?: string; message?: string; datetime?: string }[]
}
type EpShipment = {
  id: string
  rates?: EpRate[]
  messages?: { message?: string }[]
  postage_label?: { label_url?: string; label_pdf_url?: string | null } | null
  selected_rate?: EpRate | null
  tracker?: EpTracker | null
  tracking_code?: string | null
}
const asShipment = (value: unknown) => value as EpShipment
const isStatus = (s: unknown): s is ParcelStatus => (PARCEL_STATUSES as readonly unknown[]).includes(s)

/** The carrier's refusal, in its own words, as ours: a bad address or parcel is the caller's to fix. */
function carrierRefusal(err: unknown): never {
  const e = err as { statusCode?: number; message?: string }
  if (
    e.statusCode &&
    e.statusCode >= 400 &&
    e.statusCode < 500 &&
    e.statusCode !== 401 &&
    e.statusCode !== 403
  ) {
    throw new AppError('VALIDATION', `The carrier could not quote this parcel: ${e.message ?? 'refused'}`)
  }
  throw new AppError('INTERNAL', `The carrier did not answer: ${e.message ?? 'no answer'}`)
}

function epAddress(a: PostalAddress) {
  return {
    name: a.name,
    street1: a.street1,
    street2: a.street2 ?? null,
    city: a.city,
    state: a.state,
    zip: a.zip,
    country: a.country,
    phone: a.phone ?? null,
  }
}

const toCents = (amount: string | number) => Math.round(Number(amount) * 100)

/** Quotes rates for one parcel: a shipment at the carrier, its rates cheapest first. */
export async function quoteRates(
  ctx: AppContext,
  input: { from: PostalAddress; to: PostalAddress; parcel: ParcelSpec },
): Promise<RateQuote> {
  const client = await carrierOf(ctx).client()
  const shipment = await client.Shipment.create({
    from_address: epAddress(input.from),
    to_address: epAddress(input.to),
    parcel: {
      weight: input.parcel.weightOz,
      length: input.parcel.lengthIn,
      width: input.parcel.widthIn,
      height: input.parcel.heightIn,
    },
    options: { label_format: 'PDF' },
  } as never)
    .then(asShipment)
    .catch(carrierRefusal)
  const rates = (shipment.rates ?? [])
    .map((r) => ({
      rateId: String(r.id),
      carrier: String(r.carrier),
      service: String(r.service),
      amountCents: toCents(r.rate ?? 0),
      deliveryDays: typeof r.delivery_days === 'number' ? r.delivery_days : null,
    }))
    .sort((a, b) => a.amountCents - b.amountCents)
  if (rates.length === 0) {
    const why = (shipment.messages ?? []).map((m) => m.message).join('; ')
    throw new AppError('VALIDATION', `The carrier has no rate for this parcel${why ? `: ${why}` : ''}`)
  }
  return { shipmentId: String(shipment.id), rates }
}

async function existingParcel(
  db: Db,
  input: { bookingId: string; purpose: 'sale' | 'return'; returnId?: string },
): Promise<ParcelRow | undefined> {
  const [row] = await db
    .select()
    .from(parcels)
    .where(
      input.purpose === 'sale'
        ? and(eq(parcels.bookingId, input.bookingId), eq(parcels.purpose, 'sale'))
        : and(eq(parcels.returnId, input.returnId ?? ''), eq(parcels.purpose, 'return')),
    )
  return row
}

/**
 * Buys the label for a quoted shipment and rate and records the parcel (and its first tracking step).
 * Idempotent per (bookingId, purpose, returnId): a second call, or a retry after a failure, gives the
 * parcel already bought and buys nothing; a shipment the carrier already sold a label for is recorded,
 * not bought again. Call it outside a transaction; post the ledger and the deal's move afterwards in yours.
 */
export async function buyLabel(
  ctx: AppContext,
  input: {
    bookingId: string
    purpose: 'sale' | 'return'
    returnId?: string
    shipmentId: string
    rateId: string
  },
): Promise<ParcelRow> {
  if ((input.purpose === 'return') !== Boolean(input.returnId)) {
    throw new AppError('INTERNAL', 'A return parcel needs its return, and only a return parcel has one')
  }
  const done = await existingParcel(ctx.db, input)
  if (done) return done
  const carrier = carrierOf(ctx)
  const client = await carrier.client()
  let shipment = await client.Shipment.retrieve(input.shipmentId).then(asShipment).catch(carrierRefusal)
  if (!shipment.postage_label) {
    const rate = (shipment.rates ?? []).find((r) => r.id === input.rateId)
    if (!rate) throw new AppError('VALIDATION', 'That rate is not one of this shipment’s rates: quote again')
    shipment = await client.Shipment.buy(input.shipmentId, input.rateId)
      .then(asShipment)
      .catch(carrierRefusal)
  }
  const rate: Partial<EpRate> = shipment.selected_rate ?? {}
  const tracker: EpTracker = shipment.tracker ?? {}
  if (!tracker.id) throw new AppError('INTERNAL', 'The carrier sold the label without a tracker')
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(parcels)
      .values({
        bookingId: input.bookingId,
        purpose: input.purpose,
        returnId: input.returnId ?? null,
        mode: carrier.mode,
        carrierShipmentId: String(shipment.id),
        trackerId: String(tracker.id),
        trackingCode: String(shipment.tracking_code ?? tracker.tracking_code),
        carrier: String(rate.carrier ?? tracker.carrier ?? ''),
        service: String(rate.service ?? ''),
        labelUrl: String(shipment.postage_label?.label_pdf_url ?? shipment.postage_label?.label_url ?? ''),
        trackingUrl: tracker.public_url ? String(tracker.public_url) : null,
        costCents: toCents(rate.rate ?? 0),
        status: 'pre_transit',
        statusAt: new Date(tracker.created_at ?? Date.now()),
      })
      .onConflictDoNothing()
      .returning()
    if (!row) {
      const other = await existingParcel(tx, input)
      if (!other) throw new AppError('CONFLICT', 'This label was recorded for another parcel')
      return other
    }
    const steps = (tracker.tracking_details ?? []).flatMap((d) =>
      isStatus(d.status) && d.datetime
        ? [{ status: d.status, message: d.message, datetime: d.datetime }]
        : [],
    )
    if (steps.length > 0) {
      await tx
        .insert(parcelEvents)
        .values(
          steps.map((d) => ({
            parcelId: row.id,
            status: d.status,
            message: String(d.message ?? ''),
            occurredAt: new Date(d.datetime),
            carrierEventId: 'label',
          })),
        )
        .onConflictDoNothing()
    }
    return row
  })
}

/** A booking's parcels (the sale's, then any return's), each with its tracking steps oldest first. */
export async function parcelsOfBooking(
  db: Db,
  bookingId: string,
): Promise<(ParcelRow & { events: ParcelEventRow[] })[]> {
  const rows = await db
    .select()
    .from(parcels)
    .where(eq(parcels.bookingId, bookingId))
    .orderBy(asc(parcels.createdAt))
  if (rows.length === 0) return []
  const events = await db
    .select()
    .from(parcelEvents)
    .where(
      inArray(
        parcelEvents.parcelId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(parcelEvents.occurredAt))
  return rows.map((r) => ({ ...r, events: events.filter((e) => e.parcelId === r.id) }))
}
