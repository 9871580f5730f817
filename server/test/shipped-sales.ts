// A sale the buyer chose to have shipped, paid through the API: its listing, its booking with the delivery the
// buyer would choose at booking (the address and a rate the test carrier really quoted, so the label can be bought
// at it), the hold and the test card's payment. Tests of labels and tracking start here.
import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import type { AppInstance } from '#server/app'
import type { Db } from '#server/db/client'
import { bookings } from '#server/db/schema'
import { quoteRates } from '#server/modules/shipping'
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

export const SHIP_FROM = {
  name: 'Sam Seller',
  street1: '417 Montgomery St',
  city: 'San Francisco',
  state: 'CA',
  zip: '94104',
  country: 'US',
}
export const SHIP_TO = {
  name: 'Bea Buyer',
  street1: '179 N Harbor Dr',
  city: 'Redondo Beach',
  state: 'CA',
  zip: '90277',
  country: 'US',
}
const LAPTOP_PARCEL = { weightOz: 88, lengthIn: 18, widthIn: 13, heightIn: 4 }

export type ShippedSale = { product: CreatedProduct; booking: BookingRow; shippingCents: number }

/** A new listing of `seller`'s, booked by `buyer` to be shipped at the cheapest quoted rate; paid unless `paid: false`. */
export async function shippedSale(
  t: { app: AppInstance; db: Db },
  parties: { buyer: Party; seller: Party; brand: Pick<BrandRow, 'id'>; priceCents?: number; paid?: boolean },
): Promise<ShippedSale> {
  const { buyer, seller, brand } = parties
  const product = await createProduct(t.db, {
    seller,
    brand,
    resalePriceCents: parties.priceCents ?? 64_900,
  })
  const quote = await quoteRates(t.app.ctx, { from: SHIP_FROM, to: SHIP_TO, parcel: LAPTOP_PARCEL })
  const rate = quote.rates[0]
  if (!rate) throw new Error('The test carrier quoted no rate')
  const booking = await createBooking(t.db, {
    buyer,
    product,
    deliveryMethod: 'ship',
    shippingCents: rate.amountCents,
    shippingAddress: SHIP_TO,
    shippingRate: { shipmentId: quote.shipmentId, ...rate },
  })
  if (parties.paid !== false) {
    const as = await bearerFor(t.app, buyer)
    const hold = await t.app.inject({ method: 'POST', url: `/api/bookings/${booking.id}/hold`, headers: as })
    expect(hold.statusCode, hold.body).toBe(200)
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/payments/test',
      headers: as,
      payload: {
        bookingId: booking.id,
        card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' },
      },
    })
    expect(paid.statusCode, paid.body).toBe(200)
  }
  const [row] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id))
  return { product, booking: row ?? booking, shippingCents: rate.amountCents }
}
