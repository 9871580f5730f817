import { HANDOVER_CHECK_KEYS } from '#contract/handover'
// Money to sellers through the API, in test mode: payout accounts (sellers only, bank details checked),
// the fee on each sale, the seller's share available at completion, payouts that arrive or fail, two runs
// paying once, the "set up payouts" reminder, a refund after the payout leaving a negative balance, and the
// admin's finance check.

import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { Earnings, Finance, PayoutAccount } from '#contract/payouts'
import { bookings, payoutAccounts, payouts } from '#server/db/schema'
import { choosePaymentProvider } from '#server/modules/payments'
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
import { refundCompletedSale } from '../deal/refund'
import { recentSales } from '../finance/recent-sales'
import { payOutSeller, runPayouts, settleTestPayout } from './payouts.service'

/** The handover checklist, every item ticked, as "Received, as described" needs it. */
const ALL_TICKED = { checklist: Object.fromEntries(HANDOVER_CHECK_KEYS.map((key) => [key, true])) }

let t: TestApp
let brand: BrandRow
let buyer: UserRow
let admin: UserRow

beforeAll(async () => {
  t = await createTestApp({
    // Bank details saved again here are paid at once; the wait after a change has its own test.
    PAYOUT_ACCOUNT_HOLD_HOURS: '0',
    PLATFORM_FEE_PERCENT: '5',
    PAYOUT_MINIMUM_CENTS: '100',
    TEST_PAYOUT_SECONDS: '0',
    LIVE_HOLDS_PER_BUYER: '100',
    HOLDS_PER_LISTING_PER_DAY: '100',
  })
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer' })
  admin = await createUser(t.db, { role: 'admin' })
})

afterAll(async () => {
  await t?.close()
})

async function call(method: 'GET' | 'POST' | 'PUT', url: string, who: UserRow | null, body?: unknown) {
  return t.app.inject({
    method,
    url,
    // Every session here has just confirmed it was them: changing payout details needs it.
    headers: who ? await bearerFor(t.app, who, { steppedUp: true }) : {},
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

const PAYS = { account_holder: 'Sam Seller', routing_number: '110000000', account_number: '000123456789' }
const FAILS = { ...PAYS, account_number: '000111111116' }

async function earnings(seller: UserRow) {
  const res = await call('GET', '/api/earnings', seller)
  expect(res.statusCode).toBe(200)
  return Earnings.parse(res.json())
}

/** A sale of `seller`'s laptop at `priceCents`, paid by card, optionally handed over and confirmed. */
async function sale(seller: UserRow, priceCents: number, upTo: 'paid' | 'completed' = 'completed') {
  return (await dealAt(t, upTo, { buyer, seller, brand, priceCents })).booking
}

const deps = () => ({ db: t.db, mail: t.app.ctx.mail, jobs: t.app.ctx.jobs, config: t.app.ctx.config })

async function settleAll() {
  await t.app.ctx.jobs.drain('payouts.settle')
}

async function emailsTo(user: UserRow, template: string) {
  await t.app.ctx.jobs.drain('email')
  return t.outbox.filter((m) => m.to.includes(user.email) && m.headers['X-Laptop-Market-Email'] === template)
}

describe('payout accounts', () => {
  it('are for sellers only: visitors 401, buyers and admins 403', async () => {
    expect((await call('GET', '/api/payouts/account', null)).statusCode).toBe(401)
    expect((await call('POST', '/api/payouts/account', null, PAYS)).statusCode).toBe(401)
    expect((await call('GET', '/api/payouts/account', buyer)).statusCode).toBe(403)
    expect((await call('POST', '/api/payouts/account', buyer, PAYS)).statusCode).toBe(403)
    expect((await call('GET', '/api/earnings', buyer)).statusCode).toBe(403)
    expect((await call('GET', '/api/payouts/account', admin)).statusCode).toBe(403)
  })

  it('start at none, and test bank details enable payouts at once keeping only the last four digits', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const before = PayoutAccount.parse((await call('GET', '/api/payouts/account', seller)).json())
    expect(before).toMatchObject({ status: 'none', mode: 'test' })
    const res = await call('POST', '/api/payouts/account', seller, PAYS)
    expect(res.statusCode).toBe(200)
    expect(res.json().url).toMatch(/\/dashboard\/earnings/)
    const after = PayoutAccount.parse((await call('GET', '/api/payouts/account', seller)).json())
    expect(after).toMatchObject({ status: 'enabled', account_last4: '6789', routing_number: '110000000' })
    const [row] = await t.db.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, seller.id))
    expect(JSON.stringify(row)).not.toContain('000123456789')
  })

  it('refuse bank details of the wrong shape, naming each field, and store nothing', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const res = await call('POST', '/api/payouts/account', seller, {
      account_holder: 'S',
      routing_number: '110000001',
      account_number: '12ab',
    })
    expect(res.statusCode).toBe(400)
    const { error } = ErrorBody.parse(res.json())
    expect(Object.keys(error.fields ?? {}).sort()).toEqual([
      'account_holder',
      'account_number',
      'routing_number',
    ])
    expect((await call('POST', '/api/payouts/account', seller, {})).statusCode).toBe(400)
    expect((await call('POST', '/api/payouts/account', seller, { ...PAYS, extra: 1 })).statusCode).toBe(400)
    expect(await t.db.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, seller.id))).toEqual([])
  })
})

describe('the fee and the seller share', () => {
  it('is shown before listing (payments config) and taken from the seller at completion, not before', async () => {
    const config = (await call('GET', '/api/payments/config', null)).json()
    expect(config.fee).toEqual({ basis_points: 500, min_cents: 0 })
    const seller = await createUser(t.db, { role: 'seller' })
    await sale(seller, 64_900, 'paid')
    let e = await earnings(seller)
    expect(e).toMatchObject({ in_escrow_cents: 61_655, available_cents: 0, fees_cents: 0 })
    expect(e.sales[0]).toMatchObject({
      price_cents: 64_900,
      fee_cents: 3245,
      receive_cents: 61_655,
      where: 'in_escrow',
    })
    // No payout before completion, even with an enabled account.
    await call('POST', '/api/payouts/account', seller, PAYS)
    expect(await payOutSeller(deps(), seller.id)).toBeNull()
    const b = e.sales[0]?.booking_id as string
    expect((await call('PUT', `/api/bookings/${b}/handed-over`, seller, {})).statusCode).toBe(200)
    expect((await call('PUT', `/api/bookings/${b}/received`, buyer, ALL_TICKED)).statusCode).toBe(200)
    e = await earnings(seller)
    expect(e).toMatchObject({ in_escrow_cents: 0, available_cents: 61_655, fees_cents: 3245 })
    expect(e.sales[0]?.where).toBe('available')
    expect(e.months.at(-1)).toMatchObject({ net_cents: 61_655, sales: 1 })
  })

  it("keeps a disputed sale's money held until an admin decides", async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    await call('POST', '/api/payouts/account', seller, PAYS)
    const booking = await sale(seller, 20_000, 'paid')
    const problem = await call('POST', `/api/bookings/${booking.id}/problem`, buyer, {
      reason: 'The screen has a crack it did not have',
    })
    expect(problem.statusCode).toBe(201)
    await runPayouts(deps())
    expect(await earnings(seller)).toMatchObject({
      in_escrow_cents: 19_000,
      available_cents: 0,
      on_its_way_cents: 0,
    })
    const refund = await call('PUT', `/api/disputes/${problem.json().insertedId}/refund`, admin, {
      reason: 'Not as described: the screen is cracked',
    })
    expect(refund.statusCode).toBe(200)
    const e = await earnings(seller)
    expect(e).toMatchObject({ in_escrow_cents: 0, available_cents: 0, fees_cents: 0 })
    // The price and fee stay on record; the seller receives nothing from a refunded sale.
    expect(e.sales[0]).toMatchObject({
      price_cents: 20_000,
      fee_cents: 1000,
      receive_cents: 0,
      where: 'refunded',
    })
  })
})

describe('payouts', () => {
  it('pay an enabled seller once, however often the run is made, and land after the test delay', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    await call('POST', '/api/payouts/account', seller, PAYS)
    await sale(seller, 10_000)
    await sale(seller, 5_000)
    const [a, b] = await Promise.all([payOutSeller(deps(), seller.id), payOutSeller(deps(), seller.id)])
    expect([a, b].filter(Boolean)).toHaveLength(1)
    // Two whole runs at once (two instances' jobs) pay nothing more.
    await Promise.all([runPayouts(deps()), runPayouts(deps())])
    expect(await t.db.select().from(payouts).where(eq(payouts.sellerId, seller.id))).toHaveLength(1)
    expect(await earnings(seller)).toMatchObject({ available_cents: 0, on_its_way_cents: 14_250 })
    expect((await emailsTo(seller, 'payout-sent'))[0]?.subject).toBe('Your payout of $142.50 is on its way')
    await settleAll()
    const e = await earnings(seller)
    expect(e).toMatchObject({ available_cents: 0, on_its_way_cents: 0, paid_out_cents: 14_250 })
    expect(e.payouts).toHaveLength(1)
    expect(e.payouts[0]).toMatchObject({ amount_cents: 14_250, state: 'paid' })
    expect(e.sales.map((s) => s.where)).toEqual(['paid_out', 'paid_out'])
    // Landing again changes nothing.
    expect(await settleTestPayout(t.app.ctx, e.payouts[0]?._id as string, false)).toBe('unchanged')
  })

  it('are on a schedule Earnings gives: the next run, at midnight UTC on the daily default', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const nextMidnight = () => new Date((Math.floor(Date.now() / 86_400_000) + 1) * 86_400_000).toISOString()
    const before = nextMidnight()
    const { next_payout_at } = await earnings(seller)
    // Either side of a midnight passing during the call.
    expect([before, nextMidnight()]).toContain(next_payout_at)
  })

  it('leave a balance under the minimum where it is', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    await call('POST', '/api/payouts/account', seller, PAYS)
    await sale(seller, 100) // 95 after the fee
    await runPayouts(deps())
    expect(await earnings(seller)).toMatchObject({ available_cents: 95, on_its_way_cents: 0 })
  })

  it('that the bank refuses put the money back, stop payouts to that account and email the seller', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    await call('POST', '/api/payouts/account', seller, FAILS)
    await sale(seller, 30_000)
    await runPayouts(deps())
    await settleAll()
    const e = await earnings(seller)
    expect(e).toMatchObject({ available_cents: 28_500, on_its_way_cents: 0, paid_out_cents: 0 })
    expect(e.payouts[0]).toMatchObject({ state: 'failed', amount_cents: 28_500 })
    expect(e.payout_account).toBe('restricted')
    expect((await emailsTo(seller, 'payout-failed'))[0]?.subject).toBe('Your payout of $285 did not arrive')
    // Not tried again until the seller saves working details.
    await runPayouts(deps())
    expect(await t.db.select().from(payouts).where(eq(payouts.sellerId, seller.id))).toHaveLength(1)
    await call('POST', '/api/payouts/account', seller, PAYS)
    await runPayouts(deps())
    await settleAll()
    expect(await earnings(seller)).toMatchObject({ available_cents: 0, paid_out_cents: 28_500 })
  })

  it('wait for a payout account, and the seller is told once a week to set one up', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    await sale(seller, 8_000)
    await runPayouts(deps())
    await runPayouts(deps())
    expect(await earnings(seller)).toMatchObject({ available_cents: 7_600, payout_account: 'none' })
    const reminders = await emailsTo(seller, 'payout-setup-needed')
    expect(reminders.map((m) => m.subject)).toEqual(['Set up payouts to receive $76'])
  })

  it('after a refund of a sale already paid out, leave a negative balance recovered from the next sales', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    await call('POST', '/api/payouts/account', seller, PAYS)
    const first = await sale(seller, 10_000)
    await runPayouts(deps())
    await settleAll()
    // The admins' Finance page says what the refund will do before they confirm it.
    const saleOnFinance = async () =>
      Finance.parse((await call('GET', '/api/finance', admin)).json()).recent_sales.find(
        (s) => s.booking_id === first.id,
      )
    expect(await saleOnFinance()).toMatchObject({
      price_cents: 10_000,
      receive_cents: 9_500,
      refunded: false,
      refund: {
        allowed: true,
        reason: null,
        effect: 'negative_balance',
        reversal_cents: 0,
        seller_balance_after_cents: -9_500,
      },
    })
    const provider = choosePaymentProvider(t.app.ctx.config, t.app.ctx.mail)
    await refundCompletedSale(t.db, provider.refund, admin, first.id, t.app.ctx.config.payouts.fee)
    // Refunded: the seller received nothing from it (their balance carries what they owe).
    expect(await saleOnFinance()).toMatchObject({
      price_cents: 10_000,
      fee_cents: 500,
      receive_cents: 0,
      refunded: true,
      refund: { allowed: false, reason: 'Refunded already' },
    })
    expect(await earnings(seller)).toMatchObject({
      available_cents: -9_500,
      paid_out_cents: 9_500,
      fees_cents: 0,
    })
    await sale(seller, 20_000)
    await runPayouts(deps())
    await settleAll()
    expect(await earnings(seller)).toMatchObject({ available_cents: 0, paid_out_cents: 9_500 + 9_500 })
  })
})

describe('finance', () => {
  it('lists the latest sales the ledger completed, however many newer ones it has not', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const real = await sale(seller, 12_300)
    // A sale completed before the ledger began (no ledger transactions), newer than the real one.
    const product = await createProduct(t.db, { seller, brand, resalePriceCents: 5_000 })
    const old = await createBooking(t.db, { buyer, product })
    await t.db
      .update(bookings)
      .set({ stage: 'completed', isPaid: true, completedAt: new Date(Date.now() + 60_000) })
      .where(eq(bookings.id, old.id))
    const latest = await recentSales(t.db, { stripeConfigured: false, limit: 1 })
    expect(latest.map((s) => s.booking_id)).toEqual([real.id])
  })

  it('is for admins, and the ledger balances against the payments', async () => {
    expect((await call('GET', '/api/finance', null)).statusCode).toBe(401)
    expect((await call('GET', '/api/finance', buyer)).statusCode).toBe(403)
    const res = await call('GET', '/api/finance', admin)
    expect(res.statusCode).toBe(200)
    const f = Finance.parse(res.json())
    expect(f.balanced).toBe(true)
    expect(f.checks.unbalanced_transactions).toBe(0)
    expect(f.checks.ledger_charges_cents).toBe(f.checks.payments_cents)
    expect(f.fees_cents).toBeGreaterThan(0)
    expect(f.failed_payouts.count).toBeGreaterThanOrEqual(1)
    expect(f.negative_balances_cents).toBe(0)
    expect(f.waiting_for_payout_setup_cents).toBeGreaterThanOrEqual(7_600)
  })
})
