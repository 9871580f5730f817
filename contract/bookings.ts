import { z } from 'zod'
import { pagingFields } from './paging'
import { singleLine } from './text'

/**
 * What a buyer sends to book. The seed's client also sent productName, userName, email, price and
 * productImage; they are accepted for compatibility and ignored: the server takes them from the listing
 * and the session.
 */
export const NewBooking = z.strictObject({
  productId: z.uuid({ message: 'Choose a laptop to book' }),
  phoneNumber: z
    .string({ error: 'Phone number is required' })
    .trim()
    .min(1, 'Phone number is required')
    .max(30, 'Phone number is too long')
    .regex(/^\+?[0-9 ()-]{6,30}$/, 'Enter a valid phone number'),
  location: singleLine(
    z
      .string({ error: 'Location is required' })
      .trim()
      .min(2, 'Location is required')
      .max(120, 'Location is too long'),
    'Location',
  ),
  productName: z.unknown().optional(),
  userName: z.unknown().optional(),
  email: z.unknown().optional(),
  price: z.unknown().optional(),
  productImage: z.unknown().optional(),
})
export type NewBooking = z.infer<typeof NewBooking>

/**
 * unpaid: can be paid; paid: this buyer bought it; sold: the laptop went to someone else;
 * unavailable: the listing was taken down before it was paid for. After payment the deal moves on:
 * handed_over (the seller says the buyer has it), completed (the buyer confirmed, the days to answer
 * passed, or an admin released a disputed sale), disputed (the buyer reported a problem), refunded.
 */
export const BookingStatus = z.enum([
  'unpaid',
  'paid',
  'sold',
  'unavailable',
  'handed_over',
  'completed',
  'disputed',
  'refunded',
])
export type BookingStatus = z.infer<typeof BookingStatus>

/** The statuses a paid booking moves through. */
export const PAID_STATUSES = ['paid', 'handed_over', 'completed', 'disputed', 'refunded'] as const

export const Booking = z.object({
  _id: z.string(),
  productId: z.string(),
  productName: z.string(),
  productImage: z.string(),
  userName: z.string(),
  email: z.string(),
  price: z.number(),
  /** What paying charges (unpaid), or what was paid. */
  price_cents: z.number().int(),
  /** The price when the laptop was booked: paying never charges more. */
  booked_price_cents: z.number().int(),
  phoneNumber: z.string(),
  location: z.string(),
  paid: z.boolean(),
  status: BookingStatus,
  createdAt: z.string(),
  /** The listing's seller (the other side of the deal). */
  sellerId: z.string(),
  paidAt: z.string().nullable(),
  handedOverAt: z.string().nullable(),
  /** The seller's note at handover: a tracking number, or where they met. */
  handoverNote: z.string().nullable(),
  /** When a handed-over sale completes by itself if the buyer does not answer. */
  autoCompleteAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  refundedAt: z.string().nullable(),
  /** The problem the buyer reported, if any. */
  dispute: z
    .object({ _id: z.string(), reason: z.string(), status: z.enum(['open', 'refunded', 'released']) })
    .nullable(),
})
export type Booking = z.infer<typeof Booking>
export const BookingList = z.array(Booking)

/** A buyer's bookings, a page at a time (headers in contract/paging.ts). */
export const BookingsQuery = z.strictObject({
  email: z.email({ message: 'A valid email is required' }).max(254),
  ...pagingFields,
})

// ---------------------------------------------------------------------------------------------
// The deal after payment: handover, receipt, problems
// ---------------------------------------------------------------------------------------------

/** The seller marks a paid booking handed over, with an optional note (no body at all is fine too). */
export const HandoverBody = z
  .strictObject({
    note: z
      .string({ error: 'The note must be text' })
      .trim()
      .max(500, 'Keep the note under 500 characters')
      .optional(),
  })
  .nullish()
export type HandoverBody = z.infer<typeof HandoverBody>

/** The buyer reports a problem with a paid sale. */
export const ProblemBody = z.strictObject({
  reason: z
    .string({ error: 'Tell us what went wrong' })
    .trim()
    .min(10, 'Tell us what went wrong in at least 10 characters')
    .max(2000, 'Keep the reason under 2000 characters'),
})
export type ProblemBody = z.infer<typeof ProblemBody>

export const DisputeStatus = z.enum(['open', 'refunded', 'released'])
export type DisputeStatus = z.infer<typeof DisputeStatus>

export const BookingEventKind = z.enum([
  'paid',
  'handed_over',
  'received',
  'auto_completed',
  'problem_reported',
  'refunded',
  'released',
])

export const BookingEvent = z.object({
  kind: BookingEventKind,
  /** Who did it; null when the marketplace itself did (a payment confirmed, a sale completed by time). */
  actorName: z.string().nullable(),
  note: z.string().nullable(),
  at: z.string(),
})
export type BookingEvent = z.infer<typeof BookingEvent>

const Party = z.object({ _id: z.string(), name: z.string(), email: z.string() })

/** A dispute as admins see it: the sale, both sides, the buyer's reason and the booking's history. */
export const Dispute = z.object({
  _id: z.string(),
  status: DisputeStatus,
  reason: z.string(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  booking: z.object({
    _id: z.string(),
    productId: z.string(),
    productName: z.string(),
    productImage: z.string(),
    price_cents: z.number().int(),
    status: BookingStatus,
    paidAt: z.string().nullable(),
    handedOverAt: z.string().nullable(),
    handoverNote: z.string().nullable(),
  }),
  buyer: Party,
  seller: Party,
  history: z.array(BookingEvent),
})
export type Dispute = z.infer<typeof Dispute>
export const DisputeList = z.array(Dispute)

/** Admin: open disputes (the default), resolved ones, or all, newest first. */
export const DisputesQuery = z.strictObject({
  status: z.enum(['open', 'resolved', 'all'], { error: 'Choose open, resolved or all' }).optional(),
})

// ---------------------------------------------------------------------------------------------
// The hold while paying
// ---------------------------------------------------------------------------------------------

/** The booking holds the laptop until then (ISO time); nobody else can pay meanwhile. */
export const HoldAnswer = z.object({ holdUntil: z.string() })
export type HoldAnswer = z.infer<typeof HoldAnswer>

/** 409 when another buyer holds the laptop: `error.code` is RESERVED, and until when. */
export const HoldRefused = z.object({
  error: z.object({ code: z.literal('RESERVED'), message: z.string() }),
  holdUntil: z.string(),
})
export type HoldRefused = z.infer<typeof HoldRefused>
