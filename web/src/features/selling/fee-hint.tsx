import { feeCents } from '#contract/fees'
import { formatMoney } from '../../lib/format'
import { usePaymentConfig } from '../buying'

/** Dollars as typed ("749.5") to cents, or null while it is not a price yet. */
function typedCents(typed: unknown): number | null {
  const text = String(typed ?? '').trim()
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null
  const cents = Math.round(Number(text) * 100)
  return cents > 0 ? cents : null
}

/**
 * "You'll receive $X after the fee", as the price is typed: the marketplace's fee comes from the seller's
 * share, computed by the same function the server posts with (contract/fees.ts).
 */
export function FeeHint({ price, className }: { price: unknown; className?: string }) {
  const config = usePaymentConfig()
  const rule = config.data?.fee
  const cents = typedCents(price)
  if (!rule) return null
  const fee =
    cents === null ? 0 : feeCents(cents, { basisPoints: rule.basis_points, minCents: rule.min_cents })
  const percent = rule.basis_points / 100
  return (
    <p aria-live="polite" className={className ?? 'text-slate-700 text-sm'}>
      {cents === null ? (
        `The marketplace keeps ${percent}% of the price${
          rule.min_cents > 0 ? ` (at least ${formatMoney(rule.min_cents)})` : ''
        } when the laptop sells; the buyer pays the price you set.`
      ) : (
        <>
          You’ll receive <strong className="text-slate-900">{formatMoney(cents - fee)}</strong> after the fee
          ({formatMoney(fee)}, {percent}%).
        </>
      )}
    </p>
  )
}
