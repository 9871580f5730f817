// A return's statuses and the one table of moves between them (docs/decisions/0076), beside the deal's own
// (./stages.ts). The deal's table moves `bookings.stage`; this one moves `returns.status`, and says who may make each
// move. Every step of a return asks `assertReturnParty` before it looks at the return and `assertReturnMove` before it
// acts; `openReturnRow` and `moveReturn` are the only code that writes a return's status, and they check the table
// again. Services decide when to ask for a move; the table decides whether the move exists and whose it is.

import { and, eq, inArray } from 'drizzle-orm'
import type { PgInsertValue, PgUpdateSetSource } from 'drizzle-orm/pg-core'
import { OPEN_RETURN_STATUSES, RETURN_ACTIONS, type ReturnAction, type ReturnStatus } from '#contract/returns'
import type { Db } from '#server/db/client'
import { returns } from '#server/db/schema'
import { AppError } from '#server/lib/errors'
import { type DealParty, partyOf } from './stages'

/** Who makes a return's move: the deal's parties (a side of the deal, an admin, or the product itself). */
export type ReturnParty = DealParty

type ReturnRow = typeof returns.$inferSelect
type ReturnMethod = ReturnRow['method']

/**
 * A return as the table reads it: its status, its way back, and whether the carrier lost its label's parcel (the
 * returns service's lostReturnParcel; unsaid means not lost, so a lost parcel's move is refused).
 */
export type ReturnState = Pick<ReturnRow, 'status' | 'method'> & { parcelLost?: boolean }

type Move = {
  /**
   * The statuses the move starts from, by the return's way back when they differ (a shipped return is answered once
   * the carrier delivers it back, a met one once accepted). Empty: the move opens the sale's one return.
   */
  from: readonly ReturnStatus[] | Readonly<Record<ReturnMethod, readonly ReturnStatus[]>>
  to: ReturnStatus
  by: readonly ReturnParty[]
  /** How the move reads in a refusal: "You cannot <words>: this return …". */
  words: string
  /** The refusal (403) of a caller who is not a party that makes this move. */
  refusal: string
  /** A move that opens the return: the refusal (409) when the sale has had one. */
  again?: string
  /** Statuses that refuse the move in other words (a shipped return answered before it is back). */
  early?: { statuses: readonly ReturnStatus[]; words: string }
  /**
   * A move only for a return whose parcel the carrier lost (ReturnState.parcelLost); any other return is refused it
   * as a return in a status the move does not start from.
   */
  parcelLost?: true
  /** What the move needs besides its status, checked by the service that asks for it. */
  needs: string
}

/**
 * Every move a return can make. A status change not in this table does not happen. The moves a person makes
 * (RETURN_ACTIONS, which the pages read) are among them: the table must have each.
 */
export const RETURN_MOVES = {
  open: {
    from: [],
    to: 'requested',
    by: ['buyer'],
    words: 'return it',
    refusal: 'Only the buyer can return this laptop',
    again: 'This laptop has been returned once already',
    needs:
      'the deal’s open_return move: a reason, the failed checklist item, photos, the inspection window open',
  },
  return_first: {
    from: [],
    to: 'accepted',
    by: ['admin'],
    words: 'ask for the laptop back',
    refusal: 'Only an admin can ask for the laptop back',
    again: 'This laptop has been returned once already: refund now instead',
    needs: 'the deal’s return_first move: an open dispute of a sale the buyer has; the admin’s reason',
  },
  accept: {
    from: ['requested'],
    to: 'accepted',
    by: ['seller'],
    words: 'accept this return',
    refusal: 'Only the seller can accept this return',
    needs: 'nothing; a shipped return’s label is bought by the returns.label job',
  },
  decline: {
    from: ['requested'],
    to: 'declined',
    by: ['seller'],
    words: 'decline this return',
    refusal: 'Only the seller can decline this return',
    needs: 'a reason; an admin decides',
  },
  admin_accept: {
    from: ['requested', 'declined'],
    to: 'accepted',
    by: ['admin'],
    words: 'accept this return',
    refusal: 'Only an admin can decide this return',
    needs: 'the admin’s reason, which both sides see',
  },
  refuse: {
    from: ['requested', 'declined'],
    to: 'refused',
    by: ['admin'],
    words: 'refuse this return',
    refusal: 'Only an admin can decide this return',
    needs: 'the admin’s reason; the deal’s refuse_return move (the sale completes)',
  },
  buy_label: {
    from: { ship: ['accepted'], meet: [] },
    to: 'label_bought',
    by: ['system'],
    words: 'buy its label',
    refusal: 'Only the returns.label job buys a return’s label',
    needs: 'the label bought at the carrier and its cost posted',
  },
  deliver_back: {
    from: { ship: ['label_bought'], meet: [] },
    to: 'delivered_back',
    by: ['system'],
    words: 'mark it delivered back',
    refusal: 'Only the carrier’s tracker says a return is delivered back',
    needs: 'the carrier’s tracker says the return parcel is delivered',
  },
  back_as_sent: {
    from: { ship: ['delivered_back'], meet: ['accepted'] },
    to: 'refunded',
    by: ['seller'],
    words: 'say how it came back',
    refusal: 'Only the seller can say how the laptop came back',
    early: { statuses: ['accepted', 'label_bought'], words: 'answer before the carrier delivers it back' },
    needs: 'the deal’s refund_return move: the processor’s refund',
  },
  back_otherwise: {
    from: { ship: ['delivered_back'], meet: ['accepted'] },
    to: 'disputed',
    by: ['seller'],
    words: 'say how it came back',
    refusal: 'Only the seller can say how the laptop came back',
    early: { statuses: ['accepted', 'label_bought'], words: 'answer before the carrier delivers it back' },
    needs: 'what is different; the deal’s return_disputed move (a dispute opens or reopens)',
  },
  refund_unanswered: {
    from: { ship: ['delivered_back'], meet: [] },
    to: 'refunded',
    by: ['system'],
    words: 'refund the return',
    refusal: 'Only the product refunds an unanswered return',
    needs: 'RETURN_CONFIRM_DAYS since the delivery back; the deal’s refund_return move',
  },
  lost_refund: {
    from: { ship: ['label_bought'], meet: [] },
    parcelLost: true,
    to: 'refunded',
    by: ['admin'],
    words: 'accept this return',
    refusal: 'Only an admin can decide this return',
    needs: 'the return parcel lost by the carrier (failure, return_to_sender); the deal’s refund_return move',
  },
  lost_release: {
    from: { ship: ['label_bought'], meet: [] },
    parcelLost: true,
    to: 'refused',
    by: ['admin'],
    words: 'refuse this return',
    refusal: 'Only an admin can decide this return',
    needs: 'the return parcel lost by the carrier (failure, return_to_sender); the deal’s refuse_return move',
  },
  refund_removed: {
    from: OPEN_RETURN_STATUSES,
    to: 'refunded',
    by: ['admin'],
    words: 'refund the return',
    refusal: 'Only an admin can remove a listing',
    needs: 'the listing removed after a report and the sale refunded (the laptop stays where it is)',
  },
} as const satisfies Record<ReturnAction, Move> & Record<string, Move>

export type ReturnMove = keyof typeof RETURN_MOVES

/** How each status reads in a refusal ("… this return is accepted already"). */
export const RETURN_STATUS_WORDS: Record<ReturnStatus, string> = {
  requested: 'is waiting for the seller',
  declined: 'was declined by the seller and waits for an admin',
  accepted: 'is accepted already',
  refused: 'was refused by an admin',
  label_bought: 'is on its way back',
  delivered_back: 'is back with the seller',
  refunded: 'is refunded',
  disputed: 'waits for an admin',
}

/** The statuses a move starts from for a return that goes back this way. */
export function returnMoveFrom(move: ReturnMove, method: ReturnMethod): readonly ReturnStatus[] {
  const m: Move = RETURN_MOVES[move]
  return Array.isArray(m.from) ? m.from : (m.from as Record<ReturnMethod, readonly ReturnStatus[]>)[method]
}

/** Whether the move opens the sale's one return (it starts from no return). */
export function opensReturn(move: ReturnMove): boolean {
  const m: Move = RETURN_MOVES[move]
  return Array.isArray(m.from) && m.from.length === 0
}

/** The refusal (403) of a move that is not any of these parties': nothing when one of them makes it. */
export function assertReturnParty(move: ReturnMove, parties: readonly ReturnParty[]): void {
  const m: Move = RETURN_MOVES[move]
  partyOf(m, parties)
}

/**
 * The refusal (409) of a move the table does not have from the return's status (null: the sale has no return),
 * naming the status it is in; a lost parcel's move is refused so too when the return's parcel is not said lost.
 * Nothing when the move exists.
 */
export function assertReturnStatus(move: ReturnMove, ret: ReturnState | null): void {
  const m: Move = RETURN_MOVES[move]
  if (opensReturn(move)) {
    if (ret) throw new AppError('CONFLICT', m.again ?? `You cannot ${m.words}: this laptop has been returned`)
    return
  }
  if (!ret) throw new AppError('CONFLICT', `You cannot ${m.words}: this sale has no return`)
  if (
    returnMoveFrom(move, ret.method).includes(ret.status) &&
    (m.parcelLost !== true || ret.parcelLost === true)
  ) {
    return
  }
  const words = m.early?.statuses.includes(ret.status) ? m.early.words : m.words
  throw new AppError('CONFLICT', `You cannot ${words}: this return ${RETURN_STATUS_WORDS[ret.status]}`)
}

/**
 * The refusal of a move the table does not have: 403 when it is not these parties' move, else 409 when the return's
 * status (null: no return yet) does not start it. A service that must act before the move (a processor's refund)
 * asks this first, on the locked return.
 */
export function assertReturnMove(
  move: ReturnMove,
  parties: readonly ReturnParty[],
  ret: ReturnState | null,
): void {
  assertReturnParty(move, parties)
  assertReturnStatus(move, ret)
}

/** Whether the table has this move from the return's status for one of these parties. */
export function canMoveReturn(
  move: ReturnMove,
  parties: readonly ReturnParty[],
  ret: ReturnState | null,
): boolean {
  try {
    assertReturnMove(move, parties, ret)
    return true
  } catch {
    return false
  }
}

/**
 * What these parties can do now to a return (with `parcelLost` when its label's parcel is lost): the table's person
 * moves that assertReturnMove allows them. A return's readers are sent it (Return.moves), so the pages offer what
 * the table allows and nothing else; the admin's decision picks its move from it too.
 */
export function returnMovesNow(ret: ReturnState, parties: readonly ReturnParty[]): ReturnAction[] {
  return RETURN_ACTIONS.filter((move) => canMoveReturn(move, parties, ret))
}

/** Columns a move writes besides the status (who decided, why, when). */
type ReturnSet = Pick<
  PgUpdateSetSource<typeof returns>,
  | 'acceptedAt'
  | 'decidedBy'
  | 'decisionReason'
  | 'declineReason'
  | 'backNote'
  | 'deliveredBackAt'
  | 'closedAt'
>

/**
 * Opens the sale's one return by a move from no return (`open`, `return_first`), in the caller's transaction: the
 * table checked against the sale's return (none, locked if any), the row written in the move's status.
 */
export async function openReturnRow(
  tx: Db,
  move: ReturnMove,
  parties: readonly ReturnParty[],
  values: Omit<PgInsertValue<typeof returns>, 'status' | 'id'> & { bookingId: string },
): Promise<ReturnRow> {
  const m: Move = RETURN_MOVES[move]
  if (!opensReturn(move)) throw new AppError('INTERNAL', `The move ${move} does not open a return`)
  const [earlier] = await tx
    .select()
    .from(returns)
    .where(eq(returns.bookingId, values.bookingId))
    .for('update')
  assertReturnMove(move, parties, earlier ?? null)
  const [row] = await tx
    .insert(returns)
    .values({ ...values, status: m.to })
    .returning()
  if (!row) throw new AppError('INTERNAL', 'The return could not be saved')
  return row
}

/**
 * Moves a locked return, in the caller's transaction: the move checked against the table (its parties and the
 * status the return is in), the status written with `set` only if the return is still in that status. Returns the
 * return as it is after the move.
 */
export async function moveReturn(
  tx: Db,
  ret: ReturnState & Pick<ReturnRow, 'id'>,
  move: ReturnMove,
  parties: readonly ReturnParty[],
  set: ReturnSet = {},
): Promise<ReturnRow> {
  const m: Move = RETURN_MOVES[move]
  assertReturnMove(move, parties, ret)
  const [moved] = await tx
    .update(returns)
    .set({ ...set, status: m.to })
    .where(and(eq(returns.id, ret.id), eq(returns.status, ret.status)))
    .returning()
  if (!moved) throw new AppError('CONFLICT', `You cannot ${m.words}: this return changed meanwhile`)
  return moved
}

/**
 * Moves every return of these sales that the move starts from, in the caller's transaction (the sales locked by the
 * caller): for a move that ends whatever return is under way (`refund_removed`). Returns how many moved.
 */
export async function moveReturnsOf(
  tx: Db,
  bookingIds: readonly string[],
  move: ReturnMove,
  parties: readonly ReturnParty[],
  set: ReturnSet = {},
): Promise<number> {
  if (bookingIds.length === 0) return 0
  assertReturnParty(move, parties)
  const rows = await tx
    .select()
    .from(returns)
    .where(inArray(returns.bookingId, [...bookingIds]))
    .for('update')
  let moved = 0
  for (const ret of rows) {
    if (!returnMoveFrom(move, ret.method).includes(ret.status)) continue
    await moveReturn(tx, ret, move, parties, set)
    moved += 1
  }
  return moved
}
