import { and, asc, desc, eq, gt, isNotNull, ne, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import {
  type Conversation,
  looksOffPlatform,
  type Message,
  type NewMessage,
  type UnreadCount,
} from '#contract/messages'
import { paths } from '#contract/pages'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { bookings, disputes, messageReads, messages, products, users } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import { countOrRefuse } from '#server/lib/rate-limit'
import type { SessionUser } from '#server/lib/session'

/** A thread shows at most its latest messages (oldest first). */
const THREAD_LIMIT = 500
const RATE_WINDOW_MS = 60_000

export type MessagesContext = Pick<AppContext, 'db' | 'jobs' | 'mail' | 'counters' | 'config'>

/**
 * Who the caller is to a booking's conversation. Its buyer and the listing's seller read and write; an
 * admin reads it only while it is part of a dispute or a reported message, and never writes. Anyone else,
 * and an admin without that reason, gets 404, as if the booking did not exist.
 */
async function conversationAccess(db: Db, caller: SessionUser, bookingId: string) {
  const [row] = await db
    .select({
      buyerId: bookings.buyerId,
      sellerId: products.sellerId,
      productName: bookings.productName,
      isPaid: bookings.isPaid,
      sellerWrote: sql<boolean>`exists (select 1 from ${messages} where ${messages.bookingId} = ${bookings.id}
        and ${messages.senderId} = ${products.sellerId})`,
      disputed: sql<boolean>`exists (select 1 from ${disputes} where ${disputes.bookingId} = ${bookings.id})`,
      reported: sql<boolean>`exists (select 1 from ${messages} where ${messages.bookingId} = ${bookings.id}
        and ${messages.reportedAt} is not null)`,
      /** The caller's read mark, so that reading again writes nothing when nothing is new. */
      lastReadAt: sql<string | null>`(select ${messageReads.lastReadAt} from ${messageReads}
        where ${messageReads.bookingId} = ${bookings.id} and ${messageReads.userId} = ${caller.id})`,
    })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(eq(bookings.id, bookingId))
    .limit(1)
  if (!row) throw notFound('Booking')
  const isBuyer = row.buyerId === caller.id
  const isSeller = row.sellerId === caller.id
  if (isBuyer || isSeller) {
    return { ...row, participant: true as const, otherId: isBuyer ? row.sellerId : row.buyerId, isBuyer }
  }
  if (caller.role === 'admin' && (row.disputed || row.reported)) {
    return { ...row, participant: false as const, otherId: null, isBuyer: false }
  }
  throw notFound('Booking')
}

/**
 * A booking's conversation, oldest first (its latest THREAD_LIMIT messages). Reading it marks it read for
 * a participant, up to the newest message shown; the write happens only when that moves the mark.
 */
export async function findThread(db: Db, caller: SessionUser, bookingId: string): Promise<Message[]> {
  const access = await conversationAccess(db, caller, bookingId)
  const rows = await db
    .select({
      id: messages.id,
      senderId: messages.senderId,
      senderName: users.name,
      body: messages.body,
      offPlatform: messages.offPlatform,
      reportedAt: messages.reportedAt,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .innerJoin(users, eq(users.id, messages.senderId))
    .where(eq(messages.bookingId, bookingId))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(THREAD_LIMIT)
  rows.reverse()
  const newest = rows.at(-1)
  const marked = access.lastReadAt === null ? null : new Date(access.lastReadAt)
  if (access.participant && newest && (!marked || marked < newest.createdAt)) {
    // The mark is the newest shown message's own time, read in SQL (a JS Date would drop its microseconds).
    const newestAt = sql`(select ${messages.createdAt} from ${messages} where ${messages.id} = ${newest.id})`
    await db
      .insert(messageReads)
      .values({ bookingId, userId: caller.id, lastReadAt: newestAt })
      .onConflictDoUpdate({
        target: [messageReads.bookingId, messageReads.userId],
        set: { lastReadAt: sql`excluded.last_read_at` },
        setWhere: sql`${messageReads.lastReadAt} < excluded.last_read_at`,
      })
  }
  return rows.map((r) => ({
    _id: r.id,
    bookingId,
    senderId: r.senderId,
    senderName: r.senderName,
    mine: r.senderId === caller.id,
    body: r.body,
    offPlatform: r.offPlatform,
    reported: r.reportedAt !== null,
    createdAt: r.createdAt.toISOString(),
  }))
}

/**
 * The buyer or the seller writes in the booking's conversation (the buyer of an unpaid booking only once the
 * seller has written): at most `messages.perMinute` a minute per
 * user (counted on every instance through Redis when configured). In the same transaction: the sender's
 * read mark moves to their message, and a delayed job is queued to email the reader if it is still unread
 * after `messages.emailDelaySeconds` (one waiting job per reader and conversation).
 */
export async function sendMessage(
  ctx: MessagesContext,
  sender: SessionUser,
  bookingId: string,
  input: NewMessage,
): Promise<string> {
  const { db, jobs, counters, config } = ctx
  const access = await conversationAccess(db, sender, bookingId)
  if (!access.participant) {
    throw new AppError('FORBIDDEN', 'Admins can read this conversation but not write in it')
  }
  // Booking is free, so an unpaid booking is not a way to reach a seller: its buyer writes once they have
  // paid, or in answer to the seller, who may write first.
  if (access.isBuyer && !access.isPaid && !access.sellerWrote) {
    throw new AppError('FORBIDDEN', 'You can message the seller once you have paid for this laptop.')
  }
  await countOrRefuse(
    counters,
    `messages:${sender.id}`,
    RATE_WINDOW_MS,
    config.messages.perMinute,
    (seconds) => `You are sending messages too quickly. Please wait ${seconds} seconds and try again.`,
  )
  const readerId = access.otherId
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(messages)
      .values({ bookingId, senderId: sender.id, body: input.body, offPlatform: looksOffPlatform(input.body) })
      .returning({ id: messages.id, createdAt: messages.createdAt })
    if (!row) throw new AppError('INTERNAL', 'The message could not be saved')
    await tx
      .insert(messageReads)
      .values([
        {
          bookingId,
          userId: sender.id,
          lastReadAt: sql`(select ${messages.createdAt} from ${messages} where ${messages.id} = ${row.id})`,
        },
        { bookingId, userId: readerId },
      ])
      .onConflictDoUpdate({
        target: [messageReads.bookingId, messageReads.userId],
        // Only the sender's own row moves: the reader's keeps its mark (`excluded` is the epoch for it).
        set: { lastReadAt: sql`greatest(${messageReads.lastReadAt}, excluded.last_read_at)` },
      })
    await jobs.send(
      'messages.unread',
      { bookingId, userId: readerId },
      {
        tx,
        startAfter: config.messages.emailDelaySeconds,
        singletonKey: `${bookingId}:${readerId}`,
      },
    )
    return row.id
  })
}

/** Messages the user has not read, in all and per booking: the other side's messages after each read mark. */
export async function countUnread(db: Db, user: SessionUser): Promise<UnreadCount> {
  const rows = await db
    .select({ bookingId: messageReads.bookingId, count: sql<number>`count(*)::int` })
    .from(messageReads)
    .innerJoin(
      messages,
      and(
        eq(messages.bookingId, messageReads.bookingId),
        gt(messages.createdAt, messageReads.lastReadAt),
        ne(messages.senderId, messageReads.userId),
      ),
    )
    .where(eq(messageReads.userId, user.id))
    .groupBy(messageReads.bookingId)
  const byBooking: Record<string, number> = {}
  let count = 0
  for (const r of rows) {
    byBooking[r.bookingId] = r.count
    count += r.count
  }
  return { count, bookings: byBooking }
}

/**
 * The user's conversations (every booking where a message was written and they are a party), the one with
 * the newest message first, with the other side's name and the unread count (at most 500).
 */
export async function findConversations(db: Db, user: SessionUser): Promise<Conversation[]> {
  const sellers = alias(users, 'sellers')
  const buyers = alias(users, 'buyers')
  const rows = await db
    .select({
      bookingId: bookings.id,
      productId: bookings.productId,
      productName: bookings.productName,
      productImage: bookings.productImage,
      buyerId: bookings.buyerId,
      buyerName: buyers.name,
      sellerName: sellers.name,
      last: sql<string>`(select max(${messages.createdAt}) from ${messages} where ${messages.bookingId} = ${bookings.id})`,
      unread: sql<number>`(select count(*)::int from ${messages} where ${messages.bookingId} = ${bookings.id}
        and ${messages.createdAt} > ${messageReads.lastReadAt} and ${messages.senderId} <> ${messageReads.userId})`,
    })
    .from(messageReads)
    .innerJoin(bookings, eq(bookings.id, messageReads.bookingId))
    .innerJoin(products, eq(products.id, bookings.productId))
    .innerJoin(buyers, eq(buyers.id, bookings.buyerId))
    .innerJoin(sellers, eq(sellers.id, products.sellerId))
    .where(eq(messageReads.userId, user.id))
    .limit(500)
  return rows
    .map((r) => ({
      bookingId: r.bookingId,
      productId: r.productId,
      productName: r.productName,
      productImage: r.productImage,
      otherName: r.buyerId === user.id ? r.sellerName : r.buyerName,
      asBuyer: r.buyerId === user.id,
      lastMessageAt: new Date(r.last).toISOString(),
      unread: r.unread,
    }))
    .sort((a, b) => b.lastMessageAt.localeCompare(a.lastMessageAt))
}

/**
 * The reader reports a message (not their own): from then on an admin may read the conversation. A
 * message is reported once; reporting it again changes nothing (modifiedCount 0).
 */
export async function reportMessage(db: Db, reporter: SessionUser, messageId: string): Promise<number> {
  const [row] = await db
    .select({ bookingId: messages.bookingId, senderId: messages.senderId, reportedAt: messages.reportedAt })
    .from(messages)
    .where(eq(messages.id, messageId))
    .limit(1)
  if (!row) throw notFound('Message')
  const access = await conversationAccess(db, reporter, row.bookingId).catch((err) => {
    throw err instanceof AppError && err.code === 'NOT_FOUND' ? notFound('Message') : err
  })
  if (!access.participant)
    throw new AppError('FORBIDDEN', 'Only the buyer or the seller can report a message')
  if (row.senderId === reporter.id) throw new AppError('FORBIDDEN', 'You cannot report your own message')
  const updated = await db
    .update(messages)
    .set({ reportedAt: new Date(), reportedBy: reporter.id })
    .where(and(eq(messages.id, messageId), sql`${messages.reportedAt} is null`))
    .returning({ id: messages.id })
  return updated.length
}

/** Admin: reported messages, newest report first, with their booking to open the conversation. */
export async function findReportedMessages(db: Db) {
  const rows = await db
    .select({
      id: messages.id,
      bookingId: messages.bookingId,
      productName: bookings.productName,
      senderName: users.name,
      body: messages.body,
      offPlatform: messages.offPlatform,
      reportedAt: messages.reportedAt,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .innerJoin(bookings, eq(bookings.id, messages.bookingId))
    .innerJoin(users, eq(users.id, messages.senderId))
    .where(isNotNull(messages.reportedAt))
    .orderBy(desc(messages.reportedAt), asc(messages.id))
    .limit(500)
  return rows.map((r) => ({
    _id: r.id,
    bookingId: r.bookingId,
    productName: r.productName,
    senderName: r.senderName,
    body: r.body,
    offPlatform: r.offPlatform,
    reportedAt: (r.reportedAt ?? r.createdAt).toISOString(),
    createdAt: r.createdAt.toISOString(),
  }))
}

/**
 * The `messages.unread` job, due `emailDelaySeconds` after a message: if the reader still has unread
 * messages in that conversation, one email goes (queued in the transaction that records `notifiedAt`),
 * unless they were already emailed about this unread stretch (its oldest message is older than the last
 * email). So a conversation gets one email however many messages follow, until its reader reads it. Safe
 * to run twice: the second run finds `notifiedAt`.
 */
export async function emailUnread(ctx: Pick<AppContext, 'db' | 'mail'>, bookingId: string, userId: string) {
  return ctx.db.transaction(async (tx) => {
    const [read] = await tx
      .select()
      .from(messageReads)
      .where(and(eq(messageReads.bookingId, bookingId), eq(messageReads.userId, userId)))
      .for('update')
    if (!read) return false
    // Compared in SQL, against the row's own times (a JS Date would drop their microseconds).
    const unreadHere = and(eq(messageReads.bookingId, bookingId), eq(messageReads.userId, userId))
    const unreadJoin = and(
      eq(messages.bookingId, messageReads.bookingId),
      gt(messages.createdAt, messageReads.lastReadAt),
      ne(messages.senderId, messageReads.userId),
    )
    const [stretch] = await tx
      .select({
        count: sql<number>`count(*)::int`,
        offPlatform: sql<boolean>`coalesce(bool_or(${messages.offPlatform}), false)`,
        alreadyEmailed: sql<boolean>`coalesce(min(${messages.createdAt}) <= ${messageReads.notifiedAt}, false)`,
      })
      .from(messageReads)
      .innerJoin(messages, unreadJoin)
      .where(unreadHere)
      .groupBy(messageReads.notifiedAt)
    if (!stretch?.count || stretch.alreadyEmailed) return false
    const [latest] = await tx
      .select({ body: messages.body, senderName: users.name, productName: bookings.productName })
      .from(messageReads)
      .innerJoin(messages, unreadJoin)
      .innerJoin(users, eq(users.id, messages.senderId))
      .innerJoin(bookings, eq(bookings.id, messages.bookingId))
      .where(unreadHere)
      .orderBy(desc(messages.createdAt))
      .limit(1)
    if (!latest) return false
    await tx
      .update(messageReads)
      .set({ notifiedAt: sql`now()` })
      .where(and(eq(messageReads.bookingId, bookingId), eq(messageReads.userId, userId)))
    await ctx.mail.queue(tx, {
      to: { userId },
      template: 'message-unread',
      data: {
        productName: latest.productName,
        senderName: latest.senderName,
        count: stretch.count,
        preview: latest.body.length > 300 ? `${latest.body.slice(0, 300)}…` : latest.body,
        offPlatform: stretch.offPlatform,
        path: paths.conversation(bookingId),
      },
    })
    return true
  })
}

export function registerMessageJobs(ctx: Pick<AppContext, 'db' | 'mail' | 'jobs'>) {
  ctx.jobs.work('messages.unread', async (job) => {
    await emailUnread(ctx, job.data.bookingId, job.data.userId)
  })
}
