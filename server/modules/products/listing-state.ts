// Where each of a seller's listings stands, for My Product's tabs: read from the rules' own homes, never written
// again here. A sale waits for the seller in the stages where the deal's table gives them a move
// (server/modules/deal/stages.ts: paid, to hand over or cancel); on sale is the one on-sale rule
// (server/lib/on-sale.ts). First match wins: needs action, waiting for review, on sale, sold, ended.
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm'
import type { SellerListingCounts, SellerListingState } from '#contract/products'
import type { Db } from '#server/db/client'
import { bookings, products } from '#server/db/schema'
import { isOnSale } from '#server/lib/on-sale'
import { rowsOf } from '#server/lib/paging'
import { stagesAwaiting } from '#server/modules/deal'

const sellerStages = stagesAwaiting('seller')

/** A sale of this listing waits for its seller. */
const awaitsSeller = sql`exists (select 1 from ${bookings} where ${bookings.productId} = ${products.id}
  and ${bookings.stage} in (${sql.join(
    sellerStages.map((s) => sql`${s}`),
    sql`, `,
  )}))`

/** The state of the listing of the row in hand (`products`). */
export const listingState = sql<SellerListingState>`(case
  when ${awaitsSeller} then 'needs_action'
  when ${products.reviewState} = 'pending' then 'in_review'
  when ${isOnSale} then 'on_sale'
  when ${products.isSold} then 'sold'
  else 'ended' end)`

/** A seller's listings that My Product shows (not deleted). */
export const sellerListings = (sellerId: string) =>
  and(eq(products.sellerId, sellerId), isNull(products.removedAt)) as SQL

/** How many of the seller's listings are in each state. */
export async function countListingStates(db: Db, sellerId: string): Promise<SellerListingCounts> {
  const rows = await rowsOf<{ state: SellerListingState; n: number }>(
    db,
    sql`select ${listingState} as state, count(*)::int as n from ${products}
      where ${sellerListings(sellerId)} group by 1`,
  )
  const counts: SellerListingCounts = { needs_action: 0, on_sale: 0, in_review: 0, sold: 0, ended: 0, all: 0 }
  for (const r of rows) {
    counts[r.state] = Number(r.n)
    counts.all += Number(r.n)
  }
  return counts
}

/** The state of each of these listings. */
export async function statesOf(db: Db, ids: string[]): Promise<Map<string, SellerListingState>> {
  if (ids.length === 0) return new Map()
  const rows = await rowsOf<{ id: string; state: SellerListingState }>(
    db,
    sql`select ${products.id} as id, ${listingState} as state from ${products}
      where ${products.id} in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
  )
  return new Map(rows.map((r) => [r.id, r.state]))
}
