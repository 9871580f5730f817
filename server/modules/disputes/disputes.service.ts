import { asc, desc, eq, inArray, ne, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Dispute } from '#contract/bookings'
import type { FeeRule } from '#contract/fees'
import type { Db } from '#server/db/client'
import { bookingEvents, bookings, disputes, products, users } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import type { PaymentProvider } from '#server/lib/payment-provider'
import type { SessionUser } from '#server/lib/session'
import { bookingStatus, type DealMail, handoverAnswers, queueDealEmails } from '#server/modules/bookings'
import { assertDealParty, dealPartiesOf, moveDeal, refundSale } from '#server/modules/deal'

/** An admin deciding a dispute acts as an admin, not as a side of the sale (even on a sale of their own). */
const NOT_A_SIDE = { isBuyer: false, isSeller: false }

const buyers = alias(users, 'buyers')
const sellers = alias(users, 'sellers')
const resolvers = alias(users, 'resolvers')
const actors = alias(users, 'actors')

/** Disputes for admins, newest first: open ones (the default), resolved ones, or all. */
export async function findDisputes(db: Db, which: 'open' | 'resolved' | 'all' = 'open'): Promise<Dispute[]> {
  const where =
    which === 'open'
      ? eq(disputes.status, 'open')
      : which === 'resolved'
        ? ne(disputes.status, 'open')
        : undefined
  const rows = await db
    .select({
      dispute: disputes,
      booking: bookings,
      productSold: products.isSold,
      productRemovedAt: products.removedAt,
      productPriceCents: products.resalePriceCents,
      sellerId: products.sellerId,
      sellerDisabled: sql<boolean>`${sellers.disabledAt} is not null`,
      serialLast4: products.serialLast4,
      buyer: { _id: buyers.id, name: buyers.name, email: buyers.email },
      seller: { _id: sellers.id, name: sellers.name, email: sellers.email },
      resolvedBy: resolvers.name,
    })
    .from(disputes)
    .innerJoin(bookings, eq(bookings.id, disputes.bookingId))
    .innerJoin(products, eq(products.id, bookings.productId))
    .innerJoin(buyers, eq(buyers.id, bookings.buyerId))
    .innerJoin(sellers, eq(sellers.id, products.sellerId))
    .leftJoin(resolvers, eq(resolvers.id, disputes.resolvedBy))
    .where(where)
    .orderBy(desc(disputes.createdAt), desc(disputes.id))
    .limit(200)
  const ids = rows.map((r) => r.booking.id)
  const events =
    ids.length === 0
      ? []
      : await db
          .select({
            bookingId: bookingEvents.bookingId,
            kind: bookingEvents.kind,
            actorName: actors.name,
            note: bookingEvents.note,
            at: bookingEvents.createdAt,
          })
          .from(bookingEvents)
          .leftJoin(actors, eq(actors.id, bookingEvents.actorId))
          .where(inArray(bookingEvents.bookingId, ids))
          .orderBy(asc(bookingEvents.createdAt), asc(bookingEvents.id))
  return rows.map((r) => ({
    _id: r.dispute.id,
    status: r.dispute.status,
    reason: r.dispute.reason,
    createdAt: r.dispute.createdAt.toISOString(),
    resolvedAt: r.dispute.resolvedAt ? r.dispute.resolvedAt.toISOString() : null,
    resolvedBy: r.resolvedBy,
    booking: {
      _id: r.booking.id,
      productId: r.booking.productId,
      productName: r.booking.productName,
      productImage: r.booking.productImage,
      price_cents: r.booking.priceCents,
      status: bookingStatus(r),
      paidAt: r.booking.paidAt ? r.booking.paidAt.toISOString() : null,
      handedOverAt: r.booking.handedOverAt ? r.booking.handedOverAt.toISOString() : null,
      handoverNote: r.booking.handoverNote,
      serial_last4: r.serialLast4 ?? null,
      checklist: handoverAnswers(r.booking),
    },
    buyer: r.buyer,
    seller: r.seller,
    history: events
      .filter((e) => e.bookingId === r.booking.id)
      .map((e) => ({ kind: e.kind, actorName: e.actorName, note: e.note, at: e.at.toISOString() })),
  }))
}

async function lockOpenDispute(tx: Db, id: string) {
  const [dispute] = await tx.select().from(disputes).where(eq(disputes.id, id)).for('update')
  if (!dispute) throw notFound('Dispute')
  if (dispute.status !== 'open') {
    throw new AppError('CONFLICT', `This dispute has already been ${dispute.status}`)
  }
  // Locked after the dispute (always in this order), like every move of a booking.
  const [booking] = await tx.select().from(bookings).where(eq(bookings.id, dispute.bookingId)).for('update')
  if (!booking) throw notFound('Booking')
  return { dispute, booking }
}

/**
 * An admin refunds the buyer of a disputed sale through `refundSale` (the processor's refund inside the
 * transaction, so a failed refund changes nothing and can be tried again; the payment and the booking marked
 * refunded; the ledger's refund out of the sale's held money). The listing stays off sale
 * (docs/decisions/0020).
 */
export async function refundDispute(
  db: Db,
  provider: PaymentProvider,
  admin: SessionUser,
  id: string,
  mail: DealMail,
  fee: FeeRule,
  /** Why, in the admin's words: kept on the deal's step and told to both sides. */
  reason: string,
) {
  return db.transaction(async (tx) => {
    const { dispute, booking } = await lockOpenDispute(tx, id)
    const party = assertDealParty('refund_dispute', dealPartiesOf(NOT_A_SIDE, admin))
    await refundSale(
      tx,
      (payment) => provider.refund(payment),
      {
        bookingId: booking.id,
        move: 'refund_dispute',
        party,
        actorId: admin.id,
        reason: 'Refunded after a dispute',
        note: reason,
      },
      fee,
    )
    await tx
      .update(disputes)
      .set({ status: 'refunded', resolvedBy: admin.id, resolvedAt: sql`now()` })
      .where(eq(disputes.id, dispute.id))
    await queueDealEmails(tx, mail, booking.id, { kind: 'dispute_resolved', outcome: 'refunded', reason })
    return 1
  })
}

/**
 * An admin releases a disputed sale to the seller: the sale is completed and the seller's share becomes
 * available on the ledger.
 */
export async function releaseDispute(db: Db, admin: SessionUser, id: string, mail: DealMail, fee: FeeRule) {
  return db.transaction(async (tx) => {
    const { dispute, booking } = await lockOpenDispute(tx, id)
    const party = assertDealParty('release', dealPartiesOf(NOT_A_SIDE, admin))
    await moveDeal(tx, booking.id, 'release', party, { actorId: admin.id, fee })
    await tx
      .update(disputes)
      .set({ status: 'released', resolvedBy: admin.id, resolvedAt: sql`now()` })
      .where(eq(disputes.id, dispute.id))
    await queueDealEmails(tx, mail, booking.id, { kind: 'dispute_resolved', outcome: 'released' })
    return 1
  })
}
