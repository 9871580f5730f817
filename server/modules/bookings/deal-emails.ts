// The deal's emails (topic `deals`), queued in the transaction of the change that causes them, so a change
// that rolls back sends nothing (docs/decisions/0018). Each move reads who is on each side from the booking
// and queues one email per person told: a payment, a completion, a dispute opened, a dispute resolved and a
// sale cancelled (refunded) to both; a handover to the buyer. New bookings are told to the seller a few
// minutes later, several in one email (sendBookedEmail).
import { and, asc, eq, inArray } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import { bookings, ledgerEntries, ledgerTransactions, products, users } from '#server/db/schema'
import type { Jobs } from '#server/jobs/jobs'
import type { Mail } from '#server/mail/mail'
import { BOOKED_LISTED } from '#server/mail/templates/deal-booked'

/** What a deal move needs of the mail: queueing in its transaction. */
export type DealMail = Pick<Mail, 'queue'>

export type DealEmail =
  | { kind: 'paid' }
  | { kind: 'handed_over'; note: string | null; completesAt: Date }
  | { kind: 'completed'; how: 'confirmed' | 'auto' }
  | { kind: 'dispute_opened'; reason: string }
  | { kind: 'dispute_resolved'; outcome: 'refunded' | 'released' }
  | { kind: 'cancelled'; by: 'seller' | 'admin' | 'refund'; reason: string | null }

type Sale = {
  id: string
  buyerId: string
  sellerId: string
  buyerName: string
  productName: string
  priceCents: number
  location: string
}

async function salesOf(tx: Db, bookingIds: string[]): Promise<Sale[]> {
  if (bookingIds.length === 0) return []
  return tx
    .select({
      id: bookings.id,
      buyerId: bookings.buyerId,
      sellerId: products.sellerId,
      buyerName: bookings.userName,
      productName: bookings.productName,
      priceCents: bookings.priceCents,
      location: bookings.location,
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

/** A sale's price and fee as its ledger charge has them (null before it is posted). */
async function chargeSplit(
  tx: Db,
  bookingId: string,
): Promise<{ priceCents: number; feeCents: number } | null> {
  const rows = await tx
    .select({ accountId: ledgerEntries.accountId, amountCents: ledgerEntries.amountCents })
    .from(ledgerTransactions)
    .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
    .where(and(eq(ledgerTransactions.bookingId, bookingId), eq(ledgerTransactions.kind, 'charge')))
  const buyers = rows.find((r) => r.accountId === 'buyers')
  if (!buyers) return null
  return {
    priceCents: -buyers.amountCents,
    feeCents: rows.find((r) => r.accountId === 'held_fees')?.amountCents ?? 0,
  }
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
  for (const sale of sales) {
    const sellerName = names.get(sale.sellerId) ?? 'The seller'
    const buyer = { userId: sale.buyerId }
    const seller = { userId: sale.sellerId }
    const base = { productName: sale.productName, priceCents: sale.priceCents }
    switch (email.kind) {
      case 'paid':
        for (const [to, role] of [
          [buyer, 'buyer'],
          [seller, 'seller'],
        ] as const) {
          await mail.queue(tx, {
            to,
            template: 'deal-paid',
            data: { ...base, role, buyerName: sale.buyerName, sellerName },
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
      case 'completed': {
        // What the buyer paid and the fee, as the ledger's charge fixed them (docs/decisions/0035).
        const split = await chargeSplit(tx, sale.id)
        const paid = split ? { priceCents: split.priceCents, feeCents: split.feeCents } : {}
        for (const [to, role] of [
          [buyer, 'buyer'],
          [seller, 'seller'],
        ] as const) {
          await mail.queue(tx, {
            to,
            template: 'deal-completed',
            data: { ...base, ...paid, role, how: email.how },
          })
        }
        break
      }
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
            data: { ...base, role, outcome: email.outcome },
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
            data: { ...base, role, sellerName, by: email.by, reason: email.reason },
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
