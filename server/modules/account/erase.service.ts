import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import {
  accounts,
  alertItems,
  batteryReports,
  bookings,
  emailPreferences,
  favourites,
  knownDevices,
  messages,
  offerEvents,
  offers,
  passkeys,
  payoutAccounts,
  products,
  savedSearches,
  sessions,
  twoFactors,
  users,
  verifications,
} from '#server/db/schema'
import { JOBS_SCHEMA } from '#server/jobs/install'
import { maskContactDetails } from '#server/lib/contact-details'
import { AppError } from '#server/lib/errors'
import type { Mail } from '#server/mail/mail'
import { leaveSale } from '#server/modules/deal'
import { sellerBalances } from '#server/modules/ledger'
import { eraseQuestionsOf } from '#server/modules/questions'

export const DELETED_NAME = 'Deleted user'
/** Stages of a sale in which money is held or the deal is not over. */
const OPEN_STAGES = ['paid', 'handed_over', 'disputed'] as const

/**
 * Why an account cannot be erased yet (null when it can): the one rule, asked by the Security page before it asks
 * for anything and checked again by the erasure itself.
 */
export async function erasureBlocker(db: Db, userId: string): Promise<string | null> {
  const open = await db
    .select({ id: bookings.id })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(
      and(
        inArray(bookings.stage, [...OPEN_STAGES]),
        or(eq(bookings.buyerId, userId), eq(products.sellerId, userId)),
      ),
    )
    .limit(1)
  if (open.length > 0) {
    return 'A sale of yours is still open (paid, handed over or disputed). Finish it first, then erase your account.'
  }
  const balances = await sellerBalances(db, userId)
  if (balances.held !== 0 || balances.available !== 0 || balances.on_its_way !== 0) {
    return 'Money is still held for you or on its way to you. Once it is paid out, you can erase your account.'
  }
  return null
}

/**
 * Erases a person: their user row is emptied ("Deleted user", an address that reaches nobody) and kept,
 * because bookings, payments, the ledger, messages and reviews point at it; their listings leave the
 * catalogue; what only they used (sign-in methods, two-step secrets, sessions, favourites, saved searches,
 * email choices) is deleted; copies of their name and contact details on bookings, listings and payout
 * records are replaced. Runs in one transaction with the check that nothing is open.
 */
export async function eraseAccount(db: Db, userId: string, mail: Pick<Mail, 'queue'>): Promise<void> {
  await db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update')
    if (!user || user.erasedAt) throw new AppError('NOT_FOUND', 'No such account')
    const blocker = await erasureBlocker(tx, userId)
    if (blocker) throw new AppError('CONFLICT', blocker)
    const now = new Date()
    const anonymousEmail = `deleted-${userId.toLowerCase()}@erased.invalid`
    await tx
      .update(users)
      .set({
        name: DELETED_NAME,
        email: anonymousEmail,
        emailVerified: false,
        image: null,
        phone: null,
        twoFactorEnabled: false,
        erasedAt: now,
        disabledAt: user.disabledAt ?? now,
        updatedAt: now,
      })
      .where(eq(users.id, userId))
    await tx.delete(accounts).where(eq(accounts.userId, userId))
    await tx.delete(twoFactors).where(eq(twoFactors.userId, userId))
    await tx.delete(passkeys).where(eq(passkeys.userId, userId))
    await tx.delete(knownDevices).where(eq(knownDevices.userId, userId))
    await tx.delete(sessions).where(eq(sessions.userId, userId))
    await tx
      .delete(verifications)
      .where(or(eq(verifications.value, userId), sql`${verifications.value} ilike ${`%${user.email}%`}`))
    await tx.delete(favourites).where(eq(favourites.userId, userId))
    await tx.delete(savedSearches).where(eq(savedSearches.userId, userId))
    await tx.delete(alertItems).where(eq(alertItems.userId, userId))
    await tx.delete(emailPreferences).where(eq(emailPreferences.userId, userId))
    const removed = await tx
      .update(products)
      .set({ removedAt: now, updatedAt: now })
      .where(and(eq(products.sellerId, userId), isNull(products.removedAt)))
      .returning({ id: products.id })
    await leaveSale(tx, {
      productIds: removed.map((p) => p.id),
      reason: 'seller_closed',
      actorId: userId,
      mail,
    })
    await tx.update(products).set({ sellerPhone: '' }).where(eq(products.sellerId, userId))
    // The battery report files (a computer's name, its battery's serial) go; the facts read from them stay on the
    // listings, which are kept for the record.
    await tx
      .update(batteryReports)
      .set({ content: '', fileName: '' })
      .where(eq(batteryReports.uploaderId, userId))
    await tx
      .update(bookings)
      .set({ userName: DELETED_NAME, email: anonymousEmail, phoneNumber: '', location: '' })
      .where(eq(bookings.buyerId, userId))
    // Emails queued for (or kept as sent to) the person are dropped: nothing more goes to them. Others' emails
    // that name them (a sale's other side) name "Deleted user" instead, whole values only.
    const jobs = sql`${sql.identifier(JOBS_SCHEMA)}.job`
    await tx.execute(
      sql`delete from ${jobs} where position(${user.email} in data::text) > 0 or data->'to'->>'userId' = ${userId}`,
    )
    await tx.execute(sql`
      update ${jobs} set data = replace(data::text, to_jsonb(${user.name}::text)::text, to_jsonb(${DELETED_NAME}::text)::text)::jsonb
      where position(to_jsonb(${user.name}::text)::text in data::text) > 0`)
    // What they wrote stays for the other side of each sale, without the phone numbers, email addresses and bank
    // numbers in it.
    const written = await tx
      .select({ id: messages.id, body: messages.body })
      .from(messages)
      .where(eq(messages.senderId, userId))
    for (const message of written) {
      const masked = maskContactDetails(message.body).slice(0, 2000)
      if (masked !== message.body)
        await tx.update(messages).set({ body: masked }).where(eq(messages.id, message.id))
    }
    // Their questions and answers likewise; their blocks, made or received, go.
    await eraseQuestionsOf(tx, userId)
    // One last email to the address the account had, queued after the person's other emails were dropped; the job
    // forgets the address once it is sent.
    await mail.queue(tx, { to: { email: user.email }, template: 'account-erased', data: {} })
    await tx
      .update(payoutAccounts)
      .set({ accountHolder: DELETED_NAME, updatedAt: now })
      .where(eq(payoutAccounts.sellerId, userId))
    // Their open offers close (as a buyer: withdrawn; on their listings: declined), so nobody accepts one for them.
    const closed = await tx
      .update(offers)
      .set({
        status: sql`case when ${offers.buyerId} = ${userId} then 'withdrawn' else 'declined' end`,
        updatedAt: now,
      })
      .where(and(eq(offers.status, 'open'), or(eq(offers.buyerId, userId), eq(offers.sellerId, userId))))
      .returning({ id: offers.id, buyerId: offers.buyerId })
    if (closed.length > 0) {
      await tx.insert(offerEvents).values(
        closed.map((o) => ({
          offerId: o.id,
          kind: o.buyerId === userId ? ('withdrawn' as const) : ('declined' as const),
          actor: o.buyerId === userId ? ('buyer' as const) : ('seller' as const),
        })),
      )
    }
  })
}
