// Reviews of the demo's completed sales (docs/decisions/0023-reviews.md): most buyers rated their seller,
// many sellers rated their buyer, so every demo seller shows a rating on their cards and their page. The
// demo buyer has not yet reviewed their latest completed sale (My Orders offers "Leave a review"), while
// its seller already reviewed them. Written after the deals and the market history, whose sales it reads.

import { eq } from 'drizzle-orm'
import { REVIEW_BLIND_DAYS } from '#contract/reviews'
import type { Db } from '#server/db/client'
import { bookings, products, reviews } from '#server/db/schema'
import { hashString } from './geometry'
import { stableUuid } from './ids'

const DAY = 24 * 60 * 60 * 1000
const HOUR = 60 * 60 * 1000

const BUYER_TEXTS: Record<number, readonly string[]> = {
  5: [
    'Exactly as described, and the battery is even better than listed. Quick, friendly handover.',
    'Great seller: answered every question, met on time, laptop spotless.',
    'Well packed and shipped the day after I paid. Would buy from again.',
    'Honest grading. The scuff on the lid was in the photos, nothing else to find.',
    'Smooth from start to finish, charger and box included.',
  ],
  4: [
    'Good laptop, fair price. Took a couple of days to arrange the meeting.',
    'As described apart from a small mark on the palm rest. Friendly seller.',
    'Works well; the charger is a third-party one, which the listing did say.',
  ],
  3: ['The laptop is fine, but the handover was rescheduled twice.'],
}

const SELLER_TEXTS: readonly string[] = [
  'Paid at once and was on time. A pleasure.',
  'Friendly buyer, quick to confirm the handover.',
  'Clear questions before buying, easy meeting.',
]

function pick<T>(list: readonly T[], h: number): T {
  return list[h % list.length] as T
}

/** Writes the demo reviews; returns how many. */
export async function seedDemoReviews(tx: Db): Promise<number> {
  const completed = await tx
    .select({
      id: bookings.id,
      buyerId: bookings.buyerId,
      sellerId: products.sellerId,
      completedAt: bookings.completedAt,
    })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(eq(bookings.stage, 'completed'))
    .orderBy(bookings.id)
  const latestOfDemoBuyer = stableUuid('deal-booking:completed-1')
  const rows: (typeof reviews.$inferInsert)[] = []
  for (const sale of completed) {
    const completedAt = sale.completedAt ?? new Date()
    const h = hashString(`review:${sale.id}`)
    const buyerWrites = sale.id !== latestOfDemoBuyer && h % 5 !== 0
    const sellerWrites = sale.id === latestOfDemoBuyer || (h >>> 4) % 3 !== 0
    const buyerAt = new Date(completedAt.getTime() + (2 + (h % 40)) * HOUR)
    const sellerAt = new Date(completedAt.getTime() + (3 + ((h >>> 6) % 60)) * HOUR)
    // Both wrote: published when the second arrived; one side only: REVIEW_BLIND_DAYS after completion.
    const publishAt =
      buyerWrites && sellerWrites
        ? new Date(Math.max(buyerAt.getTime(), sellerAt.getTime()))
        : new Date(completedAt.getTime() + REVIEW_BLIND_DAYS * DAY)
    if (buyerWrites) {
      const rating = h % 11 === 0 ? 3 : (h >>> 3) % 4 === 0 ? 4 : 5
      rows.push({
        id: stableUuid(`review:buyer:${sale.id}`),
        bookingId: sale.id,
        authorId: sale.buyerId,
        subjectId: sale.sellerId,
        authorRole: 'buyer',
        rating,
        text: pick(BUYER_TEXTS[rating] ?? [], h >>> 8),
        createdAt: buyerAt,
        publishAt,
      })
    }
    if (sellerWrites) {
      rows.push({
        id: stableUuid(`review:seller:${sale.id}`),
        bookingId: sale.id,
        authorId: sale.sellerId,
        subjectId: sale.buyerId,
        authorRole: 'seller',
        rating: (h >>> 10) % 6 === 0 ? 4 : 5,
        text: pick(SELLER_TEXTS, h >>> 12),
        createdAt: sellerAt,
        publishAt,
      })
    }
  }
  if (rows.length > 0) await tx.insert(reviews).values(rows)
  return rows.length
}
