import { Flag } from 'lucide-react'
import { type FormEvent, useId, useState } from 'react'
import { Link, useLocation, useNavigate, useParams } from 'react-router'
import { paths } from '#contract/pages'
import { plural } from '#contract/plural'
import { NewReviewReport, type Review, type SellerPage as SellerPageData } from '#contract/reviews'
import { VerifiedSellerBadge } from '../../components/product/product-status'
import { Stars } from '../../components/product/seller-rating'
import { LoadFailed } from '../../components/query-state'
import { useReasonField } from '../../components/reason-field'
import { Button, buttonClasses } from '../../components/ui/button'
import { Skeleton } from '../../components/ui/skeleton'
import { isApiError } from '../../lib/api-client'
import { formatDate } from '../../lib/format'
import { toast } from '../../lib/toast'
import { useSession } from '../auth'
import { reportReview, useMyReviews, useSellerPage } from '../sellers'
import { ProductGrid } from './product-grid'

/** `/sellers/{id}`: a seller's name, badge and rating, their laptops for sale and buyers' published reviews. */
export function SellerPage() {
  const { id = '' } = useParams()
  const { data, isPending, error, refetch } = useSellerPage(id)
  if (isPending) return <SellerSkeleton />
  if (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 400)) return <SellerNotFound />
    return <LoadFailed title="We could not load this seller" error={error} onRetry={() => refetch()} />
  }
  return <Seller page={data} />
}

function Seller({ page }: { page: SellerPageData }) {
  const { seller } = page
  return (
    <>
      <title>{`${seller.name}, seller · Laptop Market`}</title>
      <header className="mb-8 space-y-2">
        <p className="font-medium text-slate-600 text-sm uppercase tracking-wide">Seller</p>
        <h1 className="font-bold text-2xl text-slate-900 tracking-tight sm:text-3xl">{seller.name}</h1>
        <div className="flex flex-wrap items-center gap-3">
          {seller.verified ? <VerifiedSellerBadge /> : null}
          {page.count > 0 && page.average !== null ? (
            <p className="flex items-center gap-2 text-slate-700" data-testid="seller-average">
              <Stars rating={Math.round(page.average)} />
              <span>
                <span className="font-semibold text-slate-900">{page.average.toFixed(1)}</span> out of 5 from{' '}
                {plural(page.count, 'review')}
              </span>
            </p>
          ) : (
            <p className="text-slate-600">No reviews yet</p>
          )}
        </div>
      </header>

      <section aria-labelledby="seller-laptops" className="mb-10">
        <h2 id="seller-laptops" className="mb-4 font-semibold text-slate-900 text-xl">
          Laptops for sale
        </h2>
        <ProductGrid
          products={page.products}
          isPending={false}
          error={null}
          headingLevel={3}
          label={`Laptops for sale by ${seller.name}`}
          empty={<p className="text-slate-600">{seller.name} has no laptops for sale right now.</p>}
        />
      </section>

      <section aria-labelledby="seller-reviews">
        <h2 id="seller-reviews" className="mb-4 font-semibold text-slate-900 text-xl">
          Reviews from buyers
        </h2>
        {page.reviews.length === 0 ? (
          <p className="text-slate-600">
            Nobody has reviewed {seller.name} yet. Reviews come only from completed sales.
          </p>
        ) : (
          <ul className="space-y-4">
            {page.reviews.map((review) => (
              <ReviewItem key={review._id} review={review} />
            ))}
          </ul>
        )}
      </section>
    </>
  )
}

function ReviewItem({ review }: { review: Review }) {
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4" data-testid="seller-review">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex items-center gap-2">
          <Stars rating={review.rating} />
          <span className="font-medium text-slate-900">{review.authorName}</span>
        </p>
        <time dateTime={review.createdAt} className="text-slate-600 text-sm">
          {formatDate(review.createdAt)}
        </time>
      </div>
      <p className="mt-2 whitespace-pre-line text-slate-700">{review.text}</p>
      <ReportReview reviewId={review._id} />
    </li>
  )
}

/** "Report this review": signed-out visitors sign in first and come back; a review's own author is offered none. */
function ReportReview({ reviewId }: { reviewId: string }) {
  const { user, isLoading } = useSession()
  // The caller's own reviews, from their own list: the public page names no author's account.
  const mine = useMyReviews(Boolean(user))
  const navigate = useNavigate()
  const location = useLocation()
  const [isOpen, setIsOpen] = useState(false)
  const reason = useReasonField(NewReviewReport, {
    label: 'Why should an admin look at this review?',
    rows: 2,
    maxLength: 1000,
  })
  const [isSent, setIsSent] = useState(false)
  const formId = useId()

  // One's own review cannot be reported (the server answers 403 too).
  if (mine.data?.written.some((r) => r._id === reviewId)) return null
  if (isSent)
    return <p className="mt-2 text-slate-600 text-sm">Thank you. An admin will look at this review.</p>

  function open() {
    if (!user && !isLoading) {
      navigate(paths.login(`${location.pathname}${location.search}`))
      return
    }
    setIsOpen(true)
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    const said = reason.check()
    if (said === null) return
    try {
      await reportReview(reviewId, { reason: said })
      setIsSent(true)
    } catch (err) {
      if (!reason.fromServer(err)) toast.error(isApiError(err) ? err.message : 'The report could not be sent')
    }
  }

  if (!isOpen)
    return (
      <button
        type="button"
        onClick={open}
        className="mt-2 inline-flex min-h-11 items-center gap-2 text-slate-600 text-sm underline-offset-4 hover:text-red-700 hover:underline"
      >
        <Flag aria-hidden="true" className="size-4" />
        Report this review
      </button>
    )
  return (
    <form id={formId} noValidate onSubmit={submit} className="mt-3 space-y-2">
      {reason.field}
      <div className="flex gap-2">
        <Button type="submit" size="sm" variant="secondary">
          Send report
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={() => setIsOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  )
}

function SellerSkeleton() {
  return (
    <div className="space-y-4" aria-busy="true">
      <span className="sr-only" role="status">
        Loading the seller
      </span>
      <Skeleton className="h-8 w-1/3" />
      <Skeleton className="h-5 w-1/4" />
      <Skeleton className="h-64 w-full" />
    </div>
  )
}

function SellerNotFound() {
  return (
    <>
      <title>Seller not found · Laptop Market</title>
      <div className="mx-auto max-w-lg py-12 text-center">
        <h1 className="font-bold text-3xl text-slate-900">Seller not found</h1>
        <p className="mt-3 text-slate-600">
          This seller is not on Laptop Market any more, or the link is mistyped.
        </p>
        <Link to={paths.browse()} className={buttonClasses('primary', 'lg', 'mt-8')}>
          Browse all laptops
        </Link>
      </div>
    </>
  )
}
