import { z } from 'zod'
import { formatMoney } from './money'

// A seller's money as the ledger has it (docs/decisions/0035): the figures and the words every page and
// email shows, so the dashboard, Earnings and its CSV, My Product, the sale emails and the admins' Finance say
// one thing. The server reads them in one place (server/modules/ledger/seller-money.ts).

/** The words for each figure, the same on every page. */
export const MONEY_WORDS = {
  /** Paid by buyers, the seller's share kept until each buyer confirms (the ledger's `held`). */
  held: 'Held',
  /** The seller's: completed sales not paid out yet (`available`). */
  available: 'Available',
  /** Paid out, not arrived at the bank yet (`on_its_way`); nothing else is "on its way". */
  on_its_way: 'On its way to the bank',
  /** Arrived at the seller's bank (`paid_out`). */
  paid_out: 'Paid out',
  fees: 'Fees',
  /** A sale's price as the buyer paid it: the asking price, or the amount agreed in an offer. */
  price: 'Price agreed',
  fee: 'Fee',
  /** What the sale put in the seller's balance: the price less the fee, nothing once refunded. */
  receive: 'You receive',
  /** The same figure on the admins' page. */
  seller_receives: 'Seller receives',
  refunded: 'Refunded to the buyer',
} as const

const cents = z.number().int()

/** A seller's balances, each a sum of the ledger's entries. */
export const SellerMoney = z.object({
  /** Paid, not completed: the seller's share after the fee (Held). */
  in_escrow_cents: cents,
  /** Ready to be paid out; below zero when a refund came after the money was paid out (Available). */
  available_cents: cents,
  /** Paid out, not arrived at the bank yet (On its way to the bank). */
  on_its_way_cents: cents,
  paid_out_cents: cents,
  /** The marketplace's fees on this seller's completed sales. */
  fees_cents: cents,
})
export type SellerMoney = z.infer<typeof SellerMoney>

export const SaleMoneyWhere = z.enum(['in_escrow', 'available', 'on_its_way', 'paid_out', 'refunded'])
export type SaleMoneyWhere = z.infer<typeof SaleMoneyWhere>

/** Where a sale's money is, in the words of the balance it counts in. */
export const WHERE_WORDS: Record<SaleMoneyWhere, string> = {
  in_escrow: MONEY_WORDS.held,
  available: MONEY_WORDS.available,
  on_its_way: MONEY_WORDS.on_its_way,
  paid_out: MONEY_WORDS.paid_out,
  refunded: MONEY_WORDS.refunded,
}

/** One sale's money, from its ledger transactions. */
export const SaleFigures = z.object({
  /** What the buyer paid (Price agreed). */
  price_cents: cents,
  fee_cents: cents,
  /** What the sale put in the seller's balance (You receive): the price less the fee; 0 once refunded. */
  receive_cents: cents,
})
export type SaleFigures = z.infer<typeof SaleFigures>

export const SaleMoney = SaleFigures.extend({
  /** Where this sale's money is now (a completed sale's money leaves in payouts, oldest sales first). */
  where: SaleMoneyWhere,
})
export type SaleMoney = z.infer<typeof SaleMoney>

/** A sale's money in one line, as the emails write it: "Price agreed $720 · Fee $36 · You receive $684". */
export function saleMoneyLine(sale: SaleFigures, receive: string = MONEY_WORDS.receive): string {
  return [
    `${MONEY_WORDS.price} ${formatMoney(sale.price_cents)}`,
    `${MONEY_WORDS.fee} ${formatMoney(sale.fee_cents)}`,
    `${receive} ${formatMoney(sale.receive_cents)}`,
  ].join(' · ')
}

/** A sale as the Earnings page and its CSV list it. */
export const EarningsSale = SaleMoney.extend({
  booking_id: z.string(),
  product_name: z.string(),
  paid_at: z.string().nullable(),
  completed_at: z.string().nullable(),
})
export type EarningsSale = z.infer<typeof EarningsSale>

const dollars = (c: number) => (c / 100).toFixed(2)

function cell(value: string): string {
  // Quoted when needed; a leading =, +, - or @ is defused so a spreadsheet never runs it as a formula.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** The seller's sales as CSV: one line per sale, amounts in dollars with two decimals, the pages' words. */
export function earningsCsv(sales: EarningsSale[]): string {
  const head = [
    'Paid on',
    'Completed on',
    'Laptop',
    `${MONEY_WORDS.price} (USD)`,
    `${MONEY_WORDS.fee} (USD)`,
    `${MONEY_WORDS.receive} (USD)`,
    'Where it is',
  ]
  const lines = sales.map((s) =>
    [
      s.paid_at ? s.paid_at.slice(0, 10) : '',
      s.completed_at ? s.completed_at.slice(0, 10) : '',
      s.product_name,
      dollars(s.price_cents),
      dollars(s.fee_cents),
      dollars(s.receive_cents),
      WHERE_WORDS[s.where],
    ]
      .map(cell)
      .join(','),
  )
  return `${[head.join(','), ...lines].join('\r\n')}\r\n`
}
