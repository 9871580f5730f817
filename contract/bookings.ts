import { z } from 'zod'
import { BookingDelivery, SaleParcel } from './delivery'
import { HandoverAnswers, HandoverChecklist } from './handover'
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
 * unavailable: the listing was taken down before it was paid for; cancelled: the booking was called off before
 * payment, by its buyer (`cancelledByBuyer`) or because the listing left sale (waiting for review, rejected, removed,
 * expired; `cancelReason` says why). After payment the deal moves on:
 * handed_over (the seller says the buyer has it), completed (the buyer confirmed, the days to answer
 * passed, or an admin released a disputed sale), disputed (the buyer reported a problem), refunded, returning (the
 * buyer is sending it back: contract/returns.ts).
 */
export const BookingStatus = z.enum([
  'unpaid',
  'cancelled',
  'paid',
  'sold',
  'unavailable',
  'shipped',
  'handed_over',
  'returning',
  'completed',
  'disputed',
  'refunded',
])
export type BookingStatus = z.infer<typeof BookingStatus>

/**
 * A problem a buyer reported: open until an admin refunds the buyer or releases the sale to the seller; returning
 * while the laptop comes back first (an admin's "Return first": the return decides, and a laptop that comes back
 * otherwise reopens it).
 */
export const DISPUTE_STATUSES = ['open', 'refunded', 'released', 'returning'] as const
export const DisputeStatus = z.enum(DISPUTE_STATUSES)
export type DisputeStatus = z.infer<typeof DisputeStatus>

/** The statuses a paid booking moves through. */
export const PAID_STATUSES = [
  'paid',
  'shipped',
  'handed_over',
  'returning',
  'completed',
  'disputed',
  'refunded',
] as const

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
  /**
   * Why the booking was called off: the seller's reason when they cancelled the paid sale (and the buyer was
   * refunded), or why the listing left sale before payment; null otherwise (and when the buyer cancelled it).
   */
  cancelReason: z.string().nullable().optional(),
  /** The buyer cancelled this unpaid booking themselves. */
  cancelledByBuyer: z.boolean().optional(),
  /** Why an admin refunded this sale (a dispute's refund, a completed sale's, the listing removed); shown to both sides. */
  refundReason: z.string().nullable().optional(),
  /**
   * What ended a refunded sale (the deal event that refunded it): the seller cancelled it (`cancelled`), an admin
   * refunded it (`refunded`), the seller did not ship it in time (`ship_late`, by `delivery.ship_by`), or the
   * laptop came back to the seller (`return_refunded`), or an admin refunded a return whose parcel the carrier
   * lost (`return_lost`, with `refundReason`). Null unless refunded.
   */
  refundEvent: z
    .enum(['cancelled', 'refunded', 'ship_late', 'return_refunded', 'return_lost'])
    .nullable()
    .optional(),
  /** The problem the buyer reported, if any. */
  dispute: z.object({ _id: z.string(), reason: z.string(), status: DisputeStatus }).nullable(),
  /**
   * The last four characters of the laptop's serial number, what the handover checklist compares: given once the
   * booking is paid (null before, and when the seller gave no serial).
   */
  serial_last4: z.string().nullable().optional(),
  /** The buyer's handover checklist, as answered; null until answered. */
  checklist: HandoverAnswers.nullable().optional(),
  /** Met in person or shipped, what shipping costs, and (for the buyer, the seller once paid, admins) the address. */
  delivery: BookingDelivery.optional(),
  /** A shipped sale's parcel once the seller bought its label: carrier, tracking number and steps. */
  parcel: SaleParcel.nullable().optional(),
})
export type Booking = z.infer<typeof Booking>

/** A paid sale that is not finished: the listing cannot be deleted or removed without refunding its buyer. */
export const OPEN_SALE_STATUSES = ['paid', 'shipped', 'handed_over', 'returning', 'disputed'] as const
export type OpenSaleStatus = (typeof OPEN_SALE_STATUSES)[number]

export function isOpenSale(status: BookingStatus | undefined | null): status is OpenSaleStatus {
  return (OPEN_SALE_STATUSES as readonly string[]).includes(status ?? '')
}

/** Why a listing with an open sale cannot be deleted, and what its seller can do instead (server and web). */
export const DELETE_BLOCKED: Record<OpenSaleStatus, string> = {
  paid: 'A buyer has paid for this laptop, so it cannot be deleted. Hand it over, or cancel the sale to refund the buyer in full.',
  shipped: 'This laptop is on its way to the buyer, so it cannot be deleted until the sale completes.',
  handed_over:
    'This laptop is handed over and waiting for the buyer to confirm, so it cannot be deleted until the sale completes.',
  disputed: 'The buyer reported a problem with this sale, so it cannot be deleted until an admin settles it.',
  returning: 'The buyer is returning this laptop, so it cannot be deleted until the return is settled.',
}
export const BookingList = z.array(Booking)

/**
 * Who booked, as the seller reads it: "Bea Buyer · (312) 555-0187 · Chicago, IL", leaving out what the buyer did not
 * give (an erased account keeps neither). The one way a buyer's contact is printed.
 */
export function buyerContact(b: Pick<Booking, 'userName' | 'phoneNumber' | 'location'>): string {
  return [b.userName, b.phoneNumber, b.location]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' · ')
}

/** A buyer's bookings, a page at a time (headers in contract/paging.ts). */
export const BookingsQuery = z.strictObject({
  email: z.email({ message: 'A valid email is required' }).max(254),
  /** Only the booking of this listing (a buyer books a listing once): what Book Now reads to say "Booked". */
  product_id: z.uuid({ message: 'A product id is a UUID' }).optional(),
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
  /** The handover checklist as ticked when the problem was reported, kept on the deal for the admin. */
  checklist: HandoverChecklist.optional(),
})
export type ProblemBody = z.infer<typeof ProblemBody>

/** The seller cancels a paid sale they cannot hand over; the buyer is refunded in full and told why. */
export const CancelSaleBody = z.strictObject({
  reason: z
    .string({ error: 'Tell the buyer why you cancel' })
    .trim()
    .min(10, 'Tell the buyer why you cancel in at least 10 characters')
    .max(500, 'Keep the reason under 500 characters'),
})
export type CancelSaleBody = z.infer<typeof CancelSaleBody>

/** Each step on a booking's record after payment (`cancelled`: the seller called the sale off, refunding it). */
export const BOOKING_EVENT_KINDS = [
  'paid',
  'handed_over',
  'received',
  'auto_completed',
  'problem_reported',
  'refunded',
  'released',
  'cancelled',
  /** The serial was reported stolen after the sale: the sale waits for an admin, its money frozen. */
  'frozen',
  /** A cancelled booking booked again by its buyer. */
  'booked_again',
  /** The seller bought the shipping label: the laptop is on its way. */
  'shipped',
  /** No label was bought within SHIP_WITHIN_DAYS: the sale was cancelled and the buyer refunded. */
  'ship_late',
  /** The carrier delivered the parcel (the handover of a shipped sale). */
  'delivered',
  /** The carrier could not deliver the parcel (failure, or sent back): the sale waits for an admin. */
  'parcel_lost',
  /** Returns (contract/returns.ts): the buyer opened one; an admin asked for the laptop back before a refund. */
  'return_opened',
  'return_first',
  /** An admin refused the return: the sale completed. */
  'return_refused',
  /** The laptop came back as sent: the buyer was refunded. */
  'return_refunded',
  /** The laptop came back otherwise: an admin decides. */
  'return_disputed',
] as const
export const BookingEventKind = z.enum(BOOKING_EVENT_KINDS)

export type BookingEventKind = z.infer<typeof BookingEventKind>

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
    /** The buyer's handover checklist and the serial ending it was checked against. */
    serial_last4: z.string().nullable().optional(),
    checklist: HandoverAnswers.nullable().optional(),
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

/**
 * What the payment page sends to hold the laptop. Opening the page takes a booking's first hold; once a hold of the
 * booking has ended, only `again: true` (the buyer pressed "Hold it again") takes another, so a visit never does.
 */
export const HoldBody = z
  .strictObject({ again: z.boolean({ error: 'again is true or false' }).optional() })
  .nullish()
export type HoldBody = z.infer<typeof HoldBody>

/** The booking holds the laptop until then (ISO time); nobody else can pay meanwhile. */
export const HoldAnswer = z.object({ holdUntil: z.string() })
export type HoldAnswer = z.infer<typeof HoldAnswer>

/**
 * 409 when no hold is taken: RESERVED (another buyer holds the laptop, until `holdUntil`), or HOLD_ENDED (this
 * booking's hold ended at `holdUntil` and the request did not ask again).
 */
export const HoldRefused = z.object({
  error: z.object({ code: z.enum(['RESERVED', 'HOLD_ENDED']), message: z.string() }),
  holdUntil: z.string(),
})
export type HoldRefused = z.infer<typeof HoldRefused>
