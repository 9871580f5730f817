import { createHash } from 'node:crypto'
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm'
import type {
  ListingReview,
  ListingReviewQueue,
  ReviewFlag,
  ReviewState,
  SerialMatch,
  StolenSerialBody,
} from '#contract/listing-reviews'
import { normalizeSerial } from '#contract/listing-reviews'
import { paths } from '#contract/pages'
import { PLACEHOLDER_IMAGE } from '#contract/products'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { brands, products, stolenSerials, users } from '#server/db/schema'
import { recordListed } from '#server/lib/alert-events'
import { AppError, notFound } from '#server/lib/errors'
import { firstPhotoUrl } from '#server/lib/listing-sql'
import type { SessionUser } from '#server/lib/session'

// A listing's review state decides whether anyone but its seller and admins can see or book it (products.review_state;
// the "on sale" conditions and the listing counts read it). Rules here: which new listings wait, what an admin decides.

/** A sale of the same serial within this many days still makes a second seller's listing of it suspicious. */
export const RECENT_SALE_DAYS = 180

/**
 * The serial as stored: a hash of its normalized form, so equal serials are found without keeping the serial itself
 * readable in the database. Only the last four characters are kept as they are (what a buyer checks on the laptop).
 */
export function serialKey(serial: string): { hash: string; last4: string } {
  const normalized = normalizeSerial(serial)
  return {
    hash: createHash('sha256').update(`laptop-market-serial:${normalized}`).digest('hex'),
    last4: normalized.slice(-4),
  }
}

const stolenMessage =
  'This serial number has been reported stolen, so this laptop cannot be listed. If you think this is a mistake, contact us.'

export async function assertNotStolen(db: Db, serialHash: string) {
  const [row] = await db
    .select({ hash: stolenSerials.serialHash })
    .from(stolenSerials)
    .where(eq(stolenSerials.serialHash, serialHash))
    .limit(1)
  if (row) throw new AppError('VALIDATION', stolenMessage, { serial_number: stolenMessage })
}

/** Another seller's listing of the same serial that is on the market or waiting, or sold recently. */
async function hasOtherSellersSerial(db: Db, sellerId: string, serialHash: string, exceptId?: string) {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(
      and(
        eq(products.serialHash, serialHash),
        ne(products.sellerId, sellerId),
        exceptId ? ne(products.id, exceptId) : undefined,
        sql`((${products.isSold} = false and ${products.removedAt} is null)
          or (${products.isSold} = true and ${products.soldAt} > now() - make_interval(days => ${RECENT_SALE_DAYS})))`,
      ),
    )
    .limit(1)
  return Boolean(row)
}

/** Whether a new listing waits for review, and why. */
export async function reviewOfNewListing(
  db: Db,
  seller: SessionUser,
  serialHash: string | null,
  reviewFirst: number,
): Promise<{ state: ReviewState; flags: ReviewFlag[] }> {
  const flags: ReviewFlag[] = []
  if (!seller.isVerified && reviewFirst > 0) {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(products)
      .where(eq(products.sellerId, seller.id))
    if ((row?.n ?? 0) < reviewFirst) flags.push('first_listing')
  }
  if (serialHash && (await hasOtherSellersSerial(db, seller.id, serialHash))) flags.push('duplicate_serial')
  return { state: flags.length > 0 ? 'pending' : 'approved', flags }
}

/**
 * An edit of a listing: a rejected listing goes back for review, and a serial newly matching another seller's sends
 * an approved one there too. Returns the review columns to set, or an empty object when nothing changes.
 */
export async function reviewOfEdit(
  db: Db,
  current: {
    id: string
    sellerId: string
    reviewState: ReviewState
    reviewFlags: string[]
    serialHash: string | null
  },
  newSerialHash: string | undefined,
) {
  const flags = new Set(current.reviewFlags as ReviewFlag[])
  let state = current.reviewState
  if (newSerialHash !== undefined && newSerialHash !== current.serialHash) {
    if (await hasOtherSellersSerial(db, current.sellerId, newSerialHash, current.id)) {
      flags.add('duplicate_serial')
      state = 'pending'
    }
  }
  if (state === 'rejected') state = 'pending'
  if (state === current.reviewState && flags.size === current.reviewFlags.length) return {}
  return {
    reviewState: state,
    reviewFlags: [...flags],
    reviewSubmittedAt: state === 'pending' ? new Date() : undefined,
  }
}

// ---------------------------------------------------------------------------------------------
// The admin's queue and decisions
// ---------------------------------------------------------------------------------------------

export async function findReviewQueue(db: Db): Promise<ListingReviewQueue> {
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      brandName: brands.name,
      image: firstPhotoUrl,
      priceCents: products.resalePriceCents,
      condition: products.condition,
      sellerId: products.sellerId,
      sellerName: users.name,
      sellerEmail: users.email,
      sellerVerifiedAt: users.verifiedAt,
      reviewState: products.reviewState,
      reviewFlags: products.reviewFlags,
      serialHash: products.serialHash,
      serialLast4: products.serialLast4,
      batteryHealthPct: products.batteryHealthPct,
      batteryReportSource: products.batteryReportSource,
      postedOn: products.postedOn,
      submittedAt: products.reviewSubmittedAt,
      stolen: sql<boolean>`exists (select 1 from ${stolenSerials} where ${stolenSerials.serialHash} = ${products.serialHash})`,
    })
    .from(products)
    .innerJoin(brands, eq(brands.id, products.brandId))
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(and(eq(products.reviewState, 'pending'), isNull(products.removedAt), isNull(users.disabledAt)))
    .orderBy(asc(products.reviewSubmittedAt), asc(products.id))
    .limit(200)
  const matches = await sameSerialListings(
    db,
    rows.flatMap((r) => (r.serialHash ? [{ id: r.id, hash: r.serialHash }] : [])),
  )
  const [counts] = await db
    .select({
      pending: sql<number>`count(*)::int`,
      flagged: sql<number>`count(*) filter (where 'duplicate_serial' = any(${products.reviewFlags}))::int`,
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(and(eq(products.reviewState, 'pending'), isNull(products.removedAt), isNull(users.disabledAt)))
  const items: ListingReview[] = rows.map((r) => ({
    _id: r.id,
    name: r.name,
    brand_name: r.brandName,
    img: r.image ?? PLACEHOLDER_IMAGE,
    resale_price_cents: r.priceCents,
    condition: r.condition,
    seller_id: r.sellerId,
    seller_name: r.sellerName,
    seller_email: r.sellerEmail,
    seller_verified: r.sellerVerifiedAt !== null,
    review_state: r.reviewState,
    review_flags: r.reviewFlags as ReviewFlag[],
    serial_last4: r.serialLast4,
    serial_stolen: r.stolen,
    same_serial: matches.get(r.id) ?? [],
    battery_health_pct: r.batteryHealthPct,
    battery_verified: r.batteryReportSource !== null,
    postedOn: new Date(r.postedOn).toISOString(),
    submitted_at: new Date(r.submittedAt ?? r.postedOn).toISOString(),
  }))
  return { items, counts: { pending: counts?.pending ?? 0, flagged: counts?.flagged ?? 0 } }
}

/** For each queued listing, the other listings with its serial (listed or sold), for the admin to compare. */
async function sameSerialListings(db: Db, wanted: { id: string; hash: string }[]) {
  const out = new Map<string, SerialMatch[]>()
  if (wanted.length === 0) return out
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      hash: products.serialHash,
      sellerName: users.name,
      sellerEmail: users.email,
      isSold: products.isSold,
      soldAt: products.soldAt,
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(
      and(
        inArray(
          products.serialHash,
          wanted.map((w) => w.hash),
        ),
        isNull(products.removedAt),
      ),
    )
    .limit(1000)
  for (const w of wanted) {
    out.set(
      w.id,
      rows
        .filter((r) => r.hash === w.hash && r.id !== w.id)
        .map((r) => ({
          _id: r.id,
          name: r.name,
          seller_name: r.sellerName,
          seller_email: r.sellerEmail,
          state: r.isSold ? ('sold' as const) : ('listed' as const),
          sold_on: r.soldAt ? new Date(r.soldAt).toISOString() : null,
        })),
    )
  }
  return out
}

async function lockPending(tx: Db, id: string) {
  const [row] = await tx
    .select({
      id: products.id,
      name: products.name,
      sellerId: products.sellerId,
      reviewState: products.reviewState,
      serialHash: products.serialHash,
    })
    .from(products)
    .where(and(eq(products.id, id), isNull(products.removedAt)))
    .for('update')
  if (!row) throw notFound('Listing')
  if (row.reviewState !== 'pending') {
    throw new AppError('CONFLICT', `This listing is not waiting for review: it was ${row.reviewState}`)
  }
  return row
}

/** The admin approves: the listing goes into search and can be booked; saved searches are matched against it. */
export async function approveListing(db: Db, admin: SessionUser, id: string): Promise<number> {
  await db.transaction(async (tx) => {
    const row = await lockPending(tx, id)
    if (row.serialHash) {
      const [stolen] = await tx
        .select({ hash: stolenSerials.serialHash })
        .from(stolenSerials)
        .where(eq(stolenSerials.serialHash, row.serialHash))
      if (stolen)
        throw new AppError(
          'CONFLICT',
          'This serial number is reported stolen: the listing cannot be approved',
        )
    }
    await tx
      .update(products)
      .set({ reviewState: 'approved', reviewReason: null, reviewedAt: new Date(), reviewedBy: admin.id })
      .where(eq(products.id, id))
    await recordListed(tx, id)
  })
  return 1
}

/** The admin rejects with a reason, emailed to the seller as the statement of reasons; the seller may edit and resend. */
export async function rejectListing(
  ctx: Pick<AppContext, 'db' | 'mail' | 'config'>,
  admin: SessionUser,
  id: string,
  reason: string,
): Promise<number> {
  await ctx.db.transaction(async (tx) => {
    const row = await lockPending(tx, id)
    await tx
      .update(products)
      .set({ reviewState: 'rejected', reviewReason: reason, reviewedAt: new Date(), reviewedBy: admin.id })
      .where(eq(products.id, id))
    await ctx.mail.queue(tx, {
      to: { userId: row.sellerId },
      template: 'listing-rejected',
      data: {
        productName: row.name,
        reason,
        url: `${ctx.config.publicUrl.replace(/\/$/, '')}${paths.editProduct(id)}`,
      },
    })
  })
  return 1
}

/** An admin marks a serial reported stolen: it cannot be listed again, and unsold listings of it leave the market. */
export async function markSerialStolen(db: Db, admin: SessionUser, body: StolenSerialBody) {
  let key: { hash: string; last4: string }
  if (body.serial_number !== undefined) key = serialKey(body.serial_number)
  else {
    const [row] = await db
      .select({ hash: products.serialHash, last4: products.serialLast4 })
      .from(products)
      .where(eq(products.id, body.product_id as string))
    if (!row) throw notFound('Listing')
    if (!row.hash || !row.last4) {
      throw new AppError('VALIDATION', 'This listing has no serial number', {
        product_id: 'No serial number',
      })
    }
    key = { hash: row.hash, last4: row.last4 }
  }
  const takenDown = await db.transaction(async (tx) => {
    await tx
      .insert(stolenSerials)
      .values({ serialHash: key.hash, serialLast4: key.last4, reportedBy: admin.id, note: body.note ?? '' })
      .onConflictDoNothing()
    return tx
      .update(products)
      .set({
        reviewState: 'rejected',
        reviewReason: 'The serial number of this laptop was reported stolen.',
        reviewedAt: new Date(),
        reviewedBy: admin.id,
      })
      .where(and(eq(products.serialHash, key.hash), eq(products.isSold, false), isNull(products.removedAt)))
      .returning({ id: products.id })
  })
  return { acknowledged: true, serial_last4: key.last4, listings_taken_down: takenDown.length }
}
