import { and, isNull, type SQL, sql } from 'drizzle-orm'
import { productImages, products, users } from '#server/db/schema'

// What every feature that reads a listing's row beside its own (a booking, an offer, a report, a review) shares, so
// none of them reaches into the products module for it.

/** The card-size URL of a listing's first photo, or null when it has none. */
export const firstPhotoUrl = sql<string | null>`(select ${productImages.cardUrl} from ${productImages}
  where ${productImages.productId} = ${products.id} order by ${productImages.position} limit 1)`

/** Listed and not taken down: not removed, and its seller's account is not disabled (joins `users` as the seller). */
export const isListed = and(isNull(products.removedAt), isNull(users.disabledAt)) as SQL
