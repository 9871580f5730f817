// Returns (docs/decisions/0076): a buyer sends back a laptop that is not as described, within the inspection window.
// Every step locks the booking (through the bookings module's `lockDeal`, which also says who the caller is to it)
// and then the return, in that order, so two answers to one return take turns and the second finds it moved on.
// Stage changes go through the deal's table (server/modules/deal/stages.ts), and the return's status changes, with
// who may make each, through the return's own table beside it (server/modules/deal/return-moves.ts); the refund
// through the deal's `refundSale`, the one place a sale's money is given back.
import { and, asc, desc, eq, exists, inArray, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { isParcelLost, LOST_PARCEL_STATUSES } from '#contract/delivery'
import type { FeeRule } from '#contract/fees'
import {
  type AdminReturn,
  type BookingReturn,
  type DecideReturnBody,
  type DeclineReturnBody,
  OPEN_RETURN_STATUSES,
  type OpenReturnBody,
  type Return,
  type ReturnBackBody,
} from '#contract/returns'
import type { Db } from '#server/db/client'
import {
  bookings,
  disputes,
  parcels,
  products,
  returnPhotos,
  returns,
  uploads,
  users,
} from '#server/db/schema'
import type { Jobs } from '#server/jobs/jobs'
import { AppError, notFound } from '#server/lib/errors'
import type { PaymentProvider } from '#server/lib/payment-provider'
import type { SessionUser } from '#server/lib/session'
import type { ReturnStep } from '#server/mail/templates/deal-return'
import type { TemplateData } from '#server/mail/templates/index'
import { type DealMail, dealSideOf, lockDeal } from '#server/modules/bookings'
import {
  assertMove,
  assertReturnMove,
  assertReturnParty,
  assertReturnStatus,
  canMoveReturn,
  dealPartiesOf,
  moveDeal,
  moveReturn,
  openReturnRow,
  RETURN_MOVES,
  type ReturnMove,
  type ReturnParty,
  refundSale,
  returnMovesNow,
} from '#server/modules/deal'
import { returnLabelOf } from './return-label'

export type ReturnsDeps = {
  mail: DealMail
  jobs: Pick<Jobs, 'send'>
  provider: Pick<PaymentProvider, 'refund'>
  fee: FeeRule
  inspectionDays: number
  returnConfirmDays: number
}

type ReturnRow = typeof returns.$inferSelect
type BookingRow = typeof bookings.$inferSelect

const DAY_MS = 86_400_000
const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** A shipped sale's return travels on a label; a met one is handed back. */
export function returnMethodOf(booking: BookingRow): 'ship' | 'meet' {
  return booking.deliveryMethod === 'ship' ? 'ship' : 'meet'
}

/**
 * Until when the buyer may open a return: INSPECTION_DAYS after the handover (a shipped sale's handover is its
 * delivery), while the deal is handed over. Null when no return can be opened now.
 */
export function returnWindowEnd(booking: BookingRow, inspectionDays: number, now = Date.now()): Date | null {
  if (booking.stage !== 'handed_over' || !booking.handedOverAt) return null
  const end = new Date(booking.handedOverAt.getTime() + inspectionDays * DAY_MS)
  return end.getTime() > now ? end : null
}

async function lockReturnOf(tx: Db, bookingId: string): Promise<ReturnRow> {
  const [row] = await tx.select().from(returns).where(eq(returns.bookingId, bookingId)).for('update')
  if (!row) throw notFound('Return')
  return row
}

/**
 * Locks a sale and its return for a move of the return by the caller, in that order, asking the return's table
 * whether the move is the caller's (403, before the return is looked at) and whether the return's status starts it
 * (409).
 */
async function lockReturnFor(tx: Db, caller: SessionUser, bookingId: string, move: ReturnMove) {
  const deal = await lockDeal(tx, caller, bookingId)
  const parties = dealPartiesOf(deal, caller)
  assertReturnParty(move, parties)
  const ret = await lockReturnOf(tx, bookingId)
  assertReturnStatus(move, ret)
  return { deal, ret, parties }
}

/** Queues a return step's email to each side named, in the caller's transaction. */
export async function queueReturnEmails(
  tx: Db,
  mail: DealMail,
  bookingId: string,
  step: ReturnStep,
  to: readonly ('buyer' | 'seller')[],
  extra: Partial<TemplateData<'deal-return'>> = {},
) {
  const [sale] = await tx
    .select({ booking: bookings, sellerId: products.sellerId })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(eq(bookings.id, bookingId))
  if (!sale) return
  for (const role of to) {
    await mail.queue(tx, {
      to: { userId: role === 'buyer' ? sale.booking.buyerId : sale.sellerId },
      template: 'deal-return',
      data: {
        role,
        step,
        productName: sale.booking.productName,
        buyerName: sale.booking.userName,
        method: returnMethodOf(sale.booking),
        priceCents: sale.booking.priceCents,
        ...extra,
      },
    })
  }
}

/**
 * The buyer opens a return of a handed-over sale within the inspection window: "not as described", with the
 * reason, the checklist item that failed and photos they uploaded for it. The deal moves to `returning` (its
 * auto-completion waits) and both sides are emailed.
 */
export async function openReturn(
  db: Db,
  deps: ReturnsDeps,
  buyer: SessionUser,
  bookingId: string,
  input: OpenReturnBody,
): Promise<string> {
  return db.transaction(async (tx) => {
    const deal = await lockDeal(tx, buyer, bookingId)
    const parties = dealPartiesOf(deal, buyer)
    assertReturnParty('open', parties)
    assertMove(deal.booking.stage, 'open_return', 'buyer', deal.booking.deliveryMethod)
    const [earlier] = await tx.select().from(returns).where(eq(returns.bookingId, bookingId))
    assertReturnStatus('open', earlier ?? null)
    const handedOverAt = deal.booking.handedOverAt
    if (!returnWindowEnd(deal.booking, deps.inspectionDays)) {
      const ended = handedOverAt ? new Date(handedOverAt.getTime() + deps.inspectionDays * DAY_MS) : null
      throw new AppError(
        'CONFLICT',
        `You cannot return it: the ${deps.inspectionDays} days to inspect it${ended ? ` ended on ${ended.toISOString().slice(0, 10)}` : ' have ended'}`,
      )
    }
    const photoIds = [...new Set(input.photos)]
    const own = await tx
      .select({ id: uploads.id })
      .from(uploads)
      .where(and(inArray(uploads.id, photoIds), eq(uploads.uploaderId, buyer.id)))
    if (own.length !== photoIds.length) {
      const message = 'Add photos you uploaded for this return'
      throw new AppError('VALIDATION', message, { photos: message })
    }
    await moveDeal(tx, bookingId, 'open_return', 'buyer', { actorId: buyer.id, note: input.reason })
    const row = await openReturnRow(tx, 'open', parties, {
      bookingId,
      openedBy: buyer.id,
      method: returnMethodOf(deal.booking),
      reason: input.reason,
      failedCheck: input.failed_check,
    })
    await tx
      .insert(returnPhotos)
      .values(photoIds.map((uploadId, position) => ({ returnId: row.id, uploadId, position })))
    await queueReturnEmails(tx, deps.mail, bookingId, 'opened', ['buyer', 'seller'], { reason: input.reason })
    return row.id
  })
}

/** The seller's or an admin's acceptance of a return, by the return's table. */
async function acceptIn(
  tx: Db,
  deps: ReturnsDeps,
  ret: ReturnRow,
  move: 'accept' | 'admin_accept',
  parties: readonly ReturnParty[],
  by: { id: string },
  decisionReason: string | null,
) {
  await moveReturn(tx, ret, move, parties, {
    acceptedAt: sql`now()`,
    decidedBy: by.id,
    ...(decisionReason ? { decisionReason } : {}),
  })
  await afterAccepted(tx, deps, ret, decisionReason, 'accepted')
}

/** An accepted return: a shipped sale's label is bought by the `returns.label` job; a met one is handed back. */
async function afterAccepted(
  tx: Db,
  deps: ReturnsDeps,
  ret: ReturnRow,
  decisionReason: string | null,
  step: 'accepted' | 'return_first',
) {
  if (ret.method === 'ship') await deps.jobs.send('returns.label', { returnId: ret.id }, { tx })
  await queueReturnEmails(
    tx,
    deps.mail,
    ret.bookingId,
    step,
    step === 'accepted' ? ['buyer'] : ['buyer', 'seller'],
    {
      reason: decisionReason,
    },
  )
}

/** The seller accepts a requested return. */
export async function acceptReturn(db: Db, deps: ReturnsDeps, seller: SessionUser, bookingId: string) {
  return db.transaction(async (tx) => {
    const { ret, parties } = await lockReturnFor(tx, seller, bookingId, 'accept')
    await acceptIn(tx, deps, ret, 'accept', parties, seller, null)
    return 1
  })
}

/** The seller declines a requested return, with a reason: an admin decides. */
export async function declineReturn(
  db: Db,
  deps: ReturnsDeps,
  seller: SessionUser,
  bookingId: string,
  input: DeclineReturnBody,
) {
  return db.transaction(async (tx) => {
    const { ret, parties } = await lockReturnFor(tx, seller, bookingId, 'decline')
    await moveReturn(tx, ret, 'decline', parties, { declineReason: input.reason })
    await queueReturnEmails(tx, deps.mail, bookingId, 'declined', ['buyer'], { reason: input.reason })
    return 1
  })
}

/**
 * An admin decides a return the seller declined or has not answered: accept it (as the seller's acceptance), or
 * refuse it (the sale completes and the seller's share is available); or ends one whose parcel the carrier lost, when
 * the table offers that move now (returnMovesNow, as the admin's page does). Both sides see the admin's reason.
 */
export async function decideReturn(
  tx: Db,
  deps: ReturnsDeps,
  admin: SessionUser,
  returnId: string,
  input: DecideReturnBody,
) {
  const [found] = await tx
    .select({ bookingId: returns.bookingId })
    .from(returns)
    .where(eq(returns.id, returnId))
  if (!found) throw notFound('Return')
  const parties = dealPartiesOf(await lockDeal(tx, admin, found.bookingId), admin)
  const row = await lockReturnOf(tx, found.bookingId)
  const ret = { ...row, parcelLost: await returnParcelLost(tx, row.id) }
  const accept = input.decision === 'accept'
  if (returnMovesNow(ret, parties).includes(accept ? 'lost_refund' : 'lost_release')) {
    return endLostReturn(tx, deps, admin, parties, ret, input)
  }
  // Otherwise the decision's own move (the table gives it the same refusals as the lost parcel's).
  assertReturnMove(accept ? 'admin_accept' : 'refuse', parties, ret)
  if (accept) {
    await acceptIn(tx, deps, ret, 'admin_accept', parties, admin, input.reason)
    await queueReturnEmails(tx, deps.mail, ret.bookingId, 'accepted', ['seller'], { reason: input.reason })
    return 1
  }
  await moveDeal(tx, ret.bookingId, 'refuse_return', 'admin', {
    actorId: admin.id,
    fee: deps.fee,
    note: input.reason,
  })
  await moveReturn(tx, ret, 'refuse', parties, {
    decidedBy: admin.id,
    decisionReason: input.reason,
    closedAt: sql`now()`,
  })
  await queueReturnEmails(tx, deps.mail, ret.bookingId, 'refused', ['buyer', 'seller'], {
    reason: input.reason,
  })
  return 1
}

/** The return parcel of `returnId` (an id, or a column) when the carrier lost it: it failed, or went back to the buyer. */
const lostReturnParcel = (returnId: string | typeof returns.id) =>
  and(
    eq(parcels.purpose, 'return'),
    eq(parcels.returnId, returnId),
    inArray(parcels.status, LOST_PARCEL_STATUSES),
  )

/** Whether this return's parcel failed or went back to the buyer (the carrier's last word). */
async function returnParcelLost(db: Db, returnId: string): Promise<boolean> {
  const [lost] = await db.select({ id: parcels.id }).from(parcels).where(lostReturnParcel(returnId))
  return Boolean(lost)
}

/**
 * An admin ends a return whose parcel the carrier lost (failure, or back to the buyer), by the return's own moves:
 * accept refunds the buyer (as a return back as sent), refuse releases the sale to the seller (as a refused return).
 */
async function endLostReturn(
  tx: Db,
  deps: ReturnsDeps,
  admin: SessionUser,
  parties: readonly ReturnParty[],
  ret: ReturnRow & { parcelLost: boolean },
  input: DecideReturnBody,
) {
  if (input.decision === 'accept') {
    await refundReturnIn(tx, deps, ret, 'lost_refund', parties, admin.id, input.reason, {
      decidedBy: admin.id,
      decisionReason: input.reason,
    })
    return 1
  }
  await moveDeal(tx, ret.bookingId, 'refuse_return', 'admin', {
    actorId: admin.id,
    fee: deps.fee,
    note: input.reason,
  })
  await moveReturn(tx, ret, 'lost_release', parties, {
    decidedBy: admin.id,
    decisionReason: input.reason,
    closedAt: sql`now()`,
  })
  if (ret.disputeId) {
    await tx
      .update(disputes)
      .set({ status: 'released', resolvedAt: sql`now()` })
      .where(eq(disputes.id, ret.disputeId))
  }
  await queueReturnEmails(tx, deps.mail, ret.bookingId, 'refused', ['buyer', 'seller'], {
    reason: input.reason,
  })
  return 1
}

/** Who makes the deal's refund_return move for each of the return's moves that refund it. */
const REFUNDED_BY = { back_as_sent: 'seller', refund_unanswered: 'system', lost_refund: 'admin' } as const

/**
 * Refunds a returned sale (the seller found it as sent, the days to check it passed, or an admin ended a lost one):
 * the return's move checked first, before the processor refunds.
 */
async function refundReturnIn(
  tx: Db,
  deps: ReturnsDeps,
  ret: ReturnRow & { parcelLost?: boolean },
  move: keyof typeof REFUNDED_BY,
  parties: readonly ReturnParty[],
  actorId: string | null,
  note: string | null,
  set: { decidedBy?: string; decisionReason?: string } = {},
) {
  assertReturnMove(move, parties, ret)
  const party = REFUNDED_BY[move]
  await refundSale(
    tx,
    (payment) => deps.provider.refund(payment),
    {
      bookingId: ret.bookingId,
      move: 'refund_return',
      party,
      actorId,
      reason: 'Refunded after the laptop was returned',
      note,
    },
    deps.fee,
  )
  await moveReturn(tx, ret, move, parties, {
    ...set,
    closedAt: sql`now()`,
    ...(note ? { backNote: note } : {}),
  })
  if (ret.disputeId) {
    await tx
      .update(disputes)
      .set({ status: 'refunded', resolvedAt: sql`now()` })
      .where(eq(disputes.id, ret.disputeId))
  }
  await queueReturnEmails(tx, deps.mail, ret.bookingId, 'refunded', ['buyer', 'seller'])
}

/**
 * The seller has the laptop back (a shipped return delivered by the carrier, a met one handed back): as sent, and
 * the buyer is refunded through the processor (the ledger reverses the seller's share and our fee); or otherwise,
 * with what is different, and an admin decides (the dispute it came from reopens, or a new one opens).
 */
export async function answerReturnBack(
  db: Db,
  deps: ReturnsDeps,
  seller: SessionUser,
  bookingId: string,
  input: ReturnBackBody,
) {
  return db.transaction(async (tx) => {
    const move = input.as_sent ? 'back_as_sent' : 'back_otherwise'
    const { ret, parties } = await lockReturnFor(tx, seller, bookingId, move)
    const note = input.note ? input.note : null
    if (move === 'back_as_sent') {
      await refundReturnIn(tx, deps, ret, move, parties, seller.id, note)
      return 1
    }
    const reason = note ?? ''
    await moveDeal(tx, bookingId, 'return_disputed', 'seller', { actorId: seller.id, note: reason })
    if (ret.disputeId) {
      await tx.update(disputes).set({ status: 'open' }).where(eq(disputes.id, ret.disputeId))
    } else {
      await tx.insert(disputes).values({
        bookingId,
        openedBy: seller.id,
        reason: `The returned laptop is not as sent: ${reason}`,
        stageBefore: 'returning',
      })
    }
    await moveReturn(tx, ret, move, parties, { backNote: reason, closedAt: sql`now()` })
    await queueReturnEmails(tx, deps.mail, bookingId, 'disputed', ['buyer', 'seller'], { reason })
    return 1
  })
}

/**
 * An admin's "Return first" on a dispute of a laptop the buyer has: the laptop comes back before any refund. An
 * accepted return opens (its label bought at the seller's cost for a shipped sale), the dispute waits for it, and
 * the deal moves to `returning`. Runs in the caller's transaction (the admin's route writes its audit row there).
 */
export async function returnFirst(
  tx: Db,
  deps: ReturnsDeps,
  admin: SessionUser,
  disputeId: string,
  reason: string,
): Promise<string> {
  const [dispute] = await tx.select().from(disputes).where(eq(disputes.id, disputeId)).for('update')
  if (!dispute) throw notFound('Dispute')
  if (dispute.status !== 'open') {
    throw new AppError('CONFLICT', `This dispute has already been ${dispute.status}`)
  }
  const deal = await lockDeal(tx, admin, dispute.bookingId)
  const parties = dealPartiesOf(deal, admin)
  assertReturnParty('return_first', parties)
  assertMove(deal.booking.stage, 'return_first', 'admin', deal.booking.deliveryMethod)
  if (!deal.booking.handedOverAt) {
    throw new AppError('CONFLICT', 'The buyer never had this laptop: refund now instead')
  }
  const [earlier] = await tx.select().from(returns).where(eq(returns.bookingId, dispute.bookingId))
  assertReturnStatus('return_first', earlier ?? null)
  await moveDeal(tx, dispute.bookingId, 'return_first', 'admin', { actorId: admin.id, note: reason })
  const row = await openReturnRow(tx, 'return_first', parties, {
    bookingId: dispute.bookingId,
    openedBy: admin.id,
    method: returnMethodOf(deal.booking),
    reason: dispute.reason,
    disputeId: dispute.id,
    acceptedAt: sql`now()`,
    decidedBy: admin.id,
    decisionReason: reason,
  })
  await tx.update(disputes).set({ status: 'returning' }).where(eq(disputes.id, dispute.id))
  await afterAccepted(tx, deps, row, reason, 'return_first')
  return row.id
}

/**
 * The carrier delivered a return parcel back to the seller: the return waits for the seller's check, for
 * RETURN_CONFIRM_DAYS (then the buyer is refunded anyway). A repeat or a late event changes nothing.
 */
export async function returnDeliveredBack(
  tx: Db,
  deps: ReturnsDeps,
  returnId: string,
  at: Date = new Date(),
) {
  const [ret] = await tx.select().from(returns).where(eq(returns.id, returnId)).for('update')
  if (!ret || !canMoveReturn('deliver_back', ['system'], ret)) return false
  await moveReturn(tx, ret, 'deliver_back', ['system'], { deliveredBackAt: at })
  await queueReturnEmails(tx, deps.mail, ret.bookingId, 'delivered_back', ['seller'], {
    by: new Date(at.getTime() + deps.returnConfirmDays * DAY_MS).toISOString(),
  })
  return true
}

/**
 * Refunds the returns delivered back RETURN_CONFIRM_DAYS ago that the seller has not answered: each locked and
 * refunded once (a second run, or a second instance, skips or finds it refunded). Returns the ids refunded.
 */
export async function refundUnansweredReturns(db: Db, deps: ReturnsDeps, limit = 100): Promise<string[]> {
  const due = await db
    .select({ id: returns.id, bookingId: returns.bookingId })
    .from(returns)
    .where(
      sql`${returns.status} = 'delivered_back'
        and ${returns.deliveredBackAt} <= now() - make_interval(days => ${deps.returnConfirmDays})`,
    )
    .orderBy(asc(returns.deliveredBackAt))
    .limit(limit)
  const done: string[] = []
  for (const d of due) {
    await db.transaction(async (tx) => {
      // The booking first, then the return, like every step.
      await tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, d.bookingId)).for('update')
      const [ret] = await tx.select().from(returns).where(eq(returns.id, d.id)).for('update')
      if (!ret || !canMoveReturn('refund_unanswered', ['system'], ret)) return
      await refundReturnIn(
        tx,
        deps,
        ret,
        'refund_unanswered',
        ['system'],
        null,
        `The seller did not answer within ${deps.returnConfirmDays} days`,
      )
      done.push(d.id)
    })
  }
  return done
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/** Returns as their reader sees them: `parties` are what the reader is to each (what they can do now, Return.moves). */
async function toReturns(db: Db, rows: ReturnRow[], parties: readonly ReturnParty[]): Promise<Return[]> {
  if (rows.length === 0) return []
  const ids = rows.map((r) => r.id)
  const photos = await db
    .select({
      returnId: returnPhotos.returnId,
      id: uploads.id,
      card: uploads.cardUrl,
      detail: uploads.detailUrl,
    })
    .from(returnPhotos)
    .innerJoin(uploads, eq(uploads.id, returnPhotos.uploadId))
    .where(inArray(returnPhotos.returnId, ids))
    .orderBy(asc(returnPhotos.position))
  const labels = await returnLabelOf(db, ids)
  return rows.map((r) => {
    const label = labels.get(r.id) ?? null
    return {
      _id: r.id,
      bookingId: r.bookingId,
      status: r.status,
      method: r.method,
      reason: r.reason,
      failed_check: r.failedCheck,
      photos: photos
        .filter((p) => p.returnId === r.id)
        .map((p) => ({ _id: p.id, card: p.card, detail: p.detail })),
      declineReason: r.declineReason,
      decisionReason: r.decisionReason,
      backNote: r.backNote,
      fromDispute: r.disputeId !== null,
      label,
      createdAt: r.createdAt.toISOString(),
      acceptedAt: iso(r.acceptedAt),
      deliveredBackAt: iso(r.deliveredBackAt),
      closedAt: iso(r.closedAt),
      moves: returnMovesNow({ ...r, parcelLost: isParcelLost(label?.status) }, parties),
    }
  })
}

/** A booking's return for its buyer, its seller or an admin (404 for anyone else), and until when one can open. */
export async function getBookingReturn(
  db: Db,
  caller: SessionUser,
  bookingId: string,
  inspectionDays: number,
): Promise<BookingReturn> {
  const [row] = await db
    .select({ booking: bookings, sellerId: products.sellerId })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(eq(bookings.id, bookingId))
  if (!row) throw notFound('Booking')
  const side = dealSideOf({ buyerId: row.booking.buyerId, sellerId: row.sellerId }, caller)
  const rets = await db.select().from(returns).where(eq(returns.bookingId, bookingId))
  const [ret] = await toReturns(db, rets, dealPartiesOf(side, caller))
  const end = ret ? null : returnWindowEnd(row.booking, inspectionDays)
  return { return: ret ?? null, canOpenUntil: end ? end.toISOString() : null }
}

const buyersT = alias(users, 'buyers')
const sellersT = alias(users, 'sellers')

/**
 * Admin: returns waiting for a decision (declined, or requested, or a return parcel the carrier lost), oldest first;
 * or every return, newest first.
 */
export async function findReturns(db: Db, which: 'awaiting' | 'all' = 'awaiting'): Promise<AdminReturn[]> {
  const rows = await db
    .select({
      ret: returns,
      productName: bookings.productName,
      priceCents: bookings.priceCents,
      buyer: { _id: buyersT.id, name: buyersT.name, email: buyersT.email },
      seller: { _id: sellersT.id, name: sellersT.name, email: sellersT.email },
    })
    .from(returns)
    .innerJoin(bookings, eq(bookings.id, returns.bookingId))
    .innerJoin(products, eq(products.id, bookings.productId))
    .innerJoin(buyersT, eq(buyersT.id, bookings.buyerId))
    .innerJoin(sellersT, eq(sellersT.id, products.sellerId))
    .where(
      which === 'awaiting'
        ? or(
            inArray(returns.status, [...RETURN_MOVES.admin_accept.from]),
            and(
              inArray(returns.status, [...RETURN_MOVES.lost_refund.from.ship]),
              exists(db.select({ one: sql`1` }).from(parcels).where(lostReturnParcel(returns.id))),
            ),
          )
        : undefined,
    )
    .orderBy(which === 'awaiting' ? asc(returns.createdAt) : desc(returns.createdAt), asc(returns.id))
    .limit(200)
  // The admin's list: what an admin can do to each (findReturns is an admin's route).
  const wire = await toReturns(
    db,
    rows.map((r) => r.ret),
    ['admin'],
  )
  return rows.map((r, i) => ({
    ...(wire[i] as Return),
    productName: r.productName,
    priceCents: r.priceCents,
    buyer: r.buyer,
    seller: r.seller,
  }))
}

/** Whether a return is still going on for these bookings (the deal waits for it). */
export function isOpenReturn(status: ReturnRow['status']): boolean {
  return (OPEN_RETURN_STATUSES as readonly string[]).includes(status)
}
