import type { Earnings } from '#contract/payouts'

/** Where a sale's money is, in words. */
export const WHERE_WORDS: Record<Earnings['sales'][number]['where'], string> = {
  in_escrow: 'Held until the buyer confirms',
  available: 'In your balance',
  on_its_way: 'On its way to your bank',
  paid_out: 'Paid out',
  refunded: 'Refunded to the buyer',
}

const dollars = (cents: number) => (cents / 100).toFixed(2)

function cell(value: string): string {
  // Quoted when needed; a leading =, +, - or @ is defused so a spreadsheet never runs it as a formula.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** The seller's sales as CSV: one line per sale, amounts in dollars with two decimals. */
export function earningsCsv(sales: Earnings['sales']): string {
  const head = [
    'Paid on',
    'Completed on',
    'Laptop',
    'Price (USD)',
    'Fee (USD)',
    'You receive (USD)',
    'Where it is',
  ]
  const lines = sales.map((s) =>
    [
      s.paid_at ? s.paid_at.slice(0, 10) : '',
      s.completed_at ? s.completed_at.slice(0, 10) : '',
      s.product_name,
      dollars(s.price_cents),
      dollars(s.fee_cents),
      dollars(s.net_cents),
      WHERE_WORDS[s.where],
    ]
      .map(cell)
      .join(','),
  )
  return `${[head.join(','), ...lines].join('\r\n')}\r\n`
}
