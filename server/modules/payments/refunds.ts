// Giving a buyer's money back. Every refund of a sale goes through `refundSale`, inside the transaction of the
// change that causes it: an admin settling a dispute (server/modules/disputes), a seller cancelling a sale
// they cannot hand over, and an admin removing a reported listing whose sale is still open (both below).
import { and, eq, inArray, sql } from 'drizzle-orm'
import { type BookingEventKind, type CancelSaleBody, OPEN_SALE_STATUSES } from '#contract/bookings'
import type { Db } from '#server/db/client'
import { bookingEvents, bookings, disputes, payments, products } from '#server/db/schema'
import { AppError } from '#server/lib/errors'
import { publicDataChanged } from '#server/lib/public-cache'
import type { SessionUser } from '#server/lib/session'
import { lockDeal, wrongStage } from '#server/modules/bookings/deal.service'
import { type DealMail, queueDealEmails } from '#server/modules/bookings/deal-emails'
import { refreshPriceGuideForProduct } from '#server/modules/price-guide/price-guide.service'
import type { PaymentProvider } from './provider'

export type SaleRefund = {
  /** Who gave the money back (the seller who cancelled, or an admin). */
  actorId: string
  /** The step on the booking's record: `refunded` by an admin, `cancelled` by the seller. */
  event: Extract<BookingEventKind, 'refunded' | 'cancelled'>
  /** A note on the booking's record (the seller's reason), if any. */
  note?: string | null
  /** Kept on the payment: why its money went back. */
  reason: string
}

/**
 * Gives the whole of a paid sale's money back to its buyer, in the caller's transaction `tx` (which has
 * locked the booking): the processor that took the payment refunds it first (a failed refund throws and the
 * transaction changes nothing; Stripe's refund is idempotent per PaymentIntent, so trying again refunds
 * once), then the payment and the booking are marked refunded, the step goes on the booking's record and
 * the price guide forgets the sale. The one place a refund is written, so anything that must follow every
 * refund belongs here.
 */
export async function refundSale(
  tx: Db,
  provider: PaymentProvider,
  booking: { id: string; productId: string },
  refund: SaleRefund,
): Promise<{ paymentId: string; amountCents: number }> {
  const [payment] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.bookingId, booking.id), eq(payments.status, 'succeeded')))
    .for('update')
  if (!payment) throw new AppError('CONFLICT', 'This sale has no payment left to refund')
  await provider.refund(payment)
  await tx
    .update(payments)
    .set({ status: 'refunded', failureReason: refund.reason, updatedAt: sql`now()` })
    .where(eq(payments.id, payment.id))
  await tx
    .update(bookings)
    .set({ stage: 'refunded', refundedAt: sql`now()` })
    .where(eq(bookings.id, booking.id))
  await tx.insert(bookingEvents).values({
    bookingId: booking.id,
    kind: refund.event,
    actorId: refund.actorId,
    note: refund.note ?? null,
  })
  // A refunded sale no longer counts in the price guide.
  await refreshPriceGuideForProduct(tx, booking.productId)
  return { paymentId: payment.id, amountCents: payment.amountCents }
}

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
): Promise<number> {
  const cancelled = await db.transaction(async (tx) => {
    const deal = await lockDeal(tx, seller, bookingId)
    if (!deal.isSeller) throw new AppError('FORBIDDEN', 'Only the seller can cancel this sale')
    if (deal.status !== 'paid') throw wrongStage('cancel the sale', deal.status)
    await refundSale(tx, provider, deal.booking, {
      actorId: seller.id,
      event: 'cancelled',
      note: input.reason,
      reason: 'The seller cancelled the sale',
    })
    await takeListingDown(tx, deal.booking.productId)
    await queueDealEmails(tx, mail, bookingId, { kind: 'cancelled', by: 'seller', reason: input.reason })
    return 1
  })
  publicDataChanged(db)
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
  await refundSale(tx, provider, open, {
    actorId: admin.id,
    event: 'refunded',
    note: 'The listing was removed after a report',
    reason: 'Refunded when an admin removed the listing',
  })
  await tx
    .update(disputes)
    .set({ status: 'refunded', resolvedBy: admin.id, resolvedAt: sql`now()` })
    .where(and(eq(disputes.bookingId, open.id), eq(disputes.status, 'open')))
  await queueDealEmails(tx, mail, open.id, { kind: 'cancelled', by: 'admin', reason: null })
  return true
}
