// The seller buys a shipped sale's label (docs/decisions/0084): at the carrier first, outside any transaction (the
// label at the booking's stored rate, bought once: buyLabel is idempotent), then in one transaction the deal's `ship`
// move, which posts the label's money (what the buyer paid for shipping, from `shipping` to `carriers`). A second
// click gets the same parcel and posts nothing. If the sale stopped being paid while the label was being bought (the
// ship-within job cancelled and refunded it, or it was frozen), it does not ship: the label is voided at the carrier.
import { and, eq } from 'drizzle-orm'
import type { SaleParcel } from '#contract/delivery'
import type { AppContext } from '#server/app-context'
import { bookingEvents, bookings } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import type { SessionUser } from '#server/lib/session'
import { lockDeal, wrongStage } from '#server/modules/bookings'
import { assertDealParty, assertDelivery, dealPartiesOf, moveDeal } from '#server/modules/deal'
import {
  buyLabel,
  type ParcelRow,
  saleParcelsOf,
  saleShipped,
  toSaleParcel,
  voidLabel,
} from '#server/modules/shipping'

export type LabelOutcome = { parcel: SaleParcel; bought: boolean }

const STAYED_AFTER_SHIPPING = new Set([
  'shipped',
  'handed_over',
  'returning',
  'completed',
  'disputed',
  'refunded',
])

/**
 * Buys the label of the caller's paid shipped sale and ships the deal, or gives the parcel bought before.
 * `onVoidRefused` hears of a carrier that would not refund a voided label (the parcel is cancelled all the same).
 */
export async function buyShippingLabel(
  ctx: AppContext,
  caller: SessionUser,
  bookingId: string,
  onVoidRefused: (err: Error, parcel: ParcelRow) => void = () => {},
): Promise<LabelOutcome> {
  const deal = await ctx.db.transaction((tx) => lockDeal(tx, caller, bookingId))
  const party = assertDealParty('ship', dealPartiesOf(deal, caller))
  // Before anything is bought at the carrier: the `ship` move's own rule on the way of delivery.
  assertDelivery('ship', deal.booking.deliveryMethod)
  const before = (await saleParcelsOf(ctx.db, [bookingId])).get(bookingId)
  // Bought already: the deal moved on with it (a second click, another tab).
  if (
    before &&
    before.status !== 'cancelled' &&
    deal.booking.stage !== 'paid' &&
    (await hasShipped(ctx, bookingId))
  ) {
    return { parcel: toSaleParcel(before, { seesLabel: true }), bought: false }
  }
  if (deal.booking.stage !== 'paid') throw wrongStage('buy a shipping label', deal.status)
  const rate = deal.booking.shippingRate
  if (!rate) throw new AppError('CONFLICT', 'This sale has no shipping rate to buy a label at')

  const label = { bookingId, purpose: 'sale' as const, shipmentId: rate.shipmentId, rateId: rate.rateId }
  // Two clicks at once both ask the carrier; the one it refuses (postage exists) asks again and records the label
  // the other bought.
  const parcel = await buyLabel(ctx, label).catch(() => buyLabel(ctx, label))
  const outcome = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ stage: bookings.stage })
      .from(bookings)
      .where(eq(bookings.id, bookingId))
      .for('update')
    if (!row) throw notFound('Booking')
    if (row.stage === 'paid') {
      await moveDeal(tx, bookingId, 'ship', party, {
        actorId: caller.id,
        note: `${parcel.carrier} ${parcel.service}, tracking number ${parcel.trackingCode}`,
      })
      // Delivered (or lost) before this move: the deal follows the parcel now.
      await saleShipped(ctx, tx, bookingId)
      return 'shipped' as const
    }
    return row.stage
  })
  if (outcome !== 'shipped' && !(STAYED_AFTER_SHIPPING.has(outcome) && (await hasShipped(ctx, bookingId)))) {
    // The sale was cancelled (or held) while the carrier sold the label: it must not travel.
    const refused = await voidLabel(ctx, parcel)
    if (refused) onVoidRefused(refused, parcel)
    throw new AppError(
      'CONFLICT',
      `This sale is ${outcome === 'refunded' ? 'cancelled and refunded' : 'held for an admin'} now, so it does not ship: the label just bought was cancelled at the carrier. Do not use it.`,
    )
  }
  const after = (await saleParcelsOf(ctx.db, [bookingId])).get(bookingId)
  if (!after) throw new AppError('INTERNAL', 'The label was bought but its parcel is missing')
  return { parcel: toSaleParcel(after, { seesLabel: true }), bought: outcome === 'shipped' }
}

/** Whether the deal made its `ship` move (by the seller, or by the ship-within job finding the label bought). */
async function hasShipped(ctx: AppContext, bookingId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: bookingEvents.id })
    .from(bookingEvents)
    .where(and(eq(bookingEvents.bookingId, bookingId), eq(bookingEvents.kind, 'shipped')))
    .limit(1)
  return Boolean(row)
}
