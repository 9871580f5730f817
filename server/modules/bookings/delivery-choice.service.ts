// The buyer's choice of delivery for an unpaid booking: rates quoted from the listing's ship-from address for its
// parcel to the buyer's address, then "meet in person" or one of those rates. The carrier is called before the
// transaction (it is HTTP; on the embedded database the test carrier's own queries would wait for ours), and the
// chosen rate is read back from the carrier, so the shipping charged is the carrier's price, not the browser's
// (docs/decisions/0083). Everything is checked again under the booking's lock before it is written.
import { eq } from 'drizzle-orm'
import type { Booking } from '#contract/bookings'
import {
  canMeet,
  canShip,
  type DeliveryChoiceBody,
  type DeliveryOption,
  type PostalAddress,
  parcelOf,
  type RateQuoteAnswer,
} from '#contract/delivery'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { bookings, products } from '#server/db/schema'
import { AppError } from '#server/lib/errors'
import { assertOnSale, lockSaleFacts } from '#server/lib/on-sale'
import { countOrRefuse } from '#server/lib/rate-limit'
import type { SessionUser } from '#server/lib/session'
import { carrierMode, quotedRate, quoteRates } from '#server/modules/shipping'
import { getBooking } from './bookings.service'
import { lockDeal, wrongStage } from './deal.service'

type Listing = {
  delivery: DeliveryOption
  shipFrom: PostalAddress | null
  screenInches: number
  parcelSize: string | null
  parcelWeightOz: number | null
}

const listingColumns = {
  delivery: products.delivery,
  shipFrom: products.shipFrom,
  screenInches: products.screenInches,
  parcelSize: products.parcelSize,
  parcelWeightOz: products.parcelWeightOz,
}

/**
 * The booking locked for its buyer's choice, with its listing's delivery: 404 for someone who may not see it, 403
 * for its seller or an admin (the choice is the buyer's), 409 once paid or called off, or when the listing left sale.
 */
async function lockChoosable(tx: Db, buyer: SessionUser, bookingId: string) {
  const deal = await lockDeal(tx, buyer, bookingId)
  if (!deal.isBuyer) {
    throw new AppError('FORBIDDEN', 'Only the buyer who booked this laptop can choose how it reaches them')
  }
  if (deal.booking.isPaid) {
    throw new AppError('CONFLICT', 'This booking is paid: how the laptop reaches you can no longer change')
  }
  if (deal.booking.stage !== 'booked') throw wrongStage('choose the delivery', deal.status)
  assertOnSale(await lockSaleFacts(tx, deal.booking.productId))
  const [listing] = await tx
    .select(listingColumns)
    .from(products)
    .where(eq(products.id, deal.booking.productId))
  if (!listing) throw new AppError('NOT_FOUND', 'Product not found')
  return { deal, listing: listing as Listing }
}

/** The listing's ship-from address, when it ships; a 409 saying why not otherwise. */
function shipFromOf(listing: Listing): PostalAddress {
  if (!canShip(listing.delivery)) {
    throw new AppError('CONFLICT', 'This laptop is not shipped: the seller meets buyers in person only')
  }
  if (!listing.shipFrom) {
    throw new AppError('CONFLICT', 'The seller has not said where this laptop ships from yet')
  }
  return listing.shipFrom
}

/** Rates to the buyer's address for their booking, cheapest first (nothing is kept: the choice is made apart). */
export async function quoteBookingRates(
  ctx: AppContext,
  buyer: SessionUser,
  bookingId: string,
  address: PostalAddress,
): Promise<RateQuoteAnswer> {
  // Checked (and released) first: the carrier is not asked for a booking the caller cannot choose for.
  const { listing } = await ctx.db.transaction((tx) => lockChoosable(tx, buyer, bookingId))
  // Each quote is a shipment made at the carrier: counted per buyer (like messages), so neither one account nor
  // a script trying addresses runs up the carrier's calls; the per-address write limit alone misses many addresses.
  await countOrRefuse(
    ctx.counters,
    `shipping-quotes:${buyer.id}`,
    60_000,
    ctx.config.shipping.quotesPerMinute,
    (seconds) =>
      `You are asking for shipping rates too quickly. Please wait ${seconds} seconds and try again.`,
  )
  const quote = await quoteRates(ctx, { from: shipFromOf(listing), to: address, parcel: parcelOf(listing) })
  return {
    shipment_id: quote.shipmentId,
    test_mode: carrierMode(ctx) === 'test',
    rates: quote.rates.map((r) => ({
      shipment_id: quote.shipmentId,
      rate_id: r.rateId,
      carrier: r.carrier,
      service: r.service,
      amount_cents: r.amountCents,
      delivery_days: r.deliveryDays,
    })),
  }
}

/**
 * The buyer chooses: meet in person (any earlier shipping choice is dropped) or ship to an address at a quoted
 * rate, its price read from the carrier. Refused, with nothing changed, for a method the listing does not offer.
 */
export async function chooseDelivery(
  ctx: AppContext,
  buyer: SessionUser,
  bookingId: string,
  choice: DeliveryChoiceBody,
  days: { autoCompleteDays: number; inspectionDays: number },
): Promise<Booking> {
  const offered = (listing: Listing) => {
    if (choice.method === 'meet' && !canMeet(listing.delivery)) {
      throw new AppError('CONFLICT', 'This laptop is shipped only: choose a shipping rate')
    }
    return choice.method === 'ship' ? shipFromOf(listing) : null
  }
  const before = await ctx.db.transaction((tx) => lockChoosable(tx, buyer, bookingId))
  const from = offered(before.listing)
  const rate =
    choice.method === 'ship' && from
      ? await quotedRate(ctx, {
          shipmentId: choice.shipment_id,
          rateId: choice.rate_id,
          from,
          to: choice.address,
          parcel: parcelOf(before.listing),
        })
      : null
  await ctx.db.transaction(async (tx) => {
    const { listing } = await lockChoosable(tx, buyer, bookingId)
    const fromNow = offered(listing)
    // The seller changed where it ships from, or its parcel, while the carrier was asked: that quote is stale.
    if (
      choice.method === 'ship' &&
      (JSON.stringify(fromNow) !== JSON.stringify(from) ||
        JSON.stringify(parcelOf(listing)) !== JSON.stringify(parcelOf(before.listing)))
    ) {
      throw new AppError('CONFLICT', 'The seller changed how this laptop ships: get the rates again')
    }
    await tx
      .update(bookings)
      .set(
        choice.method === 'ship' && rate
          ? {
              deliveryMethod: 'ship',
              shippingCents: rate.amountCents,
              shippingAddress: choice.address,
              shippingRate: { shipmentId: choice.shipment_id, ...rate },
            }
          : { deliveryMethod: 'meet', shippingCents: 0, shippingAddress: null, shippingRate: null },
      )
      .where(eq(bookings.id, bookingId))
  })
  return getBooking(ctx.db, buyer, bookingId, days.autoCompleteDays, days.inspectionDays)
}
