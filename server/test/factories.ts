// The data layer of the server tests: the same row builders the demo seed uses, and what only tests need.
import { and, eq } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import { parcels } from '#server/db/schema'

export * from '#server/db/factories'

export type ParcelRow = typeof parcels.$inferSelect

export type NewParcel = Partial<Omit<typeof parcels.$inferInsert, 'bookingId' | 'purpose' | 'returnId'>> & {
  bookingId: string
  /** The return the parcel brings back: a return's label. Without it, the sale's label. */
  returnId?: string
}

/**
 * A label as the carrier layer records one (server/modules/shipping: buyLabel), without asking a carrier: in test
 * mode, in the status the carrier starts it in unless given. One per sale and one per return, as there: asked again,
 * it gives the parcel already recorded.
 */
export async function createParcel(db: Db, input: NewParcel): Promise<ParcelRow> {
  const { bookingId, returnId, ...overrides } = input
  const purpose = returnId ? 'return' : 'sale'
  const key = returnId ?? bookingId
  const [row] = await db
    .insert(parcels)
    .values({
      mode: 'test',
      carrierShipmentId: `shp_${key}`,
      trackerId: `trk_${key}`,
      trackingCode: `EZ${key.slice(0, 10)}`,
      carrier: 'USPS',
      service: 'Priority',
      labelUrl: 'https://example.test/label.pdf',
      costCents: 900,
      ...overrides,
      bookingId,
      purpose,
      returnId: returnId ?? null,
    })
    .onConflictDoNothing()
    .returning()
  if (row) return row
  const [recorded] = await db
    .select()
    .from(parcels)
    .where(
      and(
        eq(parcels.bookingId, bookingId),
        eq(parcels.purpose, purpose),
        ...(returnId ? [eq(parcels.returnId, returnId)] : []),
      ),
    )
  if (!recorded) throw new Error('createParcel: the tracker is another parcel’s')
  return recorded
}
