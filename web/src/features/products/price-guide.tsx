import { useId, useState } from 'react'
import type { ListingPriceGuide } from '#contract/price-guide'
import { priceVerdict } from '#contract/price-verdict'
import type { Product } from '#contract/products'
import { cn } from '../../components/ui/cn'
import { formatMoney } from '../../lib/format'

/** Whole dollars: "$410". */
const dollars = (value: number) => formatMoney(Math.round(value) * 100)

/** "Similar laptops sold for $410–$520, median $465, 23 sales" */
export function priceGuideSentence(guide: Pick<ListingPriceGuide, 'count' | 'p25' | 'median' | 'p75'>) {
  return `Similar laptops sold for ${dollars(guide.p25)}–${dollars(guide.p75)}, median ${dollars(guide.median)}, ${guide.count} sales`
}

const VERDICT_LABEL = { great: 'Great price', fair: 'Fair price' } as const

/**
 * "Great price" (at or below the 25th percentile of similar sales) or "Fair price" (up to the 75th), nothing
 * above or without a guide. The range and the number of sales show on hover, focus or tap, and are read
 * with the badge by screen readers.
 */
export function PriceGuideBadge({
  product,
  className,
}: {
  product: Pick<Product, 'resale_price' | 'price_guide' | 'sellStatus' | 'expired'>
  className?: string
}) {
  const [open, setOpen] = useState(false)
  const detailId = useId()
  const guide = product.price_guide
  const verdict = product.sellStatus || product.expired ? null : priceVerdict(product.resale_price, guide)
  if (!verdict || !guide) return null
  return (
    <span className={cn('group/guide inline-flex', className)}>
      <button
        type="button"
        data-testid="price-badge"
        aria-describedby={detailId}
        aria-expanded={open}
        onClick={(e) => {
          e.preventDefault()
          e.stopPropagation()
          setOpen((o) => !o)
        }}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setOpen(false)
        }}
        className={cn(
          'relative z-10 inline-flex items-center rounded-full px-2.5 py-0.5 font-semibold text-xs leading-5',
          'focus-visible:outline-3 focus-visible:outline-accent focus-visible:outline-offset-2',
          verdict === 'great' ? 'bg-emerald-100 text-emerald-900' : 'bg-sky-100 text-sky-900',
        )}
      >
        {VERDICT_LABEL[verdict]}
      </button>
      <span
        id={detailId}
        role="tooltip"
        className={cn(
          // Under the whole price line (the price, not the badge, is its positioned parent), from its left edge: above
          // the badge it covered the price, and from the badge's own left it ran off a phone's screen.
          'absolute top-full left-0 z-20 mt-2 w-60 max-w-[calc(100vw-3rem)] rounded-lg bg-slate-900 px-3 py-2 font-normal text-white text-xs shadow-lg',
          // Out of the layout while closed (a hidden box would still widen a phone's page); still its description.
          'hidden group-focus-within/guide:block group-hover/guide:block',
          open && 'block',
        )}
      >
        {priceGuideSentence(guide)} in the last 180 days.
      </span>
    </span>
  )
}
