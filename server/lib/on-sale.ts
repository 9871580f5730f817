import { eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import { listingOnSale } from '#server/db/on-sale-predicate'
import { products, users } from '#server/db/schema'
import { AppError, notFound } from './errors'

// "Can this laptop be sold now": the one rule every path that reserves a laptop or takes money calls (a booking, a
// hold, an offer made, countered or accepted, a payment started or confirmed), inside the transaction that acts.
// The SQL form (isOnSale, and the partial indexes through listingOnSale) and the TypeScript form (whyNotOnSale)
// are written side by side here; a test holds them to the same answer for every combination of the facts.

/**
 * On sale, in SQL: the listing's own row (listingOnSale) and its seller's account not disabled. Reads products
 * alone, so the partial indexes apply. `not in` (ids are never null) is one hash probe per row against the few
 * disabled accounts; `not exists` became a nested loop over them under a LIMIT.
 */
export const isOnSale = sql`(${listingOnSale(products)} and ${products.sellerId} not in (
  select du.id from users du where du.disabled_at is not null))`

/** What the rule reads of a listing: select these with the listing joined to its seller (`users`). */
export const saleColumns = {
  isSold: products.isSold,
  removedAt: products.removedAt,
  expiredAt: products.expiredAt,
  reviewState: products.reviewState,
  sellerDisabledAt: users.disabledAt,
}

export type SaleFacts = {
  isSold: boolean
  removedAt: Date | null
  expiredAt: Date | null
  reviewState: 'pending' | 'approved' | 'rejected'
  sellerDisabledAt: Date | null
}

/** Why a listing cannot be reserved or paid for now, in words for the buyer; null when it is on sale. */
export function whyNotOnSale(listing: SaleFacts): string | null {
  if (listing.isSold) return 'This laptop has already been sold'
  if (listing.removedAt || listing.sellerDisabledAt) return 'This listing is no longer available'
  if (listing.expiredAt) return 'This listing has expired'
  if (listing.reviewState === 'pending') return 'This listing is waiting for review: it cannot be sold yet'
  if (listing.reviewState !== 'approved') return 'This listing is not on sale'
  return null
}

/** The refusal for a listing that is not on sale (409, with the reason); nothing when it is. */
export function assertOnSale(listing: SaleFacts): void {
  const why = whyNotOnSale(listing)
  if (why) throw new AppError('CONFLICT', why)
}

/**
 * Reads a listing's sale facts inside the caller's transaction, locking its row (`share` for a step that only
 * needs it to stay on sale until it commits, `update` for one that changes it). A step that leaves sale updates
 * the row, so it waits for the steps that read it here, and they for it: whichever commits first, the other sees.
 */
export async function lockSaleFacts(tx: Db, productId: string, mode: 'share' | 'update' = 'share') {
  const [row] = await tx
    .select({ id: products.id, sellerId: products.sellerId, ...saleColumns })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(eq(products.id, productId))
    .for(mode, { of: products })
  if (!row) throw notFound('Product')
  return row
}
