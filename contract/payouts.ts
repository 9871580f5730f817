import { z } from 'zod'
import { EarningsSale, SaleFigures, SellerMoney } from './seller-money'

// Money to sellers: payout accounts, earnings, payouts, and the admins' finance page (docs/decisions/0035).

export const PayoutAccountStatus = z.enum(['none', 'pending', 'enabled', 'restricted'])
export type PayoutAccountStatus = z.infer<typeof PayoutAccountStatus>

export const PayoutAccount = z.object({
  status: PayoutAccountStatus,
  /** `test`: the built-in test processor's bank account; `stripe`: a Stripe Connect Express account. */
  mode: z.enum(['test', 'stripe']),
  account_holder: z.string().nullable(),
  routing_number: z.string().nullable(),
  account_last4: z.string().nullable(),
  /** Why payouts are stopped, when they are (a payout the bank refused). */
  problem: z.string().nullable(),
  /**
   * Changed details receive payouts only from then (PAYOUT_ACCOUNT_HOLD_HOURS after the change); null when they
   * receive them now. The balance waits meanwhile.
   */
  payable_from: z.string().nullable(),
})
export type PayoutAccount = z.infer<typeof PayoutAccount>

/** An ABA routing number: nine digits whose weighted sum (3, 7, 1) is a multiple of ten. */
export function isRoutingNumber(v: string): boolean {
  if (!/^\d{9}$/.test(v)) return false
  const d = [...v].map(Number) as number[]
  const sum = [0, 3, 6].reduce((s, i) => s + 3 * (d[i] ?? 0) + 7 * (d[i + 1] ?? 0) + (d[i + 2] ?? 0), 0)
  return sum % 10 === 0
}

/**
 * Test mode's bank details, checked for shape. Stripe's documented test numbers: routing 110000000 with
 * account 000123456789 pays out, 000111111116 fails at payout.
 */
export const TestBankAccount = z.strictObject({
  account_holder: z
    .string({ error: 'Account holder is required' })
    .trim()
    .min(2, 'Enter the account holder’s name')
    .max(100, 'Keep the name under 100 characters'),
  routing_number: z
    .string({ error: 'Routing number is required' })
    .trim()
    .regex(/^\d{9}$/, 'A routing number has nine digits')
    .refine(isRoutingNumber, 'This routing number is not valid'),
  account_number: z
    .string({ error: 'Account number is required' })
    .trim()
    .regex(/^\d{4,17}$/, 'An account number has 4 to 17 digits'),
})
export type TestBankAccount = z.infer<typeof TestBankAccount>

/** With Stripe the body is empty (onboarding happens on Stripe's page); in test mode it is the bank account. */
export const PayoutAccountBody = z.strictObject({
  account_holder: z.string().optional(),
  routing_number: z.string().optional(),
  account_number: z.string().optional(),
})

export const OnboardingAnswer = z.object({ url: z.string() })

export const PayoutChangeParams = z.strictObject({
  id: z.uuid({ message: 'No such change of your payout details' }),
})

export const PayoutState = z.enum(['pending', 'in_transit', 'paid', 'failed'])

export const PayoutItem = z.object({
  _id: z.string(),
  amount_cents: z.number().int(),
  state: PayoutState,
  created_at: z.string(),
  settled_at: z.string().nullable(),
  failure_reason: z.string().nullable(),
  /** The last four digits of the bank account it went to (null: a Stripe account, or paid before they were kept). */
  account_last4: z.string().nullable(),
})

export const Earnings = SellerMoney.extend({
  fee: z.object({ percent: z.number(), min_cents: z.number().int() }),
  payout_minimum_cents: z.number().int(),
  /** When the next payout run is (every PAYOUT_INTERVAL_SECONDS, UTC): it pays the available balance. */
  next_payout_at: z.string(),
  payout_account: PayoutAccountStatus,
  /** Changed payout details receive payouts only from then (null: now); the available balance waits. */
  payout_account_payable_from: z.string().nullable(),
  /** Every paid sale, newest first (at most 500). */
  sales: z.array(EarningsSale),
  payouts: z.array(PayoutItem),
  /** What completed sales put in the balance by the month each completed (UTC), oldest first, the last twelve. */
  months: z.array(z.object({ month: z.string(), net_cents: z.number().int(), sales: z.number().int() })),
})
export type Earnings = z.infer<typeof Earnings>

/** What an admin's refund of a completed sale would do (`POST /api/bookings/{id}/refund`), or why it cannot be done. */
export const SaleRefund = z.object({
  allowed: z.boolean(),
  /** Why the server would refuse it now (refunded already, its transfer being made…); null when allowed. */
  reason: z.string().nullable(),
  /**
   * Where the seller's share comes back from: their balance (not paid out yet), their Stripe account (the transfer is
   * reversed), or their balance going below zero (paid out in test mode; their next sales make it up).
   */
  effect: z.enum(['from_balance', 'transfer_reversed', 'negative_balance']),
  /** What Stripe takes back from the seller's account (0 unless the transfer is reversed). */
  reversal_cents: z.number().int(),
  /** The seller's available balance after the refund. */
  seller_balance_after_cents: z.number().int(),
})
export type SaleRefund = z.infer<typeof SaleRefund>

export const FinanceSale = SaleFigures.extend({
  booking_id: z.string(),
  product_name: z.string(),
  buyer_name: z.string(),
  seller_name: z.string(),
  completed_at: z.string(),
  refunded: z.boolean(),
  refund: SaleRefund,
})
export type FinanceSale = z.infer<typeof FinanceSale>

export const Finance = z.object({
  /** Paid sales not completed: money held for buyers until the handover is confirmed. */
  held_for_buyers_cents: z.number().int(),
  /** Sellers' available balances (positive ones) and what sellers owe after late refunds. */
  sellers_balances_cents: z.number().int(),
  negative_balances_cents: z.number().int(),
  /** Of the sellers' balances, what waits for a seller to set up payouts. */
  waiting_for_payout_setup_cents: z.number().int(),
  on_its_way_cents: z.number().int(),
  paid_out_cents: z.number().int(),
  failed_payouts: z.object({ count: z.number().int(), amount_cents: z.number().int() }),
  fees_cents: z.number().int(),
  charges_cents: z.number().int(),
  refunds_cents: z.number().int(),
  /** Every ledger transaction sums to zero, all entries sum to zero, and the money taken equals succeeded payments. */
  balanced: z.boolean(),
  checks: z.object({
    unbalanced_transactions: z.number().int(),
    entries_total_cents: z.number().int(),
    /** Money taken from buyers less refunds, by the ledger. */
    ledger_charges_cents: z.number().int(),
    /** The sum of succeeded payments, by the payments' own records. */
    payments_cents: z.number().int(),
  }),
  recent_payouts: z.array(PayoutItem.extend({ seller_name: z.string() })),
  /** The latest completed sales (refunded ones included), newest first, each with what a refund would do. */
  recent_sales: z.array(FinanceSale),
})
export type Finance = z.infer<typeof Finance>
