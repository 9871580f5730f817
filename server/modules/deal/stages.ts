// The deal's stages and the one table of moves between them (docs/decisions/0052). `moveDeal` is the only code
// that writes `bookings.stage`: it refuses a move the table does not have (409, naming the stage the booking is
// in), writes the stage with the move's timestamp and its event row, and posts the ledger transaction that
// belongs to the move, all in the caller's transaction. Services decide when to ask for a move; the table
// decides whether the move exists and whose it is: every path that moves a deal for a caller asks
// `assertDealParty` (403 in the move's own words) with the caller's parties (`dealPartiesOf`) before anything else.

import { and, eq, sql } from 'drizzle-orm'
import type { BookingEventKind } from '#contract/bookings'
import type { DeliveryMethod } from '#contract/delivery'
import type { FeeRule } from '#contract/fees'
import type { Db } from '#server/db/client'
import { type BookingStage, bookingEvents, bookings } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import type { SessionUser } from '#server/lib/session'
import { postLabelMoney, postSaleMoney } from '#server/modules/ledger'

/** Who makes a move: a side of the deal, an admin, or the product itself (a job, a webhook, a rule). */
export type DealParty = 'buyer' | 'seller' | 'admin' | 'system'

type Move = {
  from: readonly BookingStage[]
  to: BookingStage
  by: readonly DealParty[]
  /** The ledger transaction the move posts (server/modules/ledger/sales.ts), if any. */
  posting: 'charge' | 'complete' | 'refund' | 'label' | null
  /** The step on the booking's record. */
  event: BookingEventKind
  /** How the move reads in a refusal: "You cannot <words>: this booking is …". */
  words: string
  /** The refusal (403) of a caller who is not a party that makes this move. */
  refusal: string
  /** What the move needs besides its stage, checked by the service that asks for it. */
  needs: string
  /**
   * The way of delivery the move belongs to, checked with the stage by every caller: a shipped sale is handed over
   * by its delivery and never by the seller's word, and a met one has no label. With the refusal for the other way.
   */
  delivery?: { method: DeliveryMethod; refusal: string }
}

/** Every move a deal can make. A stage change not in this table does not happen. */
export const DEAL_MOVES = {
  pay: {
    from: ['booked'],
    to: 'paid',
    by: ['buyer', 'system'],
    posting: 'charge',
    event: 'paid',
    words: 'pay for it',
    refusal: 'Only the buyer who booked this laptop can pay for it',
    needs: 'the listing on sale (server/lib/on-sale.ts), held for this booking, and a payment that succeeded',
  },
  cancel: {
    from: ['booked'],
    to: 'cancelled',
    by: ['buyer', 'system'],
    posting: null,
    event: 'cancelled',
    words: 'cancel this booking',
    refusal: 'Only the buyer who booked this laptop can cancel the booking',
    needs: 'nothing paid; the system cancels when the listing leaves sale',
  },
  book_again: {
    from: ['cancelled'],
    to: 'booked',
    by: ['buyer'],
    posting: null,
    event: 'booked_again',
    words: 'book it again',
    refusal: 'Only the buyer who booked this laptop can book it again',
    needs: 'the listing on sale',
  },
  hand_over: {
    from: ['paid'],
    to: 'handed_over',
    by: ['seller'],
    posting: null,
    event: 'handed_over',
    words: 'mark it handed over',
    refusal: 'Only the seller can mark this laptop handed over',
    needs: 'the listing’s seller',
    delivery: { method: 'meet', refusal: 'This laptop ships to the buyer: buy the shipping label instead' },
  },
  receive: {
    from: ['handed_over'],
    to: 'completed',
    by: ['buyer'],
    posting: 'complete',
    event: 'received',
    words: 'confirm receipt',
    refusal: 'Only the buyer can confirm they received the laptop',
    needs: 'the handover checklist all ticked',
  },
  auto_complete: {
    from: ['handed_over'],
    to: 'completed',
    by: ['system'],
    posting: 'complete',
    event: 'auto_completed',
    words: 'complete the sale',
    refusal: 'Only the product completes a sale by itself',
    needs: 'AUTO_COMPLETE_DAYS since the handover',
  },
  report: {
    from: ['paid', 'handed_over'],
    to: 'disputed',
    by: ['buyer'],
    posting: null,
    event: 'problem_reported',
    words: 'report a problem',
    refusal: 'Only the buyer can report a problem with this sale',
    needs: 'a reason; a dispute opens',
  },
  freeze: {
    from: ['paid', 'shipped', 'handed_over'],
    to: 'disputed',
    by: ['system'],
    posting: null,
    event: 'frozen',
    words: 'hold the sale for an admin',
    refusal: 'Only the product holds a sale for an admin',
    needs: 'the laptop’s serial reported stolen; a dispute opens',
  },
  release: {
    from: ['disputed'],
    to: 'completed',
    by: ['admin'],
    posting: 'complete',
    event: 'released',
    words: 'release the sale',
    refusal: 'Only an admin can release a sale',
    needs: 'an open dispute',
  },
  refund_dispute: {
    from: ['disputed'],
    to: 'refunded',
    by: ['admin'],
    posting: 'refund',
    event: 'refunded',
    words: 'refund the buyer',
    refusal: 'Only an admin can refund a disputed sale',
    needs: 'an open dispute; the processor’s refund',
  },
  cancel_sale: {
    from: ['paid'],
    to: 'refunded',
    by: ['seller'],
    posting: 'refund',
    event: 'cancelled',
    words: 'cancel the sale',
    refusal: 'Only the seller can cancel this sale',
    needs: 'a reason; the processor’s refund; the listing leaves the market',
  },
  refund_completed: {
    from: ['completed'],
    to: 'refunded',
    by: ['admin'],
    posting: 'refund',
    event: 'refunded',
    words: 'refund the buyer',
    refusal: 'Only an admin can refund a completed sale',
    needs: 'the processor’s refund; a transferred share taken back first',
  },
  ship: {
    from: ['paid'],
    to: 'shipped',
    by: ['seller', 'system'],
    posting: 'label',
    event: 'shipped',
    words: 'ship it',
    refusal: 'Only the seller can buy the shipping label',
    needs: 'a shipped sale (the buyer chose shipping) and its label bought at the carrier',
    delivery: {
      method: 'ship',
      refusal: 'The buyer chose to meet in person: this sale has no shipping label',
    },
  },
  ship_late: {
    from: ['paid'],
    to: 'refunded',
    by: ['system'],
    posting: 'refund',
    event: 'ship_late',
    words: 'cancel the sale for shipping late',
    refusal: 'Only the product cancels a sale that was not shipped in time',
    needs:
      'a shipped sale with no label SHIP_WITHIN_DAYS after payment; the processor’s refund; the listing leaves the market',
  },
  refund_removed: {
    from: ['paid', 'handed_over', 'returning', 'disputed'],
    to: 'refunded',
    by: ['admin'],
    posting: 'refund',
    event: 'refunded',
    words: 'refund the buyer',
    refusal: 'Only an admin can remove a listing',
    needs: 'the listing removed after a report; the processor’s refund',
  },
  deliver: {
    from: ['shipped'],
    to: 'handed_over',
    by: ['system'],
    posting: null,
    event: 'delivered',
    words: 'mark it delivered',
    refusal: 'Only the carrier’s tracker says a sale is delivered',
    needs:
      'the carrier’s tracker says delivered (the sale’s parcel); the handover is stamped with the delivery time',
  },
  lose: {
    from: ['shipped'],
    to: 'disputed',
    by: ['system'],
    posting: null,
    event: 'parcel_lost',
    words: 'hold the sale for an admin',
    refusal: 'Only the carrier’s tracker says a parcel is lost',
    needs: 'the carrier’s tracker says failure or return_to_sender (the sale’s parcel); a dispute opens',
  },
  // Returns (server/modules/returns, docs/decisions/0076). While a return is open the deal is `returning`, so the
  // auto-completion of handed-over sales does not reach it.
  open_return: {
    from: ['handed_over'],
    to: 'returning',
    by: ['buyer'],
    posting: null,
    event: 'return_opened',
    words: 'return it',
    refusal: 'Only the buyer can return this laptop',
    needs:
      'the inspection window open (INSPECTION_DAYS from the handover or delivery), a reason, the failed checklist item, photos',
  },
  return_first: {
    from: ['disputed'],
    to: 'returning',
    by: ['admin'],
    posting: null,
    event: 'return_first',
    words: 'ask for the laptop back',
    refusal: 'Only an admin can ask for the laptop back',
    needs: 'an open dispute of a sale the buyer has; no return before',
  },
  refuse_return: {
    from: ['returning'],
    to: 'completed',
    by: ['admin'],
    posting: 'complete',
    event: 'return_refused',
    words: 'refuse the return',
    refusal: 'Only an admin can decide this return',
    needs:
      'a return the seller declined or has not answered, or a return parcel the carrier lost (released to the seller); the admin’s reason',
  },
  refund_return: {
    from: ['returning'],
    to: 'refunded',
    by: ['seller', 'system', 'admin'],
    posting: 'refund',
    event: 'return_refunded',
    words: 'refund the return',
    refusal: 'Only the seller, the product or an admin refunds a return',
    needs:
      'the laptop back with the seller, as sent (the seller says so, or RETURN_CONFIRM_DAYS pass), or a return parcel the carrier lost (an admin refunds the buyer); the processor’s refund',
  },
  return_disputed: {
    from: ['returning'],
    to: 'disputed',
    by: ['seller'],
    posting: null,
    event: 'return_disputed',
    words: 'say it came back otherwise',
    refusal: 'Only the seller can say how the laptop came back',
    needs: 'the laptop back with the seller; what is different; a dispute opens (or reopens) for an admin',
  },
} as const satisfies Record<string, Move>

export type DealMove = keyof typeof DEAL_MOVES

/** How each stage reads in a refusal ("… this booking is handed over"). */
export const STAGE_WORDS: Record<BookingStage, string> = {
  booked: 'not paid yet',
  cancelled: 'cancelled',
  paid: 'paid and waiting for handover',
  shipped: 'shipped and on its way',
  handed_over: 'handed over',
  returning: 'being returned',
  completed: 'completed',
  disputed: 'disputed',
  refunded: 'refunded',
}

/** The time each stage is stamped with when a move reaches it. */
const STAMPS: Partial<Record<BookingStage, 'paidAt' | 'handedOverAt' | 'completedAt' | 'refundedAt'>> = {
  paid: 'paidAt',
  handed_over: 'handedOverAt',
  completed: 'completedAt',
  refunded: 'refundedAt',
}

/** The stages in which this party has a move of the table: the deal waits for them (a seller: hand it over). */
export function stagesAwaiting(party: DealParty): BookingStage[] {
  const moves: Move[] = Object.values(DEAL_MOVES)
  return [...new Set(moves.filter((m) => m.by.includes(party)).flatMap((m) => m.from))]
}

/** Whether the table has this move from this stage for this party. */
export function canMove(stage: BookingStage, move: DealMove, party: DealParty): boolean {
  const m: Move = DEAL_MOVES[move]
  return m.from.includes(stage) && m.by.includes(party)
}

/**
 * Which parties of a deal the caller is: its buyer, the listing's seller, an admin (as lockDeal or dealSideOf say
 * who they are to the deal). Never `system`: that is the product itself, not a caller.
 */
export function dealPartiesOf(
  side: { isBuyer: boolean; isSeller: boolean },
  caller: Pick<SessionUser, 'role'>,
): DealParty[] {
  const parties: DealParty[] = []
  if (side.isBuyer) parties.push('buyer')
  if (side.isSeller) parties.push('seller')
  if (caller.role === 'admin') parties.push('admin')
  return parties
}

/**
 * The one check of who may make a move: the refusal (403, the move's own words) of a move that is not any of these
 * parties'. Nothing when one of them makes it. Every path that moves a deal for a caller asks it before it looks at
 * the stage, and moveDeal asks it again for the party the move is made as.
 */
export function assertDealParty(move: DealMove, parties: readonly DealParty[]): DealParty {
  return partyOf(DEAL_MOVES[move], parties)
}

/**
 * The party among `parties` a move of a table (the deal's, a return's: return-moves.ts) is made by, or its refusal
 * (403, the move's own words).
 */
export function partyOf(
  m: { by: readonly DealParty[]; refusal: string },
  parties: readonly DealParty[],
): DealParty {
  const party = parties.find((p) => m.by.includes(p))
  if (!party) throw new AppError('FORBIDDEN', m.refusal)
  return party
}

/**
 * The refusal of a move that does not fit the sale's way of delivery (409): a shipped sale's seller cannot say it
 * was handed over, a met sale has no label to ship. Nothing when it fits, or when the move is the same either way.
 * A service that must act before the move (buy a label at the carrier) asks this first.
 */
export function assertDelivery(move: DealMove, method: DeliveryMethod): void {
  const m: Move = DEAL_MOVES[move]
  if (m.delivery && m.delivery.method !== method) throw new AppError('CONFLICT', m.delivery.refusal)
}

/**
 * The refusal of a move the table does not have: 409 naming the stage the booking is in, or 403 when the stage
 * allows the move but not by this party (the move's refusal), or 409 when it does not fit the sale's way of delivery. Nothing when the
 * move exists. A service that must act before the move (a processor's refund) asks this first, on the locked
 * booking.
 */
export function assertMove(
  stage: BookingStage,
  move: DealMove,
  party: DealParty,
  method: DeliveryMethod,
): void {
  const m: Move = DEAL_MOVES[move]
  if (!m.from.includes(stage)) {
    throw new AppError('CONFLICT', `You cannot ${m.words}: this booking is ${STAGE_WORDS[stage]}`)
  }
  assertDealParty(move, [party])
  assertDelivery(move, method)
}

/** Locks a booking's row in the caller's transaction and gives its stage and way of delivery. */
export async function lockStage(
  tx: Db,
  bookingId: string,
): Promise<{ stage: BookingStage; method: DeliveryMethod }> {
  const [row] = await tx
    .select({ stage: bookings.stage, method: bookings.deliveryMethod })
    .from(bookings)
    .where(eq(bookings.id, bookingId))
    .for('update')
  if (!row) throw notFound('Booking')
  return row
}

export type MoveOptions = {
  /** Who acts: their account, or null for the product itself. */
  actorId: string | null
  /** The fee rule in force: a move that posts on the ledger needs it. */
  fee?: FeeRule
  /** When the stage's stamp says it happened (a carrier's delivery time); now by default. */
  at?: Date
  /** A note on the step (a reason, a handover note). */
  note?: string | null
  /** Columns the move writes besides its stage and stamp (the paid price, a checklist). */
  set?: Partial<
    Pick<
      typeof bookings.$inferInsert,
      | 'priceCents'
      | 'productName'
      | 'phoneNumber'
      | 'location'
      | 'handoverNote'
      | 'handoverChecklist'
      | 'handoverCheckedAt'
      | 'productImage'
      | 'userName'
      | 'email'
      | 'sellerEmailPending'
      | 'shipBy'
    >
  >
}

/**
 * Moves a deal, in the caller's transaction: the booking locked, the move checked against the table, the stage and
 * its stamp written (with `set`), the event recorded, and the move's ledger posting written. Returns the booking as
 * it is after the move.
 */
export async function moveDeal(
  tx: Db,
  bookingId: string,
  move: DealMove,
  party: DealParty,
  opts: MoveOptions,
): Promise<typeof bookings.$inferSelect> {
  const m: Move = DEAL_MOVES[move]
  const { stage, method } = await lockStage(tx, bookingId)
  assertMove(stage, move, party, method)
  const stamp = STAMPS[m.to]
  const [moved] = await tx
    .update(bookings)
    .set({
      ...opts.set,
      stage: m.to,
      ...(stamp ? { [stamp]: opts.at ?? sql`now()` } : {}),
      ...(m.to === 'paid' ? { isPaid: true } : {}),
    })
    .where(and(eq(bookings.id, bookingId), eq(bookings.stage, stage)))
    .returning()
  if (!moved) throw new AppError('CONFLICT', `You cannot ${m.words}: this booking changed meanwhile`)
  await tx
    .insert(bookingEvents)
    .values({ bookingId, kind: m.event, actorId: opts.actorId, note: opts.note ?? null })
  if (m.posting === 'label') {
    await postLabelMoney(tx, bookingId)
  } else if (m.posting) {
    if (!opts.fee)
      throw new AppError('INTERNAL', `The move ${move} posts on the ledger and needs the fee rule`)
    await postSaleMoney(tx, [bookingId], opts.fee)
  }
  return moved
}
