import { and, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import {
  type MyReviews,
  type NewReview,
  type NewReviewReport,
  REVIEW_BLIND_DAYS,
  type ReportedReview,
  type Review,
  type SellerPage,
  type SellerReviews,
} from '#contract/reviews'
import type { Db } from '#server/db/client'
import { products, reviewReports, reviews, users } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import type { SessionUser } from '#server/lib/session'
import { lockDeal, wrongStage } from '#server/modules/bookings'
import { findProductsWhere, isAvailable } from '#server/modules/products'

const DAY_MS = 24 * 60 * 60 * 1000

/** Published: both sides wrote, or the days after completion passed (`publish_at` carries both; the clock decides). */
const isPublished = sql<boolean>`${reviews.publishAt} <= now()`

/** A seller's rating as buyers gave it: published, not removed (what `reviews_subject_idx` holds). */
const ofSeller = (sellerId: SQL | string) =>
  and(
    eq(reviews.subjectId, sellerId as string),
    eq(reviews.authorRole, 'buyer'),
    isNull(reviews.removedAt),
    isPublished,
  ) as SQL

/**
 * The booking's buyer or the listing's seller reviews the other side, once, after the sale completed.
 * Someone who may not see the booking gets 404; an admin who is neither side 403. The booking's row is
 * locked so the two sides' reviews never miss each other: the second one publishes both at once; a lone
 * review is published `REVIEW_BLIND_DAYS` after completion.
 */
export async function createReview(db: Db, author: SessionUser, bookingId: string, input: NewReview) {
  const result = await db.transaction(async (tx) => {
    // The deal's own lock (someone who may not see the booking gets 404); an admin who is neither side 403.
    const row = await lockDeal(tx, author, bookingId)
    const isBuyer = row.isBuyer
    if (!isBuyer && !row.isSeller) {
      throw new AppError('FORBIDDEN', 'Only the buyer and the seller review a sale')
    }
    if (row.booking.stage !== 'completed') throw wrongStage('review this sale', row.status)
    const existing = await tx
      .select({ id: reviews.id, authorId: reviews.authorId })
      .from(reviews)
      .where(eq(reviews.bookingId, bookingId))
    if (existing.some((r) => r.authorId === author.id))
      throw new AppError('CONFLICT', 'You have already reviewed this sale')
    const other = existing[0]
    if (other) {
      await tx
        .update(reviews)
        .set({ publishAt: sql`least(${reviews.publishAt}, now())` })
        .where(eq(reviews.id, other.id))
    }
    const [inserted] = await tx
      .insert(reviews)
      .values({
        bookingId,
        authorId: author.id,
        subjectId: isBuyer ? row.sellerId : row.booking.buyerId,
        authorRole: isBuyer ? 'buyer' : 'seller',
        rating: input.rating,
        text: input.text,
        publishAt: other
          ? sql`now()`
          : new Date((row.booking.completedAt ?? new Date()).getTime() + REVIEW_BLIND_DAYS * DAY_MS),
      })
      .returning({ id: reviews.id })
    if (!inserted) throw new AppError('INTERNAL', 'The review could not be saved')
    return { id: inserted.id, publishedNow: other !== undefined }
  })
  return result.id
}

const authors = alias(users, 'authors')

const reviewColumns = {
  id: reviews.id,
  bookingId: reviews.bookingId,
  rating: reviews.rating,
  text: reviews.text,
  authorName: authors.name,
  authorRole: reviews.authorRole,
  createdAt: reviews.createdAt,
  published: isPublished,
}

type ReviewRow = Awaited<ReturnType<typeof selectReviews>>[number]

function toReview(r: ReviewRow): Review {
  return {
    _id: r.id,
    bookingId: r.bookingId,
    rating: r.rating,
    text: r.text,
    authorName: r.authorName,
    authorRole: r.authorRole,
    createdAt: new Date(r.createdAt).toISOString(),
    published: Boolean(r.published),
  }
}

function selectReviews(db: Db) {
  return db.select(reviewColumns).from(reviews).innerJoin(authors, eq(authors.id, reviews.authorId))
}

/** A seller people can see: the account exists, is not deleted, and sells (or has sold) laptops. */
async function findSeller(db: Db, sellerId: string) {
  const [seller] = await db
    .select({ id: users.id, name: users.name, verifiedAt: users.verifiedAt })
    .from(users)
    .where(
      and(
        eq(users.id, sellerId),
        isNull(users.disabledAt),
        or(
          eq(users.role, 'seller'),
          sql`exists (select 1 from ${products} where ${products.sellerId} = ${users.id})`,
        ),
      ),
    )
    .limit(1)
  if (!seller) throw notFound('Seller')
  return seller
}

/**
 * A seller's published rating and reviews (by buyers, not removed), newest first. Reviews sellers write
 * about buyers are not public: each buyer reads theirs on My Orders (docs/decisions/0023-reviews.md).
 */
export async function findSellerReviews(db: Db, sellerId: string, limit = 100): Promise<SellerReviews> {
  const seller = await findSeller(db, sellerId)
  const [rating] = await db
    .select({
      average: sql<number | null>`round(avg(${reviews.rating})::numeric, 1)::float8`,
      count: sql<number>`count(*)::int`,
    })
    .from(reviews)
    .where(ofSeller(seller.id))
  const rows = await selectReviews(db)
    .where(ofSeller(seller.id))
    // Newest first by the date each review shows (when it was written), not by when the blind rule published it:
    // a review held 14 days would otherwise sit above later ones.
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(limit)
  return {
    seller: { _id: seller.id, name: seller.name, verified: seller.verifiedAt !== null },
    average: rating?.average ?? null,
    count: Number(rating?.count ?? 0),
    reviews: rows.map((r) => toReview(r)),
  }
}

/** The public seller page: the seller's reviews and their available laptops, newest first. */
export async function findSellerPage(db: Db, sellerId: string): Promise<SellerPage> {
  const found = await findSellerReviews(db, sellerId, 50)
  const laptops = await findProductsWhere(db, and(isAvailable, eq(products.sellerId, found.seller._id)), {
    orderBy: [desc(products.postedOn), desc(products.id)],
    limit: 60,
  })
  return { ...found, products: laptops }
}

/** What the caller wrote (published or not) and what was written about them and is published. */
export async function findMyReviews(db: Db, user: SessionUser): Promise<MyReviews> {
  const [written, received] = await Promise.all([
    selectReviews(db).where(eq(reviews.authorId, user.id)).orderBy(desc(reviews.createdAt)).limit(500),
    selectReviews(db)
      .where(and(eq(reviews.subjectId, user.id), isNull(reviews.removedAt), isPublished))
      .orderBy(desc(reviews.createdAt))
      .limit(500),
  ])
  return {
    written: written.map((r) => toReview(r)),
    received: received.map((r) => toReview(r)),
  }
}

/** Any signed-in user reports a published review once; its author cannot report their own. */
export async function reportReview(db: Db, reporter: SessionUser, reviewId: string, input: NewReviewReport) {
  const [review] = await db
    .select({
      id: reviews.id,
      authorId: reviews.authorId,
      subjectId: reviews.subjectId,
      published: isPublished,
    })
    .from(reviews)
    .where(and(eq(reviews.id, reviewId), isNull(reviews.removedAt)))
    .limit(1)
  // A review nobody else can read yet is as good as missing to anyone but its two sides.
  if (!review || (!review.published && reporter.id !== review.subjectId && reporter.id !== review.authorId))
    throw notFound('Review')
  if (review.authorId === reporter.id) throw new AppError('FORBIDDEN', 'You cannot report your own review')
  const [row] = await db
    .insert(reviewReports)
    .values({ reviewId, reporterId: reporter.id, reason: input.reason })
    .onConflictDoNothing()
    .returning({ id: reviewReports.id })
  if (!row) throw new AppError('CONFLICT', 'You have already reported this review')
  return row.id
}

const subjects = alias(users, 'subjects')
const reporters = alias(users, 'reporters')

/** Reviews with open reports, most recently reported first, each with its reports. */
export async function findReportedReviews(db: Db): Promise<ReportedReview[]> {
  const open = await db
    .select({
      reviewId: reviewReports.reviewId,
      reason: reviewReports.reason,
      reporterName: reporters.name,
      reporterEmail: reporters.email,
      createdAt: reviewReports.createdAt,
    })
    .from(reviewReports)
    .innerJoin(reporters, eq(reporters.id, reviewReports.reporterId))
    .where(eq(reviewReports.status, 'open'))
    .orderBy(desc(reviewReports.createdAt))
    .limit(500)
  const ids = [...new Set(open.map((r) => r.reviewId))]
  if (ids.length === 0) return []
  const rows = await db
    .select({ ...reviewColumns, subjectName: subjects.name })
    .from(reviews)
    .innerJoin(authors, eq(authors.id, reviews.authorId))
    .innerJoin(subjects, eq(subjects.id, reviews.subjectId))
    .where(inArray(reviews.id, ids))
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.flatMap((id) => {
    const r = byId.get(id)
    if (!r) return []
    return [
      {
        _id: id,
        review: toReview(r),
        subjectName: r.subjectName,
        reports: open
          .filter((o) => o.reviewId === id)
          .map((o) => ({
            reason: o.reason,
            reporterName: o.reporterName,
            reporterEmail: o.reporterEmail,
            createdAt: o.createdAt.toISOString(),
          })),
      },
    ]
  })
}

/**
 * An admin removes a review (it leaves the seller's rating and page; the row stays for the record) or
 * dismisses its open reports. Either closes every open report of the review.
 */
export async function moderateReview(
  db: Db,
  admin: SessionUser,
  reviewId: string,
  action: 'remove' | 'dismiss',
) {
  const modified = await db.transaction(async (tx) => {
    const [review] = await tx.select().from(reviews).where(eq(reviews.id, reviewId)).for('update')
    if (!review) throw notFound('Review')
    const now = new Date()
    if (action === 'remove') {
      if (review.removedAt) throw new AppError('CONFLICT', 'This review has already been removed')
      await tx.update(reviews).set({ removedAt: now, removedBy: admin.id }).where(eq(reviews.id, reviewId))
    }
    const closed = await tx
      .update(reviewReports)
      .set({ status: action === 'remove' ? 'removed' : 'dismissed', resolvedBy: admin.id, resolvedAt: now })
      .where(and(eq(reviewReports.reviewId, reviewId), eq(reviewReports.status, 'open')))
      .returning({ id: reviewReports.id })
    if (action === 'dismiss' && closed.length === 0)
      throw new AppError('CONFLICT', 'This review has no open reports')
    return 1
  })
  return modified
}
