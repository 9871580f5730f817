import type { ReactNode } from 'react'
import type { Product } from '#contract/products'
import { LoadFailed } from '../../components/query-state'
import { cn } from '../../components/ui/cn'
import { ProductCard, ProductCardSkeleton } from './product-card'

export const GRID_CLASSES = 'grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4'
/**
 * Below sm a row that swipes sideways (the next card peeks in), from sm up the usual grid. The row runs to the
 * screen's edges (-mx-4) with the page's margin as padding; scroll-px-4 makes the cards snap to that margin,
 * in line with the section's heading, rather than to the screen's edge.
 */
/**
 * A card after the first in the grid is laid out and painted only once it comes near the screen. On a phone the
 * grid is one column and only the first card shows at first, yet the browser styled, laid out and painted all 24
 * (about 1,300 elements) before it could paint that card's photo, the page's largest paint. Its place is held at a
 * card's usual height (about 38 rem on every screen) until it has been laid out once, then at its own height.
 * It stays in the page for search in page, screen readers and links, as before.
 */
const LATER_CARD_CLASSES = '[content-visibility:auto] [contain-intrinsic-size:auto_none_auto_38rem]'

const ROW_ON_PHONE_CLASSES =
  '-mx-4 flex snap-x snap-mandatory scroll-px-4 gap-4 overflow-x-auto px-4 pb-3 sm:mx-0 sm:scroll-px-0 sm:grid sm:grid-cols-2 sm:gap-5 sm:overflow-visible sm:px-0 sm:pb-0 lg:grid-cols-3 xl:grid-cols-4'

/** A phone's first screen holds the first card, a desktop's the first row: four. */
const LEAD_CARDS = 4

type ProductGridProps = {
  products: Product[] | undefined
  isPending: boolean
  error: Error | null
  onRetry?: () => void
  empty: ReactNode
  headingLevel?: 2 | 3
  skeletonCount?: number
  label?: string
  /** On phones, one swipeable row instead of a tall column (the home page, so the brands stay near). */
  rowOnPhone?: boolean
  /** A control under each card's details, such as Book Now. */
  renderAction?: (product: Product) => ReactNode
  /**
   * How many cards open the page, their photos loaded at once (the first at high priority: on a phone it is the
   * page's largest paint); the rest load as they are scrolled near. A grid leads the page it is on unless it says
   * otherwise (0: below something larger, as the home page's row under the slideshow).
   */
  leadCards?: number
  /** Marks a card "New" (a saved search's laptops posted since the last visit). */
  isNew?: (product: Product) => boolean
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
  rowOnPhone = false,
  renderAction,
  leadCards = LEAD_CARDS,
  isNew,
}: ProductGridProps) {
  if (isPending) {
    return (
      <div className={rowOnPhone ? ROW_ON_PHONE_CLASSES : GRID_CLASSES} aria-busy="true">
        <span className="sr-only" role="status">
          Loading laptops
        </span>
        {Array.from({ length: skeletonCount }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <div key={i} className={rowOnPhone ? 'w-[82%] shrink-0 sm:w-auto' : undefined}>
            <ProductCardSkeleton />
          </div>
        ))}
      </div>
    )
  }
  if (error) {
    return <LoadFailed title="We could not load these laptops" error={error} onRetry={onRetry} />
  }
  if (!products || products.length === 0) return <>{empty}</>
  return (
    <ul className={rowOnPhone ? ROW_ON_PHONE_CLASSES : GRID_CLASSES} aria-label={label}>
      {products.map((product, i) => (
        <li
          key={product._id}
          className={
            rowOnPhone
              ? 'flex w-[82%] shrink-0 snap-start sm:w-auto'
              : cn('flex', i > 0 && LATER_CARD_CLASSES)
          }
        >
          <ProductCard
            product={product}
            headingLevel={headingLevel}
            action={renderAction?.(product)}
            imagePriority={i === 0 && leadCards > 0 ? 'high' : i < leadCards ? 'eager' : undefined}
            isNew={isNew?.(product)}
          />
        </li>
      ))}
    </ul>
  )
}
