// The deal's emails, from the move that causes them to the rendered email in the test app's outbox, and the
// job that completes handed-over sales by itself. Every email is queued in the move's transaction: a move
// that rolls back (or is refused) sends nothing.

import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { bookings, emailPreferences } from '#server/db/schema'
import type { OutgoingEmail } from '#server/mail/transport'
import { bearerFor } from '#server/test/auth-helpers'
import { type DealStage, dealAt } from '#server/test/deals'
import { type BrandRow, createBrand, createProduct, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { queueDealEmails } from './deal-emails'

/** The handover checklist, every item ticked (what "Received, as described" needs). */
const ALL_TICKED = {
  checklist: {
    serial: true,
    no_activation_lock: true,
    no_firmware_password: true,
    accounts_signed_out: true,
    battery_as_described: true,
  },
}

let t: TestApp
let brand: BrandRow
let buyer: UserRow
let seller: UserRow
let admin: UserRow

beforeAll(async () => {
  t = await createTestApp({
    AUTO_COMPLETE_DAYS: '7',
    LIVE_HOLDS_PER_BUYER: '100',
    BOOKING_EMAIL_GROUP_SECONDS: '0',
  })
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer', name: 'Bea Buyer', email: 'bea@example.test' })
  seller = await createUser(t.db, { role: 'seller', name: 'Sam Seller', email: 'sam@example.test' })
  admin = await createUser(t.db, { role: 'admin', name: 'Ada Admin' })
})

afterAll(async () => {
  await t?.close()
})

beforeEach(async () => {
  await t.app.ctx.jobs.drain('email')
  t.outbox.length = 0
})

async function call(method: 'GET' | 'POST' | 'PUT', url: string, who: UserRow, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: await bearerFor(t.app, who),
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

/** The emails sent since the last call, as "template → address", after the worker ran. */
async function sent(): Promise<OutgoingEmail[]> {
  await t.app.ctx.jobs.drain('bookings.seller-email')
  await t.app.ctx.jobs.drain('email')
  const out = [...t.outbox]
  t.outbox.length = 0
  return out
}
const summary = (emails: OutgoingEmail[]) =>
  emails
    .map((e) => `${e.headers['X-Laptop-Market-Email']} → ${e.to.replace(/^.*</, '').replace('>', '')}`)
    .sort()

async function listing(name = 'ThinkPad X1 Carbon Gen 9') {
  return createProduct(t.db, { seller, brand, name, resalePriceCents: 64_900 })
}

const deal = (stage: DealStage, name = 'ThinkPad X1 Carbon Gen 9') =>
  dealAt(t, stage, { buyer, seller, brand, name, handoverNote: 'Tracking 1Z999AA10123456784' })
const paidBooking = () => deal('paid')
const handedOver = () => deal('handed_over')
const disputed = () => deal('disputed')

describe('deal emails', () => {
  it('a new booking tells the seller, with the buyer, the price and where they would meet', async () => {
    const product = await listing('MacBook Air M2')
    const res = await call('POST', '/api/bookings', buyer, {
      productId: product.id,
      phoneNumber: '+1 555 0100',
      location: 'Downtown Portland',
    })
    expect(res.statusCode).toBe(201)
    const emails = await sent()
    expect(summary(emails)).toEqual(['deal-booked → sam@example.test'])
    const [email] = emails
    expect(email?.subject).toBe('Bea Buyer booked your “MacBook Air M2”')
    expect(email?.text).toContain('Hi Sam Seller,')
    expect(email?.text).toContain('at $649. They would like to meet around Downtown Portland.')
    expect(email?.text).toContain('Open My Product: http://localhost:3000/dashboard/myproduct')
    expect(email?.text).toContain('“Bookings and sales” is on in your email settings')
    expect(email?.html).toContain('href="http://localhost:3000/dashboard/myproduct"')
    expect(email?.html).toContain('Bea Buyer booked your “MacBook Air M2”')
  })

  it('a name with an inch mark stays whole in the subject and the text', async () => {
    await deal('paid', 'Surface Laptop 4 15"')
    const emails = await sent()
    expect(emails.find((e) => e.to.includes('bea@'))?.subject).toBe('Paid: “Surface Laptop 4 15"” is yours')
    expect(emails.find((e) => e.to.includes('sam@'))?.subject).toBe(
      'Sold: Bea Buyer paid for “Surface Laptop 4 15"”',
    )
    expect(emails.find((e) => e.to.includes('bea@'))?.text).toContain('for “Surface Laptop 4 15"”.')
  })

  it('a payment tells the buyer and the seller, each what comes next', async () => {
    await paidBooking()
    const emails = await sent()
    expect(summary(emails)).toEqual(['deal-paid → bea@example.test', 'deal-paid → sam@example.test'])
    const toBuyer = emails.find((e) => e.to.includes('bea@'))
    const toSeller = emails.find((e) => e.to.includes('sam@'))
    expect(toBuyer?.subject).toBe('Paid: “ThinkPad X1 Carbon Gen 9” is yours')
    expect(toBuyer?.text).toContain(
      'You paid $649 for “ThinkPad X1 Carbon Gen 9”. Sam Seller now hands it over',
    )
    expect(toBuyer?.text).toContain('Open My Orders: http://localhost:3000/dashboard/myorders')
    expect(toSeller?.subject).toBe('Sold: Bea Buyer paid for “ThinkPad X1 Carbon Gen 9”')
    expect(toSeller?.text).toContain('mark it handed over in My Product')
    // The seller's figures, in the words of their Earnings page; the buyer's email has none of them.
    expect(toSeller?.text).toContain('Price agreed $649 · Fee $32.45 · You receive $616.55.')
    expect(toBuyer?.text).not.toContain('You receive')
  })

  it('a sale agreed by offer tells the seller the price agreed, not the asking price', async () => {
    const product = await listing('Dell XPS 13 9310')
    const offer = await call('POST', `/api/products/${product.id}/offers`, buyer, { amount: 580 })
    expect(offer.statusCode, offer.body).toBe(201)
    const accepted = await call('PUT', `/api/offers/${offer.json().insertedId}/accept`, seller)
    expect(accepted.statusCode, accepted.body).toBe(200)
    const bookingId = accepted.json().bookingId as string
    await call('POST', `/api/bookings/${bookingId}/hold`, buyer)
    const paid = await call('POST', '/api/payments/test', buyer, {
      bookingId,
      card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' },
    })
    expect(paid.statusCode, paid.body).toBe(200)
    const toSeller = (await sent()).find((e) => e.to.includes('sam@') && e.subject.startsWith('Sold'))
    expect(toSeller?.text).toContain('Bea Buyer paid $580 for your “Dell XPS 13 9310”.')
    expect(toSeller?.text).toContain('Price agreed $580 · Fee $29 · You receive $551.')
    expect(toSeller?.text).not.toContain('$649')
  })

  it('a handover tells the buyer, with the note and the day it completes by itself', async () => {
    const { booking } = await paidBooking()
    await sent()
    await call('PUT', `/api/bookings/${booking.id}/handed-over`, seller, { note: 'Met at the café' })
    const emails = await sent()
    expect(summary(emails)).toEqual(['deal-handed-over → bea@example.test'])
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id))
    const day = new Intl.DateTimeFormat('en-US', {
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date((row?.handedOverAt?.getTime() ?? 0) + 7 * 86_400_000))
    expect(emails[0]?.subject).toBe('Sam Seller handed over “ThinkPad X1 Carbon Gen 9”')
    expect(emails[0]?.text).toContain('Their note: Met at the café')
    expect(emails[0]?.text).toContain(`the sale completes by itself on ${day}.`)
  })

  it('the buyer confirming completes the sale and tells both', async () => {
    const { booking } = await handedOver()
    await sent()
    expect((await call('PUT', `/api/bookings/${booking.id}/received`, buyer, ALL_TICKED)).statusCode).toBe(
      200,
    )
    const emails = await sent()
    expect(summary(emails)).toEqual([
      'deal-completed → bea@example.test',
      'deal-completed → sam@example.test',
    ])
    expect(emails.find((e) => e.to.includes('sam@'))?.text).toContain(
      'The buyer confirmed they received it as described.',
    )
    expect(emails.find((e) => e.to.includes('bea@'))?.text).toContain(
      'You confirmed you received it as described.',
    )
    // The seller is told what they receive, net of the fee, beside the price and the fee (5% by default).
    const toSeller = emails.find((e) => e.to.includes('sam@'))
    expect(toSeller?.text).toContain('Price agreed $649 · Fee $32.45 · You receive $616.55.')
    expect(toSeller?.text).not.toContain('The $649 is released to you')
    expect(emails.find((e) => e.to.includes('bea@'))?.text).not.toContain('You receive')
  })

  it('a problem report tells both; a refund and a release each tell both', async () => {
    const refunded = await disputed()
    let emails = await sent()
    expect(summary(emails).filter((s) => s.startsWith('deal-dispute'))).toEqual([
      'deal-dispute-opened → bea@example.test',
      'deal-dispute-opened → sam@example.test',
    ])
    expect(emails.find((e) => e.to.includes('sam@') && e.subject.includes('problem'))?.text).toContain(
      'Bea Buyer reported a problem with “ThinkPad X1 Carbon Gen 9”: “The screen has a dead line',
    )

    expect(
      (
        await call('PUT', `/api/disputes/${refunded.disputeId}/refund`, admin, {
          reason: 'Not as described: the screen is cracked',
        })
      ).statusCode,
    ).toBe(200)
    emails = await sent()
    expect(summary(emails)).toEqual([
      'deal-dispute-resolved → bea@example.test',
      'deal-dispute-resolved → sam@example.test',
    ])
    expect(emails.find((e) => e.to.includes('bea@'))?.subject).toBe('Refunded: “ThinkPad X1 Carbon Gen 9”')
    expect(emails.find((e) => e.to.includes('bea@'))?.text).toContain('refunded you $649')
    // Refunded: the seller receives nothing from it.
    expect(emails.find((e) => e.to.includes('sam@'))?.text).toContain(
      'Price agreed $649 · Fee $32.45 · You receive $0.',
    )

    const released = await disputed()
    await sent()
    expect((await call('PUT', `/api/disputes/${released.disputeId}/release`, admin)).statusCode).toBe(200)
    emails = await sent()
    expect(summary(emails)).toEqual([
      'deal-dispute-resolved → bea@example.test',
      'deal-dispute-resolved → sam@example.test',
    ])
    expect(emails.find((e) => e.to.includes('sam@'))?.text).toContain('released the sale to you')
    expect(emails.find((e) => e.to.includes('sam@'))?.text).toContain(
      'Price agreed $649 · Fee $32.45 · You receive $616.55: it is in your balance',
    )
  })

  it('a refused move sends nothing', async () => {
    const { booking } = await paidBooking()
    await sent()
    // The buyer cannot hand over, nor confirm before the handover; the seller cannot report a problem.
    expect((await call('PUT', `/api/bookings/${booking.id}/handed-over`, buyer, {})).statusCode).toBe(403)
    expect((await call('PUT', `/api/bookings/${booking.id}/received`, buyer, ALL_TICKED)).statusCode).toBe(
      409,
    )
    const problem = await call('POST', `/api/bookings/${booking.id}/problem`, seller, {
      reason: 'No reason.',
    })
    expect(problem.statusCode).toBe(403)
    expect(await sent()).toEqual([])
  })

  it('an email queued in a transaction that rolls back is never sent', async () => {
    const { booking } = await paidBooking()
    await sent()
    await expect(
      t.db.transaction(async (tx) => {
        await queueDealEmails(tx, t.app.ctx.mail, booking.id, { kind: 'completed', how: 'confirmed' })
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(await sent()).toEqual([])
  })

  it('a user who turned "Bookings and sales" off gets none', async () => {
    await t.db.insert(emailPreferences).values({ userId: seller.id, mutedTopics: ['deals'] })
    try {
      await paidBooking()
      expect(summary(await sent())).toEqual(['deal-paid → bea@example.test'])
    } finally {
      await t.db.delete(emailPreferences).where(eq(emailPreferences.userId, seller.id))
    }
  })
})

describe('the deals.auto-complete job', () => {
  it(`completes sales handed over ${7} days ago, tells both sides, and a second run does nothing`, async () => {
    const old = await handedOver()
    const young = await handedOver()
    await sent()
    const back = (id: string, days: number) =>
      t.db
        .update(bookings)
        .set({ handedOverAt: sql`now() - make_interval(days => ${days})` })
        .where(eq(bookings.id, id))
    await back(old.booking.id, 7)
    await back(young.booking.id, 6)

    // What the quarter-hourly schedule does: queue the job; then the worker runs it.
    await t.app.ctx.jobs.send('deals.auto-complete', {})
    expect(await t.app.ctx.jobs.drain('deals.auto-complete')).toBe(1)
    const stage = async (id: string) =>
      (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0]?.stage
    expect(await stage(old.booking.id)).toBe('completed')
    expect(await stage(young.booking.id)).toBe('handed_over')
    const emails = await sent()
    expect(summary(emails)).toEqual([
      'deal-completed → bea@example.test',
      'deal-completed → sam@example.test',
    ])
    expect(emails[0]?.text).toContain('Nobody reported a problem in the days after the handover')

    await t.app.ctx.jobs.send('deals.auto-complete', {})
    expect(await t.app.ctx.jobs.drain('deals.auto-complete')).toBe(1)
    expect(await sent()).toEqual([])
  })
})
