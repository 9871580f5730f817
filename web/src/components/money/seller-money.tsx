import { MONEY_WORDS, type SaleMoney, type SellerMoney, WHERE_WORDS } from '#contract/seller-money'
import { formatMoney, formatSignedMoney } from '../../lib/format'
import { cn } from '../ui/cn'

// A seller's money as the ledger has it, drawn the same on the dashboard, Earnings and My Product: the same
// figures (one read on the server) under the same words (contract/seller-money.ts).

function Figure({ label, cents, note }: { label: string; cents: number; note: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-slate-600 text-sm">{label}</dt>
      <dd
        className={`mt-1 font-bold text-lg tabular-nums sm:text-2xl ${cents < 0 ? 'text-red-700' : 'text-slate-900'}`}
      >
        {formatSignedMoney(cents)}
      </dd>
      <dd className="mt-1 text-slate-500 text-xs">{note}</dd>
    </div>
  )
}

/** The seller's balances: held, available, on its way to the bank, paid out, and the fees taken. */
export function SellerMoneyFigures({
  money,
  availableNote = 'Yours: paid out to your bank',
  feesNote = 'Taken from your completed sales',
}: {
  money: SellerMoney
  availableNote?: string
  feesNote?: string
}) {
  return (
    <dl className="grid grid-cols-2 gap-4 lg:grid-cols-5" data-testid="seller-money">
      <Figure
        label={MONEY_WORDS.held}
        cents={money.in_escrow_cents}
        note="Paid, waiting for each buyer to confirm"
      />
      <Figure label={MONEY_WORDS.available} cents={money.available_cents} note={availableNote} />
      <Figure
        label={MONEY_WORDS.on_its_way}
        cents={money.on_its_way_cents}
        note="Paid out, not arrived yet"
      />
      <Figure label={MONEY_WORDS.paid_out} cents={money.paid_out_cents} note="In your bank account" />
      <Figure label={MONEY_WORDS.fees} cents={money.fees_cents} note={feesNote} />
    </dl>
  )
}

/** One sale's money on a line: the price agreed, the fee, what the seller receives, and where that is. */
export function SaleMoneyLine({ sale, className }: { sale: SaleMoney; className?: string }) {
  const item = 'inline-flex items-baseline gap-1'
  return (
    <dl
      className={cn('flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm tabular-nums', className)}
      data-testid="sale-money"
    >
      <div className={item}>
        <dt className="text-slate-600">{MONEY_WORDS.price}</dt>
        <dd className="font-bold text-lg text-slate-900">{formatMoney(sale.price_cents)}</dd>
      </div>
      <div className={item}>
        <dt className="text-slate-600">{MONEY_WORDS.fee}</dt>
        <dd className="text-slate-700">−{formatMoney(sale.fee_cents)}</dd>
      </div>
      <div className={item}>
        <dt className="text-slate-600">{MONEY_WORDS.receive}</dt>
        <dd className="font-semibold text-slate-900">{formatMoney(sale.receive_cents)}</dd>
      </div>
      <div className={item}>
        <dt className="sr-only">Where it is</dt>
        <dd className="text-slate-600">({WHERE_WORDS[sale.where]})</dd>
      </div>
    </dl>
  )
}
