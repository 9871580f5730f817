// Reviews after a completed sale through the API: only completed sales, once, by their two sides; the
// blind rule (hidden until both wrote or 14 days after completion); a seller's average and count on their
// reviews and on product cards; reports and an admin's removal.

import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { Product } from '#contract/products'
import { MyReviews, ReportedReviewList, SellerReviews } from '#contract/reviews'
import { products, reviewReports, reviews } from '#server/db/schema'
import { bearerFor } from '#server/test/auth-helpers'
import {
  type BrandRow,
  createBooking,
  createBrand,
  createProduct,
  createUser,
  type UserRow,
} from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp
let brand: BrandRow
let buyer: UserRow
let otherBuyer: UserRow
let seller: UserRow
let admin: UserRow

beforeAll(async () => {
  t = await createTestApp()
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer', name: 'Bea Buyer' })
  otherBuyer = await createUser(t.db, { role: 'buyer', name: 'Otto Buyer' })
  seller = await createUser(t.db, { role: 'seller', name: 'Sam Seller' })
  admin = await createUser(t.db, { role: 'admin', name: 'Ada Admin' })
})

afterAll(async () => {
  await t?.close()
})

type Who = UserRow | null

async function call(method: 'GET' | 'POST' | 'PUT', url: string, who: Who, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: who ? await bearerFor(t.app, who) : {},
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

const errorOf = (res: { json(): unknown }) => ErrorBody.parse(res.json()).error
const DAY = 24 * 60 * 60 * 1000

/** A sale of a new listing of `sellerOf`'s to `buyerOf`, at `stage`; completed `daysAgo` days ago. */
async function sale(
  opts: { stage?: 'paid' | 'completed'; daysAgo?: number; who?: UserRow; by?: UserRow } = {},
) {
  const product = await createProduct(t.db, { seller: opts.by ?? seller, brand })
  await t.db.update(products).set({ isSold: true, soldAt: new Date() }).where(eq(products.id, product.id))
  const stage = opts.stage ?? 'completed'
  return createBooking(t.db, {
    buyer: opts.who ?? buyer,
    product,
    isPaid: true,
    stage,
    completedAt: stage === 'completed' ? new Date(Date.now() - (opts.daysAgo ?? 1) * DAY) : null,
  })
}

const review = (bookingId: string, who: Who, rating = 5, text = 'Exactly as described, quick handover.') =>
  call('POST', `/api/bookings/${bookingId}/review`, who, { rating, text })

async function sellerReviews(sellerId = seller.id) {
  const res = await call('GET', `/api/sellers/${sellerId}/reviews`, null)
  expect(res.statusCode).toBe(200)
  return SellerReviews.parse(res.json())
}

describe('POST /api/bookings/{id}/review', () => {
  it('takes a review from each side of a completed sale, once', async () => {
    const booking = await sale()
    const first = await review(booking.id, buyer)
    expect(first.statusCode).toBe(201)
    expect((await review(booking.id, seller, 4, 'Paid quickly, friendly.')).statusCode).toBe(201)
    const again = await review(booking.id, buyer)
    expect(again.statusCode).toBe(409)
    expect(errorOf(again).message).toMatch(/already reviewed/)
    const rows = await t.db.select().from(reviews).where(eq(reviews.bookingId, booking.id))
    expect(rows.map((r) => [r.authorRole, r.subjectId]).sort()).toEqual([
      ['buyer', seller.id],
      ['seller', buyer.id],
    ])
  })

  it('refuses a sale that is not completed, naming its stage, and changes nothing', async () => {
    const booking = await sale({ stage: 'paid' })
    const res = await review(booking.id, buyer)
    expect(res.statusCode).toBe(409)
    expect(errorOf(res).message).toMatch(/paid/)
    expect(await t.db.select().from(reviews).where(eq(reviews.bookingId, booking.id))).toEqual([])
  })

  it('answers 404 to someone who may not see the booking, 403 to an admin, 401 signed out', async () => {
    const booking = await sale()
    expect((await review(booking.id, otherBuyer)).statusCode).toBe(404)
    expect((await review(booking.id, admin)).statusCode).toBe(403)
    expect((await review(booking.id, null)).statusCode).toBe(401)
    expect((await review('00000000-0000-4000-8000-000000000000', buyer)).statusCode).toBe(404)
  })

  it('refuses a bad rating or text with 400 naming the field', async () => {
    const booking = await sale()
    for (const [body, field] of [
      [{ rating: 0, text: 'Fine.' }, 'rating'],
      [{ rating: 3.5, text: 'Fine.' }, 'rating'],
      [{ rating: 5, text: '' }, 'text'],
      [{ rating: 5, text: 'x'.repeat(1001) }, 'text'],
      [{ rating: 5, text: 'Bell\u0007 here' }, 'text'],
    ] as const) {
      const res = await call('POST', `/api/bookings/${booking.id}/review`, buyer, body)
      expect(res.statusCode).toBe(400)
      expect(JSON.stringify(errorOf(res))).toContain(field)
    }
    expect(await t.db.select().from(reviews).where(eq(reviews.bookingId, booking.id))).toEqual([])
  })
})

describe('the blind rule and the seller rating', () => {
  it('hides a lone review, publishes both when the other side writes, and after 14 days by the clock', async () => {
    const s = await createUser(t.db, { role: 'seller', name: 'Blind Seller' })
    const both = await sale({ by: s })
    const lone = await sale({ by: s })
    const old = await sale({ by: s, daysAgo: 15 })

    expect((await review(both.id, buyer, 4, 'Good laptop, fair price.')).statusCode).toBe(201)
    expect((await review(lone.id, buyer, 1, 'Never answered my questions.')).statusCode).toBe(201)
    expect((await sellerReviews(s.id)).count).toBe(0)
    // The author sees their own review as not yet published; the subject does not see it at all.
    const mine = MyReviews.parse((await call('GET', '/api/reviews/mine', buyer)).json())
    expect(mine.written.find((r) => r.bookingId === lone.id)?.published).toBe(false)
    const theirs = MyReviews.parse((await call('GET', '/api/reviews/mine', s)).json())
    expect(theirs.received.map((r) => r.bookingId)).toEqual([])

    expect((await review(both.id, s, 5, 'Lovely buyer.')).statusCode).toBe(201)
    let found = await sellerReviews(s.id)
    expect(found).toMatchObject({ average: 4, count: 1 })
    expect(found.reviews.map((r) => r.text)).toEqual(['Good laptop, fair price.'])

    // Completed 15 days ago: the seller never wrote, the buyer's review is published anyway.
    expect((await review(old.id, buyer, 5, 'Old sale, great seller.')).statusCode).toBe(201)
    found = await sellerReviews(s.id)
    expect(found).toMatchObject({ average: 4.5, count: 2 })
    expect(found.reviews.map((r) => r.text)).not.toContain('Never answered my questions.')

    // The lone one turns public once its 14 days pass (the clock decides; nothing runs).
    await t.db
      .update(reviews)
      .set({ publishAt: new Date(Date.now() - 1000) })
      .where(eq(reviews.bookingId, lone.id))
    found = await sellerReviews(s.id)
    expect(found).toMatchObject({ average: 3.3, count: 3 })

    // Seller-written reviews of buyers never count toward a rating or show on a seller page.
    expect(found.reviews.every((r) => r.authorRole === 'buyer')).toBe(true)
    const buyerSide = MyReviews.parse((await call('GET', '/api/reviews/mine', buyer)).json())
    expect(buyerSide.received.map((r) => r.text)).toContain('Lovely buyer.')
  })

  it('carries seller_id and the published rating on product cards and the detail answer', async () => {
    const s = await createUser(t.db, { role: 'seller', name: 'Card Seller' })
    for (const rating of [5, 4]) {
      const b = await sale({ by: s })
      await review(b.id, buyer, rating, 'Nice.')
      await review(b.id, s, 5, 'Nice buyer.')
    }
    const listing = await createProduct(t.db, { seller: s, brand })
    const res = await call('GET', `/api/products/${listing.id}`, null)
    expect(res.statusCode).toBe(200)
    const product = Product.parse(res.json())
    expect(product.seller_id).toBe(s.id)
    expect(product.seller_rating).toEqual({ average: 4.5, count: 2 })
    const search = await call('GET', `/api/search?brand=${brand.id}&sort=newest`, null)
    expect(search.statusCode).toBe(200)
    const card = (search.json() as { items: Product[] }).items.find((p) => p._id === listing.id)
    expect(card?.seller_rating).toEqual({ average: 4.5, count: 2 })
  })

  it("lists a seller's reviews newest first by the date they show, whenever each was published", async () => {
    const sid = await createUser(t.db, { role: 'seller', name: 'Sid Seller' })
    const older = await sale({ by: sid })
    const newer = await sale({ by: sid, who: otherBuyer })
    expect((await review(older.id, buyer, 4, 'Written first, published after the 14 days.')).statusCode).toBe(
      201,
    )
    expect((await review(newer.id, otherBuyer, 5, 'Written later, published at once.')).statusCode).toBe(201)
    // Written Nov 8 and published by the clock on Nov 22; written Nov 20 and published on Nov 20 (both sides wrote).
    const at = (day: number) => new Date(Date.UTC(2026, 10, day, 12))
    await t.db
      .update(reviews)
      .set({ createdAt: at(8), publishAt: at(22) })
      .where(eq(reviews.bookingId, older.id))
    await t.db
      .update(reviews)
      .set({ createdAt: at(20), publishAt: at(20) })
      .where(eq(reviews.bookingId, newer.id))
    const list = await sellerReviews(sid.id)
    expect(list.reviews.map((r) => r.createdAt)).toEqual([at(20).toISOString(), at(8).toISOString()])
  })

  it('answers 404 for an unknown or deleted seller', async () => {
    expect((await call('GET', '/api/sellers/nobody-here/reviews', null)).statusCode).toBe(404)
    const gone = await createUser(t.db, { role: 'seller', name: 'Gone Seller', disabled: true })
    expect((await call('GET', `/api/sellers/${gone.id}/reviews`, null)).statusCode).toBe(404)
    // A buyer is not a seller: no page.
    expect((await call('GET', `/api/sellers/${otherBuyer.id}/reviews`, null)).statusCode).toBe(404)
  })
})

describe('reports and removal', () => {
  it('lets anyone signed in report a review, shows it to admins, and a removal takes it off the rating', async () => {
    const s = await createUser(t.db, { role: 'seller', name: 'Reported Seller' })
    const b = await sale({ by: s })
    const written = await review(b.id, buyer, 1, 'Call me at 555-0199 for cheaper laptops.')
    const reviewId = written.json().insertedId as string
    await review(b.id, s, 5, 'Fine buyer.')
    expect(await sellerReviews(s.id)).toMatchObject({ count: 1, average: 1 })

    expect(
      (await call('POST', `/api/reviews/${reviewId}/report`, buyer, { reason: 'Mine, reporting it.' }))
        .statusCode,
    ).toBe(403)
    const reason = { reason: 'This is an advert, not a review.' }
    expect((await call('POST', `/api/reviews/${reviewId}/report`, otherBuyer, reason)).statusCode).toBe(201)
    expect((await call('POST', `/api/reviews/${reviewId}/report`, otherBuyer, reason)).statusCode).toBe(409)
    expect((await call('POST', `/api/reviews/${reviewId}/report`, s, { reason: 'x' })).statusCode).toBe(400)

    expect((await call('GET', '/api/reviews/reported', otherBuyer)).statusCode).toBe(403)
    const listed = ReportedReviewList.parse((await call('GET', '/api/reviews/reported', admin)).json())
    const entry = listed.find((r) => r._id === reviewId)
    expect(entry?.review.text).toContain('555-0199')
    expect(entry?.subjectName).toBe('Reported Seller')
    expect(entry?.reports.map((r) => r.reason)).toEqual([reason.reason])

    expect((await call('PUT', `/api/reviews/${reviewId}/remove`, otherBuyer)).statusCode).toBe(403)
    expect((await call('PUT', `/api/reviews/${reviewId}/remove`, admin)).statusCode).toBe(200)
    expect((await call('PUT', `/api/reviews/${reviewId}/remove`, admin)).statusCode).toBe(409)
    expect(await sellerReviews(s.id)).toMatchObject({ count: 0, average: null, reviews: [] })
    const after = ReportedReviewList.parse((await call('GET', '/api/reviews/reported', admin)).json())
    expect(after.some((r) => r._id === reviewId)).toBe(false)
  })

  it("refuses a review's own author reporting it with 403 and a clear message, published or not, and stores nothing", async () => {
    const b = await sale()
    const id = (await review(b.id, buyer, 2, 'Slow to answer.')).json().insertedId as string
    const reason = { reason: 'I changed my mind about this review.' }
    // Not yet published: its author still sees it, and still may not report it.
    const early = await call('POST', `/api/reviews/${id}/report`, buyer, reason)
    expect(early.statusCode).toBe(403)
    expect(errorOf(early)).toMatchObject({ code: 'FORBIDDEN', message: 'You cannot report your own review' })

    await review(b.id, seller, 5, 'Good buyer.')
    const published = await call('POST', `/api/reviews/${id}/report`, buyer, reason)
    expect(published.statusCode).toBe(403)
    expect(errorOf(published).message).toBe('You cannot report your own review')
    expect(await t.db.select().from(reviewReports).where(eq(reviewReports.reviewId, id))).toEqual([])

    // The public answer names no author's account; the web tells one's own reviews from /api/reviews/mine.
    const shown = (await sellerReviews()).reviews.find((r) => r._id === id)
    expect(shown).toBeDefined()
    expect(JSON.stringify(shown)).not.toContain(buyer.id)
  })

  it('dismisses reports and keeps the review', async () => {
    const b = await sale()
    const id = (await review(b.id, buyer, 5, 'Great.')).json().insertedId as string
    await review(b.id, seller, 5, 'Great buyer.')
    await call('POST', `/api/reviews/${id}/report`, otherBuyer, { reason: 'I just do not like it.' })
    expect((await call('PUT', `/api/reviews/${id}/dismiss`, admin)).statusCode).toBe(200)
    expect((await call('PUT', `/api/reviews/${id}/dismiss`, admin)).statusCode).toBe(409)
    expect((await sellerReviews()).reviews.some((r) => r._id === id)).toBe(true)
  })
})
