// The `returns.label` job and the return parcel's tracking (docs/decisions/0076, 0085): an accepted shipped return's
// label bought from the carrier layer (server/modules/shipping), its cost posted from the seller's available money,
// and the carrier's "delivered" starting the seller's days to check what came back.
import { and, eq, isNull } from 'drizzle-orm'
import { parcelOf } from '#contract/delivery'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { bookings, parcels, products, returns } from '#server/db/schema'
import { canMoveReturn, moveReturn } from '#server/modules/deal'
import { hasReturnLabelMoney, postReturnLabelMoney } from '#server/modules/ledger'
import { buyLabel, type ParcelRow, type PostalAddress, quoteRates, voidLabel } from '#server/modules/shipping'
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
 * to the listing's ship-from address, in the listing's parcel, at the cheapest rate. The quoted shipment and its rate
 * are written on the return once, under its row (`label_shipment_id is null`), before the carrier is asked to buy:
 * every run, a retry after a crash between the carrier's sale and the parcel's row or two runs at once, buys on that
 * one shipment, and buyLabel records a shipment that has its label instead of buying again. The carrier is called
 * outside any transaction; then, in one transaction, the label's cost is posted (`return_label`: the seller's
 * available money to `carriers`), the return moves to label_bought and the buyer is emailed the label. A return no
 * longer accepted when the label arrives (refunded after a listing's removal, say) gets no label: the one bought is
 * voided at the carrier and nothing is posted (`onVoidRefused` hears of a carrier that would not refund it).
 */
export async function buyReturnLabel(
  ctx: AppContext,
  deps: ReturnsDeps,
  returnId: string,
  onVoidRefused: (err: Error) => void = () => {},
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
    const shipment = await labelShipmentOf(ctx, row, returnId)
    if (!shipment) return 'not_needed'
    const label = {
      bookingId: row.booking.id,
      purpose: 'return' as const,
      returnId,
      shipmentId: shipment.shipmentId,
      rateId: shipment.rateId,
    }
    // Two runs at once both ask the carrier for the one shipment; the one it refuses (postage exists) asks again and
    // records the label the other bought.
    parcel = await buyLabel(ctx, label).catch(() => buyLabel(ctx, label))
  }
  const bought = parcel
  const outcome = await ctx.db.transaction(async (tx) => {
    // The booking first, then the return, like every step of a return.
    await tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, row.booking.id)).for('update')
    const [ret] = await tx.select().from(returns).where(eq(returns.id, returnId)).for('update')
    if (!ret || !canMoveReturn('buy_label', ['system'], ret)) {
      // Recorded by an earlier run (the label's cost posted then), or the return ended while the label was bought.
      return (await hasReturnLabelMoney(tx, row.booking.id)) ? ('already' as const) : ('void' as const)
    }
    await postReturnLabelMoney(tx, row.booking.id, bought.costCents)
    await moveReturn(tx, ret, 'buy_label', ['system'])
    await queueReturnEmails(tx, deps.mail, row.booking.id, 'label', ['buyer'], {
      labelUrl: bought.labelUrl,
      trackingCode: bought.trackingCode,
    })
    // A parcel the carrier delivered before this step was recorded (a retry long after a crash) is back already.
    const [now] = await tx.select().from(parcels).where(eq(parcels.id, bought.id))
    if (now?.status === 'delivered') await returnDeliveredBack(tx, deps, returnId, now.statusAt ?? new Date())
    return 'bought' as const
  })
  if (outcome !== 'void') return outcome
  // The return is no longer waiting for its label: it must not travel, and the seller pays nothing for it.
  if (bought.status !== 'cancelled') {
    const refused = await voidLabel(ctx, bought)
    if (refused) onVoidRefused(refused)
  }
  return 'not_needed'
}

/**
 * The return's quoted shipment and rate: the one on the return if a run wrote it, else a fresh quote written on the
 * accepted return only if no other run wrote one first (the update is the return's row lock). None for a return no
 * longer accepted that has none.
 */
async function labelShipmentOf(
  ctx: AppContext,
  row: {
    ret: typeof returns.$inferSelect
    booking: typeof bookings.$inferSelect
    product: typeof products.$inferSelect
  },
  returnId: string,
): Promise<{ shipmentId: string; rateId: string } | null> {
  const stored = (r: Pick<typeof returns.$inferSelect, 'labelShipmentId' | 'labelRateId'>) =>
    r.labelShipmentId && r.labelRateId ? { shipmentId: r.labelShipmentId, rateId: r.labelRateId } : null
  const before = stored(row.ret)
  if (before) return before
  if (row.ret.status !== 'accepted') return null
  const from = row.booking.shippingAddress
  const to = row.product.shipFrom
  if (!from || !to) {
    // A shipped sale always has both; a retry will not make them appear, so the job fails loudly for an admin.
    throw new Error(`Return ${returnId}: the sale has no ${from ? 'ship-from' : 'delivery'} address to label`)
  }
  const quote = await quoteRates(ctx, {
    from: from as PostalAddress,
    to: to as PostalAddress,
    parcel: parcelOf(row.product),
  })
  const cheapest = quote.rates[0]
  if (!cheapest) throw new Error(`Return ${returnId}: the carrier quoted no rate`)
  const [written] = await ctx.db
    .update(returns)
    .set({ labelShipmentId: quote.shipmentId, labelRateId: cheapest.rateId })
    .where(and(eq(returns.id, returnId), eq(returns.status, 'accepted'), isNull(returns.labelShipmentId)))
    .returning({ labelShipmentId: returns.labelShipmentId, labelRateId: returns.labelRateId })
  if (written) return stored(written)
  // Another run wrote its quote first (this one's unbought shipment is left as it is), or the return ended.
  const [now] = await ctx.db
    .select({ labelShipmentId: returns.labelShipmentId, labelRateId: returns.labelRateId })
    .from(returns)
    .where(eq(returns.id, returnId))
  return now ? stored(now) : null
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
