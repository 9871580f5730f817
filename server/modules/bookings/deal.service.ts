import { eq, sql } from 'drizzle-orm'
import type { BookingStatus, HandoverBody, ProblemBody } from '#contract/bookings'
import type { FeeRule } from '#contract/fees'
import type { ReceivedBody } from '#contract/handover'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { bookingEvents, bookings, disputes, products, users } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import type { SessionUser } from '#server/lib/session'
import { postSaleMoney } from '#server/modules/ledger/sales'
import { bookingStatus } from './bookings.service'
import { type DealMail, queueDealEmails, sendBookedEmail } from './deal-emails'

/** How each status reads in a refusal ("… the booking is handed over"). */
export const STATUS_WORDS: Record<BookingStatus, string> = {
  unpaid: 'not paid yet',
  paid: 'paid and waiting for handover',
  sold: 'sold to another buyer',
  unavailable: 'unavailable',
  handed_over: 'handed over',
  completed: 'completed',
  disputed: 'disputed',
  refunded: 'refunded',
}

/** A refusal for a call made in the wrong stage: 409, naming the stage the booking is in. */
export function wrongStage(action: string, status: BookingStatus): AppError {
  return new AppError('CONFLICT', `You cannot ${action}: this booking is ${STATUS_WORDS[status]}`)
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
  const isBuyer = row.booking.buyerId === caller.id
  const isSeller = row.sellerId === caller.id
  if (!isBuyer && !isSeller && caller.role !== 'admin') throw notFound('Booking')
  return { ...row, isBuyer, isSeller, status: bookingStatus(row) }
}

async function recordEvent(
  tx: Db,
  event: {
    bookingId: string
    kind: (typeof bookingEvents.$inferInsert)['kind']
    actorId: string | null
    note?: string | null
  },
) {
  await tx.insert(bookingEvents).values({ ...event, note: event.note ?? null })
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
    if (!deal.isSeller) throw new AppError('FORBIDDEN', 'Only the seller can mark this laptop handed over')
    if (deal.status !== 'paid') throw wrongStage('mark it handed over', deal.status)
    const note = input?.note ? input.note : null
    const [moved] = await tx
      .update(bookings)
      .set({ stage: 'handed_over', handedOverAt: sql`now()`, handoverNote: note })
      .where(eq(bookings.id, bookingId))
      .returning({ handedOverAt: bookings.handedOverAt })
    await recordEvent(tx, { bookingId, kind: 'handed_over', actorId: seller.id, note })
    const handedOverAt = moved?.handedOverAt ?? new Date()
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
    if (!deal.isBuyer) throw new AppError('FORBIDDEN', 'Only the buyer can confirm they received the laptop')
    if (deal.status !== 'handed_over') throw wrongStage('confirm receipt', deal.status)
    await tx
      .update(bookings)
      .set({
        stage: 'completed',
        completedAt: sql`now()`,
        handoverChecklist: input.checklist,
        handoverCheckedAt: sql`now()`,
      })
      .where(eq(bookings.id, bookingId))
    await recordEvent(tx, { bookingId, kind: 'received', actorId: buyer.id })
    await postSaleMoney(tx, [bookingId], fee)
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
    if (!deal.isBuyer) throw new AppError('FORBIDDEN', 'Only the buyer can report a problem with this sale')
    if (deal.status !== 'paid' && deal.status !== 'handed_over') {
      throw wrongStage('report a problem', deal.status)
    }
    const [dispute] = await tx
      .insert(disputes)
      .values({ bookingId, openedBy: buyer.id, reason: input.reason, stageBefore: deal.status })
      .returning({ id: disputes.id })
    if (!dispute) throw new AppError('INTERNAL', 'The problem could not be saved')
    await tx
      .update(bookings)
      .set({
        stage: 'disputed',
        // The checklist as ticked when reporting, kept for the admin who handles the dispute.
        ...(input.checklist ? { handoverChecklist: input.checklist, handoverCheckedAt: sql`now()` } : {}),
      })
      .where(eq(bookings.id, bookingId))
    await recordEvent(tx, { bookingId, kind: 'problem_reported', actorId: buyer.id, note: input.reason })
    await queueDealEmails(tx, mail, bookingId, { kind: 'dispute_opened', reason: input.reason })
    return dispute.id
  })
}

/**
 * Completes every handed-over sale whose buyer has not answered within `days` of the handover: one
 * conditional update per sale, so running it twice (or on two instances at once) completes each once.
 * Both sides are emailed in the same transaction. Returns the ids it completed.
 */
export async function completeOverdueSales(
  db: Db,
  days: number,
  mail: DealMail,
  fee: FeeRule,
  limit = 500,
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const done = await tx
      .update(bookings)
      .set({ stage: 'completed', completedAt: sql`now()` })
      .where(
        sql`${bookings.id} in (select ${bookings.id} from ${bookings}
          where ${bookings.stage} = 'handed_over'
            and ${bookings.handedOverAt} <= now() - make_interval(days => ${days})
          order by ${bookings.handedOverAt} limit ${limit} for update skip locked)`,
      )
      .returning({ id: bookings.id })
    if (done.length > 0) {
      await tx
        .insert(bookingEvents)
        .values(done.map((d) => ({ bookingId: d.id, kind: 'auto_completed' as const, actorId: null })))
      await postSaleMoney(
        tx,
        done.map((d) => d.id),
        fee,
      )
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
    await completeOverdueSales(ctx.db, ctx.config.deal.autoCompleteDays, ctx.mail, ctx.config.payouts.fee)
  })
  ctx.jobs.schedule('deals.auto-complete', '*/15 * * * *')
}
