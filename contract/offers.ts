import { z } from 'zod'
import { Id } from './common'
import { OFFER_NOTE_MAX } from './offer-limits'

export { OFFER_MAX_OPEN_PER_BUYER, OFFER_MAX_ROUNDS, OFFER_MIN_SHARE, OFFER_NOTE_MAX } from './offer-limits'

// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point of the check
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

/** Dollars with at most two decimals, a cent or more (the server works in cents from here on). */
const Amount = z
  .number({ error: 'Enter an amount in dollars' })
  .min(0.01, 'The amount must be more than $0')
  .max(100_000, 'The amount must be at most $100,000')
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'The amount can have at most two decimals')

const Text = (what: string) =>
  z
    .string()
    .trim()
    .max(OFFER_NOTE_MAX, `Keep the ${what} under ${OFFER_NOTE_MAX} characters`)
    .refine((t) => !CONTROL_CHARACTERS.test(t), `The ${what} cannot contain control characters`)

/** A buyer's offer on a listing: an amount in dollars and an optional note to the seller. */
export const NewOffer = z.strictObject({ amount: Amount, note: Text('note').optional() })
export type NewOffer = z.infer<typeof NewOffer>

/** A counter: the seller's (between the offer and the asking price) or the buyer's (between theirs and the seller's). */
export const CounterOffer = z.strictObject({ amount: Amount, note: Text('note').optional() })
export type CounterOffer = z.infer<typeof CounterOffer>

/** The seller declines, optionally saying why. */
export const DeclineOffer = z.strictObject({ reason: Text('reason').optional() }).nullish()
export type DeclineOffer = z.infer<typeof DeclineOffer>

export const OfferRole = z.enum(['buyer', 'seller'])
export type OfferRole = z.infer<typeof OfferRole>

/** `role`: the caller's offers as a buyer, or the offers on their listings; optionally of one listing, or open only. */
export const OffersQuery = z.strictObject({
  role: OfferRole,
  productId: Id.optional(),
  open: z.enum(['true', 'false']).optional(),
})
export type OffersQuery = z.infer<typeof OffersQuery>

/**
 * Where an offer is: `open` (waiting for `waitingFor`), `accepted` (a booking at the agreed price, to be paid by
 * `payBy`), `paid` (the sale happened at it), `declined`, `withdrawn`, `expired` (unanswered in time) or `lapsed`
 * (accepted, not paid in time).
 */
export const OfferState = z.enum(['open', 'accepted', 'paid', 'declined', 'withdrawn', 'expired', 'lapsed'])
export type OfferState = z.infer<typeof OfferState>

/** How each state reads in a sentence ("… this offer is withdrawn"). */
export const OFFER_STATE_WORDS: Record<OfferState, string> = {
  open: 'open',
  accepted: 'accepted',
  paid: 'accepted and paid',
  declined: 'declined',
  withdrawn: 'withdrawn',
  expired: 'expired',
  lapsed: 'lapsed (accepted but not paid in time)',
}

export const OfferEventKind = z.enum([
  'offer',
  'counter',
  'accepted',
  'declined',
  'withdrawn',
  'expired',
  'lapsed',
  'sold',
  /** The listing left sale (waiting for review, rejected, removed, expired); the note says why. */
  'off_sale',
])

/** One step of the thread: who took it (null: the marketplace), the amount proposed, any note or reason. */
export const OfferEvent = z.object({
  kind: OfferEventKind,
  by: OfferRole.nullable(),
  amount_cents: z.number().int().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
})
export type OfferEvent = z.infer<typeof OfferEvent>

export const Offer = z.object({
  _id: z.string(),
  productId: z.string(),
  productName: z.string(),
  productImage: z.string(),
  /** The listing's price now (an offer never changes it). */
  asking_price_cents: z.number().int(),
  buyerId: z.string(),
  buyerName: z.string(),
  sellerId: z.string(),
  sellerName: z.string(),
  /** The caller's side of it. */
  role: OfferRole,
  state: OfferState,
  /** While open: whose answer it waits for. */
  waitingFor: OfferRole.nullable(),
  /** The amount on the table (the latest proposal), in dollars and cents. */
  amount: z.number(),
  amount_cents: z.number().int(),
  /** Proposals made by both sides on this listing, and how many more may follow. */
  rounds: z.number().int(),
  roundsLeft: z.number().int(),
  note: z.string().nullable(),
  declineReason: z.string().nullable(),
  /** While open: when it expires unanswered. */
  expiresAt: z.string().nullable(),
  /** Accepted: the booking to pay, and when its hold ends. */
  bookingId: z.string().nullable(),
  payBy: z.string().nullable(),
  /** The conversation the two already have (the buyer's booking of this listing), if any. */
  conversationId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  events: z.array(OfferEvent),
})
export type Offer = z.infer<typeof Offer>
export const OfferList = z.array(Offer)

/** The answer to a step; an accepted offer's carries the booking to pay. */
export const OfferAnswer = z.object({
  acknowledged: z.boolean(),
  modifiedCount: z.number().int(),
  state: OfferState,
  bookingId: z.string().nullable(),
})
export type OfferAnswer = z.infer<typeof OfferAnswer>
