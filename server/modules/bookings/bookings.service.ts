import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Booking, NewBooking } from '#contract/bookings'
import type { Db } from '#server/db/client'
import { bookings, productImages, products, users } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import { canActFor, type SessionUser } from '#server/lib/session'
import { PLACEHOLDER_IMAGE } from '#server/modules/products/products.queries'

const bookingColumns = {
  booking: bookings,
  productSold: products.isSold,
  productRemovedAt: products.removedAt,
  productPriceCents: products.resalePriceCents,
  sellerId: products.sellerId,
  // A deleted seller's listings are hidden and cannot be paid for, like a removed listing.
  sellerDisabled: sql<boolean>`exists (select 1 from ${users} where ${users.id} = ${products.sellerId}
    and ${users.disabledAt} is not null)`,
}

type BookingRow = {
  booking: typeof bookings.$inferSelect
  productSold: boolean
  productRemovedAt: Date | null
  productPriceCents: number
  sellerDisabled: boolean
}

/**
 * What leaves the server for a booking; its status says whether it can still be paid. An unpaid
 * booking shows the listing's price now, which is what paying will charge ("Please Pay $…"), even if
 * the seller changed it since the booking; a paid one shows what was paid.
 */
export function toBooking(row: BookingRow): Booking {
  const b = row.booking
  const status = b.isPaid
    ? 'paid'
    : row.productSold
      ? 'sold'
      : row.productRemovedAt || row.sellerDisabled
        ? 'unavailable'
        : 'unpaid'
  const priceCents = status === 'unpaid' ? row.productPriceCents : b.priceCents
  return {
    _id: b.id,
    productId: b.productId,
    productName: b.productName,
    productImage: b.productImage,
    userName: b.userName,
    email: b.email,
    price: priceCents / 100,
    price_cents: priceCents,
    phoneNumber: b.phoneNumber,
    location: b.location,
    paid: b.isPaid,
    status,
    createdAt: b.createdAt.toISOString(),
  }
}

/**
 * Books a listing for the caller. Price, name and image come from the listing and the buyer from the
 * session; a sold listing, one's own listing, or a second booking of the same listing is refused.
 */
export async function createBooking(db: Db, buyer: SessionUser, input: NewBooking): Promise<string> {
  const [product] = await db
    .select({
      id: products.id,
      name: products.name,
      sellerId: products.sellerId,
      priceCents: products.resalePriceCents,
      isSold: products.isSold,
      image: sql<string | null>`(select ${productImages.cardUrl} from ${productImages}
        where ${productImages.productId} = ${products.id} order by ${productImages.position} limit 1)`,
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(and(eq(products.id, input.productId), isNull(products.removedAt), isNull(users.disabledAt)))
    .limit(1)
  if (!product) throw notFound('Product')
  if (product.sellerId === buyer.id) throw new AppError('FORBIDDEN', 'You cannot book your own listing')
  if (product.isSold) throw new AppError('CONFLICT', 'This laptop has already been sold')
  const inserted = await db
    .insert(bookings)
    .values({
      productId: product.id,
      buyerId: buyer.id,
      productName: product.name,
      productImage: product.image ?? PLACEHOLDER_IMAGE,
      priceCents: product.priceCents,
      userName: buyer.name,
      email: buyer.email,
      phoneNumber: input.phoneNumber,
      location: input.location,
    })
    .onConflictDoNothing({ target: [bookings.productId, bookings.buyerId] })
    .returning({ id: bookings.id })
  if (!inserted[0]) throw new AppError('CONFLICT', 'You have already booked this laptop')
  return inserted[0].id
}

/** The bookings of the account with this email: the caller's own, or anyone's for an admin. */
export async function findBookings(db: Db, caller: SessionUser, email: string): Promise<Booking[]> {
  if (!canActFor(caller, email)) throw new AppError('FORBIDDEN', 'You can only see your own bookings')
  const rows = await db
    .select(bookingColumns)
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .innerJoin(users, eq(users.id, bookings.buyerId))
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .orderBy(desc(bookings.createdAt), desc(bookings.id))
    .limit(500)
  return rows.map(toBooking)
}

/** One booking, for its buyer, the listing's seller, or an admin. */
export async function getBooking(db: Db, caller: SessionUser, id: string): Promise<Booking> {
  const [row] = await db
    .select(bookingColumns)
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(eq(bookings.id, id))
    .limit(1)
  if (!row) throw notFound('Booking')
  const allowed = caller.role === 'admin' || row.booking.buyerId === caller.id || row.sellerId === caller.id
  if (!allowed) throw new AppError('FORBIDDEN', 'This booking is not yours')
  return toBooking(row)
}
