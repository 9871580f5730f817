import { z } from 'zod'
import { SellerMoney } from './seller-money'

// The role dashboards' figures: per-day series for the last 30 days (UTC days, oldest first, every day
// present), money, a funnel, and a buyer's orders with what to do next.

export const DASHBOARD_DAYS = 30

const count = z.number().int()

export const SellerDay = z.object({ day: z.string(), views: count, favourites: count, bookings: count })
export type SellerDay = z.infer<typeof SellerDay>

export const SellerDashboard = z.object({
  days: z.array(SellerDay),
  totals: z.object({ views: count, favourites: count, bookings: count }),
  /** The seller's balances, as Earnings shows them (the same read of the ledger). */
  money: SellerMoney,
})
export type SellerDashboard = z.infer<typeof SellerDashboard>

export const AdminDay = z.object({
  day: z.string(),
  listings: count,
  bookings: count,
  payments: count,
  reports: count,
  disputes: count,
})
export type AdminDay = z.infer<typeof AdminDay>

export const AdminDashboard = z.object({
  days: z.array(AdminDay),
  /** Of the listings posted in the last 30 days: how many were booked, and how many of those paid for. */
  funnel: z.object({ listings: count, booked: count, paid: count }),
})
export type AdminDashboard = z.infer<typeof AdminDashboard>

export const BuyerOrder = z.object({
  booking_id: z.string(),
  product_id: z.string(),
  product_name: z.string(),
  product_image: z.string(),
  price_cents: count,
  /** booked (to pay), paid, handed_over, disputed. */
  stage: z.string(),
  /** What the buyer does next, in a sentence. */
  next_step: z.string(),
  /** Where that is done. */
  action: z.enum(['pay', 'orders', 'product']),
  booked_on: z.string(),
})
export type BuyerOrder = z.infer<typeof BuyerOrder>

export const BuyerDashboard = z.object({
  in_progress: z.array(BuyerOrder),
  /** Every order of the buyer by where it stands, for the chart. */
  stages: z.array(z.object({ stage: z.string(), label: z.string(), count })),
  counts: z.object({ in_progress: count, completed: count, spent_cents: count }),
})
export type BuyerDashboard = z.infer<typeof BuyerDashboard>
