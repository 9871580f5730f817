// What happens when listings leave sale for any reason (back to review, rejected, serial reported stolen, removed,
// expired, the seller's account closed), in the transaction that takes them off: their open offers close with
// the reason, their holds are released, their unpaid bookings are cancelled, and the buyers are emailed. A paid
// sale whose serial was reported stolen is frozen: it waits in the admin's disputes (refund or release) and its
// money is not paid out meanwhile. Every path that takes a listing off sale calls `leaveSale`.
import { and, eq, inArray } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import { bookings, disputes, productHolds, products } from '#server/db/schema'
import type { Mail } from '#server/mail/mail'
import { closeOffersOffSale } from '#server/modules/offers'
import { DEAL_MOVES, moveDeal } from './stages'

/** Why listings left sale, as their buyers read it ("Your booking is cancelled: <reason>"). */
export const LEAVE_SALE_REASONS = {
  review: 'the listing is waiting for review',
  rejected: 'the listing did not pass review',
  stolen: 'the laptop’s serial number was reported stolen',
  removed: 'the listing was taken down',
  expired: 'the listing expired',
  seller_closed: 'the seller’s account was closed',
} as const

export type LeaveSaleReason = keyof typeof LEAVE_SALE_REASONS

export type LeaveSale = {
  productIds: string[]
  reason: LeaveSaleReason
  /** Who took them off (an admin, the seller), or null for the product itself (the expiry job). */
  actorId: string | null
  mail: Pick<Mail, 'queue'>
}

/**
 * Ends everything under way on these listings, in the caller's transaction, after the caller has taken them off
 * sale. A booking locked by a payment under way is skipped rather than waited for (that payment waits on the
 * listing's row, then finds it off sale and is refused; the booking reads as unavailable); every other unpaid
 * booking is cancelled. Returns the bookings cancelled and the sales frozen.
 */
export async function leaveSale(
  tx: Db,
  input: LeaveSale,
): Promise<{ cancelled: string[]; frozen: string[] }> {
  const { productIds, reason, actorId, mail } = input
  if (productIds.length === 0) return { cancelled: [], frozen: [] }
  const words = LEAVE_SALE_REASONS[reason]
  await closeOffersOffSale(tx, productIds, words, mail)
  await tx.delete(productHolds).where(inArray(productHolds.productId, productIds))

  const unpaid = await tx
    .select({ id: bookings.id, buyerId: bookings.buyerId, productName: bookings.productName })
    .from(bookings)
    .where(
      and(inArray(bookings.productId, productIds), eq(bookings.stage, 'booked'), eq(bookings.isPaid, false)),
    )
    .orderBy(bookings.id)
    .for('update', { skipLocked: true })
  for (const b of unpaid) {
    await moveDeal(tx, b.id, 'cancel', 'system', { actorId, note: words })
    await mail.queue(tx, {
      to: { userId: b.buyerId },
      template: 'booking-cancelled',
      data: { productName: b.productName, reason: words },
    })
  }

  const frozen: string[] = []
  if (reason === 'stolen' && actorId) {
    const open = await tx
      .select({
        id: bookings.id,
        stage: bookings.stage,
        buyerId: bookings.buyerId,
        sellerId: products.sellerId,
        productName: bookings.productName,
        priceCents: bookings.priceCents,
      })
      .from(bookings)
      .innerJoin(products, eq(products.id, bookings.productId))
      .where(
        and(inArray(bookings.productId, productIds), inArray(bookings.stage, [...DEAL_MOVES.freeze.from])),
      )
      .orderBy(bookings.id)
      .for('update', { of: bookings })
    for (const sale of open) {
      await moveDeal(tx, sale.id, 'freeze', 'system', { actorId, note: words })
      await tx.insert(disputes).values({
        bookingId: sale.id,
        openedBy: actorId,
        reason: `The serial number of this laptop was reported stolen after it was paid for (${sale.stage === 'handed_over' ? 'already handed over' : sale.stage === 'shipped' ? 'on its way to the buyer' : 'not handed over yet'}). Refund the buyer, or release the sale if the report does not hold.`,
        stageBefore: sale.stage,
      })
      for (const role of ['buyer', 'seller'] as const) {
        await mail.queue(tx, {
          to: { userId: role === 'buyer' ? sale.buyerId : sale.sellerId },
          template: 'deal-frozen',
          data: { role, productName: sale.productName, priceCents: sale.priceCents },
        })
      }
      frozen.push(sale.id)
    }
  }
  return { cancelled: unpaid.map((b) => b.id), frozen }
}
