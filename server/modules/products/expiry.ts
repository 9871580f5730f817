import { and, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm'
import { paths } from '#contract/pages'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { products, users } from '#server/db/schema'
import { recordListed } from '#server/lib/alert-events'
import { AppError, notFound } from '#server/lib/errors'
import type { SessionUser } from '#server/lib/session'
import { leaveSale } from '#server/modules/deal'

// Listing expiry: a listing not renewed for LISTING_EXPIRY_DAYS leaves search and the home page (its page
// stays readable, marked Expired). Its seller is reminded three days before. Both are done by a job that
// sweeps on a schedule; docs/decisions/0027-listing-expiry-and-views.md.

const DAY = 24 * 60 * 60 * 1000
export const EXPIRY_REMINDER_DAYS = 3

/** Unsold, not taken down, not yet expired. */
const stillListed = and(eq(products.isSold, false), isNull(products.removedAt), isNull(products.expiredAt))

/** Marks every listing whose last renewal is `days` old or more as expired. Returns their ids. */
export async function expireListings(db: Db, days: number, now = new Date()): Promise<string[]> {
  const cutoff = new Date(now.getTime() - days * DAY)
  const rows = await db
    .update(products)
    .set({ expiredAt: now, updatedAt: now })
    .where(and(stillListed, lte(products.renewedAt, cutoff)))
    .returning({ id: products.id })
  return rows.map((r) => r.id)
}

export type ExpiryReminder = {
  productId: string
  sellerId: string
  productName: string
  sellerName: string
  sellerEmail: string
  expiresAt: Date
}

/**
 * Listings that expire within three days and whose seller has not been told yet: marked as told and
 * returned, so each reminder is claimed once however many instances sweep. The caller sends them
 * (in the same transaction as the claim, through the job queue).
 */
export async function claimExpiryReminders(
  db: Db,
  days: number,
  now = new Date(),
): Promise<ExpiryReminder[]> {
  const remindFrom = new Date(now.getTime() - (days - EXPIRY_REMINDER_DAYS) * DAY)
  const expireFrom = new Date(now.getTime() - days * DAY)
  const claimed = await db
    .update(products)
    .set({ expiryRemindedAt: now })
    .where(
      and(
        stillListed,
        isNull(products.expiryRemindedAt),
        lte(products.renewedAt, remindFrom),
        gt(products.renewedAt, expireFrom),
      ),
    )
    .returning({
      id: products.id,
      name: products.name,
      sellerId: products.sellerId,
      renewedAt: products.renewedAt,
    })
  if (claimed.length === 0) return []
  const sellers = await db
    .select({ id: users.id, name: users.name, email: users.email, disabledAt: users.disabledAt })
    .from(users)
    .where(
      inArray(
        users.id,
        claimed.map((c) => c.sellerId),
      ),
    )
  const byId = new Map(sellers.map((s) => [s.id, s]))
  return claimed.flatMap((c) => {
    const seller = byId.get(c.sellerId)
    if (!seller || seller.disabledAt) return []
    return [
      {
        productId: c.id,
        sellerId: c.sellerId,
        productName: c.name,
        sellerName: seller.name,
        sellerEmail: seller.email,
        expiresAt: new Date(c.renewedAt.getTime() + days * DAY),
      },
    ]
  })
}

/**
 * The seller renews a listing: its clock starts again, and an expired one is back on the market, where saved
 * searches take it as new (a search saved while it was expired never saw it).
 */
export async function renewProduct(db: Db, seller: SessionUser, id: string): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ sellerId: products.sellerId, isSold: products.isSold, expiredAt: products.expiredAt })
      .from(products)
      .where(and(eq(products.id, id), isNull(products.removedAt)))
      .limit(1)
      .for('update')
    if (!row) throw notFound('Product')
    if (row.sellerId !== seller.id)
      throw new AppError('FORBIDDEN', 'Only the seller of this laptop can renew it')
    if (row.isSold) throw new AppError('CONFLICT', 'A sold laptop cannot be renewed')
    const now = new Date()
    const backOnSale = row.expiredAt !== null
    const updated = await tx
      .update(products)
      .set({
        renewedAt: now,
        expiredAt: null,
        expiryRemindedAt: null,
        updatedAt: now,
        ...(backOnSale ? { onSaleSince: sql`now()` } : {}),
      })
      .where(and(eq(products.id, id), eq(products.isSold, false), isNull(products.removedAt)))
      .returning({ id: products.id })
    if (backOnSale && updated.length > 0) await recordListed(tx, id)
    return updated.length
  })
}

/**
 * The hourly `listings.expire` job: in one transaction, expires what is due and queues a reminder email for
 * each listing three days from expiry (claimed once). Running it twice does nothing more.
 */
export async function runExpirySweep(
  ctx: Pick<AppContext, 'db' | 'mail' | 'config'>,
  now = new Date(),
): Promise<{ expired: number; reminded: number }> {
  const days = ctx.config.listingExpiryDays
  const result = await ctx.db.transaction(async (tx) => {
    const expired = await expireListings(tx, days, now)
    await leaveSale(tx, { productIds: expired, reason: 'expired', actorId: null, mail: ctx.mail })
    const reminders = await claimExpiryReminders(tx, days, now)
    for (const r of reminders) {
      await ctx.mail.queue(tx, {
        to: { userId: r.sellerId },
        template: 'listing-expiring',
        data: {
          productName: r.productName,
          expiresAt: r.expiresAt.toISOString(),
          url: `${ctx.config.publicUrl.replace(/\/$/, '')}${paths.myProduct()}`,
        },
      })
    }
    return { expired: expired.length, reminded: reminders.length }
  })
  return result
}

/** Runs the sweep hourly (pg-boss's cron: one instance does each run). */
export function registerExpiryJobs(ctx: Pick<AppContext, 'db' | 'mail' | 'config' | 'jobs'>) {
  ctx.jobs.work('listings.expire', () => runExpirySweep(ctx))
  ctx.jobs.schedule('listings.expire', '7 * * * *')
}
