import { type SQL, sql } from 'drizzle-orm'
import type { EarningsSale, SaleFigures, SaleMoneyWhere, SellerMoney } from '#contract/seller-money'
import type { Db } from '#server/db/client'
import { rowsOf, sellerBalances, totalsByKind } from './ledger'

// The money every page shows, read from the ledger here and nowhere else (docs/decisions/0035): a seller's
// balances and each sale's price agreed, fee and what it put in the seller's balance. The dashboard, Earnings
// (and its CSV), My Product, the sale emails and the admins' Finance all show these answers as they come.

type SaleRow = {
  booking_id: string
  price: string | number
  fee: string | number
  receive: string | number
  fees_taken: string | number
  completed_at: Date | string | null
  refunded: boolean
}

/**
 * Each sale's figures from its own ledger transactions: the price the buyer paid and the fee (the charge's
 * entries), what it put in the seller's balance (the sum of its entries on the seller's `held` and `available`:
 * the price less the fee, nothing once refunded), the fee the marketplace kept (its entries on `fees`).
 */
function saleSql(where: SQL): SQL {
  return sql`select t.booking_id,
      coalesce(-sum(e.amount_cents) filter (where t.kind = 'charge' and e.account_id in ('buyers', 'shipping')), 0)::bigint as price,
      coalesce(sum(e.amount_cents) filter (where t.kind = 'charge' and e.account_id = 'held_fees'), 0)::bigint as fee,
      coalesce(sum(e.amount_cents) filter (
        where e.account_id in ('held:' || t.seller_id, 'available:' || t.seller_id)), 0)::bigint as receive,
      coalesce(sum(e.amount_cents) filter (where e.account_id = 'fees'), 0)::bigint as fees_taken,
      max(t.created_at) filter (where t.kind = 'complete') as completed_at,
      coalesce(bool_or(t.kind = 'refund'), false) as refunded
    from ledger_transactions t
    join ledger_entries e on e.transaction_id = t.id
    where t.booking_id is not null and ${where}
    group by t.booking_id`
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString())

function figures(r: SaleRow): SaleFigures {
  return { price_cents: Number(r.price), fee_cents: Number(r.fee), receive_cents: Number(r.receive) }
}

export type SaleLedgerFigures = SaleFigures & { completed_at: string | null; refunded: boolean }

/** These sales' figures, by booking id (a sale the ledger has no transaction for is left out). */
export async function saleFigures(db: Db, bookingIds: string[]): Promise<Map<string, SaleLedgerFigures>> {
  if (bookingIds.length === 0) return new Map()
  const rows = await rowsOf<SaleRow>(
    db,
    saleSql(
      sql`t.booking_id in (${sql.join(
        bookingIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    ),
  )
  return new Map(
    rows.map((r) => [
      r.booking_id,
      { ...figures(r), completed_at: iso(r.completed_at), refunded: r.refunded },
    ]),
  )
}

export type SellerMoneyRead = SellerMoney & {
  /** Every paid sale of the seller's, newest paid first. */
  sales: EarningsSale[]
}

/**
 * A seller's money: their balances (held, available, on its way to the bank, paid out), the fees taken on their
 * completed sales, and every sale with its price agreed, fee, what they receive and where that money is now.
 */
export async function sellerMoney(db: Db, sellerId: string): Promise<SellerMoneyRead> {
  const [balances, rows] = await Promise.all([
    sellerBalances(db, sellerId),
    rowsOf<SaleRow & { product_name: string; paid_at: Date | string | null }>(
      db,
      sql`select s.*, b.product_name, b.paid_at
          from (${saleSql(sql`t.seller_id = ${sellerId}`)}) s
          join bookings b on b.id = s.booking_id
          order by b.paid_at desc nulls last, b.id desc`,
    ),
  ])
  const where = whereEach(rows, balances)
  return {
    in_escrow_cents: balances.held,
    available_cents: balances.available,
    on_its_way_cents: balances.on_its_way,
    paid_out_cents: balances.paid_out,
    fees_cents: rows.reduce((sum, r) => sum + Number(r.fees_taken), 0),
    sales: rows.map((r) => ({
      booking_id: r.booking_id,
      product_name: r.product_name,
      paid_at: iso(r.paid_at),
      completed_at: iso(r.completed_at),
      ...figures(r),
      where: r.refunded ? 'refunded' : (where.get(r.booking_id) ?? 'in_escrow'),
    })),
  }
}

/**
 * Where each completed sale's money is. Payouts take a seller's completed sales oldest first: the first ones are
 * paid out, the next on their way to the bank, the rest available. (Sales not completed are held; refunded ones
 * are the buyer's again.)
 */
function whereEach(
  rows: SaleRow[],
  balances: { on_its_way: number; paid_out: number },
): Map<string, SaleMoneyWhere> {
  let paidOut = balances.paid_out
  let onItsWay = balances.on_its_way
  const completedOldestFirst = rows
    .filter((s) => s.completed_at !== null && !s.refunded)
    .sort(
      (a, b) => new Date(a.completed_at as string).getTime() - new Date(b.completed_at as string).getTime(),
    )
  const where = new Map<string, SaleMoneyWhere>()
  for (const s of completedOldestFirst) {
    const receive = Number(s.receive)
    if (paidOut >= receive) {
      paidOut -= receive
      where.set(s.booking_id, 'paid_out')
    } else if (onItsWay + paidOut >= receive) {
      onItsWay -= receive - paidOut
      paidOut = 0
      where.set(s.booking_id, 'on_its_way')
    } else {
      paidOut = 0
      onItsWay = 0
      where.set(s.booking_id, 'available')
    }
  }
  return where
}

/** The marketplace's money for the admins' Finance page, each figure a sum over the ledger. */
export type MarketMoney = {
  /** Sellers' shares and fees of sales paid and not completed (Held). */
  held_for_buyers_cents: number
  /** Sellers' available balances above zero, and what sellers owe after late refunds (below zero). */
  sellers_balances_cents: number
  negative_balances_cents: number
  /** Of the sellers' balances, what waits for a seller to set up payouts. */
  waiting_for_payout_setup_cents: number
  on_its_way_cents: number
  paid_out_cents: number
  fees_cents: number
  /** Taken from buyers, and given back to them. */
  charges_cents: number
  refunds_cents: number
}

export async function marketMoney(db: Db): Promise<MarketMoney> {
  const [totals, sides, flows] = await Promise.all([
    totalsByKind(db),
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
  ])
  const s = sides[0]
  return {
    held_for_buyers_cents: totals.held + totals.held_fees,
    sellers_balances_cents: Number(s?.positive ?? 0),
    negative_balances_cents: Number(s?.negative ?? 0),
    waiting_for_payout_setup_cents: Number(s?.waiting ?? 0),
    on_its_way_cents: totals.on_its_way,
    paid_out_cents: totals.paid_out,
    fees_cents: totals.fees,
    charges_cents: Number(flows[0]?.charges ?? 0),
    refunds_cents: Number(flows[0]?.refunds ?? 0),
  }
}

/** What of each payout the ledger still has on its way to the bank (its amount, less what came back early). */
export async function payoutsOnItsWay(db: Db, payoutIds: string[]): Promise<Map<string, number>> {
  if (payoutIds.length === 0) return new Map()
  const rows = await rowsOf<{ payout_id: string; total: string | number }>(
    db,
    sql`select t.payout_id, coalesce(sum(e.amount_cents), 0)::bigint as total
        from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
        where t.payout_id in (${sql.join(
          payoutIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) and e.account_id = 'on_its_way:' || t.seller_id
        group by t.payout_id`,
  )
  const found = new Map(rows.map((r) => [r.payout_id, Number(r.total)]))
  return new Map(payoutIds.map((id) => [id, found.get(id) ?? 0]))
}
