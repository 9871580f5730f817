// Payout details changed with a copied session cookie (an outside test found it): refused without a fresh
// step-up and nothing changed; with one, the change is a security event and an audit row, the seller is emailed
// at once (old and new last four, the undo link), and the new details receive payouts only after
// PAYOUT_ACCOUNT_HOLD_HOURS (the money waits, nothing is lost); each payout records the account it went to.

import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Earnings, PayoutAccount } from '#contract/payouts'
import { auditEvents, payoutAccountChanges, payoutAccounts, payouts } from '#server/db/schema'
import { originOf, type SignedIn, signIn, signUp, stepUp } from '#server/test/auth-helpers'
import { dealAt } from '#server/test/deals'
import { type BrandRow, createBrand, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { runPayouts } from './payouts.service'

let t: TestApp
let brand: BrandRow
let buyer: UserRow

beforeAll(async () => {
  t = await createTestApp({
    PLATFORM_FEE_PERCENT: '5',
    PAYOUT_MINIMUM_CENTS: '100',
    TEST_PAYOUT_SECONDS: '0',
    LIVE_HOLDS_PER_BUYER: '100',
    HOLDS_PER_LISTING_PER_DAY: '100',
  })
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer' })
})
afterAll(() => t?.close())
beforeEach(() => {
  t.outbox.length = 0
})

const FIRST = { account_holder: 'Sam Seller', routing_number: '110000000', account_number: '000123456789' }
const ATTACKER = { account_holder: 'Sam Seller', routing_number: '110000000', account_number: '000555554321' }

const postAccount = (cookie: string, body: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payouts/account',
    headers: { cookie, origin: originOf(t.app) },
    payload: body,
  })
const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } })
const deps = () => ({ db: t.db, mail: t.app.ctx.mail, jobs: t.app.ctx.jobs, config: t.app.ctx.config })

/** A seller whose first bank account (ending 6789) was set up by themselves, and who then sold a laptop. */
async function sellerWithMoney(): Promise<SignedIn> {
  const seller = await signUp(t.app, { role: 'seller' })
  await stepUp(t.app, seller)
  expect((await postAccount(seller.cookie, FIRST)).statusCode).toBe(200)
  await dealAt(t, 'completed', { buyer, seller: seller.user, brand, priceCents: 150_000 })
  return seller
}

async function account(cookie: string) {
  return PayoutAccount.parse((await get(cookie, '/api/payouts/account')).json())
}
async function earnings(cookie: string) {
  return Earnings.parse((await get(cookie, '/api/earnings')).json())
}

describe('changing payout details', () => {
  it('with a copied session cookie alone is refused and changes nothing; with a step-up it waits, is logged and emailed, then pays the new account', async () => {
    const seller = await sellerWithMoney()
    // The attacker's copy of a live session: it gave no password and no code.
    const copied = (await signIn(t.app, { email: seller.user.email })).cookie
    const changesBefore = await t.db
      .select()
      .from(payoutAccountChanges)
      .where(eq(payoutAccountChanges.sellerId, seller.user.id))

    const refused = await postAccount(copied, ATTACKER)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error.code).toBe('STEP_UP_REQUIRED')
    expect((await account(seller.cookie)).account_last4).toBe('6789')
    expect(
      await t.db.select().from(payoutAccountChanges).where(eq(payoutAccountChanges.sellerId, seller.user.id)),
    ).toEqual(changesBefore)

    // With a fresh proof (the password typed again) the change is made ...
    await stepUp(t.app, { cookie: copied, password: seller.password })
    expect((await postAccount(copied, ATTACKER)).statusCode).toBe(200)
    const changed = await account(seller.cookie)
    expect(changed.account_last4).toBe('4321')
    const payableFrom = new Date(changed.payable_from ?? 0).getTime()
    expect(payableFrom - Date.now()).toBeGreaterThan(47.9 * 3600_000)
    expect(payableFrom - Date.now()).toBeLessThanOrEqual(48 * 3600_000)

    // ... written to the audit log as a security event the seller sees ...
    const rows = await t.db
      .select({ kind: auditEvents.kind, result: auditEvents.result })
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, seller.user.id), eq(auditEvents.kind, 'payout_account.change')))
    expect(rows).toEqual([
      { kind: 'payout_account.change', result: 'success' },
      { kind: 'payout_account.change', result: 'success' },
    ])
    const events = (await get(seller.cookie, '/api/me/security-events')).json() as {
      items: { kind: string }[]
    }
    expect(events.items.map((e) => e.kind)).toContain('payout_account.change')

    // ... and emailed at once: the old and new last four, when payouts resume, and the undo link.
    await t.app.ctx.jobs.drain('email')
    const mail = t.outbox.find(
      (m) => m.to.includes(seller.user.email) && /changed from the one ending 6789/.test(m.text),
    )
    expect(mail?.text).toContain('to the one ending 4321')
    expect(mail?.text).toMatch(/receives payouts only from/)
    expect(mail?.text).toMatch(/\/dashboard\/earnings\?undo=[0-9a-f-]{36}/)

    // The payout run during the wait pays nothing: the money stays available, and Earnings says until when.
    const waiting = await runPayouts(deps())
    expect(waiting.payouts).toBe(0)
    const held = await earnings(seller.cookie)
    expect(held.available_cents).toBe(142_500)
    expect(held.payout_account_payable_from).toBe(changed.payable_from)
    expect(await t.db.select().from(payouts).where(eq(payouts.sellerId, seller.user.id))).toEqual([])

    // Once the wait is over, the next run pays it, and the payout records the account's last four.
    await t.db
      .update(payoutAccounts)
      .set({ payableFrom: sql`now() - interval '1 second'` })
      .where(eq(payoutAccounts.sellerId, seller.user.id))
    const paid = await runPayouts(deps())
    expect(paid.payouts).toBe(1)
    const after = await earnings(seller.cookie)
    expect(after.payout_account_payable_from).toBeNull()
    expect(after.payouts.map((p) => [p.amount_cents, p.account_last4])).toEqual([[142_500, '4321']])
  })

  it('can be undone from the email: after a step-up the previous details are back, as they were', async () => {
    const seller = await sellerWithMoney()
    await stepUp(t.app, seller)
    expect((await postAccount(seller.cookie, ATTACKER)).statusCode).toBe(200)
    const [change] = await t.db
      .select()
      .from(payoutAccountChanges)
      .where(
        and(
          eq(payoutAccountChanges.sellerId, seller.user.id),
          eq(payoutAccountChanges.newAccountLast4, '4321'),
        ),
      )
    if (!change) throw new Error('no change recorded')
    const undo = (cookie: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/payouts/account/changes/${change.id}/undo`,
        headers: { cookie, origin: originOf(t.app) },
      })

    const later = (await signIn(t.app, { email: seller.user.email })).cookie
    const refused = await undo(later)
    expect(refused.statusCode).toBe(403)
    expect((await account(seller.cookie)).account_last4).toBe('4321')

    await stepUp(t.app, { cookie: later, password: seller.password })
    const undone = await undo(later)
    expect(undone.statusCode, undone.body).toBe(200)
    expect(PayoutAccount.parse(undone.json())).toMatchObject({ account_last4: '6789', payable_from: null })
    // The first details were payable at once: the next run pays them.
    const paid = await runPayouts(deps())
    expect(paid.payouts).toBe(1)
    expect((await earnings(seller.cookie)).payouts.map((p) => p.account_last4)).toEqual(['6789'])
    expect((await undo(later)).statusCode).toBe(409)
  })
})
