import { and, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm'
import { DELETE_BLOCKED, OPEN_SALE_STATUSES, type OpenSaleStatus } from '#contract/bookings'
import type { ReviewedField } from '#contract/listing-reviews'
import type { ListPageQuery } from '#contract/paging'
import {
  batteryGradeProblem,
  type NewProduct,
  type Product,
  type ProductUpdate,
  type SellerListingCounts,
  type SellerListingState,
  SHIP_FROM_NEEDED,
} from '#contract/products'
import type { EarningsSale, SaleMoney } from '#contract/seller-money'
import type { Db } from '#server/db/client'
import { bookings, brands, productImages, products, uploads, users } from '#server/db/schema'
import { recordListed, recordPriceChange } from '#server/lib/alert-events'
import { userHasEmail } from '#server/lib/email'
import { AppError, notFound } from '#server/lib/errors'
import type { FetchOutsideImage } from '#server/lib/outside-image'
import { countUpTo, listPaging, type PagedList } from '#server/lib/paging'
import { canActFor, type SessionUser } from '#server/lib/session'
import { MEDIA_PREFIX, type MediaStorage } from '#server/lib/storage'
import { keepReportedBattery } from '#server/modules/battery-reports'
import type { DealMail } from '#server/modules/bookings'
import { salesOfProducts } from '#server/modules/bookings'
import { leaveSale } from '#server/modules/deal'
import { sellerMoney } from '#server/modules/ledger'
import {
  assertNotStolen,
  reviewOfEdit,
  reviewOfNewListing,
  sendBackToReview,
  serialKey,
} from '#server/modules/listing-reviews'
import { closeOffersOnSale, waitingOfferCounts } from '#server/modules/offers'
import { createUpload } from '#server/modules/uploads'
import { countListingStates, listingState, sellerListings, statesOf } from './listing-state'
import { ownerFields, savedCounts, selectPageRows, toProduct } from './products.queries'

type ProductRow = typeof products.$inferSelect
type Photo = { cardUrl: string; mediumUrl: string | null; detailUrl: string }

const toCents = (dollars: number) => Math.round(dollars * 100)

/** Where a listing's photo from an image URL comes from: fetched once and stored like an upload. */
export type PhotoSources = { storage: MediaStorage; fetchImage: FetchOutsideImage }

/**
 * The photo an image URL names, always one we serve: a path under /media/ must be the seller's own upload; an
 * outside https image is fetched once, checked and stored like an upload; our own /images/ stay as they are.
 */
async function photoFromUrl(db: Db, seller: SessionUser, url: string, sources: PhotoSources): Promise<Photo> {
  if (url.startsWith(MEDIA_PREFIX)) {
    const [own] = await db
      .select({ cardUrl: uploads.cardUrl, mediumUrl: uploads.mediumUrl, detailUrl: uploads.detailUrl })
      .from(uploads)
      .where(and(eq(uploads.uploaderId, seller.id), or(eq(uploads.cardUrl, url), eq(uploads.detailUrl, url))))
      .limit(1)
    if (!own) {
      const message = 'Use a photo you uploaded yourself'
      throw new AppError('VALIDATION', message, { img: message })
    }
    return own
  }
  if (!url.startsWith('https://')) return { cardUrl: url, mediumUrl: null, detailUrl: url }
  let data: Buffer
  try {
    data = await sources.fetchImage(url)
  } catch (err) {
    const message = `We could not use the image at that address: ${err instanceof Error ? err.message : 'it could not be fetched'}`
    throw new AppError('VALIDATION', message, { img: message })
  }
  try {
    const upload = await createUpload(db, sources.storage, seller, data)
    return { cardUrl: upload.card, mediumUrl: upload.medium ?? null, detailUrl: upload.detail }
  } catch (err) {
    if (err instanceof AppError && err.code === 'VALIDATION') {
      throw new AppError('VALIDATION', err.message, { img: err.message })
    }
    throw err
  }
}

/** The photos a listing will show: the seller's own uploads in the given order, then an image URL. */
async function resolvePhotos(
  db: Db,
  seller: SessionUser,
  uploadIds: string[],
  imageUrl: string | undefined,
  sources: PhotoSources,
) {
  const photos: Photo[] = []
  if (uploadIds.length > 0) {
    if (new Set(uploadIds).size !== uploadIds.length) {
      throw new AppError('VALIDATION', 'Each photo can be used once', {
        images: 'Each photo can be used once',
      })
    }
    const rows = await db
      .select({
        id: uploads.id,
        cardUrl: uploads.cardUrl,
        mediumUrl: uploads.mediumUrl,
        detailUrl: uploads.detailUrl,
      })
      .from(uploads)
      .where(and(inArray(uploads.id, uploadIds), eq(uploads.uploaderId, seller.id)))
    const byId = new Map(rows.map((r) => [r.id, r]))
    for (const id of uploadIds) {
      const row = byId.get(id)
      if (!row) throw new AppError('VALIDATION', 'Unknown photo', { images: 'Unknown photo' })
      photos.push({ cardUrl: row.cardUrl, mediumUrl: row.mediumUrl, detailUrl: row.detailUrl })
    }
  }
  if (photos.length + (imageUrl ? 1 : 0) === 0)
    throw new AppError('VALIDATION', 'Add at least one photo', { images: 'Add at least one photo' })
  // Counted before an outside image is fetched.
  if (photos.length + (imageUrl ? 1 : 0) > 6)
    throw new AppError('VALIDATION', 'At most 6 photos', { images: 'At most 6 photos' })
  if (imageUrl) photos.push(await photoFromUrl(db, seller, imageUrl, sources))
  return photos
}

async function assertBrandExists(db: Db, brandId: string) {
  const [brand] = await db.select({ id: brands.id }).from(brands).where(eq(brands.id, brandId)).limit(1)
  if (!brand)
    throw new AppError('VALIDATION', 'Please select a category', { category_id: 'Please select a category' })
}

async function replacePhotos(tx: Db, productId: string, photos: Photo[]) {
  await tx.delete(productImages).where(eq(productImages.productId, productId))
  await tx.insert(productImages).values(photos.map((p, i) => ({ productId, position: i + 1, ...p })))
}

/** A floor at or above the price would refuse every offer: the seller turns offers off for that. */
function assertFloorUnderPrice(floorCents: number | null | undefined, priceCents: number) {
  if (floorCents != null && floorCents >= priceCents) {
    const message = 'The offer floor must be under the resale price (or turn offers off)'
    throw new AppError('VALIDATION', message, { offer_floor: message })
  }
}

/**
 * A seller lists a laptop. The seller and the posting date come from the server. It is available at once, unless it
 * waits for an admin's review (a first listing of an unverified seller, a serial another seller listed or sold); a
 * serial reported stolen cannot be listed.
 */
export async function createProduct(
  db: Db,
  seller: SessionUser,
  input: NewProduct,
  sources: PhotoSources,
  reviewFirst = 0,
) {
  await assertBrandExists(db, input.category_id)
  assertFloorUnderPrice(
    input.offer_floor == null ? null : toCents(input.offer_floor),
    toCents(input.resale_price),
  )
  const photos = await resolvePhotos(db, seller, input.images ?? [], input.img || undefined, sources)
  const serial = input.serial_number ? serialKey(input.serial_number) : null
  if (serial) await assertNotStolen(db, serial.hash)
  const id = await db.transaction(async (tx) => {
    const review = await reviewOfNewListing(tx, seller, serial?.hash ?? null, reviewFirst)
    const [row] = await tx
      .insert(products)
      .values({
        name: input.name,
        brandId: input.category_id,
        sellerId: seller.id,
        sellerPhone: input.seller_phone,
        resalePriceCents: toCents(input.resale_price),
        originalPriceCents: toCents(input.original_price),
        description: input.description,
        condition: input.condition,
        location: input.location,
        usesYears: input.uses,
        processor: input.processor,
        ramGb: input.ram_gb,
        storageGb: input.storage_gb,
        screenInches: input.screen_inches,
        batteryHealthPct: input.battery_health_pct ?? null,
        batteryCycles: input.battery_cycles ?? null,
        serialHash: serial?.hash ?? null,
        serialLast4: serial?.last4 ?? null,
        reviewState: review.state,
        reviewFlags: review.flags,
        reviewSubmittedAt: review.state === 'pending' ? new Date() : null,
        offersEnabled: input.offers_enabled ?? true,
        delivery: input.delivery ?? 'meet',
        parcelSize: input.parcel_size ?? null,
        parcelWeightOz: input.parcel_weight_oz ?? null,
        shipFrom: input.ship_from ?? null,
        offerFloorCents: input.offer_floor == null ? null : toCents(input.offer_floor),
      })
      .returning({ id: products.id })
    if (!row) throw new AppError('INTERNAL', 'The listing could not be saved')
    await replacePhotos(tx, row.id, photos)
    // Saved searches are matched against it by a job, after this commits (server/modules/alerts); a listing under
    // review is matched when it is approved.
    if (review.state === 'approved') await recordListed(tx, row.id)
    return { id: row.id, reviewState: review.state }
  })
  return id
}

/** The listing, when the caller may change it: its seller (or, where allowed, an admin). */
async function getOwnProduct(db: Db, user: SessionUser, id: string, adminToo = false): Promise<ProductRow> {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, id), isNull(products.removedAt)))
    .limit(1)
  if (!row) throw notFound('Product')
  const isOwner = row.sellerId === user.id
  if (!isOwner && !(adminToo && user.role === 'admin')) {
    throw new AppError('FORBIDDEN', 'Only the seller of this laptop can change it')
  }
  return row
}

/** Which of the fields that say which laptop a listing is (REVIEWED_FIELDS) an edit really changes. */
function changedForReview(
  current: Pick<ProductRow, 'name' | 'brandId' | 'description' | 'serialHash'>,
  input: ProductUpdate,
  edit: { serialHash?: string; photos?: Photo[]; currentPhotos: Photo[] },
): ReviewedField[] {
  const samePhotos =
    edit.photos === undefined ||
    (edit.photos.length === edit.currentPhotos.length &&
      edit.photos.every(
        (p, i) =>
          p.cardUrl === edit.currentPhotos[i]?.cardUrl && p.detailUrl === edit.currentPhotos[i]?.detailUrl,
      ))
  const changed: [ReviewedField, boolean][] = [
    ['name', input.name !== undefined && input.name !== current.name],
    ['brand', input.category_id !== undefined && input.category_id !== current.brandId],
    ['description', input.description !== undefined && input.description !== current.description],
    ['photos', !samePhotos],
    ['serial', edit.serialHash !== undefined && edit.serialHash !== current.serialHash],
  ]
  return changed.filter(([, isChanged]) => isChanged).map(([field]) => field)
}

/**
 * The seller edits their listing. What the edit does to its review (reviewOfEdit) is decided under a lock on the
 * row, so an admin's approval landing meanwhile is either seen here or approves the edited listing.
 */
export async function updateProduct(
  db: Db,
  seller: SessionUser,
  id: string,
  input: ProductUpdate,
  sources: PhotoSources,
  reviewFirst: number,
  mail: DealMail,
) {
  const current = await getOwnProduct(db, seller, id)
  if (current.isSold) throw new AppError('CONFLICT', 'A sold laptop cannot be edited')
  if (input.category_id) await assertBrandExists(db, input.category_id)
  // A battery read from the laptop's report stays: typed figures that disagree are replaced, and the seller told.
  const battery = keepReportedBattery(current, input)
  // The grade and the battery may change one at a time: the pair they make afterwards must agree.
  const health = battery.healthPct === undefined ? current.batteryHealthPct : battery.healthPct
  const batteryProblem = batteryGradeProblem(input.condition ?? current.condition, health)
  if (batteryProblem) {
    const message =
      current.batteryReportSource !== null
        ? `${batteryProblem} (the laptop's report reads ${health}%)`
        : batteryProblem
    throw new AppError('VALIDATION', message, { battery_health_pct: message })
  }
  // A listing that ships keeps an address to ship from, whichever of the two the edit changes.
  const ships = (input.delivery ?? current.delivery) !== 'meet'
  if (ships && (input.ship_from === undefined ? current.shipFrom : input.ship_from) === null) {
    throw new AppError('VALIDATION', SHIP_FROM_NEEDED, { ship_from: SHIP_FROM_NEEDED })
  }
  const serial = input.serial_number ? serialKey(input.serial_number) : undefined
  if (serial) await assertNotStolen(db, serial.hash)
  const photos =
    input.images !== undefined || input.img
      ? await resolvePhotos(db, seller, input.images ?? [], input.img || undefined, sources)
      : undefined
  const set: Partial<typeof products.$inferInsert> = {
    updatedAt: new Date(),
    name: input.name,
    brandId: input.category_id,
    sellerPhone: input.seller_phone,
    resalePriceCents: input.resale_price === undefined ? undefined : toCents(input.resale_price),
    originalPriceCents: input.original_price === undefined ? undefined : toCents(input.original_price),
    description: input.description,
    condition: input.condition,
    location: input.location,
    usesYears: input.uses,
    processor: input.processor,
    ramGb: input.ram_gb,
    storageGb: input.storage_gb,
    screenInches: input.screen_inches,
    batteryHealthPct: battery.healthPct,
    batteryCycles: battery.cycles,
    serialHash: serial?.hash,
    serialLast4: serial?.last4,
    offersEnabled: input.offers_enabled,
    delivery: input.delivery,
    parcelSize: input.parcel_size,
    parcelWeightOz: input.parcel_weight_oz,
    shipFrom: input.ship_from,
    offerFloorCents:
      input.offer_floor === undefined
        ? undefined
        : input.offer_floor === null
          ? null
          : toCents(input.offer_floor),
  }
  assertFloorUnderPrice(
    set.offerFloorCents === undefined ? current.offerFloorCents : set.offerFloorCents,
    set.resalePriceCents ?? current.resalePriceCents,
  )
  return db.transaction(async (tx) => {
    // The sale check is repeated under the lock: a payment may land in between.
    const [locked] = await tx
      .select()
      .from(products)
      .where(and(eq(products.id, id), eq(products.isSold, false), isNull(products.removedAt)))
      .for('update')
    if (!locked) throw new AppError('CONFLICT', 'A sold laptop cannot be edited')
    const currentPhotos = await tx
      .select({
        cardUrl: productImages.cardUrl,
        mediumUrl: productImages.mediumUrl,
        detailUrl: productImages.detailUrl,
      })
      .from(productImages)
      .where(eq(productImages.productId, id))
      .orderBy(productImages.position)
    const changed = changedForReview(locked, input, { serialHash: serial?.hash, photos, currentPhotos })
    const review = await reviewOfEdit(tx, seller, locked, { changed, serialHash: serial?.hash }, reviewFirst)
    const updated = await tx
      .update(products)
      .set(review.kind === 'columns' ? { ...set, ...review.set } : set)
      .where(eq(products.id, id))
      .returning({ id: products.id })
    if (photos) await replacePhotos(tx, id, photos)
    if (review.kind === 'back_to_review') await sendBackToReview(tx, id, review, { actorId: seller.id, mail })
    if (set.resalePriceCents !== undefined && set.resalePriceCents !== locked.resalePriceCents) {
      await recordPriceChange(tx, id, locked.resalePriceCents)
    }
    const notices = review.kind === 'back_to_review' ? [...battery.notices, review.notice] : battery.notices
    return { modified: updated.length, notices }
  })
}

/** Advertising puts an available listing on the home page; it is never reversed. */
export async function advertiseProduct(db: Db, seller: SessionUser, id: string): Promise<number> {
  const product = await getOwnProduct(db, seller, id)
  if (product.isSold) throw new AppError('CONFLICT', 'Only an available laptop can be advertised')
  if (product.isAdvertised) return 0
  const updated = await db
    .update(products)
    .set({ isAdvertised: true, updatedAt: new Date() })
    .where(and(eq(products.id, id), eq(products.isSold, false), eq(products.isAdvertised, false)))
    .returning({ id: products.id })
  return updated.length
}

/**
 * The seller sold it elsewhere: it leaves every list and can no longer be booked or paid; open offers on it are
 * declined (their buyers emailed, with `mail`).
 */
export async function markProductSold(
  db: Db,
  seller: SessionUser,
  id: string,
  mail?: DealMail,
): Promise<number> {
  const product = await getOwnProduct(db, seller, id)
  if (product.isSold) return 0
  const now = new Date()
  const updated = await db.transaction(async (tx) => {
    const rows = await tx
      .update(products)
      .set({ isSold: true, soldAt: now, updatedAt: now })
      .where(and(eq(products.id, id), eq(products.isSold, false)))
      .returning({ id: products.id })
    if (rows.length > 0 && mail) await closeOffersOnSale(tx, id, null, mail)
    return rows
  })
  return updated.length
}

/**
 * Deleting takes the listing down; the row stays so bookings and payments keep their record. A listing
 * whose sale is paid and not finished cannot be deleted: its buyer would lose what they paid for. The
 * message says what to do instead (hand it over, or cancel the sale and refund the buyer). The listing is
 * locked first, so a payment landing meanwhile either is seen here or finds the listing gone.
 */
export async function deleteProduct(db: Db, user: SessionUser, id: string, mail: DealMail): Promise<number> {
  await getOwnProduct(db, user, id, true)
  const deleted = await db.transaction(async (tx) => {
    await tx.select({ id: products.id }).from(products).where(eq(products.id, id)).for('update')
    const [open] = await tx
      .select({ stage: bookings.stage })
      .from(bookings)
      .where(
        and(
          eq(bookings.productId, id),
          eq(bookings.isPaid, true),
          inArray(bookings.stage, ['booked', ...OPEN_SALE_STATUSES]),
        ),
      )
      .limit(1)
    if (open) {
      throw new AppError(
        'CONFLICT',
        DELETE_BLOCKED[open.stage === 'booked' ? 'paid' : (open.stage as OpenSaleStatus)],
      )
    }
    const now = new Date()
    const updated = await tx
      .update(products)
      .set({ removedAt: now, updatedAt: now })
      .where(and(eq(products.id, id), isNull(products.removedAt)))
      .returning({ id: products.id })
    await leaveSale(tx, {
      productIds: updated.map((p) => p.id),
      reason: 'removed',
      actorId: user.id,
      mail,
    })
    return updated.length
  })
  return deleted
}

/** A sale's money as My Product shows it (null before the ledger has its charge). */
function saleMoneyOf(sale: EarningsSale | undefined): SaleMoney | null {
  if (!sale) return null
  const { price_cents, fee_cents, receive_cents, where } = sale
  return { price_cents, fee_cents, receive_cents, where }
}

/** How many of a seller's listings are in each of My Product's states: for that seller or an admin. */
export async function findSellerListingCounts(
  db: Db,
  caller: SessionUser,
  email: string,
): Promise<SellerListingCounts> {
  if (!canActFor(caller, email)) throw new AppError('FORBIDDEN', 'You can only see your own products')
  const [seller] = await db.select({ id: users.id }).from(users).where(userHasEmail(email)).limit(1)
  if (!seller) return { needs_action: 0, on_sale: 0, in_review: 0, sold: 0, ended: 0, all: 0 }
  return countListingStates(db, seller.id)
}

/**
 * A seller's own listings (available and sold), with their contact details and where each stands: for that seller
 * or an admin. `state` keeps those in one state, `product` one listing (a sale's email links to it).
 */
export async function findSellerProducts(
  db: Db,
  caller: SessionUser,
  email: string,
  q: ListPageQuery & { state?: SellerListingState; product?: string } = {},
  autoCompleteDays = 7,
  expiryDays = 60,
  /** A shipped sale completes this many days after its delivery. */
  inspectionDays = autoCompleteDays,
): Promise<PagedList<Product>> {
  if (!canActFor(caller, email)) throw new AppError('FORBIDDEN', 'You can only see your own products')
  const [seller] = await db.select({ id: users.id }).from(users).where(userHasEmail(email)).limit(1)
  if (!seller) return { items: [], total: 0, isEstimate: false, nextCursor: null }
  const where = and(
    sellerListings(seller.id),
    q.state ? sql`${listingState} = ${q.state}` : undefined,
    q.product ? eq(products.id, q.product) : undefined,
  ) as SQL
  const paging = listPaging(q)
  const rows = await selectPageRows(db, {
    where: paging.after
      ? (and(where, paging.after(sql`${products.postedOn}`, sql`${products.id}`)) as SQL)
      : where,
    orderBy: [sql`${products.postedOn} desc nulls last`, sql`${products.id} desc nulls last`],
    k0: sql`${products.postedOn}`,
    limit: paging.limit,
    offset: paging.offset,
  })
  const page = await paging.finish(rows, () => countUpTo(db, where))
  const ids = page.items.map((row) => row.id)
  const sales = await salesOfProducts(db, ids, autoCompleteDays, inspectionDays)
  // Each sale's money as Earnings shows it: the same read of the seller's ledger, where its money is included.
  const money =
    sales.size > 0
      ? new Map((await sellerMoney(db, seller.id)).sales.map((s) => [s.booking_id, s]))
      : new Map<string, EarningsSale>()
  const saved = await savedCounts(db, ids)
  const waiting = await waitingOfferCounts(db, ids)
  const states = await statesOf(db, ids)
  return {
    ...page,
    items: page.items.map((row) => ({
      ...toProduct(row),
      seller_email: row.sellerEmail,
      seller_phone: row.sellerPhone,
      ...ownerFields(row),
      sale: sales.get(row.id) ?? null,
      sale_money: saleMoneyOf(money.get(sales.get(row.id)?._id ?? '')),
      saved_count: saved.get(row.id) ?? 0,
      listing_state: states.get(row.id) ?? 'ended',
      offers_waiting: waiting.get(row.id) ?? 0,
      offer_floor: row.offerFloorCents === null ? null : row.offerFloorCents / 100,
      offer_floor_cents: row.offerFloorCents,
      expires_at: new Date(new Date(row.renewedAt).getTime() + expiryDays * 86_400_000).toISOString(),
    })),
  }
}
