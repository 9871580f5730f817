import { z } from 'zod'
import { HANDOVER_CHECK_KEYS } from './handover'

// Returns (docs/decisions/0076): within the inspection window a buyer sends back a laptop that is not as described.
// The seller accepts, or declines and an admin decides; an accepted return of a shipped sale travels on a label the
// seller pays for; once the laptop is back the seller confirms it is as sent (the buyer is refunded) or says
// otherwise (an admin decides).

/**
 * requested: the buyer opened it, the seller answers; declined: the seller said no, an admin decides; accepted:
 * the laptop goes back (a shipped sale's label is being bought); refused: an admin refused it, the sale completed;
 * label_bought: the return label is ready for the buyer; delivered_back: the carrier delivered it to the seller;
 * refunded: the seller confirmed it is as sent (or the days to answer passed), the buyer is refunded; disputed: the
 * seller says it came back otherwise, an admin decides.
 */
export const RETURN_STATUSES = [
  'requested',
  'declined',
  'accepted',
  'refused',
  'label_bought',
  'delivered_back',
  'refunded',
  'disputed',
] as const
export const ReturnStatus = z.enum(RETURN_STATUSES)
export type ReturnStatus = z.infer<typeof ReturnStatus>

/** Returns still going on: the deal waits for them. */
export const OPEN_RETURN_STATUSES = [
  'requested',
  'declined',
  'accepted',
  'label_bought',
  'delivered_back',
] as const satisfies readonly ReturnStatus[]

/** How each status reads to both sides. */
export const RETURN_STATUS_WORDS: Record<ReturnStatus, string> = {
  requested: 'Return requested: waiting for the seller',
  declined: 'The seller declined: an admin decides',
  accepted: 'Return accepted',
  refused: 'Return refused by an admin',
  label_bought: 'Return label ready: send the laptop back',
  delivered_back: 'Delivered back to the seller: waiting for their check',
  refunded: 'Returned and refunded',
  disputed: 'The seller says it came back otherwise: an admin decides',
}

/** At most this many photos on a return. */
export const RETURN_PHOTOS_MAX = 6

/** The buyer opens a return: "not as described", with the reason, the checklist item that failed and photos. */
export const OpenReturnBody = z.strictObject({
  // The same rules as a problem report (contract/bookings.ts ProblemBody).
  reason: z
    .string({ error: 'Tell us what went wrong' })
    .trim()
    .min(10, 'Tell us what went wrong in at least 10 characters')
    .max(2000, 'Keep the reason under 2000 characters'),
  failed_check: z.enum(HANDOVER_CHECK_KEYS, { error: 'Choose the checklist item that failed' }),
  /** Photos uploaded with POST /api/bookings/{id}/return-photos, by their ids. */
  photos: z
    .array(z.uuid({ message: 'A photo id is a UUID' }), { error: 'Add at least one photo' })
    .min(1, 'Add at least one photo')
    .max(RETURN_PHOTOS_MAX, `Add at most ${RETURN_PHOTOS_MAX} photos`),
})
export type OpenReturnBody = z.infer<typeof OpenReturnBody>

const decisionReason = (what: string) =>
  z
    .string({ error: `Tell the buyer why you ${what}` })
    .trim()
    .min(10, `Tell the buyer why you ${what} in at least 10 characters`)
    .max(500, 'Keep the reason under 500 characters')

/** The seller declines a return: an admin decides. */
export const DeclineReturnBody = z.strictObject({ reason: decisionReason('decline') })
export type DeclineReturnBody = z.infer<typeof DeclineReturnBody>

/** An admin decides a return the seller declined (or has not answered): accept it, or refuse it. */
export const DecideReturnBody = z.strictObject({
  decision: z.enum(['accept', 'refuse'], { error: 'Choose accept or refuse' }),
  reason: z
    .string({ error: 'Give a reason both sides will see' })
    .trim()
    .min(10, 'Give a reason both sides will see, in at least 10 characters')
    .max(500, 'Keep the reason under 500 characters'),
})
export type DecideReturnBody = z.infer<typeof DecideReturnBody>

/** The seller has the laptop back: as sent (the buyer is refunded), or not (an admin decides). */
export const ReturnBackBody = z
  .strictObject({
    as_sent: z.boolean({ error: 'Say whether the laptop is as you sent it' }),
    note: z
      .string({ error: 'The note must be text' })
      .trim()
      .max(2000, 'Keep the note under 2000 characters')
      .optional(),
  })
  .refine((b) => b.as_sent || (b.note ?? '').length >= 10, {
    message: 'Say what is different, in at least 10 characters',
    path: ['note'],
  })
export type ReturnBackBody = z.infer<typeof ReturnBackBody>

/**
 * The moves a person makes on a return, as the server's table of them names them
 * (server/modules/deal/return-moves.ts; the others are the product's own). A return says which of them its reader
 * can make now (`moves`): the pages offer those, and no rule of when is written twice.
 */
export const RETURN_ACTIONS = [
  'accept',
  'decline',
  'back_as_sent',
  'back_otherwise',
  'admin_accept',
  'refuse',
  'lost_refund',
  'lost_release',
] as const
export type ReturnAction = (typeof RETURN_ACTIONS)[number]

export const ReturnPhoto = z.object({ _id: z.string(), card: z.string(), detail: z.string() })

/** A return as both sides and admins see it. */
export const Return = z.object({
  _id: z.string(),
  bookingId: z.string(),
  status: ReturnStatus,
  /** 'ship': a return label; 'meet': handed back in person. */
  method: z.enum(['ship', 'meet']),
  reason: z.string(),
  /** The checklist item that failed (null: opened from a dispute). */
  failed_check: z.enum(HANDOVER_CHECK_KEYS).nullable(),
  photos: z.array(ReturnPhoto),
  /** The seller's reason for declining; an admin's reason for the decision; the seller's note on what came back. */
  declineReason: z.string().nullable(),
  decisionReason: z.string().nullable(),
  backNote: z.string().nullable(),
  /** Opened from an admin's dispute ("Return first"). */
  fromDispute: z.boolean(),
  /** The return label (a shipped sale's, once bought): the buyer prints it. */
  label: z
    .object({
      url: z.string(),
      carrier: z.string(),
      trackingCode: z.string(),
      trackingUrl: z.string().nullable(),
      status: z.string(),
      costCents: z.number().int(),
    })
    .nullable(),
  createdAt: z.string(),
  acceptedAt: z.string().nullable(),
  deliveredBackAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  /** What the reader of the return can do now (the server's table of moves says; RETURN_ACTIONS). */
  moves: z.array(z.enum(RETURN_ACTIONS)),
})
export type Return = z.infer<typeof Return>

/** A booking's return, and until when the buyer may open one (null: not now). */
export const BookingReturn = z.object({
  return: Return.nullable(),
  canOpenUntil: z.string().nullable(),
})
export type BookingReturn = z.infer<typeof BookingReturn>

/** Admin: a return with its sale and both sides. */
export const AdminReturn = Return.extend({
  productName: z.string(),
  priceCents: z.number().int(),
  buyer: z.object({ _id: z.string(), name: z.string(), email: z.string() }),
  seller: z.object({ _id: z.string(), name: z.string(), email: z.string() }),
})
export type AdminReturn = z.infer<typeof AdminReturn>
export const AdminReturnList = z.array(AdminReturn)

/** Admin: returns waiting for a decision (the default: declined, or requested and unanswered), or all. */
export const ReturnsQuery = z.strictObject({
  status: z.enum(['awaiting', 'all'], { error: 'Choose awaiting or all' }).optional(),
})
