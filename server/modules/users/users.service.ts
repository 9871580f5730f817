import { and, asc, count, eq, ilike, inArray, isNull, like, ne, or, sql } from 'drizzle-orm'
import { sameEmail } from '#contract/email'
import { formatMoney } from '#contract/money'
import type { Overview, Role, StartSelling, UserListQuery, UserRecord } from '#contract/users'
import type { Db } from '#server/db/client'
import { auditEvents, bookingEvents, bookings, products, reports, sessions, users } from '#server/db/schema'
import { userHasEmail } from '#server/lib/email'
import { AppError, notFound } from '#server/lib/errors'
import { accountBuys, canActFor, type SessionUser } from '#server/lib/session'
import type { Mail } from '#server/mail/mail'
import { leaveSale } from '#server/modules/deal'
import { sellerMoney } from '#server/modules/ledger'

/** The admin's "buyers" table holds buyers and the buyers made admin; "sellers" holds sellers. */
export const LIST_ROLES: Record<'buyer' | 'seller', Role[]> = {
  buyer: ['buyer', 'admin'],
  seller: ['seller'],
}

type UserRow = typeof users.$inferSelect

function toUserRecord(row: UserRow, cancelledSales?: number): UserRecord {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    verified: row.verifiedAt !== null,
    createdAt: row.createdAt.toISOString(),
    ...(cancelledSales === undefined ? {} : { cancelled_sales: cancelledSales }),
  }
}

/** How many paid sales each of these sellers cancelled (refunding the buyer), from the bookings' records. */
async function cancelledSalesOf(db: Db, sellerIds: string[]): Promise<Map<string, number>> {
  if (sellerIds.length === 0) return new Map()
  const rows = await db
    .select({ sellerId: products.sellerId, n: sql<number>`count(*)::int` })
    .from(bookingEvents)
    .innerJoin(bookings, eq(bookings.id, bookingEvents.bookingId))
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(and(eq(bookingEvents.kind, 'cancelled'), inArray(products.sellerId, sellerIds)))
    .groupBy(products.sellerId)
  return new Map(rows.map((r) => [r.sellerId, Number(r.n)]))
}

/**
 * Whether the account with this email holds the role. Callers ask about themselves; admins about anyone. A buyer who
 * started selling holds both: isSeller by its role, isBuyer because it still buys (`accountBuys`).
 */
export async function hasRole(db: Db, caller: SessionUser, email: string, role: Role): Promise<boolean> {
  if (!canActFor(caller, email)) throw new AppError('FORBIDDEN', 'You can only look up your own account')
  const [row] = await db
    .select({ role: users.role, startedSellingAt: users.startedSellingAt })
    .from(users)
    .where(and(userHasEmail(email), isNull(users.disabledAt)))
    .limit(1)
  if (!row) return false
  return role === 'buyer' ? accountBuys(row) : row.role === role
}

/**
 * A buyer starts selling from the same account: the phone buyers will reach them on and the seller terms, and from
 * then on the account is a seller that still buys (its bookings, payments and messages stay as they are). Admins do
 * not sell; a seller already does.
 */
export async function startSelling(
  db: Db,
  user: SessionUser,
  input: StartSelling,
): Promise<{ changed: true }> {
  if (user.role === 'admin')
    throw new AppError('FORBIDDEN', 'Admin accounts do not sell. Use a buyer or seller account.')
  if (user.role === 'seller') throw new AppError('CONFLICT', 'This account sells already')
  const now = new Date()
  const changed = await db
    .update(users)
    .set({ role: 'seller', phone: input.phone, startedSellingAt: now, updatedAt: now })
    .where(and(eq(users.id, user.id), eq(users.role, 'buyer'), isNull(users.disabledAt)))
    .returning({ id: users.id })
  if (changed.length === 0) throw new AppError('CONFLICT', 'This account sells already')
  return { changed: true }
}

export async function findUsers(
  db: Db,
  list: 'buyer' | 'seller',
  q: UserListQuery,
): Promise<{ items: UserRecord[]; total: number }> {
  const roles = list === 'buyer' && q.role ? [q.role] : LIST_ROLES[list]
  const filters = [inArray(users.role, roles), isNull(users.disabledAt)]
  if (q.q) {
    const pattern = `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    const match = or(ilike(users.name, pattern), ilike(users.email, pattern))
    if (match) filters.push(match)
  }
  const where = and(...filters)
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(asc(users.createdAt), asc(users.id))
      .limit(q.page_size)
      .offset((q.page - 1) * q.page_size),
    db.select({ n: count() }).from(users).where(where),
  ])
  if (list === 'buyer') return { items: rows.map((row) => toUserRecord(row)), total: total?.n ?? 0 }
  const cancelled = await cancelledSalesOf(
    db,
    rows.map((r) => r.id),
  )
  return { items: rows.map((row) => toUserRecord(row, cancelled.get(row.id) ?? 0)), total: total?.n ?? 0 }
}

async function getActiveUser(db: Db, id: string): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.disabledAt)))
    .limit(1)
  if (!row) throw notFound('User')
  return row
}

export async function makeAdmin(db: Db, _admin: SessionUser, id: string): Promise<number> {
  const target = await getActiveUser(db, id)
  if (target.role === 'admin') return 0
  if (target.role !== 'buyer') throw new AppError('CONFLICT', 'Only a buyer can be made an admin')
  const updated = await db
    .update(users)
    .set({ role: 'admin', updatedAt: new Date() })
    .where(and(eq(users.id, id), eq(users.role, 'buyer'), isNull(users.disabledAt)))
    .returning({ id: users.id })
  return updated.length
}

/**
 * An admin goes back to being a buyer. Nobody removes their own admin role (another admin does), and the
 * last admin stays one: the admin rows are locked while counting, like deleting an admin.
 */
export async function removeAdmin(db: Db, admin: SessionUser, id: string): Promise<number> {
  if (id === admin.id) throw new AppError('FORBIDDEN', 'You cannot remove your own admin role')
  const target = await getActiveUser(db, id)
  if (target.role !== 'admin') throw new AppError('CONFLICT', 'This account is not an admin')
  const admins = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), isNull(users.disabledAt)))
    .for('update')
  if (admins.length <= 1) throw new AppError('CONFLICT', 'The last admin cannot be demoted')
  const updated = await db
    .update(users)
    .set({ role: 'buyer', updatedAt: new Date() })
    .where(and(eq(users.id, id), eq(users.role, 'admin'), isNull(users.disabledAt)))
    .returning({ id: users.id })
  return updated.length
}

/**
 * Deleting disables the account, ends its sessions and hides its listings; bookings and payments stay.
 * An admin cannot delete themselves, nor the last admin (admin rows are locked while counting).
 */
export async function deleteUser(
  db: Db,
  admin: SessionUser,
  id: string,
  list: 'buyer' | 'seller',
  mail: Pick<Mail, 'queue'>,
) {
  if (id === admin.id) throw new AppError('FORBIDDEN', 'You cannot delete your own account')
  const deleted = await db.transaction(async (tx) => {
    const target = await getActiveUser(tx, id)
    if (!LIST_ROLES[list].includes(target.role)) throw notFound(list === 'buyer' ? 'Buyer' : 'Seller')
    if (target.role === 'admin') {
      const admins = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.role, 'admin'), isNull(users.disabledAt)))
        .for('update')
      if (admins.length <= 1) throw new AppError('CONFLICT', 'The last admin cannot be deleted')
    }
    const now = new Date()
    const disabled = await tx
      .update(users)
      .set({ disabledAt: now, updatedAt: now })
      .where(and(eq(users.id, id), isNull(users.disabledAt)))
      .returning({ id: users.id, name: users.name })
    await tx.delete(sessions).where(eq(sessions.userId, id))
    // Their listings leave sale with the account: offers, holds and unpaid bookings of them end.
    const listings = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.sellerId, id), eq(products.isSold, false), isNull(products.removedAt)))
    await leaveSale(tx, {
      productIds: listings.map((p) => p.id),
      reason: 'seller_closed',
      actorId: admin.id,
      mail,
    })
    return { deletedCount: disabled.length, name: target.name }
  })
  // A seller's listings leave the public lists with the account.
  return deleted
}

export async function verifySeller(
  db: Db,
  _admin: SessionUser,
  id: string,
  verified: boolean,
): Promise<number> {
  const target = await getActiveUser(db, id)
  if (target.role !== 'seller') throw new AppError('CONFLICT', 'Only a seller can be verified')
  if ((target.verifiedAt !== null) === verified) return 0
  await db
    .update(users)
    .set({ verifiedAt: verified ? new Date() : null, updatedAt: new Date() })
    .where(eq(users.id, id))
  // The verified badge shows on the seller's public listings.
  return 1
}

/**
 * The seed's POST /buyers and /sellers after signup: the caller's own record, idempotently. A buyer with
 * no bookings may become a seller and a seller with no listings a buyer; an admin stays an admin.
 */
export async function ensureOwnRecord(
  db: Db,
  user: SessionUser,
  email: string,
  role: 'buyer' | 'seller',
): Promise<{ changed: boolean }> {
  if (!sameEmail(user.email, email)) {
    throw new AppError('FORBIDDEN', 'You can only create your own record')
  }
  if (user.role === role || user.role === 'admin') return { changed: false }
  // A seller who started as a buyer is a buyer already.
  if (role === 'buyer' && user.buys) return { changed: false }
  if (role === 'seller') {
    const [row] = await db.select({ n: count() }).from(bookings).where(eq(bookings.buyerId, user.id))
    if ((row?.n ?? 0) > 0) throw new AppError('CONFLICT', 'This account has bookings and stays a buyer')
  } else {
    const [row] = await db.select({ n: count() }).from(products).where(eq(products.sellerId, user.id))
    if ((row?.n ?? 0) > 0) throw new AppError('CONFLICT', 'This account has listings and stays a seller')
  }
  await db
    .update(users)
    .set({ role, updatedAt: new Date() })
    .where(and(eq(users.id, user.id), ne(users.role, 'admin')))
  return { changed: true }
}

const n = (value: number | undefined) => String(value ?? 0)

/**
 * A listing whose sale was refunded (a dispute, a cancellation) stays off the market, but it was not sold:
 * the money went back, so it is no longer counted as sold (nor in its revenue).
 */
const saleRefunded = sql`exists (select 1 from ${bookings} b where b.product_id = ${products.id}
  and b.is_paid and b.stage = 'refunded')`

/**
 * How the dashboard greets the person: `new` until they sign in again after signing up, `back` from then on. A
 * sign-in within a minute of the account's creation is the sign-up's own (Google's first sign-in makes the account).
 */
export async function greetingFor(db: Db, userId: string): Promise<Overview['greeting']> {
  const [again] = await db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .innerJoin(users, eq(users.id, auditEvents.actorId))
    .where(
      and(
        eq(auditEvents.actorId, userId),
        like(auditEvents.kind, 'sign\\_in%'),
        eq(auditEvents.result, 'success'),
        sql`${auditEvents.at} > ${users.createdAt} + interval '1 minute'`,
      ),
    )
    .limit(1)
  return again ? 'back' : 'new'
}

/** The counts that matter to each role, for the dashboard's overview, and how to greet the person. */
export async function getOverview(db: Db, user: SessionUser): Promise<Overview> {
  const [counts, greeting] = await Promise.all([overviewCounts(db, user), greetingFor(db, user.id)])
  return { ...counts, greeting }
}

async function overviewCounts(db: Db, user: SessionUser): Promise<Omit<Overview, 'greeting'>> {
  if (user.role === 'admin') {
    const [people] = await db
      .select({
        buyers: sql<number>`count(*) filter (where ${users.role} = 'buyer')::int`,
        sellers: sql<number>`count(*) filter (where ${users.role} = 'seller')::int`,
        admins: sql<number>`count(*) filter (where ${users.role} = 'admin')::int`,
      })
      .from(users)
      .where(isNull(users.disabledAt))
    const [listings] = await db
      .select({
        available: sql<number>`count(*) filter (where not ${products.isSold})::int`,
        sold: sql<number>`count(*) filter (where ${products.isSold} and not ${saleRefunded})::int`,
      })
      .from(products)
      .where(isNull(products.removedAt))
    const [booked] = await db.select({ n: count() }).from(bookings)
    const [open] = await db.select({ n: count() }).from(reports).where(eq(reports.status, 'open'))
    return {
      role: 'admin',
      counts: [
        { label: 'Buyers', value: n(people?.buyers) },
        { label: 'Sellers', value: n(people?.sellers) },
        { label: 'Admins', value: n(people?.admins) },
        { label: 'Available listings', value: n(listings?.available) },
        { label: 'Sold listings', value: n(listings?.sold) },
        { label: 'Bookings', value: n(booked?.n) },
        { label: 'Open reports', value: n(open?.n) },
      ],
    }
  }
  if (user.role === 'seller') {
    const [listings] = await db
      .select({
        available: sql<number>`count(*) filter (where not ${products.isSold})::int`,
        sold: sql<number>`count(*) filter (where ${products.isSold} and not ${saleRefunded})::int`,
      })
      .from(products)
      .where(and(eq(products.sellerId, user.id), isNull(products.removedAt)))
    // What buyers paid for the seller's sales not refunded (the prices agreed), from the ledger's read of their
    // money, as Earnings lists those sales.
    const { sales } = await sellerMoney(db, user.id)
    const revenue = sales.filter((s) => s.where !== 'refunded').reduce((sum, s) => sum + s.price_cents, 0)
    return {
      role: 'seller',
      counts: [
        { label: 'Available listings', value: n(listings?.available) },
        { label: 'Sold', value: n(listings?.sold) },
        { label: 'Revenue', value: formatMoney(revenue) },
        // A seller who still buys (a buyer who started selling) sees their purchases too.
        ...(user.buys ? await purchaseCounts(db, user.id) : []),
      ],
    }
  }
  return { role: 'buyer', counts: await purchaseCounts(db, user.id) }
}

async function purchaseCounts(db: Db, userId: string): Promise<Overview['counts']> {
  const [mine] = await db
    .select({
      all: sql<number>`count(*)::int`,
      paid: sql<number>`count(*) filter (where ${bookings.isPaid} and ${bookings.stage} <> 'refunded')::int`,
    })
    .from(bookings)
    .where(eq(bookings.buyerId, userId))
  return [
    { label: 'Bookings', value: n(mine?.all) },
    { label: 'Paid', value: n(mine?.paid) },
  ]
}
