import { desc, eq } from 'drizzle-orm'
import type { Earnings } from '#contract/payouts'
import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import { payoutAccounts, payouts } from '#server/db/schema'
import type { SessionUser } from '#server/lib/session'
import { sellerMoney } from '#server/modules/ledger'
import { payableFromNow } from './payout-accounts'
import { nextPayoutRun } from './payout-schedule'

/** The newest sales the page lists (the balances count every sale). */
const SALES_LISTED = 500

export function payoutItem(p: typeof payouts.$inferSelect) {
  return {
    _id: p.id,
    amount_cents: p.amountCents,
    state: p.state,
    created_at: p.createdAt.toISOString(),
    settled_at: p.settledAt ? p.settledAt.toISOString() : null,
    failure_reason: p.failureReason,
    account_last4: p.accountLast4,
  }
}

/**
 * A seller's earnings: their money as the ledger has it (`sellerMoney`, the read the dashboard and My Product
 * show too), the fee rule and payout minimum, their payouts, and what completed sales put in the balance by month.
 */
export async function getEarnings(
  db: Db,
  config: Config,
  seller: SessionUser,
  now = new Date(),
): Promise<Earnings> {
  const [money, payoutRows, account] = await Promise.all([
    sellerMoney(db, seller.id),
    db
      .select()
      .from(payouts)
      .where(eq(payouts.sellerId, seller.id))
      .orderBy(desc(payouts.createdAt))
      .limit(100),
    db
      .select({ status: payoutAccounts.status, payableFrom: payoutAccounts.payableFrom })
      .from(payoutAccounts)
      .where(eq(payoutAccounts.sellerId, seller.id)),
  ])

  const months: Earnings['months'] = []
  for (let i = 11; i >= 0; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1))
    months.push({ month: d.toISOString().slice(0, 7), net_cents: 0, sales: 0 })
  }
  for (const s of money.sales) {
    if (s.completed_at === null || s.where === 'refunded') continue
    const m = months.find((x) => x.month === s.completed_at?.slice(0, 7))
    if (m) {
      m.net_cents += s.receive_cents
      m.sales++
    }
  }

  return {
    ...money,
    sales: money.sales.slice(0, SALES_LISTED),
    fee: { percent: config.payouts.fee.basisPoints / 100, min_cents: config.payouts.fee.minCents },
    payout_minimum_cents: config.payouts.minimumCents,
    next_payout_at: nextPayoutRun(config.payouts.intervalSeconds, now).toISOString(),
    payout_account: account[0]?.status ?? 'none',
    payout_account_payable_from: payableFromNow(account[0]?.payableFrom ?? null, now),
    payouts: payoutRows.map(payoutItem),
    months,
  }
}
