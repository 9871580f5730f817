// Nothing a buyer paid for disappears: a listing whose sale is paid and not finished cannot be deleted; its
// seller may cancel the sale instead (the buyer is refunded in full, both are emailed, the listing leaves the
// catalogue, admins see the cancellation on the seller's row); an admin removing such a listing after a
// report refunds its buyer the same way. A refunded sale no longer counts as sold on the dashboard.

import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Booking, DELETE_BLOCKED } from '#contract/bookings'
import { ErrorBody } from '#contract/errors'
import { Overview, UserRecordList } from '#contract/users'
import { bookingEvents, bookings, disputes, payments, products, reports } from '#server/db/schema'
import type { OutgoingEmail } from '#server/mail/transport'
import { bearerFor } from '#server/test/auth-helpers'
import { dealAt } from '#server/test/deals'
import { type BrandRow, createBrand, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp
let brand: BrandRow
let buyer: UserRow
let seller: UserRow
let otherSeller: UserRow
let admin: UserRow

beforeAll(async () => {
  t = await createTestApp({ LIVE_HOLDS_PER_BUYER: '100' })
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer', name: 'Bea Buyer', email: 'bea@example.test' })
  seller = await createUser(t.db, { role: 'seller', name: 'Sam Seller', email: 'sam@example.test' })
  otherSeller = await createUser(t.db, { role: 'seller', name: 'Sue Seller' })
  admin = await createUser(t.db, { role: 'admin', name: 'Ada Admin' })
})

afterAll(async () => {
  await t?.close()
})

beforeEach(async () => {
  await t.app.ctx.jobs.drain('email')
  t.outbox.length = 0
})

async function call(method: 'GET' | 'PUT' | 'DELETE', url: string, who: UserRow, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: await bearerFor(t.app, who),
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

const errorOf = (res: { json(): unknown }) => ErrorBody.parse(res.json()).error
const parties = () => ({ buyer, seller, brand })
const REASON = 'The hinge cracked while I was packing it.'

async function sent(): Promise<OutgoingEmail[]> {
  await t.app.ctx.jobs.drain('email')
  const out = [...t.outbox]
  t.outbox.length = 0
  return out
}

/** What a refused call must leave as it was. */
async function snapshot(productId: string) {
  const [product] = await t.db.select().from(products).where(eq(products.id, productId))
  const bs = await t.db.select().from(bookings).where(eq(bookings.productId, productId))
  const pays = await t.db.select().from(payments).where(eq(payments.productId, productId))
  return { product, bookings: bs, payments: pays }
}

async function myOrder(bookingId: string) {
  const res = await call('GET', `/api/bookings/${bookingId}`, buyer)
  expect(res.statusCode).toBe(200)
  return Booking.parse(res.json())
}

describe('DELETE /api/products/{id} with a paid sale', () => {
  it('refuses a listing whose sale is paid and waiting for handover, saying what to do, and changes nothing', async () => {
    const { product, booking } = await dealAt(t, 'paid', parties())
    const before = await snapshot(product.id)
    const res = await call('DELETE', `/api/products/${product.id}`, seller)
    expect(res.statusCode).toBe(409)
    expect(errorOf(res).message).toBe(DELETE_BLOCKED.paid)
    expect(errorOf(res).message).toMatch(/cancel the sale to refund the buyer/)
    expect(await snapshot(product.id)).toEqual(before)
    // The sale is still on the seller's list, so it can still be handed over.
    const mine = await call('GET', `/api/products?email=${seller.email}`, seller)
    expect((mine.json() as { _id: string }[]).map((p) => p._id)).toContain(product.id)
    expect((await myOrder(booking.id)).status).toBe('paid')
  })

  it('refuses while handed over or disputed (for an admin too), and allows it once the sale is completed', async () => {
    const handed = await dealAt(t, 'handed_over', parties())
    const res = await call('DELETE', `/api/products/${handed.product.id}`, seller)
    expect(res.statusCode).toBe(409)
    expect(errorOf(res).message).toBe(DELETE_BLOCKED.handed_over)

    const disputed = await dealAt(t, 'disputed', parties())
    for (const who of [seller, admin]) {
      const refused = await call('DELETE', `/api/products/${disputed.product.id}`, who)
      expect(refused.statusCode).toBe(409)
      expect(errorOf(refused).message).toBe(DELETE_BLOCKED.disputed)
    }

    const completed = await dealAt(t, 'completed', parties())
    const ok = await call('DELETE', `/api/products/${completed.product.id}`, seller)
    expect(ok.statusCode).toBe(200)
    expect(ok.json()).toMatchObject({ deletedCount: 1 })
  })

  it('still deletes a listing that is only booked (not paid)', async () => {
    const { product } = await dealAt(t, 'booked', parties())
    const res = await call('DELETE', `/api/products/${product.id}`, seller)
    expect(res.statusCode).toBe(200)
  })
})

describe('PUT /api/bookings/{id}/cancel', () => {
  it('refunds the buyer in full, takes the listing down, emails both and puts it on the seller’s record', async () => {
    const { product, booking } = await dealAt(t, 'paid', { ...parties(), priceCents: 72_500 })
    await sent()
    const res = await call('PUT', `/api/bookings/${booking.id}/cancel`, seller, { reason: `  ${REASON}  ` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ acknowledged: true, modifiedCount: 1 })

    const after = await snapshot(product.id)
    expect(after.product?.removedAt).not.toBeNull()
    expect(after.bookings[0]).toMatchObject({ stage: 'refunded', isPaid: true })
    expect(after.bookings[0]?.refundedAt).not.toBeNull()
    expect(after.payments).toHaveLength(1)
    expect(after.payments[0]).toMatchObject({
      status: 'refunded',
      amountCents: 72_500,
      provider: 'test',
      failureReason: 'The seller cancelled the sale',
    })
    const events = await t.db.select().from(bookingEvents).where(eq(bookingEvents.bookingId, booking.id))
    expect(events.find((e) => e.kind === 'cancelled')).toMatchObject({ actorId: seller.id, note: REASON })

    // The buyer's My Orders says refunded, with the seller's reason.
    expect(await myOrder(booking.id)).toMatchObject({ status: 'refunded', cancelReason: REASON })
    // The listing has left the catalogue.
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${product.id}` })).statusCode).toBe(404)

    const emails = await sent()
    expect(emails.map((e) => `${e.headers['X-Laptop-Market-Email']} → ${e.to}`).sort()).toEqual([
      expect.stringMatching(/^deal-cancelled → .*bea@example\.test/),
      expect.stringMatching(/^deal-cancelled → .*sam@example\.test/),
    ])
    const toBuyer = emails.find((e) => e.to.includes('bea@'))
    expect(toBuyer?.subject).toBe(`Sale cancelled: “${product.name}”, you are refunded $725`)
    expect(toBuyer?.text).toContain(`Sam Seller cancelled the sale of “${product.name}”`)
    expect(toBuyer?.text).toContain(`Their reason: ${REASON}`)
    const toSeller = emails.find((e) => e.to.includes('sam@'))
    expect(toSeller?.text).toContain(
      'The buyer is refunded $725 in full and the listing is off Laptop Market.',
    )

    const sellers = await call('GET', '/api/sellers', admin)
    const row = UserRecordList.parse(sellers.json()).find((u) => u._id === seller.id)
    expect(row?.cancelled_sales).toBeGreaterThanOrEqual(1)
    const other = UserRecordList.parse(sellers.json()).find((u) => u._id === otherSeller.id)
    expect(other?.cancelled_sales).toBe(0)
  })

  it('is refused, changing nothing and sending nothing, to the buyer, another seller, after handover, without a reason, or twice', async () => {
    const { product, booking } = await dealAt(t, 'paid', parties())
    await sent()
    const before = await snapshot(product.id)
    const url = `/api/bookings/${booking.id}/cancel`
    const asBuyer = await call('PUT', url, buyer, { reason: REASON })
    expect(asBuyer.statusCode).toBe(403)
    expect((await call('PUT', url, otherSeller, { reason: REASON })).statusCode).toBe(404)
    const short = await call('PUT', url, seller, { reason: 'no' })
    expect(short.statusCode).toBe(400)
    expect(errorOf(short).fields?.reason).toMatch(/at least 10 characters/)
    expect((await call('PUT', url, seller, {})).statusCode).toBe(400)
    expect(await snapshot(product.id)).toEqual(before)
    expect(await sent()).toEqual([])

    const handed = await dealAt(t, 'handed_over', parties())
    const late = await call('PUT', `/api/bookings/${handed.booking.id}/cancel`, seller, { reason: REASON })
    expect(late.statusCode).toBe(409)
    expect(errorOf(late).message).toBe('You cannot cancel the sale: this booking is handed over')

    const unpaid = await dealAt(t, 'booked', parties())
    const early = await call('PUT', `/api/bookings/${unpaid.booking.id}/cancel`, seller, { reason: REASON })
    expect(early.statusCode).toBe(409)

    expect((await call('PUT', url, seller, { reason: REASON })).statusCode).toBe(200)
    const again = await call('PUT', url, seller, { reason: REASON })
    expect(again.statusCode).toBe(409)
    expect(errorOf(again).message).toBe('You cannot cancel the sale: this booking is refunded')
  })
})

describe('PUT /api/reports/{id}/remove with a paid sale', () => {
  it('refunds the buyer in full, closes an open dispute and emails both before the listing goes', async () => {
    const { product, booking } = await dealAt(t, 'disputed', parties())
    const [report] = await t.db
      .insert(reports)
      .values({ productId: product.id, reporterId: buyer.id, reason: 'Not as described' })
      .returning({ id: reports.id })
    await sent()
    const res = await call('PUT', `/api/reports/${report?.id}/remove`, admin)
    expect(res.statusCode).toBe(200)
    const after = await snapshot(product.id)
    expect(after.product?.removedAt).not.toBeNull()
    expect(after.bookings[0]?.stage).toBe('refunded')
    expect(after.payments[0]?.status).toBe('refunded')
    const [dispute] = await t.db.select().from(disputes).where(eq(disputes.bookingId, booking.id))
    expect(dispute).toMatchObject({ status: 'refunded', resolvedBy: admin.id })
    const emails = await sent()
    // Both sides of the sale, and the reporter (told the listing was removed).
    expect(emails.map((e) => e.headers['X-Laptop-Market-Email']).sort()).toEqual([
      'deal-cancelled',
      'deal-cancelled',
      'report-resolved',
    ])
    expect(
      emails.find((e) => e.to.includes('bea@') && e.headers['X-Laptop-Market-Email'] === 'deal-cancelled')
        ?.text,
    ).toContain(
      `An admin removed the listing “${product.name}” after a report, and you are refunded $649 in full.`,
    )
  })

  it('removes a listing with no paid sale without touching any payment, cancelling its unpaid booking', async () => {
    const { product } = await dealAt(t, 'booked', parties())
    const [report] = await t.db
      .insert(reports)
      .values({ productId: product.id, reporterId: buyer.id, reason: 'Spam' })
      .returning({ id: reports.id })
    expect((await call('PUT', `/api/reports/${report?.id}/remove`, admin)).statusCode).toBe(200)
    expect((await snapshot(product.id)).payments).toEqual([])
    // The unpaid booking is cancelled with the listing, and its buyer told; nothing was charged.
    const mails = await sent()
    const cancelled = mails.filter((m) => !m.subject.startsWith('Your report of'))
    expect(cancelled.map((m) => m.subject)).toEqual([expect.stringMatching(/^Booking cancelled/)])
    expect(cancelled[0]?.text).toMatch(/taken down\. Nothing was charged/)
  })
})

describe('the seller’s overview after a refund', () => {
  it('stops counting a refunded sale as sold, as its revenue already does', async () => {
    const seller2 = await createUser(t.db, { role: 'seller' })
    const overview = async () => {
      const res = await call('GET', '/api/dashboard/overview', seller2)
      expect(res.statusCode).toBe(200)
      const counts = Overview.parse(res.json()).counts
      return Object.fromEntries(counts.map((c) => [c.label, c.value]))
    }
    const deal = await dealAt(t, 'disputed', { buyer, seller: seller2, brand, priceCents: 50_000 })
    expect(await overview()).toMatchObject({ Sold: '1', Revenue: '$500' })
    const res = await call('PUT', `/api/disputes/${deal.disputeId}/refund`, admin, {
      reason: 'Not as described: the screen is cracked',
    })
    expect(res.statusCode).toBe(200)
    expect(await overview()).toMatchObject({ Sold: '0', Revenue: '$0' })
  })
})

describe('an admin’s refund: a reason both sides see, and what happens to the laptop', () => {
  const WHY = 'The screen has a dead line the listing hid'

  it('refunds a dispute only with a reason, shown on the deal to both sides and in both emails', async () => {
    const deal = await dealAt(t, 'disputed', { buyer, seller, brand, name: 'Refundbook 13' })
    await sent()
    const url = `/api/disputes/${deal.disputeId}/refund`
    expect((await call('PUT', url, admin)).statusCode).toBe(400)
    for (const body of [{}, { reason: '  short  ' }]) {
      const bad = await call('PUT', url, admin, body)
      expect(bad.statusCode).toBe(400)
      expect(errorOf(bad).fields).toHaveProperty('reason')
    }
    const [payment] = await t.db.select().from(payments).where(eq(payments.bookingId, deal.booking.id))
    expect(payment?.status).toBe('succeeded')
    expect(await sent()).toEqual([])

    expect((await call('PUT', url, admin, { reason: `  ${WHY}  ` })).statusCode).toBe(200)
    for (const who of [buyer, seller]) {
      const seen = Booking.parse((await call('GET', `/api/bookings/${deal.booking.id}`, who)).json())
      expect(seen).toMatchObject({ status: 'refunded', refundReason: WHY })
    }
    const emails = await sent()
    const toBuyer = emails.find((e) => e.to.includes(buyer.email))
    const toSeller = emails.find((e) => e.to.includes(seller.email))
    for (const email of [toBuyer, toSeller]) {
      expect(email?.text).toContain(`The admin's reason: ${WHY}`)
      expect(email?.text).toContain('This refund does not include a return of the laptop')
    }
    expect(toBuyer?.text).toContain('if they ask for it back, agree with them how it goes back to them')
    expect(toSeller?.text).toContain('the buyer still has it and Laptop Market does not collect it')
    expect(toSeller?.text).not.toContain('If the laptop comes back to you')
  })

  it('refunds a completed sale only with a reason, told to both with the laptop’s fate', async () => {
    const deal = await dealAt(t, 'completed', { buyer, seller, brand, name: 'Refundbook 14' })
    await sent()
    const url = `/api/bookings/${deal.booking.id}/refund`
    const bad = await t.app.inject({
      method: 'POST',
      url,
      headers: await bearerFor(t.app, admin),
      payload: { reason: '' },
    })
    expect(bad.statusCode).toBe(400)
    expect(errorOf(bad).fields).toHaveProperty('reason')
    const ok = await t.app.inject({
      method: 'POST',
      url,
      headers: await bearerFor(t.app, admin),
      payload: { reason: WHY },
    })
    expect(ok.statusCode, ok.body).toBe(200)
    const seen = Booking.parse((await call('GET', `/api/bookings/${deal.booking.id}`, seller)).json())
    expect(seen.refundReason).toBe(WHY)
    const emails = await sent()
    expect(emails).toHaveLength(2)
    for (const email of emails) {
      expect(email.text).toContain(`The admin's reason: ${WHY}`)
      expect(email.text).toContain('This refund does not include a return of the laptop')
    }
  })

  it('says a laptop never handed over stays with its seller', async () => {
    const deal = await dealAt(t, 'paid', { buyer, seller, brand, name: 'Refundbook 15' })
    const problem = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${deal.booking.id}/problem`,
      headers: await bearerFor(t.app, buyer),
      payload: { reason: 'The seller stopped answering my messages.' },
    })
    expect(problem.statusCode, problem.body).toBe(201)
    const disputeId = problem.json().insertedId
    await sent()
    expect((await call('PUT', `/api/disputes/${disputeId}/refund`, admin, { reason: WHY })).statusCode).toBe(
      200,
    )
    const emails = await sent()
    expect(emails.find((e) => e.to.includes(buyer.email))?.text).toContain(
      'The laptop was never handed over to you, so there is nothing to send back.',
    )
    expect(emails.find((e) => e.to.includes(seller.email))?.text).toContain(
      'The laptop was never handed over, so it stays with you.',
    )
  })
})

describe('what ended a refunded sale, in its answer', () => {
  it('a return the seller got back reads return_refunded; one an admin refunded (its parcel lost) return_lost, with the reason', async () => {
    const back = await dealAt(t, 'completed', { buyer, seller, brand, name: 'Returnbook 1' })
    const lost = await dealAt(t, 'completed', { buyer, seller, brand, name: 'Returnbook 2' })
    const WHY = 'The carrier lost the parcel on its way back.'
    // The return's own moves are the returns module's: only what the answer reads is written here.
    for (const [deal, actor, note] of [
      [back, seller, null],
      [lost, admin, WHY],
    ] as const) {
      await t.db.update(bookings).set({ stage: 'refunded' }).where(eq(bookings.id, deal.booking.id))
      await t.db
        .insert(bookingEvents)
        .values({ bookingId: deal.booking.id, kind: 'return_refunded', actorId: actor.id, note })
    }
    for (const who of [buyer, seller]) {
      const b = Booking.parse((await call('GET', `/api/bookings/${back.booking.id}`, who)).json())
      expect(b).toMatchObject({ status: 'refunded', refundEvent: 'return_refunded', refundReason: null })
      const l = Booking.parse((await call('GET', `/api/bookings/${lost.booking.id}`, who)).json())
      expect(l).toMatchObject({ status: 'refunded', refundEvent: 'return_lost', refundReason: WHY })
    }
  })
})
