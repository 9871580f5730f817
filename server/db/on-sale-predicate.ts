import { type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'

/** The columns of a listing that say whether it is on sale (the products table's, or an alias of it). */
export type ListingSaleColumns = {
  isSold: AnyPgColumn
  removedAt: AnyPgColumn
  expiredAt: AnyPgColumn
  reviewState: AnyPgColumn
}

/**
 * "On sale", as far as the listing's own row says: not sold, not removed, not expired, approved (not waiting for
 * review, not rejected; a serial reported stolen rejects its listings in the same transaction). The seller's
 * account is the rest of the rule (server/lib/on-sale.ts, which also holds the same rule in TypeScript). The
 * partial indexes of schema.ts are built from this, so their predicate is this text and a query's matches it.
 */
export function listingOnSale(t: ListingSaleColumns): SQL {
  return sql`${t.isSold} = false and ${t.removedAt} is null and ${t.expiredAt} is null and ${t.reviewState} = 'approved'`
}
