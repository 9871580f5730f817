import { createHash } from 'node:crypto'
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm'
import type {
  ListingReview,
  ListingReviewQueue,
  ReviewedField,
  ReviewFlag,
  ReviewState,
  SerialMatch,
  StolenSerialBody,
} from '#contract/listing-reviews'
import { normalizeSerial, REVIEWED_FIELD_TEXT, REVIEWED_FIELDS } from '#contract/listing-reviews'
import { paths } from '#contract/pages'
import { PLACEHOLDER_IMAGE } from '#contract/products'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { brands, products, stolenSerials, users } from '#server/db/schema'
import { recordListed } from '#server/lib/alert-events'
import { AppError, notFound } from '#server/lib/errors'
import { firstPhotoUrl } from '#server/lib/listing-sql'
import type { SessionUser } from '#server/lib/session'
import type { Mail } from '#server/mail/mail'
import { leaveSale } from '#server/modules/deal'

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

/**
 * Whether the seller is still among their first `reviewFirst` listings, whose every listing an admin sees before
 * buyers do. Counted over the seller's approved listings, deleted and sold ones included (deleting keeps the row), not
 * over the listings they made: a listing deleted or rejected before an admin approved it showed nobody anything, so
 * throwaway listings cannot use the count up. A listing sent back for review counts again once approved again. The
 * count reads rows only an admin's approval (or a seller already past the count) moves, so concurrent listings and
 * several instances cannot race it; at most `reviewFirst` rows are read.
 */
async function isAmongFirstListings(db: Db, seller: SessionUser, reviewFirst: number): Promise<boolean> {
  if (seller.isVerified || reviewFirst <= 0) return false
  const approved = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.sellerId, seller.id), eq(products.reviewState, 'approved')))
    .limit(reviewFirst)
  return approved.length < reviewFirst
}

/** Whether a new listing waits for review, and why. */
export async function reviewOfNewListing(
  db: Db,
  seller: SessionUser,
  serialHash: string | null,
  reviewFirst: number,
): Promise<{ state: ReviewState; flags: ReviewFlag[] }> {
  const flags: ReviewFlag[] = []
  if (await isAmongFirstListings(db, seller, reviewFirst)) flags.push('first_listing')
  if (serialHash && (await hasOtherSellersSerial(db, seller.id, serialHash))) flags.push('duplicate_serial')
  return { state: flags.length > 0 ? 'pending' : 'approved', flags }
}

/** A listing as an edit finds it (read under the edit's lock). */
export type ListingUnderEdit = {
  id: string
  sellerId: string
  reviewState: ReviewState
  reviewFlags: string[]
  reviewChanges: string[]
  serialHash: string | null
}

/** What an edit does to a listing's review. */
export type EditReview =
  | { kind: 'unchanged' }
  /** A listing off sale already (waiting or rejected): its review columns change; a rejected one is sent again. */
  | { kind: 'columns'; set: Partial<typeof products.$inferInsert> }
  /** An approved listing goes back for review (sendBackToReview), and its seller is told why. */
  | { kind: 'back_to_review'; flags: ReviewFlag[]; changes: ReviewedField[]; notice: string }

const inFieldOrder = (fields: Iterable<string>) =>
  REVIEWED_FIELDS.filter((f) => new Set(fields).has(f)) as ReviewedField[]

function listWords(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`
}

/**
 * An edit of a listing, given what it changes of the fields that say which laptop it is (`changed`) and its new
 * serial. A serial that changes is checked again for any seller: one another seller listed or sold recently sends the
 * listing to review. A seller still among their first listings who changes any of those fields on an approved listing
 * sends it back for review too (a price, spec or location change does not): otherwise an approved listing could be
 * rewritten into another laptop without an admin seeing it. A rejected listing goes back for review when edited.
 */
export async function reviewOfEdit(
  db: Db,
  seller: SessionUser,
  current: ListingUnderEdit,
  edit: { changed: ReviewedField[]; serialHash?: string },
  reviewFirst: number,
): Promise<EditReview> {
  const flags = new Set(current.reviewFlags as ReviewFlag[])
  const serialChanged = edit.serialHash !== undefined && edit.serialHash !== current.serialHash
  const serialSeenElsewhere =
    serialChanged &&
    (await hasOtherSellersSerial(db, current.sellerId, edit.serialHash as string, current.id))
  if (serialSeenElsewhere) flags.add('duplicate_serial')

  if (current.reviewState === 'approved') {
    const rewritten = edit.changed.length > 0 && (await isAmongFirstListings(db, seller, reviewFirst))
    if (!rewritten && !serialSeenElsewhere) return { kind: 'unchanged' }
    if (rewritten) flags.add('changed_after_approval')
    const changes = rewritten ? inFieldOrder(edit.changed) : []
    const notice = rewritten
      ? `Your change to the ${listWords(changes.map((f) => REVIEWED_FIELD_TEXT[f]))} sends this listing back for review: buyers cannot see or book it until an admin approves it again.`
      : 'The serial number is on another seller’s listing or a recent sale, so this listing goes back for review: buyers cannot see or book it until an admin approves it.'
    return { kind: 'back_to_review', flags: [...flags], changes, notice }
  }

  // Off sale already. What the seller changes after being sent back adds to what the admin is shown.
  const changes = flags.has('changed_after_approval')
    ? inFieldOrder([...current.reviewChanges, ...edit.changed])
    : (current.reviewChanges as ReviewedField[])
  const unchanged =
    current.reviewState === 'pending' &&
    flags.size === current.reviewFlags.length &&
    changes.length === current.reviewChanges.length
  if (unchanged) return { kind: 'unchanged' }
  return {
    kind: 'columns',
    set: {
      reviewState: 'pending',
      reviewFlags: [...flags],
      reviewChanges: changes,
      // A rejected listing is sent again: it queues from now. One waiting keeps its place.
      reviewSubmittedAt: current.reviewState === 'rejected' ? new Date() : undefined,
    },
  }
}

/**
 * An approved listing goes back to the review queue: the one place a listing on sale returns to review. It leaves
 * sale at once (search, brand and seller pages, the home page and booking read `review_state`), queues behind the
 * listings already waiting (sent now), and shows the admin why and what changed. Runs inside the edit's transaction;
 * false when the listing was not approved (nothing changes then).
 */
export async function sendBackToReview(
  tx: Db,
  id: string,
  why: { flags: ReviewFlag[]; changes: ReviewedField[] },
  by: { actorId: string; mail: Pick<Mail, 'queue'> },
): Promise<boolean> {
  const sent = await tx
    .update(products)
    .set({
      reviewState: 'pending',
      reviewFlags: why.flags,
      reviewChanges: why.changes,
      reviewReason: null,
      reviewSubmittedAt: new Date(),
    })
    .where(and(eq(products.id, id), eq(products.reviewState, 'approved')))
    .returning({ id: products.id })
  // Off sale until approved again: what was under way on it ends.
  await leaveSale(tx, { productIds: sent.map((p) => p.id), reason: 'review', ...by })
  return sent.length > 0
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
      reviewChanges: products.reviewChanges,
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
    changed: r.reviewChanges as ReviewedField[],
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
      reviewFlags: products.reviewFlags,
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

/** The admin approves: the listing goes into search and can be booked; saved searches are matched against it as new. */
export async function approveListing(
  ctx: Pick<AppContext, 'db' | 'mail' | 'config'>,
  admin: SessionUser,
  id: string,
): Promise<number> {
  await ctx.db.transaction(async (tx) => {
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
      .set({
        reviewState: 'approved',
        reviewReason: null,
        // What changed since the last approval is answered by this one.
        reviewChanges: [],
        reviewFlags: sql`array_remove(${products.reviewFlags}, 'changed_after_approval')`,
        reviewedAt: new Date(),
        reviewedBy: admin.id,
        // On sale from now: saved searches take it as new, however long it waited (or was on sale before).
        onSaleSince: sql`now()`,
      })
      .where(eq(products.id, id))
    await recordListed(tx, id)
    await ctx.mail.queue(tx, {
      to: { userId: row.sellerId },
      template: 'listing-approved',
      data: {
        productName: row.name,
        url: `${ctx.config.publicUrl.replace(/\/$/, '')}${paths.product(id)}`,
        again: row.reviewFlags.includes('changed_after_approval'),
      },
    })
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
    await leaveSale(tx, { productIds: [id], reason: 'rejected', actorId: admin.id, mail: ctx.mail })
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
export async function markSerialStolen(
  ctx: Pick<AppContext, 'db' | 'mail'>,
  admin: SessionUser,
  body: StolenSerialBody,
) {
  const { db } = ctx
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
    const takenDown = await tx
      .update(products)
      .set({
        reviewState: 'rejected',
        reviewReason: 'The serial number of this laptop was reported stolen.',
        reviewedAt: new Date(),
        reviewedBy: admin.id,
      })
      .where(and(eq(products.serialHash, key.hash), eq(products.isSold, false), isNull(products.removedAt)))
      .returning({ id: products.id })
    // Sold listings of the serial too: a sale paid and not finished is frozen for an admin.
    const sold = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.serialHash, key.hash), eq(products.isSold, true)))
    await leaveSale(tx, {
      productIds: [...takenDown, ...sold].map((p) => p.id),
      reason: 'stolen',
      actorId: admin.id,
      mail: ctx.mail,
    })
    return takenDown
  })
  return { acknowledged: true, serial_last4: key.last4, listings_taken_down: takenDown.length }
}
