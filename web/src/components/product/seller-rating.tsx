import { paths } from '#contract/pages'
import { plural, pluralNoun } from '#contract/plural'
import { Link } from '../../lib/bindings'
import { cn } from '../ui/cn'
import { SpriteIcon } from '../ui/sprite-icon'

type Rating = { average: number | null; count: number } | undefined

/** "4.8 out of 5" for screen readers, "★ 4.8 (12)" on screen. */
export function ratingLabel(rating: { average: number | null; count: number }): string {
  if (rating.count === 0 || rating.average === null) return 'No reviews yet'
  return `Rated ${rating.average.toFixed(1)} out of 5 from ${plural(rating.count, 'review')}`
}

/** The seller's published rating, linking to their page; "No reviews yet" when `showEmpty`, else nothing. */
export function SellerRatingLink({
  sellerId,
  rating,
  className,
  showEmpty = false,
}: {
  sellerId: string
  rating: Rating
  className?: string
  showEmpty?: boolean
}) {
  if (!rating || rating.count === 0 || rating.average === null) {
    if (!showEmpty) return null
    return (
      <Link to={paths.seller(sellerId)} className={cn('text-slate-600 text-sm hover:underline', className)}>
        No reviews yet
      </Link>
    )
  }
  return (
    <Link
      to={paths.seller(sellerId)}
      className={cn('inline-flex items-center gap-1 text-slate-700 text-sm hover:underline', className)}
      title={ratingLabel(rating)}
      data-testid="seller-rating"
    >
      <SpriteIcon name="star" className="size-4 fill-amber-400 text-amber-500" />
      <span className="sr-only">Seller rated </span>
      <span className="font-medium text-slate-900">{rating.average.toFixed(1)}</span>
      <span className="sr-only"> out of 5</span>
      <span>
        ({rating.count}
        <span className="sr-only"> {pluralNoun(rating.count, 'review')}</span>)
      </span>
    </Link>
  )
}

/** Five stars, filled up to `rating`, read out as "4 out of 5 stars". */
export function Stars({ rating, className }: { rating: number; className?: string }) {
  return (
    <span role="img" aria-label={`${rating} out of 5 stars`} className={cn('inline-flex', className)}>
      {[1, 2, 3, 4, 5].map((n) => (
        <SpriteIcon
          key={n}
          name="star"
          className={cn('size-4', n <= rating ? 'fill-amber-400 text-amber-500' : 'text-slate-300')}
        />
      ))}
    </span>
  )
}
