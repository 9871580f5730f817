import { desc, eq, sql } from 'drizzle-orm'
import type { Finance } from '#contract/payouts'
import type { Db } from '#server/db/client'
import { payouts, users } from '#server/db/schema'
import { ledgerCheck, marketMoney, rowsOf } from '#server/modules/ledger'
import { payoutItem } from '#server/modules/payouts'
import { recentSales } from './recent-sales'

/**
 * The marketplace's money for admins, every figure a sum over the ledger (`marketMoney`), and the ledger's own
 * check: every transaction sums to zero, all entries sum to zero, and the money the ledger says was taken from
 * buyers (less refunds) equals the sum of succeeded payments in the payments' own records.
 */
export async function getFinance(db: Db, opts: { stripeConfigured: boolean }): Promise<Finance> {
  const [money, check, failed, recent, sales] = await Promise.all([
    marketMoney(db),
    ledgerCheck(db),
    rowsOf<{ n: number; amount: string | number }>(
      db,
      sql`select count(*)::int as n, coalesce(sum(amount_cents), 0)::bigint as amount from payouts where state = 'failed'`,
    ),
    db
      .select({ payout: payouts, sellerName: users.name })
      .from(payouts)
      .innerJoin(users, eq(users.id, payouts.sellerId))
      .orderBy(desc(payouts.createdAt))
      .limit(20),
    recentSales(db, opts),
  ])
  return {
    ...money,
    failed_payouts: { count: failed[0]?.n ?? 0, amount_cents: Number(failed[0]?.amount ?? 0) },
    balanced: check.balanced,
    checks: {
      unbalanced_transactions: check.unbalancedTransactions,
      entries_total_cents: check.total,
      ledger_charges_cents: check.ledgerChargesCents,
      payments_cents: check.paymentsCents,
    },
    recent_payouts: recent.map((r) => ({ ...payoutItem(r.payout), seller_name: r.sellerName })),
    recent_sales: sales,
  }
}
