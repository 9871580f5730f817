import { z } from 'zod'
import { ProductList } from './products'

/** Days after completion when a review is published even if the other side never wrote one. */
export const REVIEW_BLIND_DAYS = 14
export const REVIEW_TEXT_MAX = 1000

// Control characters other than the line break (tabs, escapes, NUL) are refused: reviews are shown as text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point of the check
const CONTROL_CHARACTERS = /[\u0000-\u0009\u000b-\u001f\u007f]/

/** What the buyer or the seller of a completed sale writes about the other. */
export const NewReview = z.strictObject({
  rating: z
    .number({ error: 'Choose a rating from 1 to 5 stars' })
    .int('Choose a rating from 1 to 5 stars')
    .min(1, 'Choose a rating from 1 to 5 stars')
    .max(5, 'Choose a rating from 1 to 5 stars'),
  text: z
    .string({ error: 'Write a few words about the sale' })
    .trim()
    .min(2, 'Write a few words about the sale')
    .max(REVIEW_TEXT_MAX, `Keep the review under ${REVIEW_TEXT_MAX} characters`)
    .refine((t) => !CONTROL_CHARACTERS.test(t), 'The review cannot contain control characters'),
})
export type NewReview = z.infer<typeof NewReview>

export const ReviewRole = z.enum(['buyer', 'seller'])

/** A review as it leaves the server. */
export const Review = z.object({
  _id: z.string(),
  bookingId: z.string(),
  rating: z.number().int(),
  text: z.string(),
  authorName: z.string(),
  /** Whether the author was the buyer (a review of the seller) or the seller (a review of the buyer). */
  authorRole: ReviewRole,
  createdAt: z.string(),
  /** Both sides wrote, or 14 days passed after completion; until then only its author sees it. */
  published: z.boolean(),
})
export type Review = z.infer<typeof Review>
export const ReviewList = z.array(Review)

/** A seller's published rating: the mean of buyers' reviews (one decimal), null with none. */
export const SellerRating = z.object({ average: z.number().nullable(), count: z.number().int() })
export type SellerRating = z.infer<typeof SellerRating>

/** GET /api/sellers/{id}/reviews: the seller, their rating and their published reviews, newest first. */
export const SellerReviews = SellerRating.extend({
  seller: z.object({ _id: z.string(), name: z.string(), verified: z.boolean() }),
  reviews: ReviewList,
})
export type SellerReviews = z.infer<typeof SellerReviews>

/** The public seller page's data: their reviews and their available laptops. */
export const SellerPage = SellerReviews.extend({ products: ProductList })
export type SellerPage = z.infer<typeof SellerPage>

/** The caller's reviews: those they wrote (published or not), and those about them that are published. */
export const MyReviews = z.object({ written: ReviewList, received: ReviewList })
export type MyReviews = z.infer<typeof MyReviews>

export const SellerIdParams = z.strictObject({
  id: z
    .string({ error: 'Must be a valid id' })
    .trim()
    .min(1, 'Must be a valid id')
    .max(64, 'Must be a valid id'),
})

export const NewReviewReport = z.strictObject({
  reason: z
    .string({ error: 'Tell us what is wrong with this review' })
    .trim()
    .min(10, 'Tell us what is wrong in at least 10 characters')
    .max(1000, 'Keep the reason under 1000 characters'),
})
export type NewReviewReport = z.infer<typeof NewReviewReport>

/** A reported review as admins see it. */
export const ReportedReview = z.object({
  _id: z.string(),
  review: Review,
  subjectName: z.string(),
  reports: z.array(
    z.object({
      reason: z.string(),
      reporterName: z.string(),
      reporterEmail: z.string(),
      createdAt: z.string(),
    }),
  ),
})
export type ReportedReview = z.infer<typeof ReportedReview>
export const ReportedReviewList = z.array(ReportedReview)
