// A shipped sale at a given stage, reached the way the product reaches it: a listing that ships from the seller's
// address, a booking with the buyer's address and a quoted rate, paid with the test card (price + shipping), the
// sale's label bought from the test carrier (the deal's `ship` move and its ledger posting), and the test carrier's
// clock carrying the parcel to delivered (the deal handed over, the inspection window open).
import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { parcelOf } from '#contract/delivery'
import type { AppInstance } from '#server/app'
import type { Db } from '#server/db/client'
import { bookings, productHolds } from '#server/db/schema'
import { moveDeal } from '#server/modules/deal'
import { advanceTracker, buyLabel, type ParcelRow, quoteRates } from '#server/modules/shipping'
import { bearerFor } from './auth-helpers'
import {
  type BookingRow,
  type BrandRow,
  type CreatedProduct,
  createBooking,
  createProduct,
  type UserRow,
} from './factories'

type Party = Pick<UserRow, 'id' | 'name' | 'email' | 'role'>
type Where = { app: AppInstance; db: Db }

export const SHIP_FROM = {
  name: 'Sam Seller',
  street1: '417 Montgomery St',
  city: 'San Francisco',
  state: 'CA',
  zip: '94104',
  country: 'US',
}
export const DELIVER_TO = {
  name: 'Bea Buyer',
  street1: '179 N Harbor Dr',
  city: 'Redondo Beach',
  state: 'CA',
  zip: '90277',
  country: 'US',
}

export type ShippedDeal = { product: CreatedProduct; booking: BookingRow; parcel: ParcelRow | null }

/** A shipped sale of a new listing of `seller`'s, bought by `buyer`, at `stage`. */
export async function shippedDealAt(
  t: Where,
  stage: 'paid' | 'shipped' | 'delivered',
  parties: { buyer: Party; seller: Party; brand: Pick<BrandRow, 'id'>; priceCents?: number; name?: string },
): Promise<ShippedDeal> {
  const { buyer, seller, brand } = parties
  const product = await createProduct(t.db, {
    seller,
    brand,
    resalePriceCents: parties.priceCents ?? 64_900,
    ...(parties.name ? { name: parties.name } : {}),
    delivery: 'ship',
    shipFrom: SHIP_FROM,
  })
  const quote = await quoteRates(t.app.ctx, { from: SHIP_FROM, to: DELIVER_TO, parcel: parcelOf(product) })
  const rate = quote.rates[0]
  if (!rate) throw new Error('The test carrier quoted no rate')
  const booking = await createBooking(t.db, {
    buyer,
    product,
    deliveryMethod: 'ship',
    shippingCents: rate.amountCents,
    shippingAddress: DELIVER_TO,
    shippingRate: { shipmentId: quote.shipmentId, ...rate },
  })
  await t.db
    .insert(productHolds)
    .values({ productId: product.id, bookingId: booking.id, holdUntil: new Date(Date.now() + 600_000) })
  const paid = await t.app.inject({
    method: 'POST',
    url: '/api/payments/test',
    headers: await bearerFor(t.app, buyer),
    payload: {
      bookingId: booking.id,
      card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' },
    },
  })
  expect(paid.statusCode, paid.body).toBeLessThan(300)
  if (stage === 'paid') return { product, booking, parcel: null }
  const parcel = await buyLabel(t.app.ctx, {
    bookingId: booking.id,
    purpose: 'sale',
    shipmentId: quote.shipmentId,
    rateId: rate.rateId,
  })
  await t.db.transaction((tx) => moveDeal(tx, booking.id, 'ship', 'seller', { actorId: seller.id }))
  if (stage === 'shipped') return { product, booking, parcel }
  await deliverParcel(t, parcel)
  const [row] = await t.db.select({ stage: bookings.stage }).from(bookings).where(eq(bookings.id, booking.id))
  expect(row?.stage).toBe('handed_over')
  return { product, booking, parcel }
}

/** The test carrier's clock, run by hand: the parcel moves step by step to delivered, each step's webhook received. */
export async function deliverParcel(t: Where, parcel: Pick<ParcelRow, 'trackerId'>) {
  let from = 'pre_transit'
  for (const next of ['in_transit', 'out_for_delivery', 'delivered']) {
    await advanceTracker(t.app.ctx, parcel.trackerId, from)
    await t.app.ctx.jobs.drain('test-carrier.webhook')
    from = next
  }
}
