import type { Upload } from '#contract/products'
import type { Db } from '#server/db/client'
import { uploads } from '#server/db/schema'
import { AppError } from '#server/lib/errors'
import { type CounterStore, countOrRefuse } from '#server/lib/rate-limit'
import type { SessionUser } from '#server/lib/session'
import type { MediaStorage } from '#server/lib/storage'
import { storeListingPhoto } from './images'
import { countUnattachedPhotos, UNATTACHED_PHOTO_HOURS } from './photo-cleanup'

/**
 * A seller's listing photo: checked and resized into its sizes in storage, then recorded as theirs so
 * that only they can attach it to a listing. A picture refused is a 400 on the `file` field.
 */
export async function createUpload(
  db: Db,
  storage: MediaStorage,
  seller: SessionUser,
  data: Buffer,
  unattachedPerSeller = Number.POSITIVE_INFINITY,
): Promise<Upload> {
  // Checked before the picture is worked on (about a second of CPU each).
  const waiting = await countUnattachedPhotos(db, seller.id)
  if (waiting >= unattachedPerSeller) {
    throw new AppError(
      'RATE_LIMITED',
      `You have ${waiting} uploaded photos that are not on a listing yet, the most we keep. Add them to a listing, or wait: photos not on any listing are removed after ${UNATTACHED_PHOTO_HOURS} hours. Then upload more.`,
    )
  }
  let photo: Awaited<ReturnType<typeof storeListingPhoto>>
  try {
    photo = await storeListingPhoto(storage, data)
  } catch (err) {
    if (err instanceof AppError) throw new AppError(err.code, err.message, { file: err.message })
    throw err
  }
  const [row] = await db
    .insert(uploads)
    .values({
      uploaderId: seller.id,
      cardUrl: photo.card,
      mediumUrl: photo.medium,
      detailUrl: photo.detail,
      width: photo.width,
      height: photo.height,
      bytes: photo.bytes,
    })
    .returning({ id: uploads.id })
  if (!row) throw new AppError('INTERNAL', 'The photo could not be saved')
  return { _id: row.id, card: photo.card, medium: photo.medium, detail: photo.detail }
}

/**
 * Each photo costs about a second of CPU: uploading one (a listing's, a return's) has its own limit per client
 * address, tighter than the general one on changes; `perMinute` 0 is no limit.
 */
export async function countPhotoUpload(
  counters: CounterStore,
  perMinute: number,
  address: string,
): Promise<void> {
  if (perMinute <= 0) return
  await countOrRefuse(
    counters,
    `uploads:${address}`,
    60_000,
    perMinute,
    (seconds) =>
      `Too many photos uploaded in a minute (at most ${perMinute}). Try again in ${seconds} seconds.`,
  )
}
