import { sql } from 'drizzle-orm'
import type { SellerRating } from '#contract/reviews'
import { products } from '#server/db/schema'

/**
 * The listing's seller's rating, for every product response: one scalar subquery over `reviews_subject_idx`
 * per row read (search reads its page's ids first, so only a page's rows run it; it is never sorted on).
 */
export const sellerRatingSql = sql<{ average: number | null; count: number }>`(
  select json_build_object('average', round(avg(r.rating)::numeric, 1)::float8, 'count', count(*))
  from reviews r
  where r.subject_id = ${products.sellerId} and r.author_role = 'buyer' and r.removed_at is null
    and r.publish_at <= now())`

export function toSellerRating(value: { average: number | null; count: number } | null): SellerRating {
  return { average: value?.average ?? null, count: Number(value?.count ?? 0) }
}
