// Photos a seller uploaded and never put on a listing cost storage and CPU: each seller may keep a few at a
// time (UNATTACHED_PHOTOS_PER_SELLER), and a job removes those older than a day, from whichever store holds
// them. A photo counts as on a listing while a listing that is not deleted shows it, a return shows it (a buyer's
// photos of what is wrong), or a booking keeps it as its picture; the photos of a deleted listing go with the next
// sweep once nothing else refers to them.
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { uploads } from '#server/db/schema'
import { MEDIA_PREFIX, type MediaStorage } from '#server/lib/storage'

/** How old an unattached photo gets before the sweep removes it. */
export const UNATTACHED_PHOTO_HOURS = 24
const BATCH = 200

/** True for an upload that no listing still up shows (product_images_card_url_idx finds them), nor any return. */
const isUnattached = sql`not exists (
    select 1 from product_images pi join products p on p.id = pi.product_id
    where pi.card_url = ${uploads.cardUrl} and p.removed_at is null)
  and not exists (select 1 from return_photos rp where rp.upload_id = ${uploads.id})`
/** …and that no booking keeps as its picture. */
const isUnused = sql`${isUnattached} and not exists (
    select 1 from bookings b where b.product_image = ${uploads.cardUrl})`

/** The photos a seller has uploaded and not put on a listing. */
export async function countUnattachedPhotos(db: Db, sellerId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(uploads)
    .where(and(eq(uploads.uploaderId, sellerId), isUnattached))
  return row?.n ?? 0
}

function keyOf(url: string): string | undefined {
  return url.startsWith(MEDIA_PREFIX) ? url.slice(MEDIA_PREFIX.length) : undefined
}

/** Removes unattached photos older than a day, every size from the store, then their rows. Safe to run twice. */
export async function removeStalePhotos(db: Db, storage: MediaStorage): Promise<number> {
  let removed = 0
  for (;;) {
    const stale = await db
      .select({
        id: uploads.id,
        cardUrl: uploads.cardUrl,
        mediumUrl: uploads.mediumUrl,
        detailUrl: uploads.detailUrl,
      })
      .from(uploads)
      .where(
        and(sql`${uploads.createdAt} < now() - make_interval(hours => ${UNATTACHED_PHOTO_HOURS})`, isUnused),
      )
      .limit(BATCH)
    if (stale.length === 0) return removed
    for (const photo of stale) {
      for (const url of [photo.cardUrl, photo.mediumUrl, photo.detailUrl]) {
        const key = url ? keyOf(url) : undefined
        if (key) await storage.remove(key)
      }
    }
    await db.delete(uploads).where(
      inArray(
        uploads.id,
        stale.map((p) => p.id),
      ),
    )
    removed += stale.length
    if (stale.length < BATCH) return removed
  }
}

/** The sweep runs hourly (pg-boss's cron: one instance does each run). */
export function registerPhotoCleanup(ctx: Pick<AppContext, 'db' | 'storage' | 'jobs'>) {
  ctx.jobs.work('uploads.cleanup', () => removeStalePhotos(ctx.db, ctx.storage))
  ctx.jobs.schedule('uploads.cleanup', '23 * * * *')
}
