import type { ReactNode } from 'react'
import type { Product } from '#contract/products'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { ProductCard, ProductCardSkeleton } from './product-card'

export const GRID_CLASSES = 'grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4'

type ProductGridProps = {
  products: Product[] | undefined
  isPending: boolean
  error: Error | null
  onRetry?: () => void
  empty: ReactNode
  headingLevel?: 2 | 3
  skeletonCount?: number
  label?: string
  /** A control under each card's details, such as Book Now. */
  renderAction?: (product: Product) => ReactNode
}

/** A grid of product cards with its loading (skeletons), failed and empty states. */
export function ProductGrid({
  products,
  isPending,
  error,
  onRetry,
  empty,
  headingLevel,
  skeletonCount = 8,
  label,
  renderAction,
}: ProductGridProps) {
  if (isPending) {
    return (
      <div className={GRID_CLASSES} aria-busy="true">
        <span className="sr-only" role="status">
          Loading laptops
        </span>
        {Array.from({ length: skeletonCount }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <ProductCardSkeleton key={i} />
        ))}
      </div>
    )
  }
  if (error) {
    return (
      <Alert tone="error" title="We could not load these laptops">
        <p>{error.message}</p>
        {onRetry ? (
          <Button variant="secondary" onClick={onRetry}>
            Try again
          </Button>
        ) : null}
      </Alert>
    )
  }
  if (!products || products.length === 0) return <>{empty}</>
  return (
    <ul className={GRID_CLASSES} aria-label={label}>
      {products.map((product) => (
        <li key={product._id} className="flex">
          <ProductCard product={product} headingLevel={headingLevel} action={renderAction?.(product)} />
        </li>
      ))}
    </ul>
  )
}
