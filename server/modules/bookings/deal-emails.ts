// The deal's emails (topic `deals`), queued in the transaction of the change that causes them, so a change
// that rolls back sends nothing (docs/decisions/0018). Each move reads who is on each side from the booking
// and queues one email per person told: a payment, a completion, a dispute opened, a dispute resolved and a
// sale cancelled (refunded) to both; a handover to the buyer. New bookings are told to the seller a few
// minutes later, several in one email (sendBookedEmail).
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import { bookings, products, users } from '#server/db/schema'
import type { Jobs } from '#server/jobs/jobs'
import type { Mail } from '#server/mail/mail'
import { BOOKED_LISTED } from '#server/mail/templates/deal-booked'
import { saleFigures } from '#server/modules/ledger'

/** What a deal move needs of the mail: queueing in its transaction. */
export type DealMail = Pick<Mail, 'queue'>

export type DealEmail =
  | { kind: 'paid' }
  | { kind: 'handed_over'; note: string | null; completesAt: Date }
  | { kind: 'completed'; how: 'confirmed' | 'auto' }
  | { kind: 'dispute_opened'; reason: string }
  | { kind: 'dispute_resolved'; outcome: 'refunded' | 'released'; reason?: string | null }
  | { kind: 'cancelled'; by: 'seller' | 'admin' | 'refund' | 'ship_late'; reason: string | null }

/** The moves whose email to the seller speaks of the sale's money. */
const SELLER_MONEY_EMAILS = new Set<DealEmail['kind']>(['paid', 'completed', 'dispute_resolved', 'cancelled'])

type Sale = {
  id: string
  buyerId: string
  sellerId: string
  buyerName: string
  productName: string
  priceCents: number
  location: string
  productId: string
  /** The buyer has the laptop: what a refund's email says of it. */
  handedOver: boolean
}

async function salesOf(tx: Db, bookingIds: string[]): Promise<Sale[]> {
  if (bookingIds.length === 0) return []
  return tx
    .select({
      id: bookings.id,
      buyerId: bookings.buyerId,
      sellerId: products.sellerId,
      buyerName: bookings.userName,
      productId: bookings.productId,
      productName: bookings.productName,
      // What the buyer paid: the laptop, and its shipping when it was shipped.
      priceCents: sql<number>`${bookings.priceCents} + ${bookings.shippingCents}`,
      location: bookings.location,
      handedOver: sql<boolean>`${bookings.handedOverAt} is not null`,
    })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(inArray(bookings.id, bookingIds))
}

async function sellerNames(tx: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const rows = await tx.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids))
  return new Map(rows.map((r) => [r.id, r.name]))
}

/** Queues the emails of one move of these bookings' deals, in the caller's transaction `tx`. */
export async function queueDealEmails(
  tx: Db,
  mail: DealMail,
  bookingIds: string | string[],
  email: DealEmail,
): Promise<void> {
  const sales = await salesOf(tx, typeof bookingIds === 'string' ? [bookingIds] : bookingIds)
  const names = await sellerNames(tx, [...new Set(sales.map((s) => s.sellerId))])
  // The seller's side of each money email shows the sale's figures as the ledger has them, as Earnings does.
  const money = SELLER_MONEY_EMAILS.has(email.kind)
    ? await saleFigures(
        tx,
        sales.map((s) => s.id),
      )
    : new Map()
  for (const sale of sales) {
    const sellerName = names.get(sale.sellerId) ?? 'The seller'
    const buyer = { userId: sale.buyerId }
    const seller = { userId: sale.sellerId }
    const base = { productName: sale.productName, priceCents: sale.priceCents }
    const figures = money.get(sale.id)
    const sellersMoney = figures
      ? {
          money: {
            price_cents: figures.price_cents,
            fee_cents: figures.fee_cents,
            receive_cents: figures.receive_cents,
          },
        }
      : {}
    const moneyFor = (role: 'buyer' | 'seller') => (role === 'seller' ? sellersMoney : {})
    switch (email.kind) {
      case 'paid':
        for (const [to, role] of [
          [buyer, 'buyer'],
          [seller, 'seller'],
        ] as const) {
          await mail.queue(tx, {
            to,
            template: 'deal-paid',
            data: {
              ...base,
              ...moneyFor(role),
              role,
              buyerName: sale.buyerName,
              sellerName,
              productId: sale.productId,
            },
          })
        }
        break
      case 'handed_over':
        await mail.queue(tx, {
          to: buyer,
          template: 'deal-handed-over',
          data: {
            productName: sale.productName,
            sellerName,
            note: email.note,
            completesAt: email.completesAt.toISOString(),
          },
        })
        break
      case 'completed':
        for (const [to, role] of [
          [buyer, 'buyer'],
          [seller, 'seller'],
        ] as const) {
          await mail.queue(tx, {
            to,
            template: 'deal-completed',
            data: { ...base, ...moneyFor(role), role, how: email.how },
          })
        }
        break
      case 'dispute_opened':
        for (const [to, role] of [
          [buyer, 'buyer'],
          [seller, 'seller'],
        ] as const) {
          await mail.queue(tx, {
            to,
            template: 'deal-dispute-opened',
            data: { productName: sale.productName, role, buyerName: sale.buyerName, reason: email.reason },
          })
        }
        break
      case 'dispute_resolved':
        for (const [to, role] of [
          [buyer, 'buyer'],
          [seller, 'seller'],
        ] as const) {
          await mail.queue(tx, {
            to,
            template: 'deal-dispute-resolved',
            data: {
              ...base,
              ...moneyFor(role),
              role,
              outcome: email.outcome,
              reason: email.reason ?? null,
              handedOver: sale.handedOver,
            },
          })
        }
        break
      case 'cancelled':
        for (const [to, role] of [
          [buyer, 'buyer'],
          [seller, 'seller'],
        ] as const) {
          await mail.queue(tx, {
            to,
            template: 'deal-cancelled',
            data: {
              ...base,
              ...moneyFor(role),
              role,
              sellerName,
              by: email.by,
              reason: email.reason,
              handedOver: sale.handedOver,
            },
          })
        }
        break
    }
  }
}

/**
 * The `bookings.seller-email` job: one email to the seller telling every booking of theirs not yet told
 * (those of the last BOOKING_EMAIL_GROUP_SECONDS, or more while the mail was down), oldest first. The
 * bookings are marked told in the transaction that queues the email, so a repeat sends nothing and a crash
 * before the commit leaves them for the retry. Returns how many bookings the email tells.
 */
export async function sendBookedEmail(
  ctx: { db: Db; mail: DealMail; jobs: Pick<Jobs, 'lockSingleton'> },
  sellerId: string,
): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    // A booking that found this job waiting (and so queued none) holds this lock until it commits.
    await ctx.jobs.lockSingleton(tx, 'bookings.seller-email', sellerId)
    const pending = await tx
      .select({
        id: bookings.id,
        productName: bookings.productName,
        priceCents: bookings.priceCents,
        buyerName: bookings.userName,
        location: bookings.location,
      })
      .from(bookings)
      .innerJoin(products, eq(products.id, bookings.productId))
      .where(and(eq(products.sellerId, sellerId), eq(bookings.sellerEmailPending, true)))
      .orderBy(asc(bookings.createdAt), asc(bookings.id))
    if (pending.length === 0) return 0
    await tx
      .update(bookings)
      .set({ sellerEmailPending: false })
      .where(
        inArray(
          bookings.id,
          pending.map((b) => b.id),
        ),
      )
    const listed = pending.slice(0, BOOKED_LISTED)
    await ctx.mail.queue(tx, {
      to: { userId: sellerId },
      template: 'deal-booked',
      data: {
        bookings: listed.map(({ id: _, ...b }) => b),
        more: pending.length - listed.length,
      },
    })
    return pending.length
  })
}
