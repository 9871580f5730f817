import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import {
  OFFER_MAX_ROUNDS,
  OFFER_STATE_WORDS,
  type Offer,
  type OfferEvent,
  type OfferState,
  type OffersQuery,
} from '#contract/offers'
import { PLACEHOLDER_IMAGE } from '#contract/products'
import type { Db } from '#server/db/client'
import { bookings, offerEvents, offers, products, users } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import { firstPhotoUrl } from '#server/lib/listing-sql'
import type { SessionUser } from '#server/lib/session'

/**
 * An offer's state by the database's clock: an open offer past its time is expired and an accepted one past
 * its hold is lapsed, whether or not the job that records it has run yet; an accepted one whose booking is
 * paid is `paid`.
 */
export const offerState = sql<OfferState>`case
  when ${offers.status} = 'open' and ${offers.expiresAt} <= now() then 'expired'
  when ${offers.status} = 'accepted' and exists (select 1 from ${bookings} pb
    where pb.id = ${offers.bookingId} and pb.is_paid) then 'paid'
  when ${offers.status} = 'accepted' and ${offers.payBy} <= now() then 'lapsed'
  else ${offers.status} end`

/** Proposals made on this listing by this buyer, over all their offers (the three-round limit). */
export const pairRounds = (productId: SQL | string, buyerId: SQL | string) =>
  sql<number>`(select coalesce(sum(o2.rounds), 0)::int from ${offers} o2
    where o2.product_id = ${productId} and o2.buyer_id = ${buyerId})`

const buyerUsers = alias(users, 'offer_buyers')
const sellerUsers = alias(users, 'offer_sellers')

const offerColumns = {
  offer: offers,
  state: offerState,
  productName: products.name,
  productImage: firstPhotoUrl,
  askingCents: products.resalePriceCents,
  buyerName: buyerUsers.name,
  sellerName: sellerUsers.name,
  pairRounds: pairRounds(sql`${offers.productId}`, sql`${offers.buyerId}`),
  conversationId: sql<string | null>`(select cb.id from ${bookings} cb
    where cb.product_id = ${offers.productId} and cb.buyer_id = ${offers.buyerId})`,
}

type OfferRow = {
  offer: typeof offers.$inferSelect
  state: OfferState
  productName: string
  productImage: string | null
  askingCents: number
  buyerName: string
  sellerName: string
  pairRounds: number
  conversationId: string | null
}

function selectOffers(db: Db) {
  return db
    .select(offerColumns)
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .innerJoin(buyerUsers, eq(buyerUsers.id, offers.buyerId))
    .innerJoin(sellerUsers, eq(sellerUsers.id, offers.sellerId))
}

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** What leaves the server for an offer, as its buyer or its seller sees it. */
export function toOffer(row: OfferRow, viewer: SessionUser, events: OfferEvent[]): Offer {
  const o = row.offer
  const open = row.state === 'open'
  const accepted = row.state === 'accepted' || row.state === 'paid'
  return {
    _id: o.id,
    productId: o.productId,
    productName: row.productName,
    productImage: row.productImage ?? PLACEHOLDER_IMAGE,
    asking_price_cents: row.askingCents,
    buyerId: o.buyerId,
    buyerName: row.buyerName,
    sellerId: o.sellerId,
    sellerName: row.sellerName,
    role: o.buyerId === viewer.id ? 'buyer' : 'seller',
    state: row.state,
    waitingFor: open ? o.waitingFor : null,
    amount: o.amountCents / 100,
    amount_cents: o.amountCents,
    rounds: row.pairRounds,
    roundsLeft: Math.max(0, OFFER_MAX_ROUNDS - row.pairRounds),
    note: o.note,
    declineReason: o.declineReason,
    expiresAt: open ? o.expiresAt.toISOString() : null,
    bookingId: accepted ? o.bookingId : null,
    payBy: row.state === 'accepted' ? iso(o.payBy) : null,
    conversationId: row.conversationId,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
    events,
  }
}

async function eventsOf(db: Db, offerIds: string[]): Promise<Map<string, OfferEvent[]>> {
  const byOffer = new Map<string, OfferEvent[]>()
  if (offerIds.length === 0) return byOffer
  const rows = await db
    .select()
    .from(offerEvents)
    .where(inArray(offerEvents.offerId, offerIds))
    .orderBy(asc(offerEvents.createdAt), asc(offerEvents.id))
  for (const r of rows) {
    const list = byOffer.get(r.offerId) ?? []
    list.push({
      kind: r.kind,
      by: r.actor,
      amount_cents: r.amountCents,
      note: r.note,
      createdAt: r.createdAt.toISOString(),
    })
    byOffer.set(r.offerId, list)
  }
  return byOffer
}

/** One offer, for its buyer or the listing's seller; anyone else gets 404, as if it did not exist. */
export async function getOffer(db: Db, viewer: SessionUser, id: string): Promise<Offer> {
  const [row] = await selectOffers(db).where(eq(offers.id, id)).limit(1)
  if (!row || (row.offer.buyerId !== viewer.id && row.offer.sellerId !== viewer.id)) throw notFound('Offer')
  const events = await eventsOf(db, [id])
  return toOffer(row, viewer, events.get(id) ?? [])
}

/** The caller's offers as a buyer, or the offers on their listings as a seller; newest first (at most 200). */
export async function findOffers(db: Db, viewer: SessionUser, q: OffersQuery): Promise<Offer[]> {
  const conditions: SQL[] = [
    q.role === 'buyer' ? eq(offers.buyerId, viewer.id) : eq(offers.sellerId, viewer.id),
  ]
  if (q.productId) conditions.push(eq(offers.productId, q.productId))
  if (q.open === 'true') conditions.push(sql`${offerState} = 'open'`)
  const rows = await selectOffers(db)
    .where(and(...conditions))
    .orderBy(desc(offers.updatedAt), desc(offers.id))
    .limit(200)
  const events = await eventsOf(
    db,
    rows.map((r) => r.offer.id),
  )
  return rows.map((r) => toOffer(r, viewer, events.get(r.offer.id) ?? []))
}

/** A refusal for a step in the wrong state: 409, naming the state. */
export function wrongState(action: string, state: OfferState, waitingFor?: 'buyer' | 'seller'): AppError {
  const words =
    state === 'open' && waitingFor ? `waiting for the ${waitingFor}'s answer` : OFFER_STATE_WORDS[state]
  return new AppError('CONFLICT', `You cannot ${action}: this offer is ${words}`)
}
