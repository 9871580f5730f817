import { and, eq, inArray, sql } from 'drizzle-orm'
import { type FeeRule, feeCents } from '#contract/fees'
import type { Db } from '#server/db/client'
import {
  bookingEvents,
  bookings,
  ledgerEntries,
  ledgerTransactions,
  payments,
  products,
} from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import { refreshPriceGuideForProduct } from '#server/modules/price-guide/price-guide.service'
import { postTransaction } from './ledger'

// A sale's money (docs/decisions/0035). Every change of a sale's state calls `postSaleMoney` in its own
// transaction; it reads the sale's state and writes the ledger transactions that state implies and that are
// not written yet:
//
//   paid       charge    buyers −price, held:<seller> +net, held_fees +fee      (fee from the rule in force)
//   completed  complete  held:<seller> −net, available:<seller> +net, held_fees −fee, fees +fee
//   refunded   refund    buyers +price; before completion from held:<seller> and held_fees,
//                        after it from available:<seller> (which may go below zero) and fees
//
// Each kind is written at most once per sale (a unique index), so calling it twice, from a retry or a second
// instance, changes nothing. A refund goes through `refundSale`, the one place that gives a sale's money back.

type SaleRow = { id: string; stage: string; isPaid: boolean; priceCents: number; sellerId: string }

/** Writes the ledger transactions these sales' state implies and that are not written yet. */
export async function postSaleMoney(tx: Db, bookingIds: string[], fee: FeeRule): Promise<void> {
  if (bookingIds.length === 0) return
  const sales: SaleRow[] = await tx
    .select({
      id: bookings.id,
      stage: bookings.stage,
      isPaid: bookings.isPaid,
      priceCents: bookings.priceCents,
      sellerId: products.sellerId,
    })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(inArray(bookings.id, bookingIds))
  const posted = await tx
    .select({
      bookingId: ledgerTransactions.bookingId,
      kind: ledgerTransactions.kind,
      accountId: ledgerEntries.accountId,
      amountCents: ledgerEntries.amountCents,
    })
    .from(ledgerTransactions)
    .leftJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
    .where(inArray(ledgerTransactions.bookingId, bookingIds))
  for (const sale of sales) {
    if (!sale.isPaid) continue
    const mine = posted.filter((p) => p.bookingId === sale.id)
    const kinds = new Set(mine.map((p) => p.kind))
    const s = sale.sellerId
    // The sale's split is the charge's: a fee rule changed since does not reach a sale already paid.
    let price = sale.priceCents
    let feePart = feeCents(price, fee)
    const charge = mine.filter((p) => p.kind === 'charge')
    if (charge.length > 0) {
      price = -(charge.find((p) => p.accountId === 'buyers')?.amountCents ?? 0)
      feePart = charge.find((p) => p.accountId === 'held_fees')?.amountCents ?? 0
    } else {
      await postTransaction(tx, { kind: 'charge', sellerId: s, bookingId: sale.id }, [
        { account: { kind: 'buyers' }, amountCents: -price },
        { account: { kind: 'held', sellerId: s }, amountCents: price - feePart },
        { account: { kind: 'held_fees' }, amountCents: feePart },
      ])
    }
    const net = price - feePart
    let completed = kinds.has('complete')
    if (sale.stage === 'completed' && !completed && !kinds.has('refund')) {
      await postTransaction(tx, { kind: 'complete', sellerId: s, bookingId: sale.id }, [
        { account: { kind: 'held', sellerId: s }, amountCents: -net },
        { account: { kind: 'available', sellerId: s }, amountCents: net },
        { account: { kind: 'held_fees' }, amountCents: -feePart },
        { account: { kind: 'fees' }, amountCents: feePart },
      ])
      completed = true
    }
    if (sale.stage === 'refunded' && !kinds.has('refund')) {
      await postTransaction(tx, { kind: 'refund', sellerId: s, bookingId: sale.id }, [
        { account: { kind: 'buyers' }, amountCents: price },
        completed
          ? { account: { kind: 'available', sellerId: s }, amountCents: -net }
          : { account: { kind: 'held', sellerId: s }, amountCents: -net },
        completed
          ? { account: { kind: 'fees' }, amountCents: -feePart }
          : { account: { kind: 'held_fees' }, amountCents: -feePart },
      ])
    }
  }
}

/** The processor's side of a refund: gives a succeeded payment's money back (PaymentProvider.refund). */
export type RefundCall = (payment: { provider: 'stripe' | 'test'; transactionId: string }) => Promise<void>

/**
 * Takes a sale's transferred share back before its refund, in the refund's transaction: with Stripe Connect the
 * payouts module's `reverseSaleTransfer` (the transfer reversed, the ledger's `reversal` posted; refused while the
 * transfer is being made). The ledger sits below payouts, so the refund's caller passes it in; without it (a
 * dispute or a cancellation, before completion, when nothing can have been transferred) nothing is taken back.
 */
export type TakeBackShare = (tx: Db, bookingId: string) => Promise<void>

/**
 * Gives a paid sale's money back to its buyer, in the caller's transaction, which must hold the booking's
 * lock: the processor's refund (inside the transaction, so a refusal changes nothing and can be tried again;
 * Stripe's refund is idempotent per PaymentIntent), the payment and the booking marked refunded, the event on
 * record, the price guide told, and the ledger's refund posted — from the sale's held money before completion,
 * from the seller's balance after it (which may go below zero, recovered from their next sales). Every refund
 * path calls this: a dispute's refund, a seller's cancellation, an admin's refund of a completed sale.
 */
export async function refundSale(
  tx: Db,
  refund: RefundCall,
  sale: {
    bookingId: string
    actorId: string | null
    reason: string
    /** The step on the booking's record: `refunded` (an admin), or `cancelled` (the seller called it off). */
    event?: 'refunded' | 'cancelled'
    /** A note on that step (the seller's reason for cancelling). */
    note?: string | null
  },
  fee: FeeRule,
  /** Takes back the share of a sale that was transferred (an admin's refund after completion). */
  takeBackShare: TakeBackShare | null = null,
): Promise<void> {
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
  await tx
    .update(bookings)
    .set({ stage: 'refunded', refundedAt: sql`now()` })
    .where(eq(bookings.id, sale.bookingId))
  await tx.insert(bookingEvents).values({
    bookingId: sale.bookingId,
    kind: sale.event ?? 'refunded',
    actorId: sale.actorId,
    note: sale.note ?? null,
  })
  // A refunded sale no longer counts in the price guide.
  await refreshPriceGuideForProduct(tx, payment.productId)
  await postSaleMoney(tx, [sale.bookingId], fee)
}

/**
 * An admin gives the money of a completed sale back to its buyer (a disputed sale is refunded from its
 * dispute instead). The seller's share comes out of their balance, which goes below zero when it was paid
 * out already; the fee comes back out of the marketplace's fees.
 */
export async function refundCompletedSale(
  db: Db,
  refund: RefundCall,
  admin: { id: string },
  bookingId: string,
  fee: FeeRule,
  takeBackShare: TakeBackShare | null = null,
): Promise<{ productId: string }> {
  return db.transaction((tx) => refundCompletedSaleIn(tx, refund, admin, bookingId, fee, takeBackShare))
}

/** `refundCompletedSale` in the caller's transaction (an admin's route writes its audit row in the same one). */
export async function refundCompletedSaleIn(
  tx: Db,
  refund: RefundCall,
  admin: { id: string },
  bookingId: string,
  fee: FeeRule,
  takeBackShare: TakeBackShare | null = null,
): Promise<{ productId: string }> {
  const [booking] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update')
  if (!booking) throw notFound('Booking')
  if (booking.stage !== 'completed') {
    throw new AppError(
      'CONFLICT',
      booking.stage === 'disputed'
        ? 'This sale is disputed: refund it from its dispute'
        : booking.stage === 'refunded'
          ? 'This sale is refunded already'
          : 'Only a completed sale can be refunded here',
    )
  }
  await refundSale(
    tx,
    refund,
    { bookingId, actorId: admin.id, reason: 'Refunded by an admin after completion' },
    fee,
    takeBackShare,
  )
  return { productId: booking.productId }
}

/**
 * Posts the paid sales the ledger has no charge for (sales recorded before the ledger began, or written
 * straight into the database like the demo's), with the stage each is at. Run at start; idempotent.
 */
export async function postUnpostedSales(db: Db, fee: FeeRule): Promise<number> {
  let total = 0
  for (;;) {
    const rows = await db
      .select({ id: bookings.id })
      .from(bookings)
      .where(
        sql`${bookings.isPaid} and not exists (select 1 from ${ledgerTransactions} t
          where t.booking_id = ${bookings.id} and t.kind = 'charge')`,
      )
      .limit(500)
    if (rows.length === 0) return total
    await db.transaction((tx) =>
      postSaleMoney(
        tx,
        rows.map((r) => r.id),
        fee,
      ),
    )
    total += rows.length
  }
}
