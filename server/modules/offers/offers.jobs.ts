// What happens to offers without either side acting: a proposal expires unanswered, its waiting side is reminded
// before, an accepted offer lapses when its hold ends unpaid, and a sale closes the listing's other offers. Every
// one is a conditional update, so a job that runs twice (or on two instances) changes nothing the second time.

import { and, eq, inArray, ne, sql } from 'drizzle-orm'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { bookings, offerEvents, offers, products } from '#server/db/schema'
import type { Mail } from '#server/mail/mail'

/** The `offers.expire` job: the proposal `round` of this offer, still unanswered at its time, expires. */
export async function expireOffer(db: Db, offerId: string, round: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const done = await tx
      .update(offers)
      .set({ status: 'expired', updatedAt: sql`now()` })
      .where(
        and(
          eq(offers.id, offerId),
          eq(offers.status, 'open'),
          eq(offers.rounds, round),
          sql`${offers.expiresAt} <= now()`,
        ),
      )
      .returning({ id: offers.id })
    if (done.length === 0) return false
    await tx.insert(offerEvents).values({ offerId, kind: 'expired', actor: null })
    return true
  })
}

/** The `offers.remind` job: the side an open offer waits for hears that it expires soon (once per proposal). */
export async function remindOffer(ctx: Pick<AppContext, 'db' | 'mail'>, offerId: string, round: number) {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ offer: offers, productName: products.name })
      .from(offers)
      .innerJoin(products, eq(products.id, offers.productId))
      .where(
        and(
          eq(offers.id, offerId),
          eq(offers.status, 'open'),
          eq(offers.rounds, round),
          sql`${offers.expiresAt} > now()`,
        ),
      )
    if (!row) return false
    const o = row.offer
    await ctx.mail.queue(tx, {
      to: { userId: o.waitingFor === 'seller' ? o.sellerId : o.buyerId },
      template: 'offer-expiring',
      data: {
        offerId,
        productName: row.productName,
        amountCents: o.amountCents,
        expiresAt: o.expiresAt.toISOString(),
      },
    })
    return true
  })
}

/**
 * The `offers.lapse` job: an accepted offer whose hold ended unpaid lapses; its booking goes back to the listing's
 * price (an ordinary booking, which the buyer may still pay at that price) and the laptop is free again.
 */
export async function lapseOffer(db: Db, offerId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [seen] = await tx.select({ bookingId: offers.bookingId }).from(offers).where(eq(offers.id, offerId))
    if (!seen?.bookingId) return false
    // Locks in the offers' order: the booking, then the offer.
    const [booking] = await tx
      .select({ isPaid: bookings.isPaid })
      .from(bookings)
      .where(eq(bookings.id, seen.bookingId))
      .for('update')
    if (!booking || booking.isPaid) return false
    const done = await tx
      .update(offers)
      .set({ status: 'lapsed', updatedAt: sql`now()` })
      .where(and(eq(offers.id, offerId), eq(offers.status, 'accepted'), sql`${offers.payBy} <= now()`))
      .returning({ id: offers.id })
    if (done.length === 0) return false
    await tx
      .update(bookings)
      .set({
        priceCents: sql`(select ${products.resalePriceCents} from ${products} where ${products.id} = ${bookings.productId})`,
      })
      .where(eq(bookings.id, seen.bookingId))
    await tx.insert(offerEvents).values({ offerId, kind: 'lapsed', actor: null })
    return true
  })
}

/**
 * The buyer's booking of a listing carries an accepted offer whose hold has ended unpaid: it cannot be paid at
 * the agreed price any more (the lapse job reprices it within seconds). Read inside a hold's transaction.
 */
export async function offerLapsedOn(tx: Db, bookingId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: offers.id })
    .from(offers)
    .where(and(eq(offers.bookingId, bookingId), eq(offers.status, 'accepted'), sql`${offers.payBy} <= now()`))
    .limit(1)
  return row !== undefined
}

/**
 * In a sale's transaction (after the listing is locked): every other offer on the listing closes. Open ones are
 * declined and their buyers emailed; an accepted one of another booking (its hold long gone) lapses.
 */
export async function closeOffersOnSale(
  tx: Db,
  productId: string,
  soldBookingId: string | null,
  mail: Pick<Mail, 'queue'>,
) {
  const declined = await tx
    .update(offers)
    .set({ status: 'declined', declineReason: 'The laptop sold to another buyer', updatedAt: sql`now()` })
    .where(and(eq(offers.productId, productId), eq(offers.status, 'open')))
    .returning({
      id: offers.id,
      buyerId: offers.buyerId,
      amountCents: offers.amountCents,
      expiresAt: offers.expiresAt,
    })
  const lapsed = await tx
    .update(offers)
    .set({ status: 'lapsed', updatedAt: sql`now()` })
    .where(
      and(
        eq(offers.productId, productId),
        eq(offers.status, 'accepted'),
        soldBookingId ? ne(offers.bookingId, soldBookingId) : sql`true`,
      ),
    )
    .returning({ id: offers.id })
  const events = [
    ...declined.map((d) => ({ offerId: d.id, kind: 'sold' as const, actor: null })),
    ...lapsed.map((d) => ({ offerId: d.id, kind: 'lapsed' as const, actor: null })),
  ]
  if (events.length > 0) await tx.insert(offerEvents).values(events)
  if (declined.length === 0) return
  const [listing] = await tx.select({ name: products.name }).from(products).where(eq(products.id, productId))
  // An offer that had already run out unanswered is closed too, but its buyer was not waiting on it.
  const live = declined.filter((d) => d.expiresAt.getTime() > Date.now())
  for (const d of live) {
    await mail.queue(tx, {
      to: { userId: d.buyerId },
      template: 'offer-declined',
      data: {
        offerId: d.id,
        productId,
        productName: listing?.name ?? 'the laptop',
        amountCents: d.amountCents,
        reason: null,
        sold: true,
      },
    })
  }
}

/**
 * In the transaction that takes listings off sale (server/modules/deal/leave-sale.ts): their open offers close
 * (declined, with the reason) and their buyers are emailed; an accepted one not yet paid lapses (its hold is
 * released by the same step, and its booking cancelled).
 */
export async function closeOffersOffSale(
  tx: Db,
  productIds: string[],
  reason: string,
  mail: Pick<Mail, 'queue'>,
): Promise<void> {
  if (productIds.length === 0) return
  const declined = await tx
    .update(offers)
    .set({ status: 'declined', declineReason: reason, updatedAt: sql`now()` })
    .where(and(inArray(offers.productId, productIds), eq(offers.status, 'open')))
    .returning({
      id: offers.id,
      productId: offers.productId,
      buyerId: offers.buyerId,
      amountCents: offers.amountCents,
      expiresAt: offers.expiresAt,
    })
  const lapsed = await tx
    .update(offers)
    .set({ status: 'lapsed', updatedAt: sql`now()` })
    .where(and(inArray(offers.productId, productIds), eq(offers.status, 'accepted')))
    .returning({ id: offers.id })
  const events = [
    ...declined.map((d) => ({ offerId: d.id, kind: 'off_sale' as const, actor: null, note: reason })),
    ...lapsed.map((d) => ({ offerId: d.id, kind: 'lapsed' as const, actor: null, note: reason })),
  ]
  if (events.length > 0) await tx.insert(offerEvents).values(events)
  const live = declined.filter((d) => d.expiresAt.getTime() > Date.now())
  if (live.length === 0) return
  const names = await tx
    .select({ id: products.id, name: products.name })
    .from(products)
    .where(inArray(products.id, [...new Set(live.map((d) => d.productId))]))
  for (const d of live) {
    await mail.queue(tx, {
      to: { userId: d.buyerId },
      template: 'offer-declined',
      data: {
        offerId: d.id,
        productId: d.productId,
        productName: names.find((n) => n.id === d.productId)?.name ?? 'the laptop',
        amountCents: d.amountCents,
        reason,
        sold: false,
        offSale: reason,
      },
    })
  }
}

/** Open offers waiting on each of these listings (My Product's count), by listing id. */
export async function waitingOfferCounts(db: Db, productIds: string[]): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map()
  const rows = await db
    .select({ productId: offers.productId, n: sql<number>`count(*)::int` })
    .from(offers)
    .where(
      and(inArray(offers.productId, productIds), eq(offers.status, 'open'), sql`${offers.expiresAt} > now()`),
    )
    .groupBy(offers.productId)
  return new Map(rows.map((r) => [r.productId, r.n]))
}

export function registerOfferJobs(ctx: Pick<AppContext, 'db' | 'mail' | 'jobs'>) {
  ctx.jobs.work('offers.expire', async (job) => {
    await expireOffer(ctx.db, job.data.offerId, job.data.round)
  })
  ctx.jobs.work('offers.remind', async (job) => {
    await remindOffer(ctx, job.data.offerId, job.data.round)
  })
  ctx.jobs.work('offers.lapse', async (job) => {
    await lapseOffer(ctx.db, job.data.offerId)
  })
}
