import { ChevronRight, Handshake, ShieldCheck, Truck } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link, useParams } from 'react-router'
import { CONDITION_DEFINITIONS } from '#contract/conditions'
import { canMeet, canShip, DELIVERY_OPTION_LABELS } from '#contract/delivery-options'
import { paths } from '#contract/pages'
import type { Product } from '#contract/products'
import { ProductPrice } from '../../components/product/product-price'
import {
  BatteryHealth,
  batteryEvidence,
  batteryEvidenceText,
  isReserved,
  reviewStatusText,
  SaleStatusBadge,
  VerifiedSellerBadge,
} from '../../components/product/product-status'
import { SellerRatingLink } from '../../components/product/seller-rating'
import { LoadFailed } from '../../components/query-state'
import { Badge } from '../../components/ui/badge'
import { buttonClasses } from '../../components/ui/button'
import { Skeleton } from '../../components/ui/skeleton'
import { isApiError } from '../../lib/api-client'
import { formatDate, formatMoney, formatStorage, formatTime, formatYearsOfUse } from '../../lib/format'
import { useSession } from '../auth'
import { BookNowButton } from '../buying'
import { FavouriteButton } from '../favourites'
import { MakeOfferButton } from '../offers'
import { ProductQuestions } from '../questions'
import { PriceGuideBadge, priceGuideSentence } from './price-guide'
import { ProductGallery } from './product-gallery'
import { useCountView, useProduct } from './products-api'
import { ReportListing } from './report-listing'

/** `/products/{id}`: one laptop with its photos, every field and spec, the seller and Book Now. */
export function ProductDetailPage() {
  const { id = '' } = useParams()
  const { data: product, isPending, error, refetch } = useProduct(id)
  useCountView(product ? id : undefined)

  if (isPending) return <ProductDetailSkeleton />
  if (error) {
    // A malformed id (400) is as unknown as a missing one (404).
    if (isApiError(error) && (error.status === 404 || error.status === 400)) return <ProductNotFound />
    return <LoadFailed title="We could not load this laptop" error={error} onRetry={() => refetch()} />
  }
  return <ProductDetail product={product} />
}

function ProductDetail({ product }: { product: Product }) {
  const photos = product.images.length > 0 ? product.images : [{ card: product.img, detail: product.img }]
  const saving = product.original_price_cents - product.resale_price_cents
  const savingPercent = Math.round((saving / product.original_price_cents) * 100)

  return (
    <>
      <title>{`${product.name} · Laptop Market`}</title>
      <nav aria-label="Breadcrumb" className="mb-4 text-sm">
        <ol className="flex flex-wrap items-center gap-1 text-slate-600">
          <li>
            <Link to="/productcard" className="hover:text-accent hover:underline">
              All laptops
            </Link>
          </li>
          <li aria-hidden="true">
            <ChevronRight className="size-4" />
          </li>
          <li>
            <Link to={`/category/${product.category_id}`} className="hover:text-accent hover:underline">
              {product.brand_name}
            </Link>
          </li>
        </ol>
      </nav>

      <div className="grid gap-8 lg:grid-cols-[1.2fr_1fr]">
        <ProductGallery name={product.name} photos={photos} />

        <div className="space-y-6">
          <div className="space-y-3">
            <div className="flex flex-wrap items-center gap-2">
              <SaleStatusBadge
                isSold={product.sellStatus}
                isReserved={isReserved(product)}
                isExpired={product.expired}
                reviewState={product.review_state}
              />
              <Badge tone="outline">{product.brand_name}</Badge>
            </div>
            <div className="flex items-start justify-between gap-3">
              <h1 className="font-bold text-2xl text-slate-900 tracking-tight sm:text-3xl">{product.name}</h1>
              <FavouriteButton
                productId={product._id}
                productName={product.name}
                sellerId={product.seller_id}
                look="labelled"
                className="shrink-0"
              />
            </div>
            <ProductPrice product={product} size="xl">
              {saving > 0 ? (
                <span className="font-medium text-accent text-sm">
                  You save {formatMoney(saving)} ({savingPercent}%)
                </span>
              ) : null}
              <PriceGuideBadge product={product} />
            </ProductPrice>
            {product.price_guide && !product.sellStatus ? (
              <p className="text-slate-600 text-sm" data-testid="price-guide-line">
                {priceGuideSentence(product.price_guide)} in the last 180 days.
              </p>
            ) : null}
            <p className="flex items-center gap-2 text-slate-800 text-sm" data-testid="delivery-line">
              {canShip(product.delivery ?? 'meet') ? (
                <Truck aria-hidden="true" className="size-4 shrink-0 text-accent" />
              ) : (
                <Handshake aria-hidden="true" className="size-4 shrink-0 text-accent" />
              )}
              {deliverySentence(product)}
            </p>
          </div>

          {reviewStatusText(product.review_state) ? (
            <ReviewNotice product={product} />
          ) : (
            <BookNow product={product} />
          )}

          <section
            aria-labelledby="condition-heading"
            className="rounded-xl border border-slate-200 bg-white p-4"
          >
            <h2 id="condition-heading" className="font-semibold text-slate-900">
              Condition: {product.condition}
            </h2>
            <p className="mt-1 text-slate-700 text-sm">{CONDITION_DEFINITIONS[product.condition]}</p>
            <p
              className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-900 text-sm"
              data-testid="battery-evidence"
            >
              <BatteryHealth
                healthPct={product.battery_health_pct}
                label={batteryEvidenceText(product)}
                className="flex items-center gap-1.5 font-medium"
              />
              {/* An item of its own, without a leading "·": the evidence before it is long, and a separator would
                  start the line whenever the count wraps under it. */}
              {product.battery_cycles !== null ? (
                <span className="text-slate-600">{product.battery_cycles} charge cycles</span>
              ) : null}
              {product.battery_verified ? (
                <Badge
                  tone={product.battery_report_is_old ? 'outline' : 'accent'}
                  className={product.battery_report_is_old ? 'border-amber-400 text-amber-900' : undefined}
                >
                  {product.battery_report_is_old
                    ? 'Report over 30 days old'
                    : "From the seller's report file"}
                </Badge>
              ) : null}
            </p>
          </section>

          <section
            aria-labelledby="seller-heading"
            className="rounded-xl border border-slate-200 bg-white p-4"
          >
            <h2 id="seller-heading" className="font-semibold text-slate-900">
              Seller
            </h2>
            <p className="mt-2 flex flex-wrap items-center gap-2">
              <Link
                to={paths.seller(product.seller_id)}
                className="font-medium text-slate-900 hover:text-accent hover:underline"
              >
                {product.seller_name}
              </Link>
              {product.seller_verified ? <VerifiedSellerBadge /> : null}
              <SellerRatingLink sellerId={product.seller_id} rating={product.seller_rating} showEmpty />
            </p>
            <p className="mt-2 flex gap-2 text-slate-600 text-sm">
              <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent" />
              {product.seller_verified
                ? 'This seller has confirmed their identity with Laptop Market.'
                : 'Pay through Laptop Market only: your payment is protected until the laptop is yours.'}
            </p>
          </section>
          <ReportListing productId={product._id} sellerEmail={product.seller_email} />
        </div>
      </div>

      <section aria-labelledby="description-heading" className="mt-10">
        <h2 id="description-heading" className="mb-3 font-semibold text-slate-900 text-xl">
          Description
        </h2>
        <p className="max-w-prose whitespace-pre-line text-slate-700 leading-7">
          {product.description || 'The seller has not added a description.'}
        </p>
      </section>
      <div className="mt-10 grid gap-8 lg:grid-cols-2">
        <section aria-labelledby="specs-heading">
          <h2 id="specs-heading" className="mb-3 font-semibold text-slate-900 text-xl">
            Specifications
          </h2>
          <FactList
            facts={[
              ['Processor', product.processor],
              ['RAM', `${product.ram_gb} GB`],
              ['Storage', formatStorage(product.storage_gb)],
              ['Screen', `${product.screen_inches}-inch`],
            ]}
          />
        </section>
        <section aria-labelledby="details-heading">
          <h2 id="details-heading" className="mb-3 font-semibold text-slate-900 text-xl">
            Listing details
          </h2>
          <FactList
            facts={[
              ['Brand', product.brand_name],
              ['Condition', product.condition],
              ['Battery', batteryEvidence(product)],
              [
                'Charge cycles',
                product.battery_cycles === null ? 'Not reported' : String(product.battery_cycles),
              ],
              ['Location', product.location],
              ['Delivery', DELIVERY_OPTION_LABELS[product.delivery ?? 'meet']],
              ['Use', formatYearsOfUse(product.uses)],
              ['Original price', formatMoney(product.original_price_cents)],
              [
                'Posted',
                <time key="posted" dateTime={product.postedOn}>
                  {formatDate(product.postedOn)}
                </time>,
              ],
              ['Status', statusText(product)],
            ]}
          />
        </section>
      </div>
      <ProductQuestions product={product} />
    </>
  )
}

/** How the laptop can be had, in one sentence: shipped (with its parcel), met in person, or either. */
function deliverySentence(product: Product): string {
  const option = product.delivery ?? 'meet'
  const meet = `Meet the seller in person in ${product.location}`
  if (!canShip(option)) return `${meet}.`
  const parcel = product.parcel
  const weight = parcel ? `, ${(parcel.weight_oz / 16).toFixed(1)} lb packed` : ''
  const ships = `Ships to you: shipping is quoted for your address at checkout${weight}`
  return canMeet(option) ? `${ships}. Or: ${meet.charAt(0).toLowerCase()}${meet.slice(1)}.` : `${ships}.`
}

/** The listing's status in words: Sold, where its review stands (its seller's view), Expired, Reserved or Available. */
function statusText(product: Product): string {
  if (product.sellStatus) return 'Sold'
  const review = reviewStatusText(product.review_state)
  if (review) return review
  if (product.expired) return 'Expired'
  return isReserved(product) ? 'Reserved' : 'Available'
}

function FactList({ facts }: { facts: [string, ReactNode][] }) {
  return (
    <dl className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
      {facts.map(([term, value]) => (
        <div key={term} className="grid grid-cols-[8rem_1fr] gap-3 px-4 py-3 text-sm">
          <dt className="font-medium text-slate-600">{term}</dt>
          <dd className="text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  )
}

/**
 * What the listing's seller (or an admin) reads on a listing off sale for its review, where buyers would find Book
 * Now: nobody else can open this page until an admin approves it.
 */
function ReviewNotice({ product }: { product: Product }) {
  const { user } = useSession()
  const isPending = product.review_state === 'pending'
  const isSeller = user?.id === product.seller_id
  return (
    <div
      data-testid="review-notice"
      className={
        isPending
          ? 'space-y-1 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950 text-sm'
          : 'space-y-1 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-950 text-sm'
      }
    >
      <p className="font-semibold">{isPending ? 'Waiting for review' : 'Not approved'}</p>
      {isPending ? (
        <p>
          {isSeller ? 'Only you and our admins can see this listing. ' : ''}An admin checks it before buyers
          can see or book it{isSeller ? '; you are emailed if anything must change' : ''}.
        </p>
      ) : (
        <p>
          {product.review_reason ? `Why: ${product.review_reason} ` : ''}Buyers cannot see it.
          {isSeller ? ' Edit the listing to send it back for review.' : ''}
        </p>
      )}
      {isSeller ? (
        <Link
          to={paths.editProduct(product._id)}
          className="inline-flex min-h-11 items-center font-medium underline"
        >
          Edit the listing
        </Link>
      ) : null}
    </div>
  )
}

/** Booking needs an account; a signed-out visitor signs in first and comes back here. */
function BookNow({ product }: { product: Product }) {
  const { user, isLoading } = useSession()
  if (product.sellStatus) {
    return <p className="text-slate-600 text-sm">This laptop has been sold and can no longer be booked.</p>
  }
  if (product.expired) {
    return (
      <p className="text-slate-600 text-sm">
        This listing has expired: its seller has not renewed it, so it can no longer be booked.
      </p>
    )
  }
  return (
    <div className="space-y-2">
      {isReserved(product) && product.reservedUntil ? (
        <p className="rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 text-slate-700 text-sm">
          <strong className="font-semibold text-slate-900">Reserved:</strong> another buyer is paying for this
          laptop right now. If they have not paid by{' '}
          {/* The reader's own time zone, which the server cannot know. */}
          <time dateTime={product.reservedUntil} suppressHydrationWarning>
            {formatTime(product.reservedUntil)}
          </time>
          , it is back on sale and you can pay for it.
        </p>
      ) : null}
      <div className="flex flex-col gap-3 sm:flex-row">
        <BookNowButton product={product} size="lg" />
        <MakeOfferButton product={product} size="lg" />
      </div>
      {user || isLoading ? null : (
        <p className="text-slate-600 text-sm">
          Booking needs an account: sign in and you come straight back here.
        </p>
      )}
    </div>
  )
}

function ProductNotFound() {
  return (
    <>
      <title>Product not found · Laptop Market</title>
      <div className="mx-auto max-w-lg py-12 text-center">
        <h1 className="font-bold text-3xl text-slate-900">Product not found</h1>
        <p className="mt-3 text-slate-600">
          This laptop is not listed any more, or the link is mistyped. There are plenty of others to choose
          from.
        </p>
        <Link to="/productcard" className={buttonClasses('primary', 'md', 'mt-6')}>
          Browse all laptops
        </Link>
      </div>
    </>
  )
}

function ProductDetailSkeleton() {
  return (
    <div className="grid gap-8 lg:grid-cols-[1.2fr_1fr]" aria-busy="true">
      <span className="sr-only" role="status">
        Loading laptop
      </span>
      <Skeleton className="aspect-[4/3] rounded-2xl" />
      <div className="space-y-4">
        <Skeleton className="h-6 w-24" />
        <Skeleton className="h-9 w-3/4" />
        <Skeleton className="h-10 w-1/2" />
        <Skeleton className="h-12 w-40" />
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    </div>
  )
}
