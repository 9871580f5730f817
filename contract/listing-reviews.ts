import { z } from 'zod'

// Listings that wait for an admin before they appear in search or can be booked: a seller's first few (unless the
// seller is verified), and any whose serial number another seller listed or sold recently.

export const REVIEW_STATES = ['pending', 'approved', 'rejected'] as const
export const ReviewState = z.enum(REVIEW_STATES)
export type ReviewState = z.infer<typeof ReviewState>

/**
 * Why a listing waits: a first listing of its seller, a serial number seen on another seller's laptop, or an
 * approved listing whose seller, still among their first listings, changed what buyers judge it by.
 */
export const REVIEW_FLAGS = ['first_listing', 'duplicate_serial', 'changed_after_approval'] as const
export const ReviewFlag = z.enum(REVIEW_FLAGS)
export type ReviewFlag = z.infer<typeof ReviewFlag>

export const REVIEW_FLAG_TEXT: Record<ReviewFlag, string> = {
  first_listing: "One of the seller's first listings",
  duplicate_serial: 'Serial number also on another seller’s listing or recent sale',
  changed_after_approval: 'Changed by the seller after it was approved',
}

/**
 * What says which laptop a listing is: a change to any of these sends an approved listing of a seller still among
 * their first listings back for review (the price, the specs and the rest do not).
 */
export const REVIEWED_FIELDS = ['name', 'brand', 'description', 'photos', 'serial'] as const
export const ReviewedField = z.enum(REVIEWED_FIELDS)
export type ReviewedField = z.infer<typeof ReviewedField>

export const REVIEWED_FIELD_TEXT: Record<ReviewedField, string> = {
  name: 'name',
  brand: 'brand',
  description: 'description',
  photos: 'photos',
  serial: 'serial number',
}

/** The serial as typed: letters and digits kept, spaces and dashes dropped, upper case. */
export function normalizeSerial(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase()
}

/** A laptop's serial number: 4 to 40 letters and digits once spaces and dashes are dropped. */
export const SerialNumber = z
  .string({ error: 'The serial number must be text' })
  .transform(normalizeSerial)
  .pipe(
    z.string().regex(/^[A-Z0-9]{4,40}$/, 'Enter the serial number as printed: 4 to 40 letters and digits'),
  )

/** Another listing carrying the same serial number (what the admin compares). */
export const SerialMatch = z.object({
  _id: z.string(),
  name: z.string(),
  seller_name: z.string(),
  seller_email: z.string(),
  /** listed: still on the market (or waiting); sold: sold on `sold_on`. */
  state: z.enum(['listed', 'sold']),
  sold_on: z.string().nullable(),
})
export type SerialMatch = z.infer<typeof SerialMatch>

/** A listing in the admin's review queue. */
export const ListingReview = z.object({
  _id: z.string(),
  name: z.string(),
  brand_name: z.string(),
  img: z.string(),
  resale_price_cents: z.number().int(),
  condition: z.string(),
  seller_id: z.string(),
  seller_name: z.string(),
  seller_email: z.string(),
  seller_verified: z.boolean(),
  review_state: ReviewState,
  review_flags: z.array(ReviewFlag),
  /** What the seller changed since it was last approved (empty for a listing never approved). */
  changed: z.array(ReviewedField),
  serial_last4: z.string().nullable(),
  /** The serial is on the stolen list (such a listing cannot be approved). */
  serial_stolen: z.boolean(),
  same_serial: z.array(SerialMatch),
  battery_health_pct: z.number().int().nullable(),
  /** Read from the seller's report file (see BATTERY_FROM_REPORT_FILE), not typed. */
  battery_verified: z.boolean(),
  postedOn: z.string(),
  /** When it was (last) sent for review. */
  submitted_at: z.string(),
})
export type ListingReview = z.infer<typeof ListingReview>

export const ListingReviewQueue = z.object({
  items: z.array(ListingReview),
  counts: z.object({ pending: z.number().int(), flagged: z.number().int() }),
})
export type ListingReviewQueue = z.infer<typeof ListingReviewQueue>

/** What the admin tells the seller: the rule and what to change. Emailed as the statement of reasons. */
export const RejectListingBody = z.strictObject({
  reason: z
    .string({ error: 'Say which rule the listing breaks and what to change' })
    .trim()
    .min(10, 'Say which rule the listing breaks and what to change, in at least 10 characters')
    .max(2000, 'Keep the reason under 2000 characters'),
})
export type RejectListingBody = z.infer<typeof RejectListingBody>

/** An admin marks a serial reported stolen: given as typed, or as the serial of a listing. */
export const StolenSerialBody = z
  .strictObject({
    serial_number: SerialNumber.optional(),
    product_id: z.uuid({ message: 'Must be a valid id' }).optional(),
    note: z.string().trim().max(500, 'Keep the note under 500 characters').optional(),
  })
  .refine((b) => (b.serial_number === undefined) !== (b.product_id === undefined), {
    message: 'Give either the serial number or the listing',
    path: ['serial_number'],
  })
export type StolenSerialBody = z.infer<typeof StolenSerialBody>

export const StolenSerialAdded = z.object({
  acknowledged: z.boolean(),
  serial_last4: z.string(),
  /** Unsold listings carrying it, taken out of the market (rejected). */
  listings_taken_down: z.number().int(),
})
