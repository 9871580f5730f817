// The ship-within rule (docs/decisions/0075): a paid sale the buyer chose to have shipped must have its label bought
// within SHIP_WITHIN_DAYS of payment (`bookings.ship_by`). A job, every quarter hour, cancels each one past its
// time: the buyer is refunded in full (price and shipping) through the processor, the deal moves `ship_late`
// (paid → refunded), the listing leaves the market as when the seller cancels, and both sides are emailed.
import { and, eq, isNotNull, lte, ne, sql } from 'drizzle-orm'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { bookings, parcels, products } from '#server/db/schema'
import { queueDealEmails } from '#server/modules/bookings'
import { moveDeal, refundSale } from '#server/modules/deal'
import { saleShipped } from '#server/modules/shipping'

/**
 * Cancels and refunds the paid shipped sales whose ship-by time has passed with no label, each in its own
 * transaction (the processor's refund is inside it). A sale moved meanwhile (its label bought, another instance
 * at it) is skipped. Safe to run twice. Returns the ids it cancelled.
 */
export async function cancelLateShipments(
  ctx: Pick<AppContext, 'db' | 'mail' | 'payments' | 'config'>,
  limit = 200,
): Promise<string[]> {
  const due = await ctx.db
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.stage, 'paid'),
        eq(bookings.deliveryMethod, 'ship'),
        isNotNull(bookings.shipBy),
        lte(bookings.shipBy, sql`now()`),
      ),
    )
    .orderBy(bookings.shipBy)
    .limit(limit)
  const done: string[] = []
  for (const { id } of due) {
    const cancelled = await ctx.db.transaction(async (tx) => cancelOne(tx, ctx, id))
    if (cancelled) done.push(id)
  }
  return done
}

async function cancelOne(
  tx: Db,
  ctx: Pick<AppContext, 'mail' | 'payments' | 'config'>,
  bookingId: string,
): Promise<boolean> {
  const [row] = await tx
    .select({ stage: bookings.stage, shipBy: bookings.shipBy, productId: bookings.productId })
    .from(bookings)
    .where(eq(bookings.id, bookingId))
    .for('update', { skipLocked: true })
  // Taken by another instance, or its label bought meanwhile (the seller's move locked it first).
  if (row?.stage !== 'paid' || !row.shipBy || row.shipBy.getTime() > Date.now()) return false
  // A label bought in time whose deal did not move yet (the seller's request still finishing, or cut short): the
  // sale ships, it is not late (docs/decisions/0084).
  const [label] = await tx
    .select({ carrier: parcels.carrier, service: parcels.service, trackingCode: parcels.trackingCode })
    .from(parcels)
    .where(
      and(eq(parcels.bookingId, bookingId), eq(parcels.purpose, 'sale'), ne(parcels.status, 'cancelled')),
    )
  if (label) {
    await moveDeal(tx, bookingId, 'ship', 'system', {
      actorId: null,
      note: `${label.carrier} ${label.service}, tracking number ${label.trackingCode}`,
    })
    // Delivered (or lost) before this move: the deal follows the parcel now.
    await saleShipped(ctx, tx, bookingId)
    return false
  }
  const days = ctx.config.deal.shipWithinDays
  const note = `Not shipped within ${days} ${days === 1 ? 'day' : 'days'} of payment`
  await refundSale(
    tx,
    (payment) => ctx.payments.refund(payment),
    { bookingId, move: 'ship_late', party: 'system', actorId: null, note, reason: note },
    ctx.config.payouts.fee,
  )
  // The listing leaves the market, as when its seller cancels the sale (docs/decisions/0075).
  const now = new Date()
  await tx.update(products).set({ removedAt: now, updatedAt: now }).where(eq(products.id, row.productId))
  await queueDealEmails(tx, ctx.mail, bookingId, { kind: 'cancelled', by: 'ship_late', reason: `${note}.` })
  return true
}

/** The `deals.ship-late` job, every quarter hour (one instance runs each). */
export function registerShipLateJob(ctx: Pick<AppContext, 'db' | 'mail' | 'payments' | 'config' | 'jobs'>) {
  ctx.jobs.work('deals.ship-late', async () => {
    await cancelLateShipments(ctx)
  })
  ctx.jobs.schedule('deals.ship-late', '*/15 * * * *')
}
