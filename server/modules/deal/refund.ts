// Giving a paid sale's money back: the one place it happens, for every refund path (a dispute's refund, a seller's
// cancellation, an admin's refund of a completed sale, a listing removed after a report). The move is checked
// against the deal's table before the processor is asked, so a refund the table does not allow costs nothing.
import { and, eq, sql } from 'drizzle-orm'
import type { FeeRule } from '#contract/fees'
import type { Db } from '#server/db/client'
import { bookings, payments } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import type { SessionUser } from '#server/lib/session'
import { postSaleMoney } from '#server/modules/ledger'
import { refreshPriceGuideForProduct } from '#server/modules/price-guide'
import {
  assertDealParty,
  assertMove,
  type DealMove,
  type DealParty,
  dealPartiesOf,
  lockStage,
  moveDeal,
} from './stages'

/** The processor's side of a refund: gives a succeeded payment's money back (PaymentProvider.refund). */
export type RefundCall = (payment: { provider: 'stripe' | 'test'; transactionId: string }) => Promise<void>

/**
 * Takes a sale's transferred share back before its refund, in the refund's transaction: with Stripe Connect the
 * payouts module's `reverseSaleTransfer` (the transfer reversed, the ledger's `reversal` posted; refused while the
 * transfer is being made). The deal sits below payouts, so the refund's caller passes it in; without it (a
 * dispute or a cancellation, before completion, when nothing can have been transferred) nothing is taken back.
 */
export type TakeBackShare = (tx: Db, bookingId: string) => Promise<void>

/** The moves that give a sale's money back. */
export type RefundMove = Extract<
  DealMove,
  'refund_dispute' | 'cancel_sale' | 'refund_completed' | 'refund_removed' | 'ship_late' | 'refund_return'
>

/**
 * Gives a paid sale's money back to its buyer, in the caller's transaction: the move checked against the deal's
 * table on the locked booking, the processor's refund (inside the transaction, so a refusal changes nothing and can
 * be tried again; Stripe's refund is idempotent per PaymentIntent), the payment marked refunded, the deal moved to
 * refunded (its event, and the ledger's refund: from the sale's held money before completion, from the seller's
 * balance after it, which may go below zero, recovered from their next sales), and the price guide told.
 */
export async function refundSale(
  tx: Db,
  refund: RefundCall,
  sale: {
    bookingId: string
    move: RefundMove
    party: DealParty
    actorId: string | null
    /** Why, on the payment's record. */
    reason: string
    /** A note on the booking's step (the seller's reason for cancelling, an admin's for refunding). */
    note?: string | null
  },
  fee: FeeRule,
  /** Takes back the share of a sale that was transferred (an admin's refund after completion). */
  takeBackShare: TakeBackShare | null = null,
): Promise<void> {
  const locked = await lockStage(tx, sale.bookingId)
  assertMove(locked.stage, sale.move, sale.party, locked.method)
  const [payment] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.bookingId, sale.bookingId), eq(payments.status, 'succeeded')))
    .for('update')
  if (!payment) throw new AppError('CONFLICT', 'This sale has no payment left to refund')
  // A sale paid before the ledger began gets its charge (and completion) written first, so the refund
  // comes out of the right place.
  await postSaleMoney(tx, [sale.bookingId], fee)
  // The seller's share, if it was transferred to their Stripe account, comes back first (docs/decisions/0046);
  // in test mode a share paid out stays paid out and the refund leaves the seller's balance below zero.
  await takeBackShare?.(tx, sale.bookingId)
  await refund(payment)
  await tx
    .update(payments)
    .set({ status: 'refunded', failureReason: sale.reason, updatedAt: sql`now()` })
    .where(eq(payments.id, payment.id))
  await moveDeal(tx, sale.bookingId, sale.move, sale.party, { actorId: sale.actorId, fee, note: sale.note })
  // A refunded sale no longer counts in the price guide.
  await refreshPriceGuideForProduct(tx, payment.productId)
}

/**
 * An admin gives the money of a completed sale back to its buyer (a disputed sale is refunded from its
 * dispute instead). The seller's share comes out of their balance, which goes below zero when it was paid
 * out already; the fee comes back out of the marketplace's fees.
 */
export async function refundCompletedSale(
  db: Db,
  refund: RefundCall,
  admin: Pick<SessionUser, 'id' | 'role'>,
  bookingId: string,
  fee: FeeRule,
  takeBackShare: TakeBackShare | null = null,
  note: string | null = null,
): Promise<{ productId: string }> {
  return db.transaction((tx) => refundCompletedSaleIn(tx, refund, admin, bookingId, fee, takeBackShare, note))
}

/**
 * `refundCompletedSale` in the caller's transaction (an admin's route writes its audit row in the same one). `note`
 * is the admin's reason, kept on the deal's step, which both sides see.
 */
export async function refundCompletedSaleIn(
  tx: Db,
  refund: RefundCall,
  admin: Pick<SessionUser, 'id' | 'role'>,
  bookingId: string,
  fee: FeeRule,
  takeBackShare: TakeBackShare | null = null,
  note: string | null = null,
): Promise<{ productId: string }> {
  const [booking] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update')
  if (!booking) throw notFound('Booking')
  // Where the table's own refusal ("this booking is disputed") would not say what to do instead.
  if (booking.stage === 'disputed')
    throw new AppError('CONFLICT', 'This sale is disputed: refund it from its dispute')
  if (booking.stage === 'refunded') throw new AppError('CONFLICT', 'This sale is refunded already')
  // The admin refunds as an admin, not as a side of the sale.
  const party = assertDealParty('refund_completed', dealPartiesOf({ isBuyer: false, isSeller: false }, admin))
  await refundSale(
    tx,
    refund,
    {
      bookingId,
      move: 'refund_completed',
      party,
      actorId: admin.id,
      reason: 'Refunded by an admin after completion',
      note,
    },
    fee,
    takeBackShare,
  )
  return { productId: booking.productId }
}
