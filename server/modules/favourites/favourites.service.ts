// Favourites: laptops a signed-in user keeps. Each row keeps the price when saved (what "price down from $X"
// compares with) and the price last told in an alert (server/modules/alerts). Only their owner reads them.
import { and, desc, eq, sql } from 'drizzle-orm'
import type { AlertChoice, Favourite, FavouriteStatus } from '#contract/favourites'
import type { Db } from '#server/db/client'
import { brands, emailPreferences, favourites, products, users } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import { isoTime } from '#server/lib/iso-time'
import type { SessionUser } from '#server/lib/session'
import { productColumns, toProduct } from '#server/modules/products'

export const MAX_FAVOURITES = 500

/** Saves a listing (again: nothing changes). Removed listings and one's own cannot be saved. */
export async function addFavourite(db: Db, user: SessionUser, productId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [product] = await tx
      .select({
        sellerId: products.sellerId,
        price: products.resalePriceCents,
        removedAt: products.removedAt,
      })
      .from(products)
      .where(eq(products.id, productId))
    if (!product || product.removedAt) throw notFound('Product')
    if (product.sellerId === user.id) {
      throw new AppError('FORBIDDEN', 'This is your own listing: you cannot save it to your favourites')
    }
    // One user's saves take turns, so two tabs cannot both slip under the limit.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update')
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(favourites)
      .where(eq(favourites.userId, user.id))
    const [already] = await tx
      .select({ id: favourites.productId })
      .from(favourites)
      .where(and(eq(favourites.userId, user.id), eq(favourites.productId, productId)))
    if (already) return
    if ((count?.n ?? 0) >= MAX_FAVOURITES) {
      throw new AppError(
        'CONFLICT',
        `You can keep up to ${MAX_FAVOURITES} favourites. Remove some you no longer need, then save this one.`,
      )
    }
    await tx
      .insert(favourites)
      .values({ userId: user.id, productId, savedPriceCents: product.price, alertPriceCents: product.price })
      .onConflictDoNothing()
  })
}

export async function removeFavourite(db: Db, user: SessionUser, productId: string): Promise<number> {
  const deleted = await db
    .delete(favourites)
    .where(and(eq(favourites.userId, user.id), eq(favourites.productId, productId)))
    .returning({ id: favourites.productId })
  return deleted.length
}

function statusOf(row: {
  removedAt: Date | null
  isSold: boolean
  expiredAt: Date | null
  reservedUntil: string | null
  sellerDisabled: boolean
}): FavouriteStatus {
  if (row.removedAt || row.sellerDisabled) return 'removed'
  if (row.isSold) return 'sold'
  if (row.expiredAt) return 'expired'
  if (row.reservedUntil) return 'reserved'
  return 'available'
}

/** The caller's favourites, newest saved first, each with the price then and now and where it stands. */
export async function findFavourites(db: Db, user: SessionUser): Promise<Favourite[]> {
  const rows = await db
    .select({
      ...productColumns,
      savedPriceCents: favourites.savedPriceCents,
      savedAt: favourites.savedAt,
      removedAt: products.removedAt,
      sellerDisabled: sql<boolean>`${users.disabledAt} is not null`,
    })
    .from(favourites)
    .innerJoin(products, eq(products.id, favourites.productId))
    .innerJoin(brands, eq(brands.id, products.brandId))
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(eq(favourites.userId, user.id))
    .orderBy(desc(favourites.savedAt), desc(products.id))
    .limit(MAX_FAVOURITES)
  return rows.map((row) => ({
    productId: row.id,
    product: toProduct(row),
    savedPrice: row.savedPriceCents / 100,
    price: row.resalePriceCents / 100,
    status: statusOf(row),
    savedAt: isoTime(row.savedAt),
  }))
}

export async function findFavouriteIds(db: Db, user: SessionUser): Promise<string[]> {
  const rows = await db
    .select({ id: favourites.productId })
    .from(favourites)
    .where(eq(favourites.userId, user.id))
    .orderBy(desc(favourites.savedAt))
    .limit(MAX_FAVOURITES)
  return rows.map((r) => r.id)
}

export async function findFavouriteAlert(db: Db, user: SessionUser): Promise<AlertChoice> {
  const [row] = await db
    .select({ alert: emailPreferences.favouriteAlerts })
    .from(emailPreferences)
    .where(eq(emailPreferences.userId, user.id))
  return row?.alert ?? 'instant'
}

export async function setFavouriteAlert(db: Db, userId: string, alert: AlertChoice): Promise<number> {
  const rows = await db
    .insert(emailPreferences)
    .values({ userId, favouriteAlerts: alert })
    .onConflictDoUpdate({
      target: emailPreferences.userId,
      set: { favouriteAlerts: alert, updatedAt: new Date() },
      setWhere: sql`${emailPreferences.favouriteAlerts} <> ${alert}`,
    })
    .returning({ id: emailPreferences.userId })
  return rows.length
}
