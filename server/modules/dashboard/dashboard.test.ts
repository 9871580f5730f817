import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminDashboard, BuyerDashboard, SellerDashboard } from '#contract/dashboard'
import { Earnings } from '#contract/payouts'
import { productViews, reports } from '#server/db/schema'
import { postUnpostedSales } from '#server/modules/ledger'
import { bearerFor } from '#server/test/auth-helpers'
import {
  type BrandRow,
  createBooking,
  createBrand,
  createPayment,
  createProduct,
  createUser,
  type UserRow,
} from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { lastDays } from './dashboard.service'

const DAY = 24 * 60 * 60 * 1000

let t: TestApp
let brand: BrandRow
let seller: UserRow
let otherSeller: UserRow
let buyer: UserRow
let admin: UserRow

beforeAll(async () => {
  t = await createTestApp()
  brand = await createBrand(t.db)
  seller = await createUser(t.db, { role: 'seller' })
  otherSeller = await createUser(t.db, { role: 'seller' })
  buyer = await createUser(t.db, { role: 'buyer' })
  admin = await createUser(t.db, { role: 'admin' })
})

afterAll(async () => {
  await t?.close()
})

async function get(url: string, who: UserRow) {
  const res = await t.app.inject({ method: 'GET', url, headers: await bearerFor(t.app, who) })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

const days = lastDays()
const today = days[29] as string
const threeDaysAgo = days[26] as string

describe('dashboards', () => {
  it("gives a seller their own listings' views and bookings per day, and their money", async () => {
    const mine = await createProduct(t.db, { seller, brand, resalePriceCents: 50_000 })
    const sold = await createProduct(t.db, { seller, brand, resalePriceCents: 70_000, isSold: true })
    const theirs = await createProduct(t.db, { seller: otherSeller, brand })
    await t.db.insert(productViews).values([
      { productId: mine.id, day: today, views: 7 },
      { productId: sold.id, day: today, views: 2 },
      { productId: mine.id, day: threeDaysAgo, views: 4 },
      { productId: theirs.id, day: today, views: 100 },
      // Older than 30 days: outside the chart.
      { productId: mine.id, day: new Date(Date.now() - 40 * DAY).toISOString().slice(0, 10), views: 50 },
    ])
    await createBooking(t.db, { buyer, product: mine })
    const paid = await createBooking(t.db, { buyer, product: sold, isPaid: true, stage: 'handed_over' })
    await createPayment(t.db, { booking: paid })
    const done = await createProduct(t.db, { seller, brand, resalePriceCents: 30_000, isSold: true })
    const completed = await createBooking(t.db, {
      buyer,
      product: done,
      isPaid: true,
      stage: 'completed',
      createdAt: new Date(Date.now() - 40 * DAY),
    })
    await createPayment(t.db, { booking: completed })
    await createBooking(t.db, { buyer, product: theirs })

    const body = SellerDashboard.parse(await get('/api/dashboard/seller', seller))
    expect(body.days.map((d) => d.day)).toEqual(days)
    expect(body.days.at(-1)).toEqual({ day: today, views: 9, favourites: 0, bookings: 2 })
    expect(body.days[26]).toMatchObject({ day: threeDaysAgo, views: 4, bookings: 0 })
    expect(body.totals).toEqual({ views: 13, favourites: 0, bookings: 2 })
    // The sales written straight into the database reach the ledger as they do at start; the money is the
    // ledger's, as Earnings shows it: each sale's share after the 5% fee, held or available.
    expect(body.money).toEqual({
      in_escrow_cents: 0,
      available_cents: 0,
      on_its_way_cents: 0,
      paid_out_cents: 0,
      fees_cents: 0,
    })
    await postUnpostedSales(t.db, t.app.ctx.config.payouts.fee)
    const money = {
      in_escrow_cents: 66_500,
      available_cents: 28_500,
      on_its_way_cents: 0,
      paid_out_cents: 0,
      fees_cents: 1500,
    }
    expect(SellerDashboard.parse(await get('/api/dashboard/seller', seller)).money).toEqual(money)
    expect(Earnings.parse(await get('/api/earnings', seller))).toMatchObject(money)

    const other = SellerDashboard.parse(await get('/api/dashboard/seller', otherSeller))
    expect(other.totals).toEqual({ views: 100, favourites: 0, bookings: 1 })
    expect(other.money).toEqual({
      in_escrow_cents: 0,
      available_cents: 0,
      on_its_way_cents: 0,
      paid_out_cents: 0,
      fees_cents: 0,
    })
  })

  it('gives an admin the market per day and the listing → booking → payment funnel', async () => {
    const before = AdminDashboard.parse(await get('/api/dashboard/admin', admin))
    const a = await createProduct(t.db, { seller, brand })
    const b = await createProduct(t.db, { seller, brand })
    await createProduct(t.db, { seller, brand })
    await createProduct(t.db, { seller, brand, postedOn: new Date(Date.now() - 45 * DAY) })
    await createBooking(t.db, { buyer, product: a })
    const paid = await createBooking(t.db, { buyer, product: b, isPaid: true })
    await createPayment(t.db, { booking: paid })
    await t.db
      .insert(reports)
      .values({ productId: a.id, reporterId: buyer.id, reason: 'Looks like a stock photo' })

    const after = AdminDashboard.parse(await get('/api/dashboard/admin', admin))
    expect(after.days).toHaveLength(30)
    const gained = (k: 'listings' | 'bookings' | 'payments' | 'reports') =>
      (after.days.at(-1)?.[k] ?? 0) - (before.days.at(-1)?.[k] ?? 0)
    expect({
      listings: gained('listings'),
      bookings: gained('bookings'),
      payments: gained('payments'),
      reports: gained('reports'),
    }).toEqual({ listings: 3, bookings: 2, payments: 1, reports: 1 })
    expect({
      listings: after.funnel.listings - before.funnel.listings,
      booked: after.funnel.booked - before.funnel.booked,
      paid: after.funnel.paid - before.funnel.paid,
    }).toEqual({ listings: 3, booked: 2, paid: 1 })
  })

  it("gives a buyer their orders in progress with what to do next, and nobody else's", async () => {
    const other = await createUser(t.db, { role: 'buyer' })
    const toPay = await createProduct(t.db, { seller, brand, name: 'To Pay 13' })
    const lost = await createProduct(t.db, { seller, brand, name: 'Lost 14', isSold: true })
    const won = await createProduct(t.db, { seller, brand, name: 'Won 15', isSold: true })
    await createBooking(t.db, { buyer: other, product: toPay })
    await createBooking(t.db, { buyer: other, product: lost })
    const paid = await createBooking(t.db, { buyer: other, product: won, isPaid: true })
    await createPayment(t.db, { booking: paid })

    const body = BuyerDashboard.parse(await get('/api/dashboard/buyer', other))
    const byName = Object.fromEntries(body.in_progress.map((o) => [o.product_name, o]))
    expect(Object.keys(byName).sort()).toEqual(['To Pay 13', 'Won 15'])
    expect(byName['To Pay 13']).toMatchObject({ stage: 'booked', action: 'pay' })
    expect(byName['Won 15']?.next_step).toBeTruthy()
    expect(body.counts.spent_cents).toBe(won.resalePriceCents)

    const stranger = await createUser(t.db, { role: 'buyer' })
    expect(BuyerDashboard.parse(await get('/api/dashboard/buyer', stranger)).in_progress).toEqual([])
  })

  it("counts saves of the seller's listings per day", async () => {
    const listing = await createProduct(t.db, { seller: otherSeller, brand })
    const saver = await createUser(t.db, { role: 'buyer' })
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/favourites/${listing.id}`,
      headers: await bearerFor(t.app, saver),
    })
    expect(saved.statusCode, saved.body).toBeLessThan(300)
    const body = SellerDashboard.parse(await get('/api/dashboard/seller', otherSeller))
    expect(body.days.at(-1)?.favourites).toBe(1)
    expect(body.totals.favourites).toBe(1)
  })
})
