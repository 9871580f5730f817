import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { Booking, BookingStatus, NewBooking } from '#contract/bookings'
import type { DeliveryOption } from '#contract/delivery'
import { type ListPageQuery, TOTAL_THRESHOLD } from '#contract/paging'
import { PLACEHOLDER_IMAGE } from '#contract/products'
import type { Db } from '#server/db/client'
import { bookingEvents, bookings, disputes, products, users } from '#server/db/schema'
import type { Jobs } from '#server/jobs/jobs'
import { userHasEmail } from '#server/lib/email'
import { AppError, notFound } from '#server/lib/errors'
import { firstPhotoUrl, isListed } from '#server/lib/listing-sql'
import { assertOnSale, lockSaleFacts } from '#server/lib/on-sale'
import { listPaging, type PagedList } from '#server/lib/paging'
import { canActFor, type SessionUser } from '#server/lib/session'
import { moveDeal } from '#server/modules/deal'
import { saleParcelsOf, toSaleParcel } from '#server/modules/shipping'

export const bookingColumns = {
  booking: bookings,
  productSold: products.isSold,
  productRemovedAt: products.removedAt,
  productPriceCents: products.resalePriceCents,
  productSerialLast4: products.serialLast4,
  productDelivery: products.delivery,
  sellerId: products.sellerId,
  // A deleted seller's listings are hidden and cannot be paid for, like a removed listing.
  sellerDisabled: sql<boolean>`exists (select 1 from ${users} where ${users.id} = ${products.sellerId}
    and ${users.disabledAt} is not null)`,
  disputeId: disputes.id,
  disputeReason: disputes.reason,
  disputeStatus: disputes.status,
  // The latest call-off: a booking cancelled, booked again and cancelled again reads as the last time.
  cancelReason: sql<string | null>`(select e.note from ${bookingEvents} e
    where e.booking_id = ${bookings.id} and e.kind = 'cancelled' order by e.created_at desc, e.id desc limit 1)`,
  // An admin's refund (a dispute's, a completed sale's, a listing removed): their reason, on the refund's step.
  refundReason: sql<string | null>`(select e.note from ${bookingEvents} e
    where e.booking_id = ${bookings.id} and (e.kind = 'refunded' or (e.kind = 'return_refunded' and exists
      (select 1 from ${users} u where u.id = e.actor_id and u.role = 'admin')))
    order by e.created_at desc, e.id desc limit 1)`,
  // What refunded a sale: the latest of the events that move a deal to `refunded` (the stage ends there). A return
  // refunded by an admin is one whose parcel the carrier lost: the laptop did not come back.
  refundEvent: sql<RefundEvent | null>`(select case when e.kind = 'return_refunded' and exists
      (select 1 from ${users} u where u.id = e.actor_id and u.role = 'admin') then 'return_lost' else e.kind end
    from ${bookingEvents} e
    where e.booking_id = ${bookings.id} and e.kind in ('cancelled', 'refunded', 'ship_late', 'return_refunded')
    order by e.created_at desc, e.id desc limit 1)`,
  cancelledByBuyer: sql<boolean>`coalesce((select e.actor_id = ${bookings.buyerId} from ${bookingEvents} e
    where e.booking_id = ${bookings.id} and e.kind = 'cancelled' order by e.created_at desc, e.id desc limit 1), false)`,
}

export type BookingRow = {
  booking: typeof bookings.$inferSelect
  productSold: boolean
  productRemovedAt: Date | null
  productPriceCents: number
  productSerialLast4?: string | null
  /** How the listing can be had (meet, ship, both): what the buyer may choose from before paying. */
  productDelivery?: DeliveryOption
  sellerId: string
  sellerDisabled: boolean
  disputeId: string | null
  disputeReason: string | null
  disputeStatus: (typeof disputes.$inferSelect)['status'] | null
  /** The seller's reason, when they cancelled the paid sale, or why the listing left sale before payment. */
  cancelReason?: string | null
  /** The latest cancellation was the buyer's own. */
  cancelledByBuyer?: boolean
  /** Why an admin refunded the sale. */
  refundReason?: string | null
  /** The latest event that could have refunded the sale (read only when it is refunded). */
  refundEvent?: RefundEvent | null
}

type RefundEvent = NonNullable<Booking['refundEvent']>

/** Bookings with their listing and any dispute: what toBooking reads. */
export function selectBookingRows(db: Db) {
  return db
    .select(bookingColumns)
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .leftJoin(disputes, eq(disputes.bookingId, bookings.id))
}

/** The wire status of a booking: its stage once paid, else whether it can still be paid. */
export function bookingStatus(
  row: Omit<
    BookingRow,
    | 'disputeId'
    | 'disputeReason'
    | 'disputeStatus'
    | 'cancelReason'
    | 'cancelledByBuyer'
    | 'refundReason'
    | 'refundEvent'
  >,
): BookingStatus {
  const b = row.booking
  if (b.stage === 'cancelled') return 'cancelled'
  if (b.isPaid) return b.stage === 'booked' ? 'paid' : b.stage
  if (row.productSold) return 'sold'
  if (row.productRemovedAt || row.sellerDisabled) return 'unavailable'
  return 'unpaid'
}

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** The buyer's handover checklist as kept on the deal, or null before it is answered. */
export function handoverAnswers(b: {
  handoverChecklist: Record<string, boolean> | null
  handoverCheckedAt: Date | null
}) {
  return b.handoverChecklist && b.handoverCheckedAt
    ? { checklist: b.handoverChecklist, checked_at: b.handoverCheckedAt.toISOString() }
    : null
}

/**
 * What leaves the server for a booking; its status says whether it can still be paid, and where the deal
 * is once it is. An unpaid booking shows what paying will charge ("Please Pay $…"): the booked price, or
 * less when the seller has lowered it since (a raise never applies); `booked_price_cents` is the price at
 * booking. A paid one shows what was paid. `autoCompleteDays` dates a handed-over sale's completion.
 */
export function toBooking(
  row: BookingRow,
  autoCompleteDays: number,
  /** Whether the caller may read the delivery address: the buyer and admins always, the seller once paid. */
  seesAddress = true,
  inspectionDays = autoCompleteDays,
): Booking {
  const b = row.booking
  const status = bookingStatus(row)
  const completeDays = b.deliveryMethod === 'ship' ? inspectionDays : autoCompleteDays
  const priceCents = status === 'unpaid' ? Math.min(b.priceCents, row.productPriceCents) : b.priceCents
  return {
    _id: b.id,
    productId: b.productId,
    productName: b.productName,
    productImage: b.productImage,
    userName: b.userName,
    email: b.email,
    price: priceCents / 100,
    price_cents: priceCents,
    booked_price_cents: b.priceCents,
    phoneNumber: b.phoneNumber,
    location: b.location,
    paid: b.isPaid,
    status,
    createdAt: b.createdAt.toISOString(),
    sellerId: row.sellerId,
    paidAt: iso(b.paidAt),
    handedOverAt: iso(b.handedOverAt),
    handoverNote: b.handoverNote,
    autoCompleteAt:
      status === 'handed_over' && b.handedOverAt
        ? new Date(b.handedOverAt.getTime() + completeDays * 86_400_000).toISOString()
        : null,
    completedAt: iso(b.completedAt),
    refundedAt: iso(b.refundedAt),
    cancelReason: row.cancelReason ?? null,
    cancelledByBuyer: status === 'cancelled' && row.cancelledByBuyer === true,
    refundReason: status === 'refunded' ? (row.refundReason ?? null) : null,
    refundEvent: status === 'refunded' ? (row.refundEvent ?? null) : null,
    dispute:
      row.disputeId && row.disputeReason && row.disputeStatus
        ? { _id: row.disputeId, reason: row.disputeReason, status: row.disputeStatus }
        : null,
    // The serial's ending identifies the laptop at handover: the buyer sees it once they have paid, never before.
    serial_last4: b.isPaid ? (row.productSerialLast4 ?? null) : null,
    checklist: handoverAnswers(b),
    delivery: {
      offered: row.productDelivery ?? 'meet',
      method: b.deliveryMethod,
      shipping_cents: b.shippingCents,
      address: seesAddress && b.shippingAddress ? b.shippingAddress : null,
      rate: b.shippingRate
        ? {
            carrier: b.shippingRate.carrier,
            service: b.shippingRate.service,
            amount_cents: b.shippingRate.amountCents,
            delivery_days: b.shippingRate.deliveryDays,
          }
        : null,
      // Before the label, and after a sale refunded for missing it (the date it was due by).
      ship_by:
        b.stage === 'paid' || (status === 'refunded' && row.refundEvent === 'ship_late')
          ? iso(b.shipBy)
          : null,
    },
  }
}

/**
 * Shipped bookings with their parcel (null until the seller buys the label): carrier, tracking and each step.
 * `seesLabel`: the label's link, for the seller and admins who print it. A met booking has no `parcel`.
 */
export async function withParcels(db: Db, items: Booking[], seesLabel: boolean): Promise<Booking[]> {
  const shipped = items.filter((b) => b.delivery?.method === 'ship')
  if (shipped.length === 0) return items
  const found = await saleParcelsOf(
    db,
    shipped.map((b) => b._id),
  )
  return items.map((b) => {
    if (b.delivery?.method !== 'ship') return b
    const parcel = found.get(b._id)
    return { ...b, parcel: parcel ? toSaleParcel(parcel, { seesLabel }) : null }
  })
}

/**
 * Books a listing for the caller. Price, name and image come from the listing and the buyer from the
 * session; a sold listing, one's own listing, or a second booking of the same listing is refused. The
 * seller is told by email with the other bookings of the next `emailGroupSeconds` (the booking is marked
 * for it, and the seller's `bookings.seller-email` job queued unless one is waiting, in its transaction).
 */
export async function createBooking(
  db: Db,
  buyer: SessionUser,
  input: NewBooking,
  opts: {
    jobs: Pick<Jobs, 'send'>
    openBookingsPerBuyer?: number
    emailGroupSeconds?: number
  },
): Promise<string> {
  const { jobs, openBookingsPerBuyer = Number.POSITIVE_INFINITY, emailGroupSeconds = 0 } = opts
  const [product] = await db
    .select({
      id: products.id,
      name: products.name,
      sellerId: products.sellerId,
      priceCents: products.resalePriceCents,
      image: firstPhotoUrl,
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(and(eq(products.id, input.productId), isListed))
    .limit(1)
  if (!product) throw notFound('Product')
  if (product.sellerId === buyer.id) throw new AppError('FORBIDDEN', 'You cannot book your own listing')
  return db.transaction(async (tx) => {
    // Each booking emails the seller, so a buyer's open (unpaid, still on sale) bookings of the last week are
    // limited; one buyer's bookings are taken one at a time, so parallel requests cannot slip under it.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, buyer.id)).for('update')
    assertOnSale(await lockSaleFacts(tx, product.id))
    const [open] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(bookings)
      .innerJoin(products, eq(products.id, bookings.productId))
      .where(
        and(
          eq(bookings.buyerId, buyer.id),
          eq(bookings.stage, 'booked'),
          eq(products.isSold, false),
          sql`${products.removedAt} is null`,
          sql`${bookings.createdAt} > now() - interval '7 days'`,
        ),
      )
    if ((open?.n ?? 0) >= openBookingsPerBuyer) {
      throw new AppError(
        'RATE_LIMITED',
        `You have ${open?.n} unpaid bookings from the last 7 days, the most at once. Pay for one of them, or book again once the oldest is a week old.`,
      )
    }
    const inserted: { id: string }[] = await tx
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
        sellerEmailPending: true,
      })
      .onConflictDoNothing({ target: [bookings.productId, bookings.buyerId] })
      .returning({ id: bookings.id })
    if (!inserted[0]) {
      // A booking cancelled when the listing left sale is booked again, now that it is back on sale.
      const [earlier] = await tx
        .select({ id: bookings.id, stage: bookings.stage })
        .from(bookings)
        .where(and(eq(bookings.productId, product.id), eq(bookings.buyerId, buyer.id)))
        .for('update')
      if (earlier?.stage !== 'cancelled')
        throw new AppError('CONFLICT', 'You have already booked this laptop')
      await moveDeal(tx, earlier.id, 'book_again', 'buyer', {
        actorId: buyer.id,
        set: {
          priceCents: product.priceCents,
          productName: product.name,
          productImage: product.image ?? PLACEHOLDER_IMAGE,
          userName: buyer.name,
          email: buyer.email,
          phoneNumber: input.phoneNumber,
          location: input.location,
          // The seller hears of the booking again, grouped like a new one.
          sellerEmailPending: true,
        },
      })
      inserted.push({ id: earlier.id })
    }
    const bookingId = inserted[0]?.id
    if (!bookingId) throw new AppError('INTERNAL', 'The booking could not be saved')
    // Many bookings in a few minutes (ten throwaway buyers, or a popular laptop) make one email, not one each.
    await jobs.send(
      'bookings.seller-email',
      { sellerId: product.sellerId },
      { tx, startAfter: emailGroupSeconds, singletonKey: product.sellerId },
    )
    return bookingId
  })
}

/** The bookings of the account with this email: the caller's own, or anyone's for an admin. */
export async function findBookings(
  db: Db,
  caller: SessionUser,
  email: string,
  q: ListPageQuery & { product_id?: string } = {},
  autoCompleteDays = 7,
  inspectionDays = autoCompleteDays,
): Promise<PagedList<Booking>> {
  if (!canActFor(caller, email)) throw new AppError('FORBIDDEN', 'You can only see your own bookings')
  const [buyer] = await db.select({ id: users.id }).from(users).where(userHasEmail(email)).limit(1)
  if (!buyer) return { items: [], total: 0, isEstimate: false, nextCursor: null }
  const where = q.product_id
    ? (and(eq(bookings.buyerId, buyer.id), eq(bookings.productId, q.product_id)) as SQL)
    : eq(bookings.buyerId, buyer.id)
  const paging = listPaging(q)
  const rows = await db
    .select({ ...bookingColumns, id: bookings.id, k0: sql<string>`${bookings.createdAt}::text` })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .leftJoin(disputes, eq(disputes.bookingId, bookings.id))
    .where(paging.after ? and(where, paging.after(sql`${bookings.createdAt}`, sql`${bookings.id}`)) : where)
    .orderBy(desc(bookings.createdAt), desc(bookings.id))
    .limit(paging.limit)
    .offset(paging.offset)
  const page = await paging.finish(rows, async () => {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(sql`(select 1 from ${bookings} where ${where} limit ${TOTAL_THRESHOLD + 1}) capped`)
    return Number(row?.n ?? 0)
  })
  const items = page.items.map((row) => toBooking(row, autoCompleteDays, true, inspectionDays))
  return { ...page, items: await withParcels(db, items, caller.role === 'admin') }
}

/**
 * The sale of each of these listings, for their seller's My Product: its paid booking (the latest, when a
 * refunded one came before), by listing id.
 */
export async function salesOfProducts(
  db: Db,
  productIds: string[],
  autoCompleteDays: number,
  inspectionDays = autoCompleteDays,
): Promise<Map<string, Booking>> {
  if (productIds.length === 0) return new Map()
  const rows = await selectBookingRows(db)
    .where(and(inArray(bookings.productId, productIds), eq(bookings.isPaid, true)))
    .orderBy(desc(bookings.paidAt), desc(bookings.id))
  const sales = new Map<string, Booking>()
  for (const row of rows) {
    if (!sales.has(row.booking.productId))
      sales.set(row.booking.productId, toBooking(row, autoCompleteDays, true, inspectionDays))
  }
  // My Product is the seller's: the label's link is theirs to print.
  const withParcel = await withParcels(db, [...sales.values()], true)
  return new Map(withParcel.map((b) => [b.productId, b]))
}

/** One booking, for its buyer, the listing's seller, or an admin. */
export async function getBooking(
  db: Db,
  caller: SessionUser,
  id: string,
  autoCompleteDays = 7,
  inspectionDays = autoCompleteDays,
): Promise<Booking> {
  const [row] = await selectBookingRows(db).where(eq(bookings.id, id)).limit(1)
  if (!row) throw notFound('Booking')
  const allowed = caller.role === 'admin' || row.booking.buyerId === caller.id || row.sellerId === caller.id
  if (!allowed) throw new AppError('FORBIDDEN', 'This booking is not yours')
  // The delivery address is the buyer's: their seller reads it once the sale is paid, to ship it.
  const seesAddress = caller.role === 'admin' || row.booking.buyerId === caller.id || row.booking.isPaid
  const [booking] = await withParcels(
    db,
    [toBooking(row, autoCompleteDays, seesAddress, inspectionDays)],
    caller.role === 'admin' || row.sellerId === caller.id,
  )
  if (!booking) throw notFound('Booking')
  return booking
}
