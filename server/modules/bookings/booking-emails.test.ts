// Booking was a free way to email a seller: ten throwaway buyers booking one listing sent ten emails in
// seconds. A seller's bookings of a few minutes (BOOKING_EMAIL_GROUP_SECONDS) now come in one email, sent by
// the `bookings.seller-email` job; the bookings it tells are marked in the transaction that queues it, so a
// repeat sends nothing and a failure before the commit loses none.

import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { bookings } from '#server/db/schema'
import type { OutgoingEmail } from '#server/mail/transport'
import { bearerFor } from '#server/test/auth-helpers'
import { type BrandRow, createBrand, createProduct, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { sendBookedEmail } from './deal-emails'

let t: TestApp
let brand: BrandRow

beforeAll(async () => {
  t = await createTestApp({ BOOKING_EMAIL_GROUP_SECONDS: '300' })
  brand = await createBrand(t.db)
})
afterAll(async () => {
  await t?.close()
})
beforeEach(async () => {
  await t.app.ctx.jobs.drain('email')
  t.outbox.length = 0
})

async function book(productId: string, name: string) {
  const buyer = await createUser(t.db, { role: 'buyer', name })
  return t.app.inject({
    method: 'POST',
    url: '/api/bookings',
    headers: await bearerFor(t.app, buyer),
    payload: { productId, phoneNumber: '+1 555 010 0000', location: `Corner ${name}` },
  })
}

async function sellerJobs(seller: UserRow, states = ['created', 'retry', 'active', 'completed']) {
  const res = await t.db.execute(sql`select count(*)::int as n from pgboss.job
    where name = 'bookings.seller-email' and data->>'sellerId' = ${seller.id} and state::text = any(${`{${states.join(',')}}`}::text[])`)
  return (res as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0
}

/** The emails sent so far; with `later`, after the grouping delay has passed. */
async function sent({ later = false } = {}): Promise<OutgoingEmail[]> {
  if (later) {
    await t.db.execute(sql`update pgboss.job set start_after = now() - interval '1 second'
      where name = 'bookings.seller-email' and state in ('created', 'retry')`)
  }
  await t.app.ctx.jobs.drain('bookings.seller-email')
  await t.app.ctx.jobs.drain('email')
  const out = [...t.outbox]
  t.outbox.length = 0
  return out
}

describe("a seller's booking emails, grouped", () => {
  it('ten throwaway buyers booking one listing send the seller one email, after the delay, naming all ten', async () => {
    const seller = await createUser(t.db, {
      role: 'seller',
      name: 'Sam Seller',
      email: 'sam.grouped@example.test',
    })
    const product = await createProduct(t.db, {
      seller,
      brand,
      name: 'ThinkPad T14',
      resalePriceCents: 45_000,
    })
    for (let i = 1; i <= 10; i++) expect((await book(product.id, `Throwaway ${i}`)).statusCode).toBe(201)

    // Nothing at once, and one waiting job for the seller however many bookings came.
    expect(await sent()).toEqual([])
    expect(await sellerJobs(seller, ['created', 'retry'])).toBe(1)

    const emails = await sent({ later: true })
    expect(emails).toHaveLength(1)
    const [email] = emails
    expect(email?.to).toContain('sam.grouped@example.test')
    expect(email?.headers['X-Laptop-Market-Email']).toBe('deal-booked')
    expect(email?.subject).toBe('10 new bookings of your laptops')
    for (let i = 1; i <= 10; i++) {
      expect(email?.text).toContain(
        `- Throwaway ${i} booked “ThinkPad T14”: at $450. They would like to meet around Corner Throwaway ${i}.`,
      )
    }
    expect(email?.text).toContain('Open My Product: http://localhost:3000/dashboard/myproduct')

    // Told once: every booking marked, and running the job again sends nothing.
    const rows = await t.db.select().from(bookings).where(eq(bookings.productId, product.id))
    expect(rows.map((r) => r.sellerEmailPending)).toEqual(Array(10).fill(false))
    expect(await sendBookedEmail(t.app.ctx, seller.id)).toBe(0)
    expect(await sent({ later: true })).toEqual([])
  })

  it('a booking after the email starts a new one, in the one-booking wording', async () => {
    const seller = await createUser(t.db, { role: 'seller', name: 'Sam Seller' })
    const product = await createProduct(t.db, {
      seller,
      brand,
      name: 'MacBook Air M2',
      resalePriceCents: 64_900,
    })
    await book(product.id, 'Early Bird')
    expect(await sent({ later: true })).toHaveLength(1)
    await book(product.id, 'Bea Buyer')
    expect(await sellerJobs(seller, ['created', 'retry'])).toBe(1)
    const [email, ...rest] = await sent({ later: true })
    expect(rest).toEqual([])
    expect(email?.subject).toBe('Bea Buyer booked your “MacBook Air M2”')
    expect(email?.text).toContain('at $649. They would like to meet around Corner Bea Buyer.')
  })

  it('lists twenty bookings and counts the rest', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    for (let i = 1; i <= 23; i++) {
      const product = await createProduct(t.db, { seller, brand, name: `Laptop ${i}` })
      expect((await book(product.id, `Buyer ${i}`)).statusCode).toBe(201)
    }
    const [email, ...rest] = await sent({ later: true })
    expect(rest).toEqual([])
    expect(email?.subject).toBe('23 new bookings of your laptops')
    expect(email?.text.match(/^- Buyer \d+ booked/gm)).toHaveLength(20)
    expect(email?.text).toContain('And 3 more: My Product lists every booking.')
  })

  it('a failure before the email is queued loses no booking: the retry tells it', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const product = await createProduct(t.db, { seller, brand, name: 'Dell XPS 13' })
    await book(product.id, 'Patient Buyer')
    const broken = {
      ...t.app.ctx,
      mail: {
        queue: async () => {
          throw new Error('the database went away')
        },
      },
    }
    await expect(sendBookedEmail(broken, seller.id)).rejects.toThrow('the database went away')
    const [row] = await t.db.select().from(bookings).where(eq(bookings.productId, product.id))
    expect(row?.sellerEmailPending).toBe(true)
    const [email] = await sent({ later: true })
    expect(email?.subject).toBe('Patient Buyer booked your “Dell XPS 13”')
  })

  it('a refused booking queues nothing', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const product = await createProduct(t.db, { seller, brand })
    const buyer = await createUser(t.db, { role: 'buyer' })
    const headers = await bearerFor(t.app, buyer)
    const payload = { productId: product.id, phoneNumber: '+1 555 010 0000', location: 'Austin' }
    expect((await t.app.inject({ method: 'POST', url: '/api/bookings', headers, payload })).statusCode).toBe(
      201,
    )
    await sent({ later: true })
    expect((await t.app.inject({ method: 'POST', url: '/api/bookings', headers, payload })).statusCode).toBe(
      409,
    )
    expect(await sellerJobs(seller, ['created', 'retry'])).toBe(0)
  })
})
