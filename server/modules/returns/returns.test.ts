// Returns through the API: the buyer returns a laptop not as described within the inspection window, the seller
// accepts or declines and an admin decides, the seller checks what came back and the buyer is refunded once (or an
// admin decides), and an admin's dispute can ask for the laptop back first. Every rule: the window, who may do
// what, double submits, one refund, and the ledger.

import { and, eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Booking } from '#contract/bookings'
import { ErrorBody } from '#contract/errors'
import { AdminReturnList, BookingReturn } from '#contract/returns'
import {
  bookingEvents,
  bookings,
  disputes,
  ledgerTransactions,
  payments,
  returns,
  uploads,
} from '#server/db/schema'
import type { OutgoingEmail } from '#server/mail/transport'
import { balanceOf, ledgerCheck, sellerBalances } from '#server/modules/ledger'
import { bearerFor } from '#server/test/auth-helpers'
import { dealAt } from '#server/test/deals'
import { type BrandRow, createBrand, createUser, type UserRow } from '#server/test/factories'
import { fileBody } from '#server/test/multipart'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { completeOverdueSales } from '../bookings/deal.service'
import { refundUnansweredReturns } from './returns.service'
import { returnsDeps } from './returns-deps'

let t: TestApp
let brand: BrandRow
let buyer: UserRow
let otherBuyer: UserRow
let seller: UserRow
let otherSeller: UserRow
let admin: UserRow
let png: Buffer

beforeAll(async () => {
  t = await createTestApp({ INSPECTION_DAYS: '3', RETURN_CONFIRM_DAYS: '3', LIVE_HOLDS_PER_BUYER: '100' })
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer', name: 'Bea Buyer', email: 'bea@example.test' })
  otherBuyer = await createUser(t.db, { role: 'buyer', name: 'Otto Buyer' })
  seller = await createUser(t.db, { role: 'seller', name: 'Sam Seller', email: 'sam@example.test' })
  otherSeller = await createUser(t.db, { role: 'seller', name: 'Sue Seller' })
  admin = await createUser(t.db, { role: 'admin', name: 'Ada Admin' })
  png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3a6ea5' } })
    .png()
    .toBuffer()
})

afterAll(async () => {
  await t?.close()
})

beforeEach(async () => {
  await t.app.ctx.jobs.drain('email')
  t.outbox.length = 0
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

const errorOf = (res: { json(): unknown }) => ErrorBody.parse(res.json()).error

async function sent(): Promise<string[]> {
  await t.app.ctx.jobs.drain('email')
  const out: OutgoingEmail[] = [...t.outbox]
  t.outbox.length = 0
  return out.map((e) => `${e.to.replace(/^.*</, '').replace('>', '')}: ${e.subject}`).sort()
}

async function uploadPhoto(bookingId: string, who: Who = buyer) {
  const body = fileBody(png, 'screen.png', 'image/png')
  return t.app.inject({
    method: 'POST',
    url: `/api/bookings/${bookingId}/return-photos`,
    headers: { ...(who ? await bearerFor(t.app, who) : {}), ...body.headers },
    payload: body.payload,
  })
}

async function photoId(bookingId: string) {
  const res = await uploadPhoto(bookingId)
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { _id: string })._id
}

const REASON = 'The battery holds 40 minutes, the listing said four hours.'

async function openReturn(bookingId: string, who: Who = buyer, photos?: string[]) {
  return call('POST', `/api/bookings/${bookingId}/return`, who, {
    reason: REASON,
    failed_check: 'battery_as_described',
    photos: photos ?? [await photoId(bookingId)],
  })
}

async function handedOver() {
  return dealAt(t, 'handed_over', { buyer, seller, brand, priceCents: 50_000, name: 'ThinkPad T14' })
}

async function stageOf(bookingId: string) {
  const [row] = await t.db.select({ stage: bookings.stage }).from(bookings).where(eq(bookings.id, bookingId))
  return row?.stage
}

async function returnOf(bookingId: string, who: Who = buyer) {
  const res = await call('GET', `/api/bookings/${bookingId}/return`, who)
  expect(res.statusCode, res.body).toBe(200)
  return BookingReturn.parse(res.json())
}

async function ledgerKinds(bookingId: string) {
  const rows = await t.db
    .select({ kind: ledgerTransactions.kind })
    .from(ledgerTransactions)
    .where(eq(ledgerTransactions.bookingId, bookingId))
  return rows.map((r) => r.kind).sort()
}

describe('opening a return', () => {
  it('the buyer returns a handed-over laptop within the window, with reason, failed item and photos; both are told', async () => {
    const { booking } = await handedOver()
    const before = await returnOf(booking.id)
    expect(before.return).toBeNull()
    expect(Date.parse(before.canOpenUntil ?? '') - Date.now()).toBeGreaterThan(2.9 * 86_400_000)
    await sent()

    const res = await openReturn(booking.id)
    expect(res.statusCode, res.body).toBe(201)
    expect(await stageOf(booking.id)).toBe('returning')
    const wire = Booking.parse((await call('GET', `/api/bookings/${booking.id}`, buyer)).json())
    expect(wire.status).toBe('returning')
    const { return: ret, canOpenUntil } = await returnOf(booking.id, seller)
    expect(canOpenUntil).toBeNull()
    expect(ret).toMatchObject({
      status: 'requested',
      method: 'meet',
      reason: REASON,
      failed_check: 'battery_as_described',
      label: null,
      fromDispute: false,
    })
    expect(ret?.photos).toHaveLength(1)
    expect(ret?.photos[0]?.card).toMatch(/^\/media\//)
    expect(await sent()).toEqual([
      'bea@example.test: You asked to return “ThinkPad T14”',
      'sam@example.test: Bea Buyer wants to return “ThinkPad T14”',
    ])
  })

  it('refuses after the inspection window, before the handover, and after completion (409), changing nothing', async () => {
    const late = await handedOver()
    const photo = await photoId(late.booking.id)
    await t.db
      .update(bookings)
      .set({ handedOverAt: sql`now() - interval '3 days 1 minute'` })
      .where(eq(bookings.id, late.booking.id))
    expect((await returnOf(late.booking.id)).canOpenUntil).toBeNull()
    const res = await openReturn(late.booking.id, buyer, [photo])
    expect(res.statusCode).toBe(409)
    expect(errorOf(res).message).toMatch(/^You cannot return it: the 3 days to inspect it ended on /)
    expect(await stageOf(late.booking.id)).toBe('handed_over')
    expect((await uploadPhoto(late.booking.id)).statusCode).toBe(409)

    const paid = await dealAt(t, 'paid', { buyer, seller, brand })
    const early = await openReturn(paid.booking.id, buyer, [photo])
    expect(early.statusCode).toBe(409)
    expect(errorOf(early).message).toBe('You cannot return it: this booking is paid and waiting for handover')

    const done = await dealAt(t, 'completed', { buyer, seller, brand })
    const after = await openReturn(done.booking.id, buyer, [photo])
    expect(after.statusCode).toBe(409)
    expect(errorOf(after).message).toBe('You cannot return it: this booking is completed')
    expect(await t.db.select().from(returns).where(eq(returns.bookingId, done.booking.id))).toEqual([])
  })

  it('only the buyer opens it: the seller 403, another buyer or seller 404, signed out 401', async () => {
    const { booking } = await handedOver()
    const photo = await photoId(booking.id)
    expect((await openReturn(booking.id, seller, [photo])).statusCode).toBe(403)
    expect((await openReturn(booking.id, otherBuyer, [photo])).statusCode).toBe(404)
    expect((await openReturn(booking.id, otherSeller, [photo])).statusCode).toBe(404)
    expect((await openReturn(booking.id, null, [photo])).statusCode).toBe(401)
    expect((await uploadPhoto(booking.id, seller)).statusCode).toBe(403)
    expect((await uploadPhoto(booking.id, otherBuyer)).statusCode).toBe(404)
    expect((await call('GET', `/api/bookings/${booking.id}/return`, otherBuyer)).statusCode).toBe(404)
    expect(await stageOf(booking.id)).toBe('handed_over')
  })

  it('validates the reason like a problem report, the checklist item, and photos of the buyer’s own', async () => {
    const { booking } = await handedOver()
    const photo = await photoId(booking.id)
    const short = await call('POST', `/api/bookings/${booking.id}/return`, buyer, {
      reason: 'broken',
      failed_check: 'serial',
      photos: [photo],
    })
    expect(short.statusCode).toBe(400)
    expect(errorOf(short).fields).toEqual({ reason: 'Tell us what went wrong in at least 10 characters' })
    const bad = await call('POST', `/api/bookings/${booking.id}/return`, buyer, {
      reason: REASON,
      failed_check: 'colour',
      photos: [],
      stage: 'refunded',
    })
    expect(bad.statusCode).toBe(400)
    // Someone else's upload is not a photo of this return.
    const [theirs] = await t.db
      .insert(uploads)
      .values({
        uploaderId: otherBuyer.id,
        cardUrl: '/media/x.webp',
        detailUrl: '/media/y.webp',
        width: 1,
        height: 1,
        bytes: 1,
      })
      .returning({ id: uploads.id })
    const notMine = await openReturn(booking.id, buyer, [theirs?.id ?? ''])
    expect(notMine.statusCode).toBe(400)
    expect(errorOf(notMine).fields).toEqual({ photos: 'Add photos you uploaded for this return' })
    expect(await stageOf(booking.id)).toBe('handed_over')
  })

  it('a double submit opens one return; the auto-completion leaves a returning sale alone', async () => {
    const { booking } = await handedOver()
    const photo = await photoId(booking.id)
    const [a, b] = await Promise.all([
      openReturn(booking.id, buyer, [photo]),
      openReturn(booking.id, buyer, [photo]),
    ])
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409])
    expect(await t.db.select().from(returns).where(eq(returns.bookingId, booking.id))).toHaveLength(1)
    await t.db
      .update(bookings)
      .set({ handedOverAt: sql`now() - interval '30 days'` })
      .where(eq(bookings.id, booking.id))
    const done = await completeOverdueSales(t.db, 7, t.app.ctx.mail, t.app.ctx.config.payouts.fee)
    expect(done).not.toContain(booking.id)
    expect(await stageOf(booking.id)).toBe('returning')
  })
})

describe('the seller answers, an admin decides', () => {
  it('the seller accepts a met sale’s return; the buyer is told to hand it back; a second answer is 409', async () => {
    const { booking } = await handedOver()
    expect((await openReturn(booking.id)).statusCode).toBe(201)
    await sent()
    expect((await call('PUT', `/api/bookings/${booking.id}/return/accept`, buyer)).statusCode).toBe(403)
    expect((await call('PUT', `/api/bookings/${booking.id}/return/accept`, otherSeller)).statusCode).toBe(404)
    const res = await call('PUT', `/api/bookings/${booking.id}/return/accept`, seller)
    expect(res.statusCode, res.body).toBe(200)
    expect((await returnOf(booking.id)).return?.status).toBe('accepted')
    expect(await sent()).toEqual(['bea@example.test: Your return of “ThinkPad T14” is accepted'])
    const again = await call('PUT', `/api/bookings/${booking.id}/return/accept`, seller)
    expect(again.statusCode).toBe(409)
    expect(errorOf(again).message).toBe('You cannot accept this return: this return is accepted already')
    const decline = await call('PUT', `/api/bookings/${booking.id}/return/decline`, seller, {
      reason: 'I changed my mind about it.',
    })
    expect(decline.statusCode).toBe(409)
  })

  it('the seller declines with a reason; the admin sees it awaiting and refuses it: the sale completes', async () => {
    const { booking } = await handedOver()
    expect((await openReturn(booking.id)).statusCode).toBe(201)
    const noReason = await call('PUT', `/api/bookings/${booking.id}/return/decline`, seller, {})
    expect(noReason.statusCode).toBe(400)
    const res = await call('PUT', `/api/bookings/${booking.id}/return/decline`, seller, {
      reason: 'The battery report I attached showed 92%.',
    })
    expect(res.statusCode, res.body).toBe(200)
    await sent()

    const list = AdminReturnList.parse((await call('GET', '/api/returns', admin)).json())
    const mine = list.find((r) => r.bookingId === booking.id)
    expect(mine).toMatchObject({
      status: 'declined',
      declineReason: 'The battery report I attached showed 92%.',
      buyer: { name: 'Bea Buyer' },
      seller: { name: 'Sam Seller' },
    })
    expect((await call('GET', '/api/returns', seller)).statusCode).toBe(403)
    const id = mine?._id ?? ''
    expect(
      (await call('PUT', `/api/returns/${id}/decide`, seller, { decision: 'refuse', reason: 'x'.repeat(12) }))
        .statusCode,
    ).toBe(403)
    const refuse = await call('PUT', `/api/returns/${id}/decide`, admin, {
      decision: 'refuse',
      reason: 'The photos show the battery as described.',
    })
    expect(refuse.statusCode, refuse.body).toBe(200)
    expect(await stageOf(booking.id)).toBe('completed')
    expect((await returnOf(booking.id)).return).toMatchObject({
      status: 'refused',
      decisionReason: 'The photos show the battery as described.',
    })
    expect(await ledgerKinds(booking.id)).toEqual(['charge', 'complete'])
    expect(await sent()).toEqual([
      'bea@example.test: The return of “ThinkPad T14” was refused',
      'sam@example.test: The return of “ThinkPad T14” was refused',
    ])
    const twice = await call('PUT', `/api/returns/${id}/decide`, admin, {
      decision: 'accept',
      reason: 'On second thought, accept it.',
    })
    expect(twice.statusCode).toBe(409)
  })

  it('an admin accepts a declined return', async () => {
    const { booking } = await handedOver()
    expect((await openReturn(booking.id)).statusCode).toBe(201)
    await call('PUT', `/api/bookings/${booking.id}/return/decline`, seller, {
      reason: 'Not my problem at all.',
    })
    const ret = (await returnOf(booking.id)).return
    const res = await call('PUT', `/api/returns/${ret?._id}/decide`, admin, {
      decision: 'accept',
      reason: 'The photos show a battery at 40%.',
    })
    expect(res.statusCode, res.body).toBe(200)
    expect((await returnOf(booking.id)).return).toMatchObject({
      status: 'accepted',
      decisionReason: 'The photos show a battery at 40%.',
    })
    expect(await stageOf(booking.id)).toBe('returning')
  })
})

describe('the laptop comes back', () => {
  async function acceptedMeetReturn() {
    const deal = await handedOver()
    expect((await openReturn(deal.booking.id)).statusCode).toBe(201)
    expect((await call('PUT', `/api/bookings/${deal.booking.id}/return/accept`, seller)).statusCode).toBe(200)
    await sent()
    return deal
  }

  it('as sent: the buyer is refunded through the processor once; the ledger reverses the share and the fee', async () => {
    const { booking } = await acceptedMeetReturn()
    const heldBefore = (await sellerBalances(t.db, seller.id)).held
    const feesBefore = await balanceOf(t.db, { kind: 'held_fees' })
    expect(
      (await call('PUT', `/api/bookings/${booking.id}/return/back`, buyer, { as_sent: true })).statusCode,
    ).toBe(403)
    const [a, b] = await Promise.all([
      call('PUT', `/api/bookings/${booking.id}/return/back`, seller, { as_sent: true }),
      call('PUT', `/api/bookings/${booking.id}/return/back`, seller, { as_sent: true }),
    ])
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409])
    expect(await stageOf(booking.id)).toBe('refunded')
    const [payment] = await t.db.select().from(payments).where(eq(payments.bookingId, booking.id))
    expect(payment?.status).toBe('refunded')
    expect(await ledgerKinds(booking.id)).toEqual(['charge', 'refund'])
    const heldAfter = (await sellerBalances(t.db, seller.id)).held
    expect(heldBefore - heldAfter).toBe(
      50_000 - (feesBefore - (await balanceOf(t.db, { kind: 'held_fees' }))),
    )
    expect((await ledgerCheck(t.db)).balanced).toBe(true)
    expect((await returnOf(booking.id)).return?.status).toBe('refunded')
    expect(await sent()).toEqual([
      'bea@example.test: You are refunded for “ThinkPad T14”',
      'sam@example.test: The return of “ThinkPad T14” is done',
    ])
    const events = await t.db
      .select({ kind: bookingEvents.kind })
      .from(bookingEvents)
      .where(and(eq(bookingEvents.bookingId, booking.id), eq(bookingEvents.kind, 'return_refunded')))
    expect(events).toHaveLength(1)
  })

  it('otherwise: what is different is required; an admin dispute opens and nothing is refunded', async () => {
    const { booking } = await acceptedMeetReturn()
    const bare = await call('PUT', `/api/bookings/${booking.id}/return/back`, seller, { as_sent: false })
    expect(bare.statusCode).toBe(400)
    expect(errorOf(bare).fields).toEqual({ note: 'Say what is different, in at least 10 characters' })
    const res = await call('PUT', `/api/bookings/${booking.id}/return/back`, seller, {
      as_sent: false,
      note: 'The screen came back cracked.',
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(await stageOf(booking.id)).toBe('disputed')
    const [dispute] = await t.db.select().from(disputes).where(eq(disputes.bookingId, booking.id))
    expect(dispute).toMatchObject({
      status: 'open',
      openedBy: seller.id,
      reason: 'The returned laptop is not as sent: The screen came back cracked.',
    })
    const [payment] = await t.db.select().from(payments).where(eq(payments.bookingId, booking.id))
    expect(payment?.status).toBe('succeeded')
    expect(await ledgerKinds(booking.id)).toEqual(['charge'])
  })

  it('a shipped return waits for the carrier: the seller cannot answer before it is delivered back', async () => {
    const { booking } = await handedOver()
    expect((await openReturn(booking.id)).statusCode).toBe(201)
    await t.db
      .update(returns)
      .set({ method: 'ship', status: 'label_bought' })
      .where(eq(returns.bookingId, booking.id))
    const early = await call('PUT', `/api/bookings/${booking.id}/return/back`, seller, { as_sent: true })
    expect(early.statusCode).toBe(409)
    expect(errorOf(early).message).toBe(
      'You cannot answer before the carrier delivers it back: this return is on its way back',
    )
  })

  it('a return delivered back and not answered in RETURN_CONFIRM_DAYS is refunded by itself, once', async () => {
    const { booking } = await handedOver()
    expect((await openReturn(booking.id)).statusCode).toBe(201)
    await t.db
      .update(returns)
      .set({
        method: 'ship',
        status: 'delivered_back',
        deliveredBackAt: sql`now() - interval '3 days 1 minute'`,
      })
      .where(eq(returns.bookingId, booking.id))
    const deps = returnsDeps(t.app.ctx)
    const [first, second] = await Promise.all([
      refundUnansweredReturns(t.db, deps),
      refundUnansweredReturns(t.db, deps),
    ])
    const ret = (await returnOf(booking.id)).return
    expect([...first, ...second].filter((id) => id === ret?._id)).toHaveLength(1)
    expect(await stageOf(booking.id)).toBe('refunded')
    expect(await ledgerKinds(booking.id)).toEqual(['charge', 'refund'])
  })
})

describe('disputes link to returns: "Return first"', () => {
  it('an admin asks for the laptop back; the seller confirms it as sent and the dispute ends refunded', async () => {
    const { booking, disputeId } = await dealAt(t, 'disputed', { buyer, seller, brand, name: 'ThinkPad T14' })
    await sent()
    const reason = 'The laptop comes back before the refund.'
    expect(
      (await call('PUT', `/api/disputes/${disputeId}/return-first`, seller, { reason })).statusCode,
    ).toBe(403)
    const res = await call('PUT', `/api/disputes/${disputeId}/return-first`, admin, { reason })
    expect(res.statusCode, res.body).toBe(201)
    expect(await stageOf(booking.id)).toBe('returning')
    const [d] = await t.db
      .select()
      .from(disputes)
      .where(eq(disputes.id, disputeId ?? ''))
    expect(d?.status).toBe('returning')
    expect((await returnOf(booking.id)).return).toMatchObject({ status: 'accepted', fromDispute: true })
    expect(await sent()).toEqual([
      'bea@example.test: Send “ThinkPad T14” back before your refund',
      'sam@example.test: “ThinkPad T14” is coming back to you',
    ])
    // The dispute waits for the return: refunding it now or asking again is refused.
    expect((await call('PUT', `/api/disputes/${disputeId}/refund`, admin, { reason })).statusCode).toBe(409)
    expect((await call('PUT', `/api/disputes/${disputeId}/return-first`, admin, { reason })).statusCode).toBe(
      409,
    )

    expect(
      (await call('PUT', `/api/bookings/${booking.id}/return/back`, seller, { as_sent: true })).statusCode,
    ).toBe(200)
    const [after] = await t.db
      .select()
      .from(disputes)
      .where(eq(disputes.id, disputeId ?? ''))
    expect(after?.status).toBe('refunded')
    expect(await stageOf(booking.id)).toBe('refunded')
  })

  it('a laptop that comes back otherwise reopens the dispute', async () => {
    const { booking, disputeId } = await dealAt(t, 'disputed', { buyer, seller, brand, name: 'ThinkPad T14' })
    const reason = 'The laptop comes back before the refund.'
    expect((await call('PUT', `/api/disputes/${disputeId}/return-first`, admin, { reason })).statusCode).toBe(
      201,
    )
    const res = await call('PUT', `/api/bookings/${booking.id}/return/back`, seller, {
      as_sent: false,
      note: 'A different laptop came back.',
    })
    expect(res.statusCode).toBe(200)
    const [d] = await t.db
      .select()
      .from(disputes)
      .where(eq(disputes.id, disputeId ?? ''))
    expect(d?.status).toBe('open')
    expect(await stageOf(booking.id)).toBe('disputed')
  })

  it('a laptop never handed over cannot come back first: refund now instead', async () => {
    const paid = await dealAt(t, 'paid', { buyer, seller, brand })
    const res = await call('POST', `/api/bookings/${paid.booking.id}/problem`, buyer, {
      reason: 'The seller stopped answering me.',
    })
    const disputeId = (res.json() as { insertedId: string }).insertedId
    const first = await call('PUT', `/api/disputes/${disputeId}/return-first`, admin, {
      reason: 'The laptop comes back before the refund.',
    })
    expect(first.statusCode).toBe(409)
    expect(errorOf(first).message).toBe('The buyer never had this laptop: refund now instead')
  })
})
