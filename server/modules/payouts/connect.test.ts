// Money to sellers through Stripe Connect, against the local fake Stripe (server/test/fake-stripe.ts) with the
// real `stripe` SDK inside the app: Express accounts and their onboarding link, `account.updated` (late, twice,
// out of order), one transfer per completed sale with `source_transaction` and an idempotency key, Stripe's
// payout to the bank and its events, a crash between the transfer and its record mended by the retry or by the
// reconciliation without a second transfer, and an admin's refund after the transfer reversing it.

import { and, eq, sql } from 'drizzle-orm'
import Stripe from 'stripe'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { HANDOVER_CHECK_KEYS } from '#contract/handover'
import { PaymentIntentAnswer } from '#contract/payments'
import { Earnings, Finance, OnboardingAnswer, PayoutAccount } from '#contract/payouts'
import { auditEvents, payouts } from '#server/db/schema'
import { sellerBalances } from '#server/modules/ledger'
import { bearerFor } from '#server/test/auth-helpers'
import {
  type BrandRow,
  createBooking,
  createBrand,
  createProduct,
  createUser,
  type UserRow,
} from '#server/test/factories'
import { type FakeStripe, startFakeStripe } from '#server/test/fake-stripe'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { finishConnectPayout } from './connect-payouts'
import type { PayoutDeps } from './payout-deps'
import { payOutSeller, runPayouts } from './payouts.service'
import { reconcile } from './reconcile'

const WEBHOOK_SECRET = 'whsec_test_laptop_market_connect'
const SECRET_KEY = 'sk_test_laptop_market'
const ALL_TICKED = { checklist: Object.fromEntries(HANDOVER_CHECK_KEYS.map((key) => [key, true])) }

let fake: FakeStripe
let t: TestApp
const signer = new Stripe(SECRET_KEY)
let brand: BrandRow
let buyer: UserRow
let admin: UserRow

beforeAll(async () => {
  fake = await startFakeStripe()
  t = await createTestApp({
    LIVE_HOLDS_PER_BUYER: '100',
    HOLDS_PER_LISTING_PER_DAY: '100',
    PLATFORM_FEE_PERCENT: '5',
    PAYOUT_MINIMUM_CENTS: '100',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_laptop_market',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
  })
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer' })
  admin = await createUser(t.db, { role: 'admin' })
})

afterAll(async () => {
  await t?.close()
  await fake?.close()
})

beforeEach(() => {
  fake.calls.length = 0
})

async function call(method: 'GET' | 'POST' | 'PUT', url: string, who: UserRow | null, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: who ? await bearerFor(t.app, who, { steppedUp: true }) : {},
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

async function deliver(event: { payload: string }) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signer.webhooks.generateTestHeaderString({
        payload: event.payload,
        secret: WEBHOOK_SECRET,
      }),
    },
    payload: event.payload,
  })
  expect(res.statusCode).toBe(200)
  return (res.json() as { outcome: string }).outcome
}

const deps = (extra: Partial<PayoutDeps> = {}): PayoutDeps => ({
  db: t.db,
  mail: t.app.ctx.mail,
  jobs: t.app.ctx.jobs,
  config: t.app.ctx.config,
  payments: t.app.ctx.payments,
  ...extra,
})

/** A seller with a Stripe Express account, onboarded (payouts enabled) unless told otherwise. */
async function connectedSeller(onboard = true) {
  const seller = await createUser(t.db, { role: 'seller' })
  const res = await call('POST', '/api/payouts/account', seller, {})
  expect(res.statusCode).toBe(200)
  const { url } = OnboardingAnswer.parse(res.json())
  const account = [...fake.accounts.values()].find((a) => a.metadata.seller_id === seller.id)
  if (!account) throw new Error('no Express account was made for the seller')
  if (onboard) expect(await deliver(fake.onboard(account.id))).toBe('updated')
  return { seller, accountId: account.id, url }
}

/** A sale paid through Stripe (intent, the charge, the signed webhook), handed over and confirmed. */
async function stripeSale(seller: UserRow, priceCents: number) {
  const product = await createProduct(t.db, { seller, brand, resalePriceCents: priceCents })
  const booking = await createBooking(t.db, { buyer, product })
  expect((await call('POST', `/api/bookings/${booking.id}/hold`, buyer)).statusCode).toBe(200)
  const res = await call('POST', '/api/payments/intent', buyer, { bookingId: booking.id })
  expect(res.statusCode).toBe(200)
  const { clientSecret } = PaymentIntentAnswer.parse(res.json())
  const intent = [...fake.intents.values()].find((i) => i.client_secret === clientSecret)
  if (!intent) throw new Error('no intent')
  expect(await deliver(fake.event('payment_intent.succeeded', fake.succeed(intent.id)))).toBe('paid')
  expect((await call('PUT', `/api/bookings/${booking.id}/handed-over`, seller, {})).statusCode).toBe(200)
  expect((await call('PUT', `/api/bookings/${booking.id}/received`, buyer, ALL_TICKED)).statusCode).toBe(200)
  return { booking, charge: fake.intents.get(intent.id)?.latest_charge ?? null }
}

async function payoutsOf(seller: UserRow) {
  return t.db.select().from(payouts).where(eq(payouts.sellerId, seller.id))
}

describe('Stripe Connect accounts', () => {
  it('make one Express account per seller, answer its onboarding link, and follow account.updated', async () => {
    const { seller, accountId, url } = await connectedSeller(false)
    expect(url).toMatch(/^https:\/\/connect\.stripe\.com\//)
    const link = fake.callsTo('POST', '/v1/account_links')[0]
    expect(link?.params).toMatchObject({ account: accountId, type: 'account_onboarding' })
    expect(String(link?.params.return_url)).toContain('/dashboard/earnings')

    const before = PayoutAccount.parse((await call('GET', '/api/payouts/account', seller)).json())
    expect(before).toMatchObject({ status: 'pending', mode: 'stripe' })

    // Resuming the setup asks for a new link to the same account.
    expect((await call('POST', '/api/payouts/account', seller, {})).statusCode).toBe(200)
    expect([...fake.accounts.values()].filter((a) => a.metadata.seller_id === seller.id)).toHaveLength(1)

    const enabled = fake.onboard(accountId)
    expect(await deliver(enabled)).toBe('updated')
    expect(await deliver(enabled)).toBe('duplicate')
    const after = PayoutAccount.parse((await call('GET', '/api/payouts/account', seller)).json())
    expect(after.status).toBe('enabled')

    // An older event that arrives late changes nothing: the account's state is read back from Stripe.
    const account = fake.accounts.get(accountId)
    const stale = fake.event(
      'account.updated',
      { ...structuredClone(account), payouts_enabled: false, details_submitted: false },
      accountId,
    )
    expect(await deliver(stale)).toBe('updated')
    expect(PayoutAccount.parse((await call('GET', '/api/payouts/account', seller)).json()).status).toBe(
      'enabled',
    )

    // Stripe stops payouts (more information due): the seller's account is restricted.
    expect(await deliver(fake.onboard(accountId, false))).toBe('updated')
    const restricted = PayoutAccount.parse((await call('GET', '/api/payouts/account', seller)).json())
    expect(restricted.status).toBe('restricted')
    expect(restricted.problem).toMatch(/Stripe/)
  })
})

describe('transfers and payouts through Connect', () => {
  it("transfer each completed sale's share once, from its charge, then pay out to the bank", async () => {
    const { seller, accountId } = await connectedSeller()
    const { booking, charge } = await stripeSale(seller, 20_000)
    expect(charge).toMatch(/^ch_/)

    const first = await runPayouts(deps())
    expect(first.payouts).toBe(1)
    expect(first.amountCents).toBe(19_000)
    const transfers = fake.callsTo('POST', '/v1/transfers')
    expect(transfers).toHaveLength(1)
    const [payout] = await payoutsOf(seller)
    expect(transfers[0]?.params).toMatchObject({
      amount: '19000',
      currency: 'usd',
      destination: accountId,
      source_transaction: charge,
      transfer_group: payout?.id,
    })
    expect(transfers[0]?.idempotencyKey).toBe(`transfer-${payout?.id}`)
    expect(payout).toMatchObject({ state: 'in_transit', bookingId: booking.id, amountCents: 19_000 })
    const bankPayout = fake.callsTo('POST', '/v1/payouts')[0]
    expect(bankPayout?.stripeAccount).toBe(accountId)
    expect(bankPayout?.idempotencyKey).toBe(`payout-${payout?.id}`)
    expect(payout?.stripePayoutId).toMatch(/^po_/)

    // A second run, or the same run twice, transfers nothing more.
    expect((await runPayouts(deps())).payouts).toBe(0)
    expect(fake.callsTo('POST', '/v1/transfers')).toHaveLength(1)

    const paid = fake.settlePayout(payout?.stripePayoutId ?? '', 'paid')
    expect(await deliver(paid)).toBe('updated')
    expect(await deliver(paid)).toBe('duplicate')
    const earnings = Earnings.parse((await call('GET', '/api/earnings', seller)).json())
    expect(earnings).toMatchObject({ available_cents: 0, on_its_way_cents: 0, paid_out_cents: 19_000 })
    expect((await reconcile(deps())).differences).toEqual([])
  })

  it('do not transfer to a seller whose account is not enabled: the money waits', async () => {
    const { seller } = await connectedSeller(false)
    await stripeSale(seller, 10_000)
    await runPayouts(deps())
    expect(fake.callsTo('POST', '/v1/transfers')).toHaveLength(0)
    expect((await sellerBalances(t.db, seller.id)).available).toBe(9_500)
  })

  it("that the bank refuses come back: the transfer's rest is reversed and the balance is the seller's again", async () => {
    const { seller } = await connectedSeller()
    await stripeSale(seller, 10_000)
    await runPayouts(deps())
    const [payout] = await payoutsOf(seller)
    expect(await deliver(fake.settlePayout(payout?.stripePayoutId ?? '', 'failed'))).toBe('updated')
    const [after] = await payoutsOf(seller)
    expect(after?.state).toBe('failed')
    expect(fake.transfers.get(after?.stripeTransferId ?? '')?.reversed).toBe(true)
    expect(await sellerBalances(t.db, seller.id)).toMatchObject({
      available: 9_500,
      on_its_way: 0,
      paid_out: 0,
    })
    // Nothing more is sent to that account until Stripe says it can be paid again.
    expect(PayoutAccount.parse((await call('GET', '/api/payouts/account', seller)).json()).status).toBe(
      'restricted',
    )
    await runPayouts(deps())
    expect((await payoutsOf(seller)).length).toBe(1)
    expect((await reconcile(deps())).differences).toEqual([])
  })
})

describe('a crash between the transfer and its record', () => {
  it('is mended by the next attempt under the same idempotency key, or by the reconciliation: one transfer', async () => {
    const { seller } = await connectedSeller()
    await stripeSale(seller, 30_000)
    const crash = async () => {
      throw new Error('the process died here')
    }
    await expect(payOutSeller(deps({ testHooks: { afterTransfer: crash } }), seller.id)).rejects.toThrow(
      'died',
    )
    const [pending] = await payoutsOf(seller)
    expect(pending).toMatchObject({ state: 'pending', stripeTransferId: null, amountCents: 28_500 })
    expect(fake.transfers.size).toBeGreaterThan(0)
    const madeForIt = [...fake.transfers.values()].filter((tr) => tr.transfer_group === pending?.id)
    expect(madeForIt).toHaveLength(1)
    // The ledger moved the money once, before the call: the seller's balance is on its way, not available.
    expect(await sellerBalances(t.db, seller.id)).toMatchObject({ available: 0, on_its_way: 28_500 })

    // A run right away leaves it to the run that may still be making it.
    await runPayouts(deps())
    expect([...fake.transfers.values()].filter((tr) => tr.transfer_group === pending?.id)).toHaveLength(1)

    // Later, the daily reconciliation finds the transfer by its group and records it.
    await t.db.execute(
      sql`update payouts set created_at = now() - interval '10 minutes' where id = ${pending?.id}`,
    )
    const report = await reconcile(deps())
    expect(report.mended).toBe(1)
    expect(report.differences).toEqual([])
    const [mended] = await payoutsOf(seller)
    expect(mended?.state).toBe('in_transit')
    expect(mended?.stripeTransferId).toBe(madeForIt[0]?.id)
    expect([...fake.transfers.values()].filter((tr) => tr.transfer_group === pending?.id)).toHaveLength(1)
    expect(await sellerBalances(t.db, seller.id)).toMatchObject({ available: 0, on_its_way: 28_500 })
    // Running everything again changes nothing.
    await runPayouts(deps())
    expect((await reconcile(deps())).mended).toBe(0)
    expect(
      [...fake.transfers.values()].filter((tr) => tr.destination === madeForIt[0]?.destination),
    ).toHaveLength(1)
  })

  it('the retry without a lookup gets the same transfer back from Stripe (idempotency key)', async () => {
    const { seller } = await connectedSeller()
    await stripeSale(seller, 12_000)
    await expect(
      payOutSeller(
        deps({
          testHooks: {
            afterTransfer: async () => {
              throw new Error('died')
            },
          },
        }),
        seller.id,
      ),
    ).rejects.toThrow()
    const [pending] = await payoutsOf(seller)
    if (!pending) throw new Error('no pending payout')
    const connect = t.app.ctx.payments.connect
    if (!connect) throw new Error('Connect is not configured')
    expect(await finishConnectPayout(deps(), connect, pending)).toBe('transferred')
    const calls = fake
      .callsTo('POST', '/v1/transfers')
      .filter((c) => c.idempotencyKey === `transfer-${pending?.id}`)
    expect(calls).toHaveLength(2)
    expect([...fake.transfers.values()].filter((tr) => tr.transfer_group === pending?.id)).toHaveLength(1)
    const [done] = await payoutsOf(seller)
    expect(done?.state).toBe('in_transit')
  })

  it('reconciliation reports what it cannot mend to the admins (audit log)', async () => {
    const { accountId } = await connectedSeller()
    // A transfer someone made in Stripe's dashboard: no payout here knows it.
    const stray = await new Stripe(SECRET_KEY, {
      host: new URL(fake.url).hostname,
      port: Number(new URL(fake.url).port),
      protocol: 'http',
    }).transfers.create({ amount: 500, currency: 'usd', destination: accountId })
    const report = await reconcile(deps())
    expect(report.differences.some((d) => d.includes('matches no payout'))).toBe(true)
    const [row] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.kind, 'finance.reconcile'))
      .orderBy(sql`${auditEvents.at} desc`)
      .limit(1)
    expect(row).toMatchObject({ result: 'failure', actorId: null })
    expect(row?.detail).toMatch(/matches no payout/)
    fake.transfers.delete(stray.id)
  })
})

describe("an admin's refund of a completed sale after its transfer", () => {
  it('refunds the buyer, reverses the transfer, balances the ledger and leaves an audit row', async () => {
    const { seller } = await connectedSeller()
    const { booking } = await stripeSale(seller, 40_000)
    await runPayouts(deps())
    const [payout] = await payoutsOf(seller)
    expect(await deliver(fake.settlePayout(payout?.stripePayoutId ?? '', 'paid'))).toBe('updated')

    const before = Finance.parse((await call('GET', '/api/finance', admin)).json())
    expect(before.recent_sales.find((s) => s.booking_id === booking.id)?.refund).toEqual({
      allowed: true,
      reason: null,
      effect: 'transfer_reversed',
      reversal_cents: 38_000,
      seller_balance_after_cents: 0,
    })

    expect(
      (
        await call('POST', `/api/bookings/${booking.id}/refund`, buyer, {
          reason: 'Not as described: the screen is cracked',
        })
      ).statusCode,
    ).toBe(403)
    expect(
      (
        await call('POST', `/api/bookings/${booking.id}/refund`, seller, {
          reason: 'Not as described: the screen is cracked',
        })
      ).statusCode,
    ).toBe(403)
    const res = await call('POST', `/api/bookings/${booking.id}/refund`, admin, {
      reason: 'Not as described: the screen is cracked',
    })
    expect(res.statusCode).toBe(200)
    expect(fake.callsTo('POST', '/v1/refunds')).toHaveLength(1)
    const reversal = fake.calls.find((c) => c.path.endsWith('/reversals'))
    expect(reversal?.params).toMatchObject({ amount: '38000' })
    expect(reversal?.idempotencyKey).toBe(`reversal-${payout?.id}`)
    expect(fake.transfers.get(payout?.stripeTransferId ?? '')?.reversed).toBe(true)
    // The seller neither keeps the share nor owes it: Stripe took it back from their account.
    expect(await sellerBalances(t.db, seller.id)).toMatchObject({ available: 0, on_its_way: 0, paid_out: 0 })
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.target, `booking:${booking.id}`), eq(auditEvents.kind, 'sale.refund')))
    expect(audit).toMatchObject({ kind: 'sale.refund', actorId: admin.id, result: 'success' })

    expect(
      (
        await call('POST', `/api/bookings/${booking.id}/refund`, admin, {
          reason: 'Not as described: the screen is cracked',
        })
      ).statusCode,
    ).toBe(409)
    expect(fake.callsTo('POST', '/v1/refunds')).toHaveLength(1)
    const finance = await call('GET', '/api/finance', admin)
    expect(finance.json().balanced).toBe(true)
    expect((await reconcile(deps())).differences).toEqual([])
  })
})
