import { eq, sql } from 'drizzle-orm'
import type { BookingStatus, HandoverBody, ProblemBody } from '#contract/bookings'
import type { FeeRule } from '#contract/fees'
import type { ReceivedBody } from '#contract/handover'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { bookings, disputes, productHolds, products, users } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import type { SessionUser } from '#server/lib/session'
import { assertDealParty, dealPartiesOf, moveDeal } from '#server/modules/deal'
import { bookingStatus } from './bookings.service'
import { type DealMail, queueDealEmails, sendBookedEmail } from './deal-emails'

/** How each status reads in a refusal ("… the booking is handed over"). */
export const STATUS_WORDS: Record<BookingStatus, string> = {
  unpaid: 'not paid yet',
  cancelled: 'cancelled',
  paid: 'paid and waiting for handover',
  sold: 'sold to another buyer',
  unavailable: 'unavailable',
  shipped: 'shipped and on its way',
  handed_over: 'handed over',
  returning: 'being returned',
  completed: 'completed',
  disputed: 'disputed',
  refunded: 'refunded',
}

/** A refusal for a call made in the wrong stage: 409, naming the stage the booking is in. */
export function wrongStage(action: string, status: BookingStatus): AppError {
  return new AppError('CONFLICT', `You cannot ${action}: this booking is ${STATUS_WORDS[status]}`)
}

/**
 * Who the caller is to a deal: its buyer, the listing's seller, or (neither) an admin. Anyone else gets 404, as if
 * the booking did not exist. Every read or move of a deal asks this (through lockDeal when it moves).
 */
export function dealSideOf(deal: { buyerId: string; sellerId: string }, caller: SessionUser) {
  const isBuyer = deal.buyerId === caller.id
  const isSeller = deal.sellerId === caller.id
  if (!isBuyer && !isSeller && caller.role !== 'admin') throw notFound('Booking')
  return { isBuyer, isSeller }
}

/**
 * Locks a booking for a move of its deal and says who the caller is to it. Someone who may not see the
 * booking (neither its buyer, nor the listing's seller, nor an admin) gets 404, as if it did not exist.
 */
export async function lockDeal(tx: Db, caller: SessionUser, bookingId: string) {
  const [row] = await tx
    .select({
      booking: bookings,
      sellerId: products.sellerId,
      productSold: products.isSold,
      productRemovedAt: products.removedAt,
      productPriceCents: products.resalePriceCents,
      sellerDisabled: sql<boolean>`exists (select 1 from ${users} where ${users.id} = ${products.sellerId}
        and ${users.disabledAt} is not null)`,
    })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(eq(bookings.id, bookingId))
    .for('update', { of: bookings })
  if (!row) throw notFound('Booking')
  const side = dealSideOf({ buyerId: row.booking.buyerId, sellerId: row.sellerId }, caller)
  return { ...row, ...side, status: bookingStatus(row) }
}

/**
 * The buyer calls off their unpaid booking (the deal's `cancel` move, by the buyer): nothing was paid, so nothing
 * is refunded. Their hold ends with it, so another buyer can pay at once. The seller is emailed, unless the email
 * telling them of the booking is still waiting to be grouped with others (BOOKING_EMAIL_GROUP_SECONDS): then the
 * booking leaves that email, and the seller hears of neither.
 */
export async function cancelBooking(db: Db, buyer: SessionUser, bookingId: string, mail: DealMail) {
  return db.transaction(async (tx) => {
    const deal = await lockDeal(tx, buyer, bookingId)
    const party = assertDealParty('cancel', dealPartiesOf(deal, buyer))
    await moveDeal(tx, bookingId, 'cancel', party, {
      actorId: buyer.id,
      set: { sellerEmailPending: false },
    })
    await tx.delete(productHolds).where(eq(productHolds.bookingId, bookingId))
    // A seller not told of the booking yet hears of neither; one whose laptop is sold or gone meanwhile has
    // nothing to act on.
    if (!deal.booking.sellerEmailPending && deal.status === 'unpaid') {
      await mail.queue(tx, {
        to: { userId: deal.sellerId },
        template: 'booking-withdrawn',
        data: { productName: deal.booking.productName, buyerName: deal.booking.userName },
      })
    }
    return 1
  })
}

/**
 * The listing's seller says the buyer has the laptop (paid bookings only), with an optional note. The
 * buyer is emailed, with the day the sale completes by itself (`autoCompleteDays` after the handover).
 */
export async function markHandedOver(
  db: Db,
  seller: SessionUser,
  bookingId: string,
  input: HandoverBody,
  mail: DealMail,
  autoCompleteDays: number,
) {
  return db.transaction(async (tx) => {
    const deal = await lockDeal(tx, seller, bookingId)
    const party = assertDealParty('hand_over', dealPartiesOf(deal, seller))
    // A shipped sale is handed over by its delivery (the carrier's tracker), not by the seller's word: the move's
    // own rule (DEAL_MOVES.hand_over.delivery) refuses it.
    const note = input?.note ? input.note : null
    const moved = await moveDeal(tx, bookingId, 'hand_over', party, {
      actorId: seller.id,
      note,
      set: { handoverNote: note },
    })
    const handedOverAt = moved.handedOverAt ?? new Date()
    await queueDealEmails(tx, mail, bookingId, {
      kind: 'handed_over',
      note,
      completesAt: new Date(handedOverAt.getTime() + autoCompleteDays * 86_400_000),
    })
    return 1
  })
}

/**
 * The buyer confirms "Received, as described" with the handover checklist all ticked (ReceivedBody): the sale is
 * completed, the answers are kept on the deal, and the seller's share is available.
 */
export async function confirmReceived(
  db: Db,
  buyer: SessionUser,
  bookingId: string,
  mail: DealMail,
  fee: FeeRule,
  input: ReceivedBody,
) {
  return db.transaction(async (tx) => {
    const deal = await lockDeal(tx, buyer, bookingId)
    const party = assertDealParty('receive', dealPartiesOf(deal, buyer))
    await moveDeal(tx, bookingId, 'receive', party, {
      actorId: buyer.id,
      fee,
      set: { handoverChecklist: input.checklist, handoverCheckedAt: new Date() },
    })
    await queueDealEmails(tx, mail, bookingId, { kind: 'completed', how: 'confirmed' })
    return 1
  })
}

/** The buyer reports a problem with a paid sale that is not completed: a dispute opens for admins. */
export async function reportProblem(
  db: Db,
  buyer: SessionUser,
  bookingId: string,
  input: ProblemBody,
  mail: DealMail,
) {
  return db.transaction(async (tx) => {
    const deal = await lockDeal(tx, buyer, bookingId)
    const party = assertDealParty('report', dealPartiesOf(deal, buyer))
    const stageBefore = deal.booking.stage
    await moveDeal(tx, bookingId, 'report', party, {
      actorId: buyer.id,
      note: input.reason,
      // The checklist as ticked when reporting, kept for the admin who handles the dispute.
      set: input.checklist ? { handoverChecklist: input.checklist, handoverCheckedAt: new Date() } : {},
    })
    const [dispute] = await tx
      .insert(disputes)
      .values({
        bookingId,
        openedBy: buyer.id,
        reason: input.reason,
        stageBefore: stageBefore === 'handed_over' ? 'handed_over' : 'paid',
      })
      .returning({ id: disputes.id })
    if (!dispute) throw new AppError('INTERNAL', 'The problem could not be saved')
    await queueDealEmails(tx, mail, bookingId, { kind: 'dispute_opened', reason: input.reason })
    return dispute.id
  })
}

/**
 * Completes every handed-over sale whose buyer has not answered within `days` of the handover: each sale is locked
 * and moved once, so running it twice (or on two instances at once) completes each once.
 * Both sides are emailed in the same transaction. Returns the ids it completed.
 */
export async function completeOverdueSales(
  db: Db,
  days: number,
  mail: DealMail,
  fee: FeeRule,
  limit = 500,
  /** A shipped sale's inspection window: days after delivery (its handover) before it completes by itself. */
  inspectionDays = days,
): Promise<string[]> {
  return db.transaction(async (tx) => {
    // The overdue sales, locked; one taken by another instance meanwhile is skipped (that instance completes it).
    const done = await tx
      .select({ id: bookings.id })
      .from(bookings)
      .where(
        sql`${bookings.stage} = 'handed_over'
          and ${bookings.handedOverAt} <= now() - make_interval(days => (case when ${bookings.deliveryMethod} = 'ship'
            then ${inspectionDays} else ${days} end)::int)`,
      )
      .orderBy(bookings.handedOverAt)
      .limit(limit)
      .for('update', { skipLocked: true })
    for (const d of done) await moveDeal(tx, d.id, 'auto_complete', 'system', { actorId: null, fee })
    if (done.length > 0) {
      await queueDealEmails(
        tx,
        mail,
        done.map((d) => d.id),
        { kind: 'completed', how: 'auto' },
      )
    }
    return done.map((d) => d.id)
  })
}

/**
 * The `deals.auto-complete` job, every quarter hour (pg-boss's cron: one instance does each run): completes
 * the sales whose handover is AUTO_COMPLETE_DAYS old. Safe to run twice (see completeOverdueSales). And the
 * `bookings.seller-email` job: a seller's new bookings, in one email (see sendBookedEmail).
 */
export function registerDealJobs(ctx: Pick<AppContext, 'db' | 'mail' | 'config' | 'jobs'>) {
  ctx.jobs.work('bookings.seller-email', (job) => sendBookedEmail(ctx, job.data.sellerId))
  ctx.jobs.work('deals.auto-complete', async () => {
    await completeOverdueSales(
      ctx.db,
      ctx.config.deal.autoCompleteDays,
      ctx.mail,
      ctx.config.payouts.fee,
      500,
      ctx.config.deal.inspectionDays,
    )
  })
  ctx.jobs.schedule('deals.auto-complete', '*/15 * * * *')
}
