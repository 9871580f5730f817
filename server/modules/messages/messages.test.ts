// Messages between a booking's buyer and the listing's seller: who reads and writes, what a message may
// hold, the per-user limit, unread counts and read marks, the off-platform warning, reports, and the one
// email per conversation for messages left unread.

import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { ConversationList, looksOffPlatform, MessageList, UnreadCount } from '#contract/messages'
import { bookings, disputes, messages } from '#server/db/schema'
import type { OutgoingEmail } from '#server/mail/transport'
import { bearerFor } from '#server/test/auth-helpers'
import {
  type BookingRow,
  type BrandRow,
  createBooking,
  createBrand,
  createProduct,
  createUser,
  type UserRow,
} from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp
let brand: BrandRow
let admin: UserRow
let stranger: UserRow

beforeAll(async () => {
  t = await createTestApp({ MESSAGES_PER_MINUTE: '4', MESSAGE_EMAIL_DELAY_SECONDS: '300' })
  brand = await createBrand(t.db)
  admin = await createUser(t.db, { role: 'admin' })
  stranger = await createUser(t.db, { role: 'seller' })
})

afterAll(async () => {
  await t?.close()
})

beforeEach(async () => {
  await dueNow()
  await t.app.ctx.jobs.drain()
  t.outbox.length = 0
})

type Deal = { buyer: UserRow; seller: UserRow; booking: BookingRow }

/**
 * A new buyer, seller, listing and booking (paid unless told otherwise: the buyer of an unpaid one cannot
 * write first), so each test has its own conversation and limits.
 */
async function deal({ isPaid = true } = {}): Promise<Deal> {
  const seller = await createUser(t.db, { role: 'seller', name: 'Sam Seller' })
  const buyer = await createUser(t.db, { role: 'buyer', name: 'Bea Buyer' })
  const product = await createProduct(t.db, { seller, brand, name: 'ThinkPad X1 Carbon' })
  const booking = await createBooking(t.db, { buyer, product, isPaid })
  return { buyer, seller, booking }
}

async function call(method: 'GET' | 'POST', url: string, who: UserRow, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: await bearerFor(t.app, who),
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

const send = (d: Deal, who: UserRow, body: unknown) =>
  call('POST', `/api/bookings/${d.booking.id}/messages`, who, body)
const thread = (d: Deal, who: UserRow) => call('GET', `/api/bookings/${d.booking.id}/messages`, who)
async function unread(who: UserRow) {
  const res = await call('GET', '/api/messages/unread', who)
  expect(res.statusCode).toBe(200)
  return UnreadCount.parse(res.json())
}
async function stored(d: Deal) {
  return t.db.select().from(messages).where(eq(messages.bookingId, d.booking.id))
}

/** How many jobs of this queue there are. */
async function waitingJobs(name: string): Promise<number> {
  const res = await t.db.execute(sql`select count(*)::int as n from pgboss.job where name = ${name}`)
  return (res as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0
}

/** Makes every waiting job due now (the unread email waits MESSAGE_EMAIL_DELAY_SECONDS). */
async function dueNow() {
  await t.db.execute(sql`update pgboss.job set start_after = now() - interval '1 second'
    where state in ('created', 'retry')`)
}

/** Runs the unread-message jobs as if the delay had passed, then the emails; returns what was sent. */
async function afterTheDelay(): Promise<OutgoingEmail[]> {
  await dueNow()
  await t.app.ctx.jobs.drain('messages.unread')
  await t.app.ctx.jobs.drain('email')
  const out = [...t.outbox]
  t.outbox.length = 0
  return out
}

describe('a booking conversation: its buyer and seller, nobody else', () => {
  it('lets both parties write and read, oldest first, with who wrote each', async () => {
    const d = await deal()
    const first = await send(d, d.buyer, { body: 'Hi! Does the battery still hold a charge?' })
    expect(first.statusCode).toBe(201)
    expect(first.json()).toEqual({ acknowledged: true, insertedId: expect.any(String) })
    const second = await send(d, d.seller, { body: 'Yes, about six hours of browsing.' })
    expect(second.statusCode).toBe(201)

    for (const who of [d.buyer, d.seller]) {
      const res = await thread(d, who)
      expect(res.statusCode).toBe(200)
      const list = MessageList.parse(res.json())
      expect(list.map((m) => m.body)).toEqual([
        'Hi! Does the battery still hold a charge?',
        'Yes, about six hours of browsing.',
      ])
      expect(list.map((m) => m.mine)).toEqual(who === d.buyer ? [true, false] : [false, true])
      expect(list[0]?.senderName).toBe('Bea Buyer')
      expect(list[1]?.senderName).toBe('Sam Seller')
      expect(list.every((m) => !m.offPlatform && !m.reported)).toBe(true)
    }
  })

  it('answers 404 to every other signed-in user, and to an admin while nothing is reported or disputed', async () => {
    const d = await deal()
    await send(d, d.buyer, { body: 'Is it still available?' })
    const otherBuyer = await createUser(t.db, { role: 'buyer' })
    for (const who of [otherBuyer, stranger, admin]) {
      const read = await thread(d, who)
      expect(read.statusCode).toBe(404)
      expect(ErrorBody.parse(read.json()).error.code).toBe('NOT_FOUND')
      const write = await send(d, who, { body: 'Hello' })
      expect(write.statusCode).toBe(404)
    }
    expect(await stored(d)).toHaveLength(1)
    const none = await t.app.inject({ method: 'GET', url: `/api/bookings/${d.booking.id}/messages` })
    expect(none.statusCode).toBe(401)
  })

  it('lets an admin read (not write) a conversation with a dispute, and one with a reported message', async () => {
    const disputed = await deal()
    await send(disputed, disputed.buyer, { body: 'The screen arrived cracked.' })
    await t.db.insert(disputes).values({
      bookingId: disputed.booking.id,
      openedBy: disputed.buyer.id,
      reason: 'The screen arrived cracked.',
      stageBefore: 'paid',
    })
    expect((await thread(disputed, admin)).statusCode).toBe(200)
    const write = await send(disputed, admin, { body: 'Admin here' })
    expect(write.statusCode).toBe(403)
    expect(await stored(disputed)).toHaveLength(1)

    const reported = await deal()
    const sent = await send(reported, reported.seller, { body: 'Send the money first, then we talk.' })
    const id = sent.json().insertedId as string
    expect((await thread(reported, admin)).statusCode).toBe(404)
    // Nobody but the reader reports it: not its sender, not an outsider.
    expect((await call('POST', `/api/messages/${id}/report`, reported.seller)).statusCode).toBe(403)
    expect((await call('POST', `/api/messages/${id}/report`, stranger)).statusCode).toBe(404)
    const report = await call('POST', `/api/messages/${id}/report`, reported.buyer)
    expect(report.statusCode).toBe(200)
    expect(report.json()).toEqual({ acknowledged: true, modifiedCount: 1 })
    const again = await call('POST', `/api/messages/${id}/report`, reported.buyer)
    expect(again.json()).toEqual({ acknowledged: true, modifiedCount: 0 })

    const adminRead = await thread(reported, admin)
    expect(adminRead.statusCode).toBe(200)
    expect(MessageList.parse(adminRead.json())[0]?.reported).toBe(true)
    const list = await call('GET', '/api/messages/reported', admin)
    expect(list.statusCode).toBe(200)
    expect(list.json()).toContainEqual(expect.objectContaining({ _id: id, bookingId: reported.booking.id }))
    expect((await call('GET', '/api/messages/reported', reported.buyer)).statusCode).toBe(403)
    // An admin reading does not mark anything read for the parties.
    expect((await unread(reported.buyer)).count).toBe(1)
  })

  it('answers 404 for a booking that does not exist and 400 for a malformed id', async () => {
    const d = await deal()
    const missing = await call('GET', '/api/bookings/00000000-0000-4000-8000-000000000000/messages', d.buyer)
    expect(missing.statusCode).toBe(404)
    const bad = await call('GET', '/api/bookings/not-an-id/messages', d.buyer)
    expect(bad.statusCode).toBe(400)
  })
})

describe('an unpaid booking is not a way to reach the seller', () => {
  it('refuses the buyer of an unpaid booking with 403 and a clear message, storing and queueing nothing', async () => {
    const d = await deal({ isPaid: false })
    const jobsBefore = await waitingJobs('messages.unread')
    for (let i = 0; i < 3; i++) {
      const res = await send(d, d.buyer, { body: `Please call me back (${i})` })
      expect(res.statusCode).toBe(403)
      expect(res.json().error).toEqual({
        code: 'FORBIDDEN',
        message: 'You can message the seller once you have paid for this laptop.',
      })
    }
    expect(await t.db.select().from(messages).where(eq(messages.bookingId, d.booking.id))).toEqual([])
    expect(await waitingJobs('messages.unread')).toBe(jobsBefore)
    expect((await thread(d, d.buyer)).json()).toEqual([])
  })

  it('lets the seller write first, and the buyer answer; paying opens it to the buyer', async () => {
    const d = await deal({ isPaid: false })
    expect(
      (await send(d, d.seller, { body: 'Thanks for booking! Weekday evenings suit me.' })).statusCode,
    ).toBe(201)
    expect((await send(d, d.buyer, { body: 'Tuesday at six works.' })).statusCode).toBe(201)

    const later = await deal({ isPaid: false })
    expect((await send(later, later.buyer, { body: 'Hello?' })).statusCode).toBe(403)
    await t.db
      .update(bookings)
      .set({ isPaid: true, stage: 'paid', paidAt: new Date() })
      .where(eq(bookings.id, later.booking.id))
    expect((await send(later, later.buyer, { body: 'Paid, when can I collect it?' })).statusCode).toBe(201)
  })
})

describe('what a message may hold', () => {
  it.each([
    ['empty', ''],
    ['only spaces', '   \n  '],
    ['2,001 characters', 'x'.repeat(2001)],
    ['a NUL', 'hello\u0000there'],
    ['an escape', 'red \u001b[31m text'],
  ])('refuses %s with 400 naming the field, and stores nothing', async (_name, body) => {
    const d = await deal()
    const res = await send(d, d.buyer, { body })
    expect(res.statusCode).toBe(400)
    const error = ErrorBody.parse(res.json()).error
    expect(error.code).toBe('VALIDATION')
    expect(Object.keys(error.fields ?? {})).toContain('body')
    expect(await stored(d)).toHaveLength(0)
  })

  it('refuses a missing body and extra fields', async () => {
    const d = await deal()
    expect((await send(d, d.buyer, {})).statusCode).toBe(400)
    expect((await send(d, d.buyer, { body: 'hi', senderId: d.seller.id })).statusCode).toBe(400)
    expect(await stored(d)).toHaveLength(0)
  })

  it('takes 2,000 characters and line breaks, trimmed, stored as the text it is', async () => {
    const d = await deal()
    expect((await send(d, d.buyer, { body: 'y'.repeat(2000) })).statusCode).toBe(201)
    const html = '  <b>Hi</b>\n<script>alert(1)</script>\thttps://example.test  '
    expect((await send(d, d.buyer, { body: html })).statusCode).toBe(201)
    const list = MessageList.parse((await thread(d, d.seller)).json())
    expect(list[1]?.body).toBe(html.trim())
  })
})

describe('a few messages a minute per user', () => {
  it('answers 429 with a clear message past the limit, and stores nothing more', async () => {
    const d = await deal()
    for (let i = 1; i <= 4; i++) {
      expect((await send(d, d.buyer, { body: `Message ${i}` })).statusCode).toBe(201)
    }
    const limited = await send(d, d.buyer, { body: 'Message 5' })
    expect(limited.statusCode).toBe(429)
    const error = ErrorBody.parse(limited.json()).error
    expect(error.code).toBe('RATE_LIMITED')
    expect(error.message).toMatch(/sending messages too quickly.*wait \d+ seconds/)
    expect(await stored(d)).toHaveLength(4)
    // The limit is the sender's: the seller still answers.
    expect((await send(d, d.seller, { body: 'Slow down, I am here!' })).statusCode).toBe(201)
  })
})

describe('unread counts and read marks', () => {
  it('counts the other side messages until the reader opens the thread, per booking and in all', async () => {
    const d = await deal()
    const before = await unread(d.seller)
    await send(d, d.buyer, { body: 'One' })
    await send(d, d.buyer, { body: 'Two' })
    const seller = await unread(d.seller)
    expect(seller.count).toBe(before.count + 2)
    expect(seller.bookings[d.booking.id]).toBe(2)
    // Your own messages are never unread to you.
    expect((await unread(d.buyer)).bookings[d.booking.id]).toBeUndefined()

    expect((await thread(d, d.seller)).statusCode).toBe(200)
    const after = await unread(d.seller)
    expect(after.bookings[d.booking.id]).toBeUndefined()
    expect(after.count).toBe(before.count)

    await send(d, d.buyer, { body: 'Three' })
    expect((await unread(d.seller)).bookings[d.booking.id]).toBe(1)
    // Answering marks the conversation read too.
    await send(d, d.seller, { body: 'Answering' })
    expect((await unread(d.seller)).bookings[d.booking.id]).toBeUndefined()
    expect((await unread(d.buyer)).bookings[d.booking.id]).toBe(1)
  })

  it("lists each party's conversations with the other side's name and the unread count", async () => {
    const d = await deal()
    await send(d, d.buyer, { body: 'Hello' })
    const res = await call('GET', '/api/messages/conversations', d.seller)
    expect(res.statusCode).toBe(200)
    expect(ConversationList.parse(res.json())).toEqual([
      expect.objectContaining({
        bookingId: d.booking.id,
        productName: 'ThinkPad X1 Carbon',
        otherName: 'Bea Buyer',
        asBuyer: false,
        unread: 1,
      }),
    ])
    const mine = ConversationList.parse((await call('GET', '/api/messages/conversations', d.buyer)).json())
    expect(mine).toEqual([expect.objectContaining({ otherName: 'Sam Seller', asBuyer: true, unread: 0 })])
    expect((await call('GET', '/api/messages/conversations', stranger)).json()).toEqual([])
  })

  it('is zero for someone with no conversations', async () => {
    const nobody = await createUser(t.db, { role: 'buyer' })
    expect(await unread(nobody)).toEqual({ count: 0, bookings: {} })
  })
})

describe('messages asking to pay outside the marketplace', () => {
  it('carries a flag the reader sees', async () => {
    const d = await deal()
    await send(d, d.seller, { body: 'Cheaper if you pay me directly by wire transfer.' })
    await send(d, d.buyer, { body: 'I will use the Pay button, thanks.' })
    const list = MessageList.parse((await thread(d, d.buyer)).json())
    expect(list.map((m) => m.offPlatform)).toEqual([true, false])
  })

  it.each([
    'Can you do a bank transfer instead?',
    'I accept Amazon gift cards',
    'Pay in bitcoin and I ship today',
    'crypto only',
    'Send it through Western Union',
    'PayPal friends and family please',
    'Just pay me directly and skip the fees',
    'Let us deal outside the site',
  ])('flags "%s"', (text) => {
    expect(looksOffPlatform(text)).toBe(true)
  })

  it.each([
    'Is the battery original?',
    'The warranty is transferable to you.',
    'I can meet at the train station on Friday.',
    'Paid through the site, thanks!',
  ])('does not flag "%s"', (text) => {
    expect(looksOffPlatform(text)).toBe(false)
  })
})

describe('an email for messages left unread, once per conversation', () => {
  it('sends one email for several unread messages, to the reader only, after the delay', async () => {
    const d = await deal()
    await send(d, d.buyer, { body: 'Hello, is the charger included?' })
    await send(d, d.buyer, { body: 'And could you pay me back by gift card if it breaks?' })
    // Nothing before the delay.
    await t.app.ctx.jobs.drain('messages.unread')
    await t.app.ctx.jobs.drain('email')
    expect(t.outbox).toHaveLength(0)

    const emails = await afterTheDelay()
    expect(emails).toHaveLength(1)
    const [email] = emails
    expect(email?.to).toContain(d.seller.email)
    expect(email?.headers['X-Laptop-Market-Email']).toBe('message-unread')
    expect(email?.subject).toBe('Bea Buyer sent you a message about “ThinkPad X1 Carbon”')
    expect(email?.text).toContain('sent you 2 messages')
    expect(email?.text).toContain('could you pay me back by gift card')
    expect(email?.text).toContain('not protected')
    expect(email?.text).toContain(`/dashboard/messages/${d.booking.id}`)
    expect(email?.html).toContain('Open the conversation')

    // More messages while it is still unread: no second email.
    await send(d, d.buyer, { body: 'Are you there?' })
    expect(await afterTheDelay()).toHaveLength(0)

    // Once read, a later unread message is emailed again.
    await thread(d, d.seller)
    await send(d, d.buyer, { body: 'Thanks! One more question.' })
    expect(await afterTheDelay()).toHaveLength(1)
  })

  it('sends nothing when the reader read the conversation in time', async () => {
    const d = await deal()
    await send(d, d.seller, { body: 'Yes, the charger is included.' })
    await thread(d, d.buyer)
    expect(await afterTheDelay()).toHaveLength(0)
  })

  it('sends nothing when the reader turned message emails off', async () => {
    const d = await deal()
    const off = await call('PUT' as 'POST', '/api/email-settings', d.seller, { messages: false })
    expect(off.statusCode).toBe(200)
    await send(d, d.buyer, { body: 'Hello?' })
    expect(await afterTheDelay()).toHaveLength(0)
  })

  it('queues one waiting job per reader and conversation', async () => {
    const d = await deal()
    await send(d, d.buyer, { body: 'One' })
    await send(d, d.buyer, { body: 'Two' })
    await send(d, d.buyer, { body: 'Three' })
    const jobs = await t.db.execute(sql`select count(*)::int as n from pgboss.job
      where name = 'messages.unread' and singleton_key = ${`${d.booking.id}:${d.seller.id}`}`)
    expect((jobs as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1)
  })
})
