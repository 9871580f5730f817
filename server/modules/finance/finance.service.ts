import { desc, eq, sql } from 'drizzle-orm'
import type { Finance } from '#contract/payouts'
import type { Db } from '#server/db/client'
import { payouts, users } from '#server/db/schema'
import { ledgerCheck, rowsOf, totalsByKind } from '#server/modules/ledger/ledger'
import { payoutItem } from '#server/modules/payouts/earnings'
import { recentSales } from './recent-sales'

/**
 * The marketplace's money for admins, every figure a sum over the ledger, and the ledger's own check: every
 * transaction sums to zero, all entries sum to zero, and the money the ledger says was taken from buyers (less
 * refunds) equals the sum of succeeded payments in the payments' own records.
 */
export async function getFinance(db: Db, opts: { stripeConfigured: boolean }): Promise<Finance> {
  const [totals, check, sellerSides, flows, failed, recent, sales] = await Promise.all([
    totalsByKind(db),
    ledgerCheck(db),
    rowsOf<{ positive: string | number; negative: string | number; waiting: string | number }>(
      db,
      sql`select coalesce(sum(balance) filter (where balance > 0), 0)::bigint as positive,
            coalesce(sum(balance) filter (where balance < 0), 0)::bigint as negative,
            coalesce(sum(balance) filter (where balance > 0 and not enabled), 0)::bigint as waiting
          from (select a.seller_id, sum(e.amount_cents) as balance,
                  coalesce(bool_or(pa.status = 'enabled'), false) as enabled
                from ledger_accounts a join ledger_entries e on e.account_id = a.id
                left join payout_accounts pa on pa.seller_id = a.seller_id
                where a.kind = 'available' group by a.seller_id) s`,
    ),
    rowsOf<{ charges: string | number; refunds: string | number }>(
      db,
      sql`select coalesce(-sum(e.amount_cents) filter (where t.kind = 'charge'), 0)::bigint as charges,
            coalesce(sum(e.amount_cents) filter (where t.kind = 'refund'), 0)::bigint as refunds
          from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
          where e.account_id = 'buyers'`,
    ),
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
  const s = sellerSides[0]
  return {
    held_for_buyers_cents: totals.held + totals.held_fees,
    sellers_balances_cents: Number(s?.positive ?? 0),
    negative_balances_cents: Number(s?.negative ?? 0),
    waiting_for_payout_setup_cents: Number(s?.waiting ?? 0),
    on_its_way_cents: totals.on_its_way,
    paid_out_cents: totals.paid_out,
    failed_payouts: { count: failed[0]?.n ?? 0, amount_cents: Number(failed[0]?.amount ?? 0) },
    fees_cents: totals.fees,
    charges_cents: Number(flows[0]?.charges ?? 0),
    refunds_cents: Number(flows[0]?.refunds ?? 0),
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
