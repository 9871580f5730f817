import { desc, eq, sql } from 'drizzle-orm'
import type { Earnings } from '#contract/payouts'
import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import { payoutAccounts, payouts } from '#server/db/schema'
import type { SessionUser } from '#server/lib/session'
import { rowsOf, sellerBalances } from '#server/modules/ledger/ledger'
import { nextPayoutRun } from './payout-schedule'

type SaleRow = {
  booking_id: string
  product_name: string
  paid_at: Date | string | null
  price: string | number | null
  fee: string | number | null
  completed_at: Date | string | null
  refunded: boolean
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString())

export function payoutItem(p: typeof payouts.$inferSelect) {
  return {
    _id: p.id,
    amount_cents: p.amountCents,
    state: p.state,
    created_at: p.createdAt.toISOString(),
    settled_at: p.settledAt ? p.settledAt.toISOString() : null,
    failure_reason: p.failureReason,
  }
}

/**
 * A seller's earnings, every figure a sum over the ledger: held (paid, not completed), available, on its way,
 * paid out, the fees on their completed sales; each sale with its price, fee, net and where its money is.
 */
export async function getEarnings(
  db: Db,
  config: Config,
  seller: SessionUser,
  now = new Date(),
): Promise<Earnings> {
  const [balances, feeRows, sales, payoutRows, account] = await Promise.all([
    sellerBalances(db, seller.id),
    rowsOf<{ total: string | number }>(
      db,
      sql`select coalesce(sum(e.amount_cents), 0)::bigint as total
          from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
          where t.seller_id = ${seller.id} and e.account_id = 'fees'`,
    ),
    rowsOf<SaleRow>(
      db,
      sql`select t.booking_id, b.product_name, b.paid_at,
            max(case when t.kind = 'charge' and e.account_id = 'buyers' then -e.amount_cents end)::bigint as price,
            coalesce(max(case when t.kind = 'charge' and e.account_id = 'held_fees' then e.amount_cents end), 0)::bigint as fee,
            max(case when t.kind = 'complete' then t.created_at end) as completed_at,
            bool_or(t.kind = 'refund') as refunded
          from ledger_transactions t
          join ledger_entries e on e.transaction_id = t.id
          join bookings b on b.id = t.booking_id
          where t.seller_id = ${seller.id} and t.booking_id is not null
          group by t.booking_id, b.product_name, b.paid_at
          order by b.paid_at desc nulls last
          limit 500`,
    ),
    db
      .select()
      .from(payouts)
      .where(eq(payouts.sellerId, seller.id))
      .orderBy(desc(payouts.createdAt))
      .limit(100),
    db
      .select({ status: payoutAccounts.status })
      .from(payoutAccounts)
      .where(eq(payoutAccounts.sellerId, seller.id)),
  ])

  // Payouts take a seller's completed sales oldest first: the first ones are paid out, the next on their way.
  let paidOut = balances.paid_out
  let onItsWay = balances.on_its_way
  const completedOldestFirst = sales
    .filter((s) => s.completed_at !== null && !s.refunded)
    .sort(
      (a, b) => new Date(a.completed_at as string).getTime() - new Date(b.completed_at as string).getTime(),
    )
  const where = new Map<string, Earnings['sales'][number]['where']>()
  for (const s of completedOldestFirst) {
    const net = Number(s.price) - Number(s.fee)
    if (paidOut >= net) {
      paidOut -= net
      where.set(s.booking_id, 'paid_out')
    } else if (onItsWay + paidOut >= net) {
      onItsWay -= net - paidOut
      paidOut = 0
      where.set(s.booking_id, 'on_its_way')
    } else {
      paidOut = 0
      onItsWay = 0
      where.set(s.booking_id, 'available')
    }
  }

  const months: Earnings['months'] = []
  for (let i = 11; i >= 0; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1))
    months.push({ month: d.toISOString().slice(0, 7), net_cents: 0, sales: 0 })
  }
  for (const s of completedOldestFirst) {
    const m = months.find((x) => x.month === new Date(s.completed_at as string).toISOString().slice(0, 7))
    if (m) {
      m.net_cents += Number(s.price) - Number(s.fee)
      m.sales++
    }
  }

  return {
    in_escrow_cents: balances.held,
    available_cents: balances.available,
    on_its_way_cents: balances.on_its_way,
    paid_out_cents: balances.paid_out,
    fees_cents: Number(feeRows[0]?.total ?? 0),
    fee: { percent: config.payouts.fee.basisPoints / 100, min_cents: config.payouts.fee.minCents },
    payout_minimum_cents: config.payouts.minimumCents,
    next_payout_at: nextPayoutRun(config.payouts.intervalSeconds, now).toISOString(),
    payout_account: account[0]?.status ?? 'none',
    sales: sales.map((s) => {
      const price = Number(s.price)
      const fee = Number(s.fee)
      return {
        booking_id: s.booking_id,
        product_name: s.product_name,
        paid_at: iso(s.paid_at),
        completed_at: iso(s.completed_at),
        price_cents: price,
        fee_cents: fee,
        net_cents: price - fee,
        where: s.refunded ? 'refunded' : (where.get(s.booking_id) ?? 'in_escrow'),
      }
    }),
    payouts: payoutRows.map(payoutItem),
    months,
  }
}
