import { type SQL, sql } from 'drizzle-orm'
import {
  type AdminDashboard,
  type BuyerDashboard,
  type BuyerOrder,
  DASHBOARD_DAYS,
  type SellerDashboard,
} from '#contract/dashboard'
import type { Db } from '#server/db/client'
import { rowsOf } from '#server/lib/paging'
import type { SessionUser } from '#server/lib/session'
import { sellerMoney } from '#server/modules/ledger'

// The figures behind each role's dashboard. Every series is counted per UTC day over the last 30 days with
// one grouped query per series (indexes on the dates and owners), then laid on the full list of days.

const DAY = 24 * 60 * 60 * 1000

/** The last 30 UTC days, oldest first, as `YYYY-MM-DD`. */
export function lastDays(now = new Date(), n = DASHBOARD_DAYS): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return Array.from({ length: n }, (_, i) => new Date(today - (n - 1 - i) * DAY).toISOString().slice(0, 10))
}

const utcDay = (column: SQL) => sql`to_char((${column}) at time zone 'UTC', 'YYYY-MM-DD')`

/** A per-day count as a map; `query` selects `day` and `n`. */
async function perDay(db: Db, query: SQL): Promise<Map<string, number>> {
  const rows = await rowsOf<{ day: string; n: number }>(db, query)
  return new Map(rows.map((r) => [r.day, Number(r.n)]))
}

function windowStart(days: string[]): Date {
  return new Date(`${days[0]}T00:00:00.000Z`)
}

export async function getSellerDashboard(
  db: Db,
  seller: SessionUser,
  now = new Date(),
): Promise<SellerDashboard> {
  const days = lastDays(now)
  const from = windowStart(days)
  const [views, bookings, favourites, money] = await Promise.all([
    perDay(
      db,
      sql`select to_char(v.day, 'YYYY-MM-DD') as day, sum(v.views)::int as n
          from product_views v join products p on p.id = v.product_id
          where p.seller_id = ${seller.id} and v.day >= ${days[0]}::date
          group by v.day`,
    ),
    perDay(
      db,
      sql`select ${utcDay(sql`b.created_at`)} as day, count(*)::int as n
          from bookings b join products p on p.id = b.product_id
          where p.seller_id = ${seller.id} and b.created_at >= ${from.toISOString()}::timestamptz
          group by 1`,
    ),
    sellerFavouritesPerDay(db, seller.id, from),
    sellerMoney(db, seller.id),
  ])
  const series = days.map((day) => ({
    day,
    views: views.get(day) ?? 0,
    favourites: favourites.get(day) ?? 0,
    bookings: bookings.get(day) ?? 0,
  }))
  const sum = (k: 'views' | 'favourites' | 'bookings') => series.reduce((s, d) => s + d[k], 0)
  return {
    days: series,
    totals: { views: sum('views'), favourites: sum('favourites'), bookings: sum('bookings') },
    money: {
      in_escrow_cents: money.in_escrow_cents,
      available_cents: money.available_cents,
      on_its_way_cents: money.on_its_way_cents,
      paid_out_cents: money.paid_out_cents,
      fees_cents: money.fees_cents,
    },
  }
}

/** Favourites of the seller's listings saved per day (those still saved now). */
async function sellerFavouritesPerDay(db: Db, sellerId: string, from: Date): Promise<Map<string, number>> {
  return perDay(
    db,
    sql`select ${utcDay(sql`f.saved_at`)} as day, count(*)::int as n
        from favourites f join products p on p.id = f.product_id
        where p.seller_id = ${sellerId} and f.saved_at >= ${from.toISOString()}::timestamptz
        group by 1`,
  )
}

export async function getAdminDashboard(db: Db, now = new Date()): Promise<AdminDashboard> {
  const days = lastDays(now)
  const from = windowStart(days).toISOString()
  const [listings, bookings, payments, reports, disputes, funnel] = await Promise.all([
    perDay(
      db,
      sql`select ${utcDay(sql`posted_on`)} as day, count(*)::int as n from products
          where posted_on >= ${from}::timestamptz group by 1`,
    ),
    perDay(
      db,
      sql`select ${utcDay(sql`created_at`)} as day, count(*)::int as n from bookings
          where created_at >= ${from}::timestamptz group by 1`,
    ),
    perDay(
      db,
      sql`select ${utcDay(sql`b.paid_at`)} as day, count(*)::int as n
          from payments pay join bookings b on b.id = pay.booking_id
          where pay.status in ('succeeded', 'refunded') and b.paid_at >= ${from}::timestamptz group by 1`,
    ),
    perDay(
      db,
      sql`select ${utcDay(sql`created_at`)} as day, count(*)::int as n from reports
          where created_at >= ${from}::timestamptz group by 1`,
    ),
    disputesPerDay(db, from),
    rowsOf<{ listings: number; booked: number; paid: number }>(
      db,
      sql`select count(*)::int as listings,
            count(*) filter (where exists (select 1 from bookings b where b.product_id = p.id))::int as booked,
            count(*) filter (where exists (
              select 1 from payments pay where pay.product_id = p.id and pay.status = 'succeeded'))::int as paid
          from products p where p.posted_on >= ${from}::timestamptz`,
    ),
  ])
  return {
    days: days.map((day) => ({
      day,
      listings: listings.get(day) ?? 0,
      bookings: bookings.get(day) ?? 0,
      payments: payments.get(day) ?? 0,
      reports: reports.get(day) ?? 0,
      disputes: disputes.get(day) ?? 0,
    })),
    funnel: {
      listings: Number(funnel[0]?.listings ?? 0),
      booked: Number(funnel[0]?.booked ?? 0),
      paid: Number(funnel[0]?.paid ?? 0),
    },
  }
}

/** Disputes opened per day. */
function disputesPerDay(db: Db, from: string): Promise<Map<string, number>> {
  return perDay(
    db,
    sql`select ${utcDay(sql`created_at`)} as day, count(*)::int as n from disputes
        where created_at >= ${from}::timestamptz group by 1`,
  )
}

type OrderRow = {
  booking_id: string
  product_id: string
  product_name: string
  product_image: string
  price_cents: number
  is_paid: boolean
  stage: string
  /** Unpaid, and the laptop went to someone else. */
  sold_elsewhere: boolean
  /** Unpaid, and the listing can no longer be bought (taken down, expired, seller gone). */
  unavailable: boolean
  created_at: string | Date
}

/** Where an order stands, for the buyer's chart; null for those no longer the buyer's concern. */
function stageOf(row: OrderRow): string {
  if (!row.is_paid) return row.sold_elsewhere ? 'sold_elsewhere' : row.unavailable ? 'unavailable' : 'booked'
  return row.stage === 'booked' ? 'paid' : row.stage
}

const IN_PROGRESS = new Set(['booked', 'paid', 'handed_over', 'disputed'])

function nextStep(row: OrderRow): Pick<BuyerOrder, 'stage' | 'next_step' | 'action'> {
  const stage = stageOf(row)
  switch (stage) {
    case 'booked':
      return { stage, next_step: 'Pay for it to make it yours.', action: 'pay' }
    case 'handed_over':
      return {
        stage,
        next_step: 'The seller has handed it over: confirm you received it, or report a problem.',
        action: 'orders',
      }
    case 'disputed':
      return { stage, next_step: 'An admin is looking at the problem you reported.', action: 'orders' }
    default:
      return {
        stage,
        next_step: 'Paid: the seller hands it over next; confirm in My Orders once you have it.',
        action: 'orders',
      }
  }
}

/** The buyer's chart: every order by where it stands. */
const STAGE_LABELS: [string, string][] = [
  ['booked', 'To pay'],
  ['paid', 'Paid'],
  ['handed_over', 'Handed over'],
  ['disputed', 'In dispute'],
  ['completed', 'Completed'],
  ['refunded', 'Refunded'],
  ['sold_elsewhere', 'Sold to someone else'],
]

export async function getBuyerDashboard(db: Db, buyer: SessionUser): Promise<BuyerDashboard> {
  const rows = await rowsOf<OrderRow>(
    db,
    sql`select b.id as booking_id, b.product_id, b.product_name, b.product_image, b.price_cents, b.is_paid,
          b.stage, b.created_at,
          (not b.is_paid and p.is_sold) as sold_elsewhere,
          (not b.is_paid and (p.removed_at is not null or p.expired_at is not null or s.disabled_at is not null))
            as unavailable
        from bookings b
        join products p on p.id = b.product_id
        join users s on s.id = p.seller_id
        where b.buyer_id = ${buyer.id}
        order by b.created_at desc`,
  )
  const open = rows.filter((r) => IN_PROGRESS.has(stageOf(r)))
  const stageCounts = new Map<string, number>()
  for (const r of rows) stageCounts.set(stageOf(r), (stageCounts.get(stageOf(r)) ?? 0) + 1)
  const spent = await rowsOf<{ cents: number }>(
    db,
    sql`select coalesce(sum(amount_cents), 0)::int as cents from payments
        where buyer_id = ${buyer.id} and status = 'succeeded'`,
  )
  return {
    stages: STAGE_LABELS.map(([stage, label]) => ({ stage, label, count: stageCounts.get(stage) ?? 0 })),
    in_progress: open.slice(0, 20).map((r) => ({
      booking_id: r.booking_id,
      product_id: r.product_id,
      product_name: r.product_name,
      product_image: r.product_image,
      price_cents: Number(r.price_cents),
      booked_on: new Date(r.created_at).toISOString(),
      ...nextStep(r),
    })),
    counts: {
      in_progress: open.length,
      completed: stageCounts.get('completed') ?? 0,
      spent_cents: Number(spent[0]?.cents ?? 0),
    },
  }
}
