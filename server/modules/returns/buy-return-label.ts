// The `returns.label` job and the return parcel's tracking (docs/decisions/0076, 0085): an accepted shipped return's
// label bought from the carrier layer (server/modules/shipping), its cost posted from the seller's available money,
// and the carrier's "delivered" starting the seller's days to check what came back.
import { and, eq } from 'drizzle-orm'
import { parcelOf } from '#contract/delivery'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { bookings, parcels, products, returns } from '#server/db/schema'
import { postReturnLabelMoney } from '#server/modules/ledger'
import { buyLabel, type ParcelRow, type PostalAddress, quoteRates } from '#server/modules/shipping'
import { queueReturnEmails, type ReturnsDeps, returnDeliveredBack } from './returns.service'

async function returnParcel(db: Db, returnId: string): Promise<ParcelRow | undefined> {
  const [row] = await db
    .select()
    .from(parcels)
    .where(and(eq(parcels.purpose, 'return'), eq(parcels.returnId, returnId)))
  return row
}

export type ReturnLabelOutcome = 'bought' | 'already' | 'not_needed'

/**
 * The `returns.label` job's work: an accepted shipped return gets its label, from the buyer's delivery address back
 * to the listing's ship-from address, in the listing's parcel, at the cheapest rate. The carrier is called outside
 * any transaction (buyLabel records the parcel and is idempotent per return); then, in one transaction, the label's
 * cost is posted (`return_label`: the seller's available money to `carriers`), the return moves to label_bought and
 * the buyer is emailed the label. A retry after any step finds the parcel (buys nothing) and the posting (writes
 * nothing); a return no longer accepted (refunded after a listing's removal, say) gets no label.
 */
export async function buyReturnLabel(
  ctx: AppContext,
  deps: ReturnsDeps,
  returnId: string,
): Promise<ReturnLabelOutcome> {
  const [row] = await ctx.db
    .select({ ret: returns, booking: bookings, product: products })
    .from(returns)
    .innerJoin(bookings, eq(bookings.id, returns.bookingId))
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(eq(returns.id, returnId))
  if (row?.ret.method !== 'ship') return 'not_needed'
  let parcel = await returnParcel(ctx.db, returnId)
  if (!parcel) {
    if (row.ret.status !== 'accepted') return 'not_needed'
    const from = row.booking.shippingAddress
    const to = row.product.shipFrom
    if (!from || !to) {
      // A shipped sale always has both; a retry will not make them appear, so the job fails loudly for an admin.
      throw new Error(
        `Return ${returnId}: the sale has no ${from ? 'ship-from' : 'delivery'} address to label`,
      )
    }
    const quote = await quoteRates(ctx, {
      from: from as PostalAddress,
      to: to as PostalAddress,
      parcel: parcelOf(row.product),
    })
    const cheapest = quote.rates[0]
    if (!cheapest) throw new Error(`Return ${returnId}: the carrier quoted no rate`)
    parcel = await buyLabel(ctx, {
      bookingId: row.booking.id,
      purpose: 'return',
      returnId,
      shipmentId: quote.shipmentId,
      rateId: cheapest.rateId,
    })
  }
  const bought = parcel
  return ctx.db.transaction(async (tx) => {
    // The booking first, then the return, like every step of a return.
    await tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, row.booking.id)).for('update')
    const [ret] = await tx.select().from(returns).where(eq(returns.id, returnId)).for('update')
    // The label is bought either way (the carrier sold it): its cost is the seller's once the return was accepted.
    const posted = await postReturnLabelMoney(tx, row.booking.id, bought.costCents)
    if (ret?.status !== 'accepted') return posted ? 'bought' : 'already'
    await tx.update(returns).set({ status: 'label_bought' }).where(eq(returns.id, returnId))
    await queueReturnEmails(tx, deps.mail, row.booking.id, 'label', ['buyer'], {
      labelUrl: bought.labelUrl,
      trackingCode: bought.trackingCode,
    })
    // A parcel the carrier delivered before this step was recorded (a retry long after a crash) is back already.
    const [now] = await tx.select().from(parcels).where(eq(parcels.id, bought.id))
    if (now?.status === 'delivered') await returnDeliveredBack(tx, deps, returnId, now.statusAt ?? new Date())
    return 'bought'
  })
}

/**
 * What a return parcel's status means (registered with the carrier layer, called in the webhook's transaction):
 * delivered back starts the seller's RETURN_CONFIRM_DAYS to check it.
 */
export function returnParcelHandler(deps: ReturnsDeps) {
  return async (tx: Db, parcel: ParcelRow, status: ParcelRow['status']) => {
    if (status === 'delivered' && parcel.returnId) {
      await returnDeliveredBack(tx, deps, parcel.returnId, parcel.statusAt ?? new Date())
    }
  }
}
