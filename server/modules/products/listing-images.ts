import { sql } from 'drizzle-orm'
import type { ProductImage } from '#contract/products'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { products } from '#server/db/schema'
import { rowsOf } from '#server/lib/paging'

// A listing's photos as every listing response gives them, kept on the listing (`products.images`, migration 0057):
// the triggers there write it as photos change, from `products_images_of`, the value's one definition. Listings
// from before the column hold null until the fill job below has written them. docs/decisions/0145-*.

/** A listing's photos in order: its column, or for a listing the fill job has not reached, the same value made now. */
export const listingImages = sql<
  ProductImage[]
>`coalesce(${products.images}, products_images_of(${products.id}))`

/** Listings written by one statement of the fill: each row is held for one batch, not for the whole fill. */
const FILL_BATCH = 2_000

/**
 * Writes the images of listings still without them, a batch a statement (each its own transaction), until none is
 * left or `budgetMs` has passed. Safe beside the triggers and a second instance: both write the same value, and a
 * batch skips the rows another transaction holds (a short batch ends the fill; what it skipped waits for the next
 * start, read meanwhile through `listingImages`).
 */
export async function fillListingImages(
  db: Db,
  budgetMs: number,
  batchSize = FILL_BATCH,
): Promise<{ filled: number; done: boolean }> {
  const until = Date.now() + budgetMs
  let filled = 0
  for (;;) {
    const batch = await rowsOf(
      db,
      sql`update ${products} p set images = products_images_of(p.id)
        where p.id in (select id from ${products} where images is null limit ${batchSize} for update skip locked)
        returning 1`,
    )
    filled += batch.length
    if (batch.length < batchSize) return { filled, done: true }
    if (Date.now() >= until) return { filled, done: false }
  }
}

/** The job's share of its attempt (the queue's expireInSeconds is 300): it queues the next before it expires. */
const FILL_BUDGET_MS = 120_000

/**
 * Fills listings' images once an instance starts (a no-op, one index read, once all are filled); an attempt that
 * spends its budget queues the next.
 */
export function registerListingImagesJobs(
  ctx: Pick<AppContext, 'db' | 'jobs'>,
  { budgetMs = FILL_BUDGET_MS, batchSize = FILL_BATCH } = {},
) {
  ctx.jobs.work('listings.images-fill', async () => {
    const { done } = await fillListingImages(ctx.db, budgetMs, batchSize)
    if (!done) await ctx.jobs.send('listings.images-fill', {})
  })
  ctx.jobs.sendAtStart('listings.images-fill', {}, { singletonKey: 'start' })
}
