// A sale's parcel as the deal shows it, read for one booking or many at once, and a label voided at the carrier
// (a label bought for a sale that was cancelled meanwhile: docs/decisions/0084).
import { and, asc, eq, inArray } from 'drizzle-orm'
import type { SaleParcel } from '#contract/delivery'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { parcelEvents, parcels } from '#server/db/schema'
import { carrierOf } from './carrier'
import type { ParcelEventRow, ParcelRow } from './types'

export type ParcelWithEvents = ParcelRow & { events: ParcelEventRow[] }

/** The sale parcels of these bookings (the label the seller bought), each with its steps oldest first, by booking. */
export async function saleParcelsOf(db: Db, bookingIds: string[]): Promise<Map<string, ParcelWithEvents>> {
  const found = new Map<string, ParcelWithEvents>()
  if (bookingIds.length === 0) return found
  const rows = await db
    .select()
    .from(parcels)
    .where(and(inArray(parcels.bookingId, bookingIds), eq(parcels.purpose, 'sale')))
  if (rows.length === 0) return found
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
  for (const row of rows) {
    found.set(row.bookingId, { ...row, events: events.filter((e) => e.parcelId === row.id) })
  }
  return found
}

/** A sale's parcel on the wire: the label link only for those who print it (the seller, admins). */
export function toSaleParcel(p: ParcelWithEvents, opts: { seesLabel: boolean }): SaleParcel {
  return {
    carrier: p.carrier,
    service: p.service,
    tracking_code: p.trackingCode,
    tracking_url: p.trackingUrl,
    label_url: opts.seesLabel && p.labelUrl ? p.labelUrl : null,
    status: p.status,
    status_at: p.statusAt ? p.statusAt.toISOString() : null,
    test_mode: p.mode === 'test',
    events: p.events.map((e) => ({ status: e.status, message: e.message, at: e.occurredAt.toISOString() })),
  }
}

/**
 * Voids a label that must not travel: asks the carrier to refund it (EasyPost refunds an unused label to the
 * account that bought it) and records the parcel as cancelled, so no later tracking step moves its deal. Gives
 * the carrier's refusal, if it refused (the parcel is cancelled on our side all the same).
 */
export async function voidLabel(ctx: AppContext, parcel: ParcelRow): Promise<Error | null> {
  let refused: Error | null = null
  try {
    const client = await carrierOf(ctx).client()
    await client.Shipment.refund(parcel.carrierShipmentId)
  } catch (err) {
    refused = err instanceof Error ? err : new Error(String(err))
  }
  await ctx.db
    .update(parcels)
    .set({ status: 'cancelled', statusAt: new Date() })
    .where(eq(parcels.id, parcel.id))
  return refused
}
