import type { ReactNode } from 'react'
import type { Product } from '#contract/products'
import { formatMoney } from '../../lib/format'
import { cn } from '../ui/cn'

const SIZES = {
  md: { price: 'text-xl', original: 'text-sm', gap: 'gap-x-2' },
  lg: { price: 'text-2xl tracking-tight', original: 'text-sm', gap: 'gap-x-2' },
  xl: { price: 'text-4xl tracking-tight', original: 'text-lg', gap: 'gap-x-3 gap-y-1' },
}

/** The resale price, large, with the original price struck through beside it. */
export function ProductPrice({
  product,
  size = 'lg',
  children,
}: {
  product: Pick<Product, 'resale_price_cents' | 'original_price_cents'>
  size?: keyof typeof SIZES
  /** Shown after the prices, on the same line when it fits. */
  children?: ReactNode
}) {
  const s = SIZES[size]
  return (
    <p className={cn('relative flex flex-wrap items-baseline', s.gap)}>
      <span className={cn('font-bold text-slate-900', s.price)}>
        <span className="sr-only">Price: </span>
        {formatMoney(product.resale_price_cents)}
      </span>
      <span className={cn('text-slate-600', s.original)}>
        <span className="sr-only">Original price: </span>
        <s>{formatMoney(product.original_price_cents)}</s>
      </span>
      {children}
    </p>
  )
}
