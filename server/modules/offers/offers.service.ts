// Offers: a buyer proposes a price, the seller accepts, declines or counters, the buyer accepts a counter,
// counters again or withdraws; an accepted offer becomes a booking at the agreed price that holds the laptop
// for the buyer while they pay (docs/decisions/0038-offers.md).
//
// Locks, always in this order so that no two steps deadlock: the buyer's booking of the listing, the listing,
// the offer (payments lock booking then listing, and a sale closes the listing's offers after both).

import { and, eq, gt, sql } from 'drizzle-orm'
import { formatMoney } from '#contract/money'
import {
  type CounterOffer,
  type DeclineOffer,
  type NewOffer,
  OFFER_MAX_OPEN_PER_BUYER,
  OFFER_MAX_ROUNDS,
  OFFER_MIN_SHARE,
  type OfferAnswer,
  type OfferState,
} from '#contract/offers'
import { PLACEHOLDER_IMAGE } from '#contract/products'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { bookingHolds, bookings, offerEvents, offers, productHolds, products, users } from '#server/db/schema'
import { recordHoldEnd } from '#server/lib/alert-events'
import { AppError, notFound } from '#server/lib/errors'
import { firstPhotoUrl } from '#server/lib/listing-sql'
import { assertOnSale, saleColumns } from '#server/lib/on-sale'
import type { SessionUser } from '#server/lib/session'
import { offerState, pairRounds, wrongState } from './offers.queries'

export type OffersContext = Pick<AppContext, 'db' | 'jobs' | 'mail' | 'config'>

type OfferRow = typeof offers.$inferSelect

const toCents = (dollars: number) => Math.round(dollars * 100)
const amountError = (message: string) => new AppError('VALIDATION', message, { amount: message })

/** The listing as offers need it, with the facts of the on-sale rule; locked when `lock` (inside a step's transaction). */
async function listingFor(tx: Db, productId: string, lock = false) {
  const query = tx
    .select({
      id: products.id,
      name: products.name,
      sellerId: products.sellerId,
      askingCents: products.resalePriceCents,
      offersEnabled: products.offersEnabled,
      floorCents: products.offerFloorCents,
      image: firstPhotoUrl,
      ...saleColumns,
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(eq(products.id, productId))
  // Every step locks the listing's row (share, or update to accept), so a change that takes it off sale waits
  // for the step, and the step for it: the step sees the listing as it is when it acts.
  const [row] = await query.for(lock ? 'update' : 'share', { of: products })
  return row
}

/** Seconds before an offer expires when its waiting side is reminded: six hours, or a quarter of the time. */
function reminderDelay(hours: number): number {
  const total = hours * 3600
  return total - Math.min(6 * 3600, total / 4)
}

/** The expiry and the reminder of a proposal, queued in its transaction. */
async function queueDeadlines(ctx: OffersContext, tx: Db, offerId: string, round: number) {
  const seconds = ctx.config.offers.hours * 3600
  await ctx.jobs.send('offers.expire', { offerId, round }, { tx, startAfter: seconds + 1 })
  await ctx.jobs.send(
    'offers.remind',
    { offerId, round },
    { tx, startAfter: reminderDelay(ctx.config.offers.hours) },
  )
}

async function recordEvent(
  tx: Db,
  offerId: string,
  kind: (typeof offerEvents.$inferInsert)['kind'],
  actor: 'buyer' | 'seller' | null,
  amountCents: number | null = null,
  note: string | null = null,
) {
  await tx.insert(offerEvents).values({ offerId, kind, actor, amountCents, note })
}

/**
 * A buyer offers a price for a listing on sale that is not theirs. Refused with the reason: offers turned off
 * (409), at or above the asking price, under half of it or under the seller's floor (400 naming `amount`), a
 * second open offer on the listing or an accepted one not yet paid (409), three rounds already made on it
 * (409), five open offers already (429). The seller is emailed in the offer's transaction.
 */
export async function makeOffer(
  ctx: OffersContext,
  buyer: SessionUser,
  productId: string,
  input: NewOffer,
): Promise<string> {
  const amountCents = toCents(input.amount)
  const note = input.note ? input.note : null
  return ctx.db.transaction(async (tx) => {
    // One buyer's offers are made one at a time, so two tabs cannot both slip under a limit.
    const [account] = await tx
      .select({ emailVerified: users.emailVerified })
      .from(users)
      .where(eq(users.id, buyer.id))
      .for('update')
    // An accepted offer holds the laptop like the payment page does, so it asks what a hold asks: a confirmed email.
    if (!account?.emailVerified) {
      throw new AppError(
        'FORBIDDEN',
        'Confirm your email address before making an offer: open the link we emailed you when you signed up, or send a new one from Settings (/dashboard/settings).',
      )
    }
    const listing = await listingFor(tx, productId)
    if (!listing || listing.removedAt || listing.sellerDisabledAt) throw notFound('Product')
    if (listing.sellerId === buyer.id)
      throw new AppError('FORBIDDEN', 'You cannot make an offer on your own listing')
    assertOnSale(listing)
    if (!listing.offersEnabled)
      throw new AppError('CONFLICT', 'The seller is not taking offers on this laptop')
    if (amountCents >= listing.askingCents) {
      throw amountError(
        `Offer less than the asking price of ${formatMoney(listing.askingCents)}, or book it at that price`,
      )
    }
    const half = Math.ceil(listing.askingCents * OFFER_MIN_SHARE)
    if (amountCents < half) {
      throw amountError(`Offers under half the asking price (${formatMoney(half)}) are not accepted`)
    }
    if (listing.floorCents !== null && amountCents < listing.floorCents) {
      throw amountError(`The seller is not taking offers under ${formatMoney(listing.floorCents)}`)
    }
    const [mine] = await tx
      .select({ state: offerState, rounds: pairRounds(productId, buyer.id) })
      .from(offers)
      .where(and(eq(offers.productId, productId), eq(offers.buyerId, buyer.id)))
      .orderBy(sql`${offers.createdAt} desc`)
      .limit(1)
    if (mine?.state === 'open') {
      throw new AppError(
        'CONFLICT',
        'You already have an open offer on this laptop: answer or withdraw it first',
      )
    }
    if (mine?.state === 'accepted') {
      throw new AppError('CONFLICT', 'Your offer on this laptop was accepted: pay for it from My Orders')
    }
    if ((mine?.rounds ?? 0) >= OFFER_MAX_ROUNDS) {
      throw new AppError(
        'CONFLICT',
        `You have made ${OFFER_MAX_ROUNDS} rounds of offers on this laptop, the most we allow. You can still book it at its price.`,
      )
    }
    const [open] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(offers)
      .where(and(eq(offers.buyerId, buyer.id), eq(offers.status, 'open'), gt(offers.expiresAt, sql`now()`)))
    if ((open?.n ?? 0) >= OFFER_MAX_OPEN_PER_BUYER) {
      throw new AppError(
        'RATE_LIMITED',
        `You have ${OFFER_MAX_OPEN_PER_BUYER} open offers, the most at once. Wait for an answer, or withdraw one, then try again.`,
      )
    }
    // An earlier offer of this pair that ran out unanswered is recorded as expired now, so the new one is the open one.
    await expireOverdue(tx, and(eq(offers.productId, productId), eq(offers.buyerId, buyer.id)))
    const [row] = await tx
      .insert(offers)
      .values({
        productId,
        buyerId: buyer.id,
        sellerId: listing.sellerId,
        amountCents,
        buyerAmountCents: amountCents,
        waitingFor: 'seller',
        rounds: 1,
        note,
        expiresAt: sql`now() + make_interval(hours => ${ctx.config.offers.hours})`,
      })
      .returning()
    if (!row) throw new AppError('INTERNAL', 'The offer could not be saved')
    await recordEvent(tx, row.id, 'offer', 'buyer', amountCents, note)
    await queueDeadlines(ctx, tx, row.id, 1)
    await ctx.mail.queue(tx, {
      to: { userId: listing.sellerId },
      template: 'offer-received',
      data: {
        offerId: row.id,
        productName: listing.name,
        amountCents,
        askingCents: listing.askingCents,
        buyerName: buyer.name,
        note,
        expiresAt: row.expiresAt.toISOString(),
      },
    })
    return row.id
  })
}

/** Marks open offers past their time expired (what the expiry job does, for the offers `where` picks). */
async function expireOverdue(tx: Db, where: ReturnType<typeof and>) {
  const done = await tx
    .update(offers)
    .set({ status: 'expired', updatedAt: sql`now()` })
    .where(and(where, eq(offers.status, 'open'), sql`${offers.expiresAt} <= now()`))
    .returning({ id: offers.id })
  for (const d of done) await recordEvent(tx, d.id, 'expired', null)
}

/**
 * Reads an offer for a step and says who the caller is to it: anyone but its buyer and the listing's seller
 * gets 404, as if it did not exist. With `lock`, the offer's row is locked (the step's transaction).
 */
async function offerFor(tx: Db, caller: SessionUser, offerId: string, lock = false) {
  const query = tx.select({ offer: offers, state: offerState }).from(offers).where(eq(offers.id, offerId))
  const [row] = lock ? await query.for('update', { of: offers }) : await query
  if (!row) throw notFound('Offer')
  const side = row.offer.buyerId === caller.id ? 'buyer' : row.offer.sellerId === caller.id ? 'seller' : null
  if (!side) throw notFound('Offer')
  return { offer: row.offer, state: row.state, side: side as 'buyer' | 'seller' }
}

/** The side that is not `side`. */
const other = (side: 'buyer' | 'seller') => (side === 'buyer' ? 'seller' : 'buyer')

/** An open offer waiting for this caller's answer, or the refusal (409 naming the state). */
function mustWaitFor(
  action: string,
  found: { offer: OfferRow; state: OfferState; side: 'buyer' | 'seller' },
) {
  if (found.state !== 'open') throw wrongState(action, found.state)
  if (found.offer.waitingFor !== found.side) throw wrongState(action, 'open', found.offer.waitingFor)
}

/**
 * The side the offer waits for counters with another amount: the seller between the buyer's latest amount and
 * the asking price, the buyer between their latest amount and the seller's counter. At most three proposals per
 * buyer and listing; the other side is emailed and has OFFER_HOURS to answer.
 */
export async function counterOffer(
  ctx: OffersContext,
  caller: SessionUser,
  offerId: string,
  input: CounterOffer,
): Promise<OfferAnswer> {
  const amountCents = toCents(input.amount)
  const note = input.note ? input.note : null
  return ctx.db.transaction(async (tx) => {
    // Unlocked first, to learn the listing; then the locks in their order (listing, offer).
    const seen = await offerFor(tx, caller, offerId)
    const listing = await listingFor(tx, seen.offer.productId)
    const found = await offerFor(tx, caller, offerId, true)
    mustWaitFor('counter this offer', found)
    const { offer, side } = found
    if (!listing) throw new AppError('CONFLICT', 'This listing is no longer available')
    assertOnSale(listing)
    const [used] = await tx
      .select({ n: pairRounds(offer.productId, offer.buyerId) })
      .from(offers)
      .where(eq(offers.id, offerId))
    if ((used?.n ?? 0) >= OFFER_MAX_ROUNDS) {
      throw new AppError(
        'CONFLICT',
        `${OFFER_MAX_ROUNDS} rounds have been made on this laptop, the most we allow: ${side === 'seller' ? 'accept or decline' : 'accept or withdraw'} this one`,
      )
    }
    const [low, high] =
      side === 'seller'
        ? [offer.amountCents, listing.askingCents]
        : [offer.buyerAmountCents, offer.amountCents]
    if (amountCents <= low || amountCents >= high) {
      throw amountError(
        high - low <= 1
          ? 'There is no amount between the two prices left to counter with: accept or answer otherwise'
          : `Counter with an amount between ${formatMoney(low)} and ${formatMoney(high)}`,
      )
    }
    const [moved] = await tx
      .update(offers)
      .set({
        amountCents,
        buyerAmountCents: side === 'buyer' ? amountCents : offer.buyerAmountCents,
        waitingFor: other(side),
        rounds: offer.rounds + 1,
        expiresAt: sql`now() + make_interval(hours => ${ctx.config.offers.hours})`,
        updatedAt: sql`now()`,
      })
      .where(eq(offers.id, offerId))
      .returning()
    if (!moved) throw new AppError('INTERNAL', 'The counter-offer could not be saved')
    await recordEvent(tx, offerId, 'counter', side, amountCents, note)
    await queueDeadlines(ctx, tx, offerId, moved.rounds)
    const lastRound = (used?.n ?? 0) + 1 >= OFFER_MAX_ROUNDS
    await ctx.mail.queue(tx, {
      to: { userId: side === 'seller' ? offer.buyerId : offer.sellerId },
      template: 'offer-countered',
      data: {
        offerId,
        productName: listing.name,
        amountCents,
        fromName: caller.name,
        role: other(side),
        note,
        expiresAt: moved.expiresAt.toISOString(),
        lastRound,
      },
    })
    return { acknowledged: true, modifiedCount: 1, state: 'open', bookingId: null }
  })
}

/** The seller declines an offer waiting for their answer, optionally with a reason; the buyer is emailed. */
export async function declineOffer(
  ctx: OffersContext,
  caller: SessionUser,
  offerId: string,
  input: DeclineOffer,
): Promise<OfferAnswer> {
  const reason = input?.reason ? input.reason : null
  return ctx.db.transaction(async (tx) => {
    const found = await offerFor(tx, caller, offerId, true)
    if (found.side !== 'seller') {
      throw new AppError('FORBIDDEN', 'Only the seller can decline an offer; you can withdraw yours')
    }
    mustWaitFor('decline this offer', found)
    await tx
      .update(offers)
      .set({ status: 'declined', declineReason: reason, updatedAt: sql`now()` })
      .where(eq(offers.id, offerId))
    await recordEvent(tx, offerId, 'declined', 'seller', null, reason)
    const [listing] = await tx
      .select({ name: products.name })
      .from(products)
      .where(eq(products.id, found.offer.productId))
    await ctx.mail.queue(tx, {
      to: { userId: found.offer.buyerId },
      template: 'offer-declined',
      data: {
        offerId,
        productId: found.offer.productId,
        productName: listing?.name ?? 'the laptop',
        amountCents: found.offer.amountCents,
        reason,
        sold: false,
      },
    })
    return { acknowledged: true, modifiedCount: 1, state: 'declined', bookingId: null }
  })
}

/** The buyer withdraws their open offer, whoever it waits for. */
export async function withdrawOffer(
  ctx: OffersContext,
  caller: SessionUser,
  offerId: string,
): Promise<OfferAnswer> {
  return ctx.db.transaction(async (tx) => {
    const found = await offerFor(tx, caller, offerId, true)
    if (found.side !== 'buyer') {
      throw new AppError('FORBIDDEN', 'Only the buyer can withdraw an offer; you can decline it')
    }
    if (found.state !== 'open') throw wrongState('withdraw this offer', found.state)
    await tx.update(offers).set({ status: 'withdrawn', updatedAt: sql`now()` }).where(eq(offers.id, offerId))
    await recordEvent(tx, offerId, 'withdrawn', 'buyer')
    return { acknowledged: true, modifiedCount: 1, state: 'withdrawn', bookingId: null }
  })
}

/**
 * The side the offer waits for accepts the amount on the table. The buyer's booking of the listing is made (or
 * their existing one repriced) at the agreed price, and the laptop is held for it for HOLD_SECONDS, as opening
 * the payment page does: unpaid by then, the offer lapses and the laptop is free again (`offers.lapse`). Refused
 * while another buyer holds the laptop, so two offers accepted at once on one listing give one hold and one
 * sale. The other side is emailed.
 */
export async function acceptOffer(
  ctx: OffersContext,
  caller: SessionUser,
  offerId: string,
): Promise<OfferAnswer> {
  const { db, config } = ctx
  const outcome = await db.transaction(async (tx) => {
    // Unlocked first, to learn the pair; then the locks in their order (booking, listing, offer).
    const seen = await offerFor(tx, caller, offerId)
    const { productId, buyerId } = seen.offer
    await tx
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(eq(bookings.productId, productId), eq(bookings.buyerId, buyerId)))
      .for('update')
    const listing = await listingFor(tx, productId, true)
    const found = await offerFor(tx, caller, offerId, true)
    mustWaitFor('accept this offer', found)
    if (!listing) throw new AppError('CONFLICT', 'This listing is no longer available')
    assertOnSale(listing)
    const { offer, side } = found

    const [buyer] = await tx
      .select({ name: users.name, email: users.email, phone: users.phone })
      .from(users)
      .where(eq(users.id, buyerId))
    if (!buyer) throw notFound('Offer')
    const [booking] = await tx
      .insert(bookings)
      .values({
        productId,
        buyerId,
        productName: listing.name,
        productImage: listing.image ?? PLACEHOLDER_IMAGE,
        priceCents: offer.amountCents,
        userName: buyer.name,
        email: buyer.email,
        phoneNumber: buyer.phone ?? '',
        location: '',
      })
      .onConflictDoUpdate({
        target: [bookings.productId, bookings.buyerId],
        set: { priceCents: offer.amountCents },
        setWhere: sql`${bookings.isPaid} = false`,
      })
      .returning({ id: bookings.id })
    if (!booking) throw new AppError('CONFLICT', 'This laptop has already been sold')

    // The hold, as the payment page takes it: only when nobody else holds the laptop now.
    const [taken] = await tx
      .insert(productHolds)
      .values({
        productId,
        bookingId: booking.id,
        holdUntil: sql`now() + make_interval(secs => ${config.deal.holdSeconds})`,
      })
      .onConflictDoUpdate({
        target: productHolds.productId,
        set: { bookingId: sql`excluded.booking_id`, holdUntil: sql`excluded.hold_until` },
        setWhere: sql`${productHolds.holdUntil} <= now() or ${productHolds.bookingId} = excluded.booking_id`,
      })
      .returning({ holdUntil: productHolds.holdUntil })
    if (!taken) {
      throw new AppError(
        'CONFLICT',
        'Another buyer is paying for this laptop right now. Try again when their hold ends.',
      )
    }
    await tx
      .insert(bookingHolds)
      .values({ bookingId: booking.id, productId, buyerId, holdUntil: taken.holdUntil })
    await recordHoldEnd(tx, productId, sql`${taken.holdUntil}::timestamptz + interval '1 second'`)
    await tx
      .update(offers)
      .set({ status: 'accepted', bookingId: booking.id, payBy: taken.holdUntil, updatedAt: sql`now()` })
      .where(eq(offers.id, offerId))
    await recordEvent(tx, offerId, 'accepted', side, offer.amountCents)
    await ctx.jobs.send('offers.lapse', { offerId }, { tx, startAfter: config.deal.holdSeconds + 1 })
    await ctx.mail.queue(tx, {
      to: { userId: side === 'seller' ? buyerId : offer.sellerId },
      template: 'offer-accepted',
      data: {
        role: other(side),
        productName: listing.name,
        amountCents: offer.amountCents,
        otherName: caller.name,
        bookingId: booking.id,
        payBy: taken.holdUntil.toISOString(),
      },
    })
    return { bookingId: booking.id }
  })
  return { acknowledged: true, modifiedCount: 1, state: 'accepted', bookingId: outcome.bookingId }
}
