// The deal after payment through the API: the seller hands over, the buyer confirms or reports a
// problem, a handed-over sale completes by itself after AUTO_COMPLETE_DAYS, and admins refund or release.

import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Booking, DisputeList } from '#contract/bookings'
import { ErrorBody } from '#contract/errors'
import { bookingEvents, bookings, disputes, payments, products } from '#server/db/schema'
import { bearerFor } from '#server/test/auth-helpers'
import { dealAt } from '#server/test/deals'
import {
  type BrandRow,
  createBooking,
  createBrand,
  createProduct,
  createUser,
  type UserRow,
} from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { completeOverdueSales } from './deal.service'

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
let otherBuyer: UserRow
let seller: UserRow
let otherSeller: UserRow
let admin: UserRow

beforeAll(async () => {
  t = await createTestApp({ AUTO_COMPLETE_DAYS: '7', LIVE_HOLDS_PER_BUYER: '100' })
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer', name: 'Bea Buyer' })
  otherBuyer = await createUser(t.db, { role: 'buyer', name: 'Otto Buyer' })
  seller = await createUser(t.db, { role: 'seller', name: 'Sam Seller' })
  otherSeller = await createUser(t.db, { role: 'seller', name: 'Sue Seller' })
  admin = await createUser(t.db, { role: 'admin', name: 'Ada Admin' })
})

afterAll(async () => {
  await t?.close()
})

type Who = UserRow | null

async function call(method: 'GET' | 'POST' | 'PUT', url: string, who: Who, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: who ? await bearerFor(t.app, who) : {},
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

function errorOf(res: { json(): unknown }) {
  return ErrorBody.parse(res.json()).error
}

const paidBooking = () => dealAt(t, 'paid', { buyer, seller, brand })
const handedOver = () => dealAt(t, 'handed_over', { buyer, seller, brand })
const disputed = () => dealAt(t, 'disputed', { buyer, seller, brand })

async function wireBooking(id: string, who: Who = buyer) {
  const res = await call('GET', `/api/bookings/${id}`, who)
  expect(res.statusCode).toBe(200)
  return Booking.parse(res.json())
}

/** Everything a refused call must leave as it was. */
async function snapshot(bookingId: string) {
  const [booking] = await t.db.select().from(bookings).where(eq(bookings.id, bookingId))
  const events = await t.db.select().from(bookingEvents).where(eq(bookingEvents.bookingId, bookingId))
  const ds = await t.db.select().from(disputes).where(eq(disputes.bookingId, bookingId))
  const pays = await t.db.select().from(payments).where(eq(payments.bookingId, bookingId))
  return { booking, events: events.length, disputes: ds, payments: pays }
}

describe('PUT /api/bookings/{id}/handed-over', () => {
  it("the listing's seller marks a paid booking handed over, with a note; the buyer sees when it completes by itself", async () => {
    const { booking } = await paidBooking()
    expect((await wireBooking(booking.id)).status).toBe('paid')
    const res = await call('PUT', `/api/bookings/${booking.id}/handed-over`, seller, {
      note: '  Tracking 1Z999AA10123456784  ',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ acknowledged: true, modifiedCount: 1 })

    const wire = await wireBooking(booking.id)
    expect(wire).toMatchObject({
      status: 'handed_over',
      paid: true,
      handoverNote: 'Tracking 1Z999AA10123456784',
    })
    const handedOverAt = Date.parse(wire.handedOverAt ?? '')
    expect(Math.abs(handedOverAt - Date.now())).toBeLessThan(60_000)
    expect(Date.parse(wire.autoCompleteAt ?? '') - handedOverAt).toBe(7 * 86_400_000)
    // The seller sees the same booking.
    expect((await wireBooking(booking.id, seller)).status).toBe('handed_over')
  })

  it('takes no body at all, and refuses a note that is too long or an unknown field with 400 naming it', async () => {
    const { booking } = await paidBooking()
    const before = await snapshot(booking.id)
    const long = await call('PUT', `/api/bookings/${booking.id}/handed-over`, seller, {
      note: 'x'.repeat(501),
    })
    expect(long.statusCode).toBe(400)
    expect(errorOf(long).fields).toEqual({ note: 'Keep the note under 500 characters' })
    const extra = await call('PUT', `/api/bookings/${booking.id}/handed-over`, seller, { stage: 'completed' })
    expect(extra.statusCode).toBe(400)
    expect(errorOf(extra).fields).toEqual({ stage: 'Unknown field' })
    expect(await snapshot(booking.id)).toEqual(before)

    const bare = await call('PUT', `/api/bookings/${booking.id}/handed-over`, seller)
    expect(bare.statusCode).toBe(200)
    expect((await wireBooking(booking.id)).handoverNote).toBeNull()
  })

  it('refuses everyone else and every other stage, and changes nothing', async () => {
    const { booking } = await paidBooking()
    const before = await snapshot(booking.id)
    const url = `/api/bookings/${booking.id}/handed-over`
    expect((await call('PUT', url, null)).statusCode).toBe(401)
    for (const who of [otherBuyer, otherSeller]) {
      const res = await call('PUT', url, who)
      expect(res.statusCode).toBe(404)
      expect(errorOf(res).message).toBe('Booking not found')
    }
    for (const who of [buyer, admin]) {
      const res = await call('PUT', url, who)
      expect(res.statusCode).toBe(403)
      expect(errorOf(res).message).toBe('Only the seller can mark this laptop handed over')
    }
    expect(await snapshot(booking.id)).toEqual(before)

    const unpaid = await createBooking(t.db, {
      buyer: otherBuyer,
      product: await createProduct(t.db, { seller, brand }),
    })
    const early = await call('PUT', `/api/bookings/${unpaid.id}/handed-over`, seller)
    expect(early.statusCode).toBe(409)
    expect(errorOf(early).message).toBe('You cannot mark it handed over: this booking is not paid yet')

    const twice = await handedOver()
    const again = await call('PUT', `/api/bookings/${twice.booking.id}/handed-over`, seller)
    expect(again.statusCode).toBe(409)
    expect(errorOf(again).message).toBe('You cannot mark it handed over: this booking is handed over')
  })
})

describe('PUT /api/bookings/{id}/received', () => {
  it('the buyer confirms after handover: the sale is completed, with its history', async () => {
    const { booking } = await handedOver()
    const res = await call('PUT', `/api/bookings/${booking.id}/received`, buyer, ALL_TICKED)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ acknowledged: true, modifiedCount: 1 })
    const wire = await wireBooking(booking.id)
    expect(wire).toMatchObject({ status: 'completed', paid: true, autoCompleteAt: null })
    expect(wire.completedAt).not.toBeNull()
    const events = await t.db
      .select({ kind: bookingEvents.kind, actorId: bookingEvents.actorId })
      .from(bookingEvents)
      .where(eq(bookingEvents.bookingId, booking.id))
      .orderBy(bookingEvents.createdAt)
    expect(events).toEqual([
      { kind: 'paid', actorId: buyer.id },
      { kind: 'handed_over', actorId: seller.id },
      { kind: 'received', actorId: buyer.id },
    ])
  })

  it('refuses the seller and the admin (403), outsiders (404), and a booking not handed over (409)', async () => {
    const { booking } = await handedOver()
    const before = await snapshot(booking.id)
    const url = `/api/bookings/${booking.id}/received`
    expect((await call('PUT', url, seller, ALL_TICKED)).statusCode).toBe(403)
    expect((await call('PUT', url, admin, ALL_TICKED)).statusCode).toBe(403)
    expect((await call('PUT', url, otherBuyer, ALL_TICKED)).statusCode).toBe(404)
    expect((await call('PUT', url, otherSeller, ALL_TICKED)).statusCode).toBe(404)
    expect(await snapshot(booking.id)).toEqual(before)

    const paid = await paidBooking()
    const early = await call('PUT', `/api/bookings/${paid.booking.id}/received`, buyer, ALL_TICKED)
    expect(early.statusCode).toBe(409)
    expect(errorOf(early).message).toBe(
      'You cannot confirm receipt: this booking is paid and waiting for handover',
    )
    expect((await call('PUT', url, buyer, ALL_TICKED)).statusCode).toBe(200)
    const twice = await call('PUT', url, buyer, ALL_TICKED)
    expect(twice.statusCode).toBe(409)
    expect(errorOf(twice).message).toBe('You cannot confirm receipt: this booking is completed')
  })
})

describe('the handover checklist', () => {
  it('"Received, as described" needs every item ticked; a refusal changes nothing', async () => {
    const { booking } = await handedOver()
    const before = await snapshot(booking.id)
    const url = `/api/bookings/${booking.id}/received`
    const none = await call('PUT', url, buyer)
    expect(none.statusCode).toBe(400)
    const oneLeft = await call('PUT', url, buyer, {
      checklist: { ...ALL_TICKED.checklist, no_firmware_password: false },
    })
    expect(oneLeft.statusCode).toBe(400)
    expect(errorOf(oneLeft).fields?.checklist).toMatch(
      /Tick every item of the handover checklist, or report a problem/,
    )
    const missing = await call('PUT', url, buyer, { checklist: { serial: true } })
    expect(missing.statusCode).toBe(400)
    expect(await snapshot(booking.id)).toEqual(before)
  })

  it('keeps the answers on the deal, with the serial ending the buyer compared', async () => {
    const product = await createProduct(t.db, {
      seller,
      brand,
      serialHash: 'h-checklist',
      serialLast4: 'X2A7',
    })
    const booking = await createBooking(t.db, { buyer, product })
    expect((await call('POST', `/api/bookings/${booking.id}/hold`, buyer)).statusCode).toBe(200)
    await call('POST', '/api/payments/test', buyer, {
      bookingId: booking.id,
      card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' },
    })
    await call('PUT', `/api/bookings/${booking.id}/handed-over`, seller, {})
    expect((await wireBooking(booking.id)).serial_last4).toBe('X2A7')
    expect((await call('PUT', `/api/bookings/${booking.id}/received`, buyer, ALL_TICKED)).statusCode).toBe(
      200,
    )
    const wire = await wireBooking(booking.id)
    expect(wire.checklist?.checklist).toEqual(ALL_TICKED.checklist)
    expect(wire.checklist?.checked_at).toMatch(/^\d{4}-/)
  })

  it('gives the serial’s last four to the buyer once paid, never before; the listing shows them only to its seller and admins', async () => {
    const product = await createProduct(t.db, {
      seller,
      brand,
      serialHash: 'h-once-paid',
      serialLast4: 'K9Q4',
    })
    const booking = await createBooking(t.db, { buyer, product })
    const listing = async (who: Who) =>
      (await call('GET', `/api/products/${product.id}`, who)).json() as { serial_last4?: string | null }
    // Booked, held, not paid: neither the booking nor the listing says them to the buyer.
    expect((await wireBooking(booking.id)).serial_last4).toBeNull()
    expect((await call('POST', `/api/bookings/${booking.id}/hold`, buyer)).statusCode).toBe(200)
    expect((await wireBooking(booking.id)).serial_last4).toBeNull()
    const listed = await call('GET', `/api/bookings?email=${encodeURIComponent(buyer.email)}`, buyer)
    const mine = (listed.json() as Booking[]).find((b) => b._id === booking.id)
    expect(mine?.serial_last4).toBeNull()
    for (const who of [buyer, otherBuyer, null]) expect(await listing(who)).not.toHaveProperty('serial_last4')
    expect((await listing(seller)).serial_last4).toBe('K9Q4')
    expect((await listing(admin)).serial_last4).toBe('K9Q4')
    // Paid: the deal shows them to the buyer.
    await call('POST', '/api/payments/test', buyer, {
      bookingId: booking.id,
      card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' },
    })
    expect((await wireBooking(booking.id)).serial_last4).toBe('K9Q4')
    // A laptop listed without a serial: none to give.
    const { booking: none } = await paidBooking()
    expect((await wireBooking(none.id)).serial_last4).toBeNull()
  })

  it('a problem reported from the checklist keeps its answers, shown to the admin handling the dispute', async () => {
    const { booking } = await handedOver()
    const ticks = { ...ALL_TICKED.checklist, accounts_signed_out: false }
    const res = await call('POST', `/api/bookings/${booking.id}/problem`, buyer, {
      reason: "The seller's accounts are still on the laptop (Find My or a Microsoft account).",
      checklist: ticks,
    })
    expect(res.statusCode).toBe(201)
    const list = DisputeList.parse((await call('GET', '/api/disputes', admin)).json())
    const dispute = list.find((d) => d.booking._id === booking.id)
    expect(dispute?.booking.checklist?.checklist).toEqual(ticks)
    // The buyer sees their own answers; a problem reported without the checklist has none.
    expect((await wireBooking(booking.id)).checklist?.checklist).toEqual(ticks)
    const plain = await disputed()
    expect((await wireBooking(plain.booking.id)).checklist).toBeNull()
  })
})

describe('POST /api/bookings/{id}/problem', () => {
  it('the buyer reports a problem before or after handover: a dispute opens and the booking is disputed', async () => {
    for (const deal of [await paidBooking(), await handedOver()]) {
      const res = await call('POST', `/api/bookings/${deal.booking.id}/problem`, buyer, {
        reason: '  It arrived with a cracked hinge.  ',
      })
      expect(res.statusCode).toBe(201)
      const answer = res.json() as { acknowledged: boolean; insertedId: string }
      expect(answer.acknowledged).toBe(true)
      const wire = await wireBooking(deal.booking.id)
      expect(wire.status).toBe('disputed')
      expect(wire.dispute).toEqual({
        _id: answer.insertedId,
        reason: 'It arrived with a cracked hinge.',
        status: 'open',
      })
    }
  })

  it('needs a reason (400 naming it), and refuses others, a second report and a completed sale', async () => {
    const { booking } = await handedOver()
    const url = `/api/bookings/${booking.id}/problem`
    const before = await snapshot(booking.id)
    for (const body of [{}, { reason: '' }, { reason: 'bad' }]) {
      const res = await call('POST', url, buyer, body)
      expect(res.statusCode).toBe(400)
      expect(Object.keys(errorOf(res).fields ?? {})).toEqual(['reason'])
    }
    const reason = { reason: 'The keyboard is missing two keys.' }
    expect((await call('POST', url, seller, reason)).statusCode).toBe(403)
    expect((await call('POST', url, admin, reason)).statusCode).toBe(403)
    expect((await call('POST', url, otherBuyer, reason)).statusCode).toBe(404)
    expect(await snapshot(booking.id)).toEqual(before)

    expect((await call('POST', url, buyer, reason)).statusCode).toBe(201)
    const second = await call('POST', url, buyer, reason)
    expect(second.statusCode).toBe(409)
    expect(errorOf(second).message).toBe('You cannot report a problem: this booking is disputed')

    const done = await handedOver()
    await call('PUT', `/api/bookings/${done.booking.id}/received`, buyer, ALL_TICKED)
    const late = await call('POST', `/api/bookings/${done.booking.id}/problem`, buyer, reason)
    expect(late.statusCode).toBe(409)
    expect(errorOf(late).message).toBe('You cannot report a problem: this booking is completed')
    // The seller cannot hand over or the buyer confirm while a dispute is open.
    const open = await disputed()
    expect(
      (await call('PUT', `/api/bookings/${open.booking.id}/received`, buyer, ALL_TICKED)).statusCode,
    ).toBe(409)
    expect((await call('PUT', `/api/bookings/${open.booking.id}/handed-over`, seller)).statusCode).toBe(409)
  })
})

describe('disputes', () => {
  it('admins see an open dispute with the sale, both sides, the reason and the history', async () => {
    const { booking, disputeId } = await disputed()
    const res = await call('GET', '/api/disputes', admin)
    expect(res.statusCode).toBe(200)
    const list = DisputeList.parse(res.json())
    const found = list.find((d) => d._id === disputeId)
    expect(found).toMatchObject({
      status: 'open',
      reason: 'The screen has a dead line the listing did not mention.',
      resolvedAt: null,
      booking: {
        _id: booking.id,
        status: 'disputed',
        price_cents: 64_900,
        handoverNote: 'Met at the Union Station café',
      },
      buyer: { _id: buyer.id, name: 'Bea Buyer', email: buyer.email },
      seller: { _id: seller.id, name: 'Sam Seller', email: seller.email },
    })
    expect(found?.history.map((e) => [e.kind, e.actorName])).toEqual([
      ['paid', 'Bea Buyer'],
      ['handed_over', 'Sam Seller'],
      ['problem_reported', 'Bea Buyer'],
    ])
    const bad = await call('GET', '/api/disputes?status=closed', admin)
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(errorOf(bad).fields ?? {})).toEqual(['status'])
  })

  it('a refund gives the money back, marks the booking refunded and keeps the listing off sale', async () => {
    const { booking, product, disputeId } = await disputed()
    const res = await call('PUT', `/api/disputes/${disputeId}/refund`, admin, {
      reason: 'Not as described: the screen is cracked',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ acknowledged: true, modifiedCount: 1 })
    const wire = await wireBooking(booking.id)
    expect(wire).toMatchObject({ status: 'refunded', paid: true })
    expect(wire.dispute?.status).toBe('refunded')
    expect(wire.refundedAt).not.toBeNull()
    const [payment] = await t.db.select().from(payments).where(eq(payments.bookingId, booking.id))
    expect(payment?.status).toBe('refunded')
    const [listing] = await t.db.select().from(products).where(eq(products.id, product.id))
    expect(listing?.isSold).toBe(true)

    const again = await call('PUT', `/api/disputes/${disputeId}/refund`, admin, {
      reason: 'Not as described: the screen is cracked',
    })
    expect(again.statusCode).toBe(409)
    expect(errorOf(again).message).toBe('This dispute has already been refunded')
    const release = await call('PUT', `/api/disputes/${disputeId}/release`, admin)
    expect(release.statusCode).toBe(409)

    const resolved = DisputeList.parse((await call('GET', '/api/disputes?status=resolved', admin)).json())
    const found = resolved.find((d) => d._id === disputeId)
    expect(found).toMatchObject({ status: 'refunded', resolvedBy: 'Ada Admin' })
    expect(found?.history.at(-1)).toMatchObject({ kind: 'refunded', actorName: 'Ada Admin' })
    const open = DisputeList.parse((await call('GET', '/api/disputes', admin)).json())
    expect(open.some((d) => d._id === disputeId)).toBe(false)
  })

  it('a release completes the sale for the seller; the payment stays', async () => {
    const { booking, disputeId } = await disputed()
    const res = await call('PUT', `/api/disputes/${disputeId}/release`, admin)
    expect(res.statusCode).toBe(200)
    const wire = await wireBooking(booking.id)
    expect(wire.status).toBe('completed')
    expect(wire.dispute?.status).toBe('released')
    const [payment] = await t.db.select().from(payments).where(eq(payments.bookingId, booking.id))
    expect(payment?.status).toBe('succeeded')
    expect(
      (
        await call('PUT', `/api/disputes/${disputeId}/refund`, admin, {
          reason: 'Not as described: the screen is cracked',
        })
      ).statusCode,
    ).toBe(409)
  })

  it('only admins resolve, and an unknown dispute is 404; nothing changes on a refusal', async () => {
    const { booking, disputeId } = await disputed()
    const before = await snapshot(booking.id)
    for (const who of [buyer, seller, otherBuyer]) {
      expect(
        (
          await call('PUT', `/api/disputes/${disputeId}/refund`, who, {
            reason: 'Not as described: the screen is cracked',
          })
        ).statusCode,
      ).toBe(403)
      expect((await call('PUT', `/api/disputes/${disputeId}/release`, who)).statusCode).toBe(403)
    }
    expect((await call('GET', '/api/disputes', seller)).statusCode).toBe(403)
    const unknown = await call('PUT', '/api/disputes/00000000-0000-4000-8000-000000000000/release', admin)
    expect(unknown.statusCode).toBe(404)
    expect(await snapshot(booking.id)).toEqual(before)
  })
})

describe('completion by time', () => {
  it(`completes handed-over sales ${7} days after handover, once, and leaves younger ones`, async () => {
    const old = await handedOver()
    const young = await handedOver()
    const back = (id: string, days: number) =>
      t.db
        .update(bookings)
        .set({ handedOverAt: sql`now() - make_interval(days => ${days})` })
        .where(eq(bookings.id, id))
    await back(old.booking.id, 7)
    await back(young.booking.id, 6)

    const done = await completeOverdueSales(t.db, 7, t.app.ctx.mail, t.app.ctx.config.payouts.fee)
    expect(done).toContain(old.booking.id)
    expect(done).not.toContain(young.booking.id)
    expect((await wireBooking(old.booking.id)).status).toBe('completed')
    expect((await wireBooking(young.booking.id)).status).toBe('handed_over')
    expect(await completeOverdueSales(t.db, 7, t.app.ctx.mail, t.app.ctx.config.payouts.fee)).not.toContain(
      old.booking.id,
    )
    const events = await t.db.select().from(bookingEvents).where(eq(bookingEvents.bookingId, old.booking.id))
    expect(events.filter((e) => e.kind === 'auto_completed')).toHaveLength(1)
  })
})

describe("the seller's own list (My Product)", () => {
  it('carries each sold listing’s sale and its stage; an unsold one has none', async () => {
    const { product, booking } = await handedOver()
    const unsold = await createProduct(t.db, { seller, brand })
    const res = await call('GET', `/api/products?email=${encodeURIComponent(seller.email)}&limit=100`, seller)
    expect(res.statusCode).toBe(200)
    const list = res.json() as { _id: string; sale?: Booking | null }[]
    const sold = list.find((p) => p._id === product.id)
    expect(Booking.parse(sold?.sale)).toMatchObject({
      _id: booking.id,
      status: 'handed_over',
      userName: 'Bea Buyer',
      handoverNote: 'Met at the Union Station café',
    })
    expect(list.find((p) => p._id === unsold.id)?.sale).toBeNull()
    // The public listing never carries it.
    const pub = await call('GET', `/api/products/${product.id}`, otherBuyer)
    expect(pub.json()).not.toHaveProperty('sale')
  })
})
