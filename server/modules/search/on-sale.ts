import { sql } from 'drizzle-orm'
import { products } from '#server/db/schema'

/**
 * Listed, unsold, not expired, approved (not waiting for review), and its seller's account not disabled. Reads products alone, so the partial indexes
 * apply. `not in` (ids are never null) is one hash probe per row against the few disabled accounts; `not exists`
 * became a nested loop over them under a LIMIT.
 */
export const isOnSale = sql`(${products.isSold} = false and ${products.removedAt} is null and ${products.expiredAt} is null and ${products.reviewState} = 'approved' and ${products.sellerId} not in (
  select du.id from users du where du.disabled_at is not null))`
