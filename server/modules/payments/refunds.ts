// Giving a buyer's money back when a paid sale is called off: a seller cancelling a sale they cannot hand over,
// and an admin removing a reported listing whose sale is still open. Both go through the deal's `refundSale`
// (server/modules/deal/refund.ts), the one place a sale's money is given back, like a dispute's refund.
import { and, eq, inArray, sql } from 'drizzle-orm'
import { type CancelSaleBody, OPEN_SALE_STATUSES } from '#contract/bookings'
import type { FeeRule } from '#contract/fees'
import type { Db } from '#server/db/client'
import { bookings, disputes, products } from '#server/db/schema'
import type { PaymentProvider } from '#server/lib/payment-provider'
import type { SessionUser } from '#server/lib/session'
import { type DealMail, lockDeal, queueDealEmails } from '#server/modules/bookings'
import { assertDealParty, dealPartiesOf, moveReturnsOf, refundSale } from '#server/modules/deal'

async function takeListingDown(tx: Db, productId: string) {
  const now = new Date()
  await tx.update(products).set({ removedAt: now, updatedAt: now }).where(eq(products.id, productId))
}

/**
 * The seller cannot hand over a laptop a buyer has paid for (it broke, it was lost): they cancel the sale.
 * The buyer is refunded in full through the processor that took the money, the listing leaves Laptop
 * Market, both sides are emailed (queued in the same transaction) and the cancellation stays on the
 * booking's record, where admins see it on the seller's row. Only a paid sale not yet handed over can be
 * cancelled; after the handover the buyer has the laptop and a problem goes through a dispute.
 */
export async function cancelSale(
  db: Db,
  provider: PaymentProvider,
  seller: SessionUser,
  bookingId: string,
  input: CancelSaleBody,
  mail: DealMail,
  fee: FeeRule,
): Promise<number> {
  const cancelled = await db.transaction(async (tx) => {
    const deal = await lockDeal(tx, seller, bookingId)
    const party = assertDealParty('cancel_sale', dealPartiesOf(deal, seller))
    await refundSale(
      tx,
      (payment) => provider.refund(payment),
      {
        bookingId,
        move: 'cancel_sale',
        party,
        actorId: seller.id,
        note: input.reason,
        reason: 'The seller cancelled the sale',
      },
      fee,
    )
    await takeListingDown(tx, deal.booking.productId)
    await queueDealEmails(tx, mail, bookingId, { kind: 'cancelled', by: 'seller', reason: input.reason })
    return 1
  })
  return cancelled
}

/**
 * An admin removes a listing whose sale is open (paid, handed over, or disputed): the buyer is refunded in
 * full first, any open dispute on it is closed as refunded, and both sides are emailed. Runs in the
 * caller's transaction, which has locked the report; a listing with no open sale is left to the caller.
 */
export async function refundOpenSaleOfListing(
  tx: Db,
  provider: PaymentProvider,
  admin: SessionUser,
  productId: string,
  mail: DealMail,
  fee: FeeRule,
): Promise<boolean> {
  const [open] = await tx
    .select({ id: bookings.id, productId: bookings.productId })
    .from(bookings)
    .where(
      and(
        eq(bookings.productId, productId),
        eq(bookings.isPaid, true),
        // A sale paid before stages were kept may still read `booked`.
        inArray(bookings.stage, ['booked', ...OPEN_SALE_STATUSES]),
      ),
    )
    .for('update')
  if (!open) return false
  // The admin removes the listing as an admin, not as a side of its sale.
  const party = assertDealParty('refund_removed', dealPartiesOf({ isBuyer: false, isSeller: false }, admin))
  await refundSale(
    tx,
    (payment) => provider.refund(payment),
    {
      bookingId: open.id,
      move: 'refund_removed',
      party,
      actorId: admin.id,
      note: 'The listing was removed after a report',
      reason: 'Refunded when an admin removed the listing',
    },
    fee,
  )
  await tx
    .update(disputes)
    .set({ status: 'refunded', resolvedBy: admin.id, resolvedAt: sql`now()` })
    .where(and(eq(disputes.bookingId, open.id), inArray(disputes.status, ['open', 'returning'])))
  // A return under way ends with the refund (the laptop stays where it is).
  await moveReturnsOf(tx, [open.id], 'refund_removed', ['admin'], { closedAt: sql`now()` })
  await queueDealEmails(tx, mail, open.id, { kind: 'cancelled', by: 'admin', reason: null })
  return true
}
