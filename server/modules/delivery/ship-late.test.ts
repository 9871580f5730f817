// A shipped sale's money and its clock: the charge is price + shipping (the shipping on the `shipping` account, not
// the seller's nor our fee), the label moves it to the carrier, a sale with no label SHIP_WITHIN_DAYS after payment
// is cancelled and refunded with its listing taken down and both sides emailed, a seller cannot mark a shipped sale
// handed over, and a delivered shipped sale completes INSPECTION_DAYS after delivery (a met one keeps
// AUTO_COMPLETE_DAYS). Meet-in-person sales are untouched by all of it.
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { feeCents } from '#contract/fees'
import { bookingEvents, bookings, payments, productHolds, products } from '#server/db/schema'
import type { SessionUser } from '#server/lib/session'
import { moveDeal } from '#server/modules/deal'
import { balanceOf, ledgerCheck, sellerBalances } from '#server/modules/ledger'
import { createBooking, createBrand, createProduct, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { getBooking } from '../bookings/bookings.service'
import { completeOverdueSales, markHandedOver } from '../bookings/deal.service'
import { payWithTestCard } from '../payments/payments.service'
import { cancelLateShipments } from './ship-late'

let t: TestApp
let brandId: string
let seller: SessionUser
let buyer: SessionUser

const asSession = (u: UserRow): SessionUser => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role,
  isVerified: false,
})
const address = {
  name: 'Bea Buyer',
  street1: '1 Main St',
  city: 'Chicago',
  state: 'IL',
  zip: '60601',
  country: 'US',
}

beforeAll(async () => {
  t = await createTestApp({ SHIP_WITHIN_DAYS: '3', INSPECTION_DAYS: '2', AUTO_COMPLETE_DAYS: '7' })
  brandId = (await createBrand(t.db)).id
  seller = asSession(await createUser(t.db, { role: 'seller' }))
  buyer = asSession(await createUser(t.db, { role: 'buyer' }))
})
afterAll(async () => {
  await t?.close()
})

/** A listing booked by the buyer, held for them, and paid with the test card: shipped or met. */
async function paidSale(opts: { price: number; shipping: number | null }) {
  const product = await createProduct(t.db, {
    seller: { id: seller.id },
    brand: { id: brandId },
    resalePriceCents: opts.price,
  })
  const booking = await createBooking(t.db, {
    buyer,
    product,
    ...(opts.shipping === null
      ? {}
      : {
          deliveryMethod: 'ship' as const,
          shippingCents: opts.shipping,
          shippingAddress: address,
          shippingRate: {
            shipmentId: 'shp_1',
            rateId: 'rate_1',
            carrier: 'USPS',
            service: 'Priority',
            amountCents: opts.shipping,
            deliveryDays: 2,
          },
        }),
  })
  await t.db
    .insert(productHolds)
    .values({ productId: product.id, bookingId: booking.id, holdUntil: new Date(Date.now() + 600_000) })
  const paid = await payWithTestCard(
    t.db,
    buyer,
    booking.id,
    '4242424242424242',
    t.app.ctx.mail,
    t.app.ctx.config.payouts.fee,
    t.app.ctx.config.deal.shipWithinDays,
  )
  return { product, booking, paid }
}

const fee = () => t.app.ctx.config.payouts.fee

describe('a shipped sale’s money', () => {
  it('charges price + shipping, keeps the shipping apart from the seller and the fee, and the label sends it to the carrier', async () => {
    const before = {
      shipping: await balanceOf(t.db, { kind: 'shipping' }),
      carriers: await balanceOf(t.db, { kind: 'carriers' }),
      fees: await balanceOf(t.db, { kind: 'held_fees' }),
      seller: await sellerBalances(t.db, seller.id),
    }
    const { booking, paid } = await paidSale({ price: 50_000, shipping: 1_234 })
    expect(paid.amountCents).toBe(51_234)
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id))
    expect(row?.priceCents).toBe(50_000)
    expect(row?.stage).toBe('paid')
    // Ship by: SHIP_WITHIN_DAYS after payment.
    const days = ((row?.shipBy?.getTime() ?? 0) - (row?.paidAt?.getTime() ?? 0)) / 86_400_000
    expect(days).toBeCloseTo(3, 2)
    const [payment] = await t.db.select().from(payments).where(eq(payments.bookingId, booking.id))
    expect(payment?.amountCents).toBe(51_234)
    const f = feeCents(50_000, fee())
    expect(await balanceOf(t.db, { kind: 'shipping' })).toBe(before.shipping + 1_234)
    expect(await balanceOf(t.db, { kind: 'held_fees' })).toBe(before.fees + f)
    expect((await sellerBalances(t.db, seller.id)).held).toBe(before.seller.held + 50_000 - f)

    // The label: the deal's `ship` move posts it, once.
    await t.db.transaction((tx) => moveDeal(tx, booking.id, 'ship', 'seller', { actorId: seller.id }))
    expect(await balanceOf(t.db, { kind: 'shipping' })).toBe(before.shipping)
    expect(await balanceOf(t.db, { kind: 'carriers' })).toBe(before.carriers + 1_234)
    // Nothing reaches the seller's available money until the sale completes.
    expect((await sellerBalances(t.db, seller.id)).available).toBe(before.seller.available)
    expect((await ledgerCheck(t.db)).balanced).toBe(true)
  })

  it('refuses the seller’s "handed over" on a shipped sale: its handover is the delivery', async () => {
    const { booking } = await paidSale({ price: 30_000, shipping: 900 })
    await expect(markHandedOver(t.db, seller, booking.id, {}, t.app.ctx.mail, 7)).rejects.toThrow(
      'This laptop ships to the buyer: buy the shipping label instead',
    )
  })

  it('keeps the way of delivery in the deal’s own moves, whichever path asks: no hand_over of a shipped sale, no ship of a met one', async () => {
    const shipped = await paidSale({ price: 30_000, shipping: 900 })
    await expect(
      t.db.transaction((tx) =>
        moveDeal(tx, shipped.booking.id, 'hand_over', 'seller', { actorId: seller.id }),
      ),
    ).rejects.toThrow('This laptop ships to the buyer: buy the shipping label instead')
    const met = await paidSale({ price: 30_000, shipping: null })
    await expect(
      t.db.transaction((tx) => moveDeal(tx, met.booking.id, 'ship', 'seller', { actorId: seller.id })),
    ).rejects.toThrow('The buyer chose to meet in person: this sale has no shipping label')
    const stages = await t.db
      .select({ stage: bookings.stage })
      .from(bookings)
      .where(sql`${bookings.id} in (${shipped.booking.id}, ${met.booking.id})`)
    expect(stages.map((r) => r.stage)).toEqual(['paid', 'paid'])
  })
})

describe('the ship-within rule', () => {
  it('cancels and refunds a shipped sale with no label after SHIP_WITHIN_DAYS, takes the listing down, tells both', async () => {
    const { booking, product } = await paidSale({ price: 40_000, shipping: 1_500 })
    const met = await paidSale({ price: 20_000, shipping: null })
    const shippingBefore = await balanceOf(t.db, { kind: 'shipping' })
    // Not yet due: nothing happens.
    expect(await cancelLateShipments(t.app.ctx)).not.toContain(booking.id)
    await t.db
      .update(bookings)
      .set({ shipBy: sql`now() - interval '1 minute'` })
      .where(eq(bookings.id, booking.id))
    t.outbox.length = 0
    expect(await cancelLateShipments(t.app.ctx)).toEqual([booking.id])
    // A second run (or a second instance) finds nothing.
    expect(await cancelLateShipments(t.app.ctx)).toEqual([])
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id))
    expect(row?.stage).toBe('refunded')
    const [payment] = await t.db.select().from(payments).where(eq(payments.bookingId, booking.id))
    expect(payment?.status).toBe('refunded')
    const [listing] = await t.db.select().from(products).where(eq(products.id, product.id))
    expect(listing?.removedAt).not.toBeNull()
    const events = await t.db.select().from(bookingEvents).where(eq(bookingEvents.bookingId, booking.id))
    expect(events.map((e) => e.kind)).toContain('ship_late')
    // Both sides read what ended it (not an admin's refund), with the date it was due by.
    for (const who of [buyer, seller]) {
      const view = await getBooking(t.db, who, booking.id)
      expect(view.refundEvent).toBe('ship_late')
      expect(view.delivery?.ship_by).toBe(row?.shipBy?.toISOString())
    }
    // The shipping went back to the buyer from the shipping account.
    expect(await balanceOf(t.db, { kind: 'shipping' })).toBe(shippingBefore - 1_500)
    expect((await ledgerCheck(t.db)).balanced).toBe(true)
    await t.app.ctx.jobs.drain('email')
    const subjects = t.outbox.map((m) => m.subject)
    expect(subjects.filter((s) => s.startsWith('Sale cancelled')).length).toBe(2)
    expect(subjects.some((s) => s.includes('you are refunded $415'))).toBe(true)
    // A met sale has no ship-by and is never touched.
    const [m] = await t.db.select().from(bookings).where(eq(bookings.id, met.booking.id))
    expect(m?.shipBy).toBeNull()
    expect(m?.stage).toBe('paid')
  })

  it('leaves a shipped sale whose label was bought in time', async () => {
    const { booking } = await paidSale({ price: 40_000, shipping: 1_500 })
    await t.db.transaction((tx) => moveDeal(tx, booking.id, 'ship', 'seller', { actorId: seller.id }))
    await t.db
      .update(bookings)
      .set({ shipBy: sql`now() - interval '1 day'` })
      .where(eq(bookings.id, booking.id))
    expect(await cancelLateShipments(t.app.ctx)).not.toContain(booking.id)
  })
})

describe('the inspection window', () => {
  it('completes a delivered shipped sale INSPECTION_DAYS after delivery, a met one AUTO_COMPLETE_DAYS after handover', async () => {
    const shipped = await paidSale({ price: 40_000, shipping: 1_000 })
    await t.db.transaction(async (tx) => {
      await moveDeal(tx, shipped.booking.id, 'ship', 'seller', { actorId: seller.id })
    })
    // Delivery (the carrier's move) stamps the handover; set here as it would leave it.
    await t.db
      .update(bookings)
      .set({ stage: 'handed_over', handedOverAt: sql`now() - interval '3 days'` })
      .where(eq(bookings.id, shipped.booking.id))
    const met = await paidSale({ price: 20_000, shipping: null })
    await markHandedOver(t.db, seller, met.booking.id, {}, t.app.ctx.mail, 7)
    await t.db
      .update(bookings)
      .set({ handedOverAt: sql`now() - interval '3 days'` })
      .where(eq(bookings.id, met.booking.id))
    const { autoCompleteDays, inspectionDays } = t.app.ctx.config.deal
    const done = await completeOverdueSales(
      t.db,
      autoCompleteDays,
      t.app.ctx.mail,
      fee(),
      500,
      inspectionDays,
    )
    expect(done).toContain(shipped.booking.id)
    expect(done).not.toContain(met.booking.id)
    expect((await ledgerCheck(t.db)).balanced).toBe(true)
  })
})
