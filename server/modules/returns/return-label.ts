// A shipped sale's return travels on a label the seller pays for (docs/decisions/0076): bought from the carrier
// layer (server/modules/shipping) by the `returns.label` job once the return is accepted, its cost taken from the
// seller's money on the ledger, its tracker followed until the carrier delivers it back.
import { and, eq, inArray } from 'drizzle-orm'
import type { Return } from '#contract/returns'
import type { Db } from '#server/db/client'
import { parcels } from '#server/db/schema'

/** The return labels of these returns, by return id: the parcels bought for them, as the carrier last reported. */
export async function returnLabelOf(
  db: Db,
  returnIds: string[],
): Promise<Map<string, NonNullable<Return['label']>>> {
  if (returnIds.length === 0) return new Map()
  const rows = await db
    .select()
    .from(parcels)
    .where(and(eq(parcels.purpose, 'return'), inArray(parcels.returnId, returnIds)))
  return new Map(
    rows.map((p) => [
      p.returnId ?? '',
      {
        url: p.labelUrl,
        carrier: p.carrier,
        trackingCode: p.trackingCode,
        trackingUrl: p.trackingUrl,
        status: p.status,
        costCents: p.costCents,
      },
    ]),
  )
}
