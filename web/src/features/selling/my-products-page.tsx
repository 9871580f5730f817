import {
  CalendarDays,
  HandCoins,
  Heart,
  Megaphone,
  PackageCheck,
  PackagePlus,
  Pencil,
  RefreshCw,
  Trash2,
} from 'lucide-react'
import { useId, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { DELETE_BLOCKED, isOpenSale } from '#contract/bookings'
import { paths } from '#contract/pages'
import {
  canRenewSoon,
  type Product,
  SELLER_LISTING_STATE_LABELS,
  SELLER_LISTING_STATES,
  type SellerListingCounts,
  type SellerListingState,
} from '#contract/products'
import { SaleMoneyLine } from '../../components/money/seller-money'
import { ProductImage } from '../../components/product/product-image'
import { ProductPrice } from '../../components/product/product-price'
import { SaleStatusBadge } from '../../components/product/product-status'
import { QueryState } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { Badge } from '../../components/ui/badge'
import { Button, buttonClasses } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { PageHeader } from '../../components/ui/page-header'
import { LoadMore } from '../../components/ui/pagination'
import { Skeleton } from '../../components/ui/skeleton'
import { errorMessage } from '../../lib/api-client'
import { formatDate } from '../../lib/format'
import { allItems } from '../../lib/paged-list'
import { toast } from '../../lib/toast'
import { useSession } from '../auth'
import { SellerDealActions, StageBadge } from '../buying'
import { ProductMessagesLinks } from '../messages'
import { SaleReview } from '../sellers'
import {
  useAdvertiseProduct,
  useDeleteProduct,
  useMarkProductSold,
  useRenewProduct,
  useSellerListingCounts,
  useSellerProducts,
} from './selling-api'

type PendingQuestion = { kind: 'delete' | 'sold'; product: Product }

type Tab = SellerListingState | 'all'
const TABS: Tab[] = [...SELLER_LISTING_STATES, 'all']
const tabLabel = (tab: Tab) => (tab === 'all' ? 'All' : SELLER_LISTING_STATE_LABELS[tab])
const isTab = (value: string | null): value is Tab => value !== null && (TABS as string[]).includes(value)

/**
 * `/dashboard/myproduct`: the seller's listings with their status and what can be done with each, in tabs by where
 * each stands (`?state=`, linkable), with their counts. Without a tab chosen it opens on what needs the seller
 * (a sale to hand over) when there is any, else on all. `?product=` shows one listing: a sale's email links there.
 */
export function MyProductsPage() {
  const { user } = useSession()
  const [params] = useSearchParams()
  const only = params.get('product') ?? undefined
  const asked = params.get('state')
  const counts = useSellerListingCounts(user?.email)
  const tab: Tab | undefined = isTab(asked)
    ? asked
    : counts.data
      ? counts.data.needs_action > 0
        ? 'needs_action'
        : 'all'
      : counts.isError
        ? 'all'
        : undefined
  const products = useSellerProducts(
    user?.email,
    only ? { product: only } : tab && tab !== 'all' ? { state: tab } : {},
    Boolean(only) || tab !== undefined,
  )
  const advertise = useAdvertiseProduct()
  const markSold = useMarkProductSold()
  const remove = useDeleteProduct()
  const renew = useRenewProduct()
  const [question, setQuestion] = useState<PendingQuestion | null>(null)

  function advertiseProduct(product: Product) {
    advertise.mutate(product._id, {
      onSuccess: () => toast.success('Product Advertise Success'),
      onError: (err) => toast.error(errorMessage(err)),
    })
  }

  function renewProduct(product: Product) {
    renew.mutate(product._id, {
      onSuccess: () =>
        toast.success(product.expired ? 'Listing renewed: it is back in search' : 'Listing renewed'),
      onError: (err) => toast.error(errorMessage(err)),
    })
  }

  function answerQuestion() {
    if (!question) return
    const { kind, product } = question
    const mutation = kind === 'delete' ? remove : markSold
    mutation.mutate(product._id, {
      onSuccess: () => {
        toast.success(kind === 'delete' ? 'Product deleted Successfully' : 'Product marked as sold')
        setQuestion(null)
      },
      onError: (err) => {
        toast.error(errorMessage(err))
        setQuestion(null)
      },
    })
  }

  return (
    <>
      <title>My Product · Laptop Market</title>
      <PageHeader title="My Product">
        <p>Your laptops for sale and sold. Advertise one to put it on the home page.</p>
      </PageHeader>

      {only ? (
        <p className="mb-4 text-slate-700 text-sm">
          Showing one listing and its sale.{' '}
          <Link to={paths.myProduct()} className="font-medium text-accent underline">
            Show all your listings
          </Link>
        </p>
      ) : (
        <StateTabs current={tab} counts={counts.data} />
      )}

      <QueryState
        query={products}
        errorTitle="We could not load your products"
        isEmpty={(data) => allItems(data)?.length === 0 && (counts.data?.all ?? 0) === 0}
        loading={
          <ul className="space-y-3" aria-busy="true" aria-label="Loading your products">
            {[0, 1, 2].map((n) => (
              <li key={n} className="flex gap-4 rounded-xl border border-slate-200 bg-white p-3">
                <Skeleton className="aspect-[4/3] w-28 shrink-0" />
                <div className="flex-1 space-y-2">
                  <Skeleton className="h-5 w-2/3" />
                  <Skeleton className="h-6 w-24" />
                  <Skeleton className="h-4 w-1/3" />
                </div>
              </li>
            ))}
          </ul>
        }
        empty={
          <Alert title="You have not listed any laptops yet">
            <p>Add your first laptop with a few photos: it takes a couple of minutes.</p>
            <Link to={paths.addProduct()} className={buttonClasses('primary', 'md')}>
              <PackagePlus aria-hidden="true" className="size-4" />
              Add a Product
            </Link>
          </Alert>
        }
      >
        {(data) => {
          const items = allItems(data) ?? []
          if (items.length === 0) {
            return (
              <Alert title={`Nothing in ${tab ? tabLabel(tab) : 'this list'}`}>
                <p>None of your listings is here now. The other tabs show the rest.</p>
              </Alert>
            )
          }
          return (
            <>
              <ul className="space-y-3" aria-label="Your products">
                {items.map((product) => (
                  <ProductRow
                    key={product._id}
                    product={product}
                    isAdvertising={advertise.isPending && advertise.variables === product._id}
                    onAdvertise={() => advertiseProduct(product)}
                    isRenewing={renew.isPending && renew.variables === product._id}
                    onRenew={() => renewProduct(product)}
                    onMarkSold={() => setQuestion({ kind: 'sold', product })}
                    onDelete={() => setQuestion({ kind: 'delete', product })}
                  />
                ))}
              </ul>
              <LoadMore
                shown={items.length}
                total={data.pages.at(-1)?.total}
                noun="product"
                hasMore={products.hasNextPage}
                isLoading={products.isFetchingNextPage}
                onLoadMore={() => products.fetchNextPage()}
              />
            </>
          )
        }}
      </QueryState>

      {question?.kind === 'delete' ? (
        <ConfirmDialog
          title="Are you sure you want to delete?"
          description={<p>{question.product.name} will be taken off Laptop Market. This cannot be undone.</p>}
          isPending={remove.isPending}
          onConfirm={answerQuestion}
          onCancel={() => setQuestion(null)}
        />
      ) : null}
      {question?.kind === 'sold' ? (
        <ConfirmDialog
          title="Mark this laptop as sold?"
          description={
            <p>
              {question.product.name} will show as Sold, leave the advertised list and can no longer be
              booked. This cannot be undone.
            </p>
          }
          tone="default"
          confirmLabel="Mark sold"
          isPending={markSold.isPending}
          onConfirm={answerQuestion}
          onCancel={() => setQuestion(null)}
        />
      ) : null}
    </>
  )
}

/** The tabs by state, each a link (so a tab can be shared or bookmarked) with its count; what needs the seller first. */
function StateTabs({
  current,
  counts,
}: {
  current: Tab | undefined
  counts: SellerListingCounts | undefined
}) {
  return (
    <nav aria-label="Your listings by state" className="mb-4">
      <ul className="flex flex-wrap gap-1.5">
        {TABS.map((tab) => {
          const n = counts?.[tab]
          const active = tab === current
          const urgent = tab === 'needs_action' && (n ?? 0) > 0
          return (
            <li key={tab}>
              <Link
                to={paths.myProduct({ state: tab })}
                aria-current={active ? 'page' : undefined}
                className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1.5 font-medium text-sm ${
                  active
                    ? 'border-accent bg-accent text-white'
                    : urgent
                      ? 'border-amber-300 bg-amber-50 text-amber-900 hover:bg-amber-100'
                      : 'border-slate-200 bg-white text-slate-700 hover:bg-slate-50'
                }`}
              >
                {tabLabel(tab)}
                {n !== undefined ? (
                  <span
                    className={`rounded-full px-1.5 text-xs tabular-nums ${active ? 'bg-white/20' : 'bg-slate-100'}`}
                  >
                    <span className="sr-only">: </span>
                    {n}
                  </span>
                ) : null}
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

type ProductRowProps = {
  product: Product
  isAdvertising: boolean
  onAdvertise: () => void
  isRenewing: boolean
  onRenew: () => void
  onMarkSold: () => void
  onDelete: () => void
}

function ProductRow({
  product,
  isAdvertising,
  onAdvertise,
  isRenewing,
  onRenew,
  onMarkSold,
  onDelete,
}: ProductRowProps) {
  const isSold = product.sellStatus
  const isLive = product.review_state === undefined || product.review_state === 'approved'
  const name = <span className="sr-only"> {product.name}</span>
  const blockedId = useId()
  // A paid sale that is not finished keeps its listing: the server refuses the delete with the same words.
  const deleteBlocked =
    product.sale && isOpenSale(product.sale.status) ? DELETE_BLOCKED[product.sale.status] : null
  return (
    <li
      data-testid="my-product"
      className="grid grid-cols-[6rem_1fr] gap-x-4 gap-y-3 rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:grid-cols-[8rem_1fr] lg:grid-cols-[8rem_1fr_auto] lg:items-center"
    >
      <div className="aspect-[4/3] overflow-hidden rounded-lg bg-slate-100">
        <ProductImage
          src={product.images[0]?.card ?? product.img}
          alt={product.name}
          width={160}
          height={120}
          loading="lazy"
          className="size-full object-cover"
        />
      </div>

      <div className="min-w-0 space-y-1">
        <h2 className="font-semibold text-base text-slate-900 leading-snug">
          <Link to={paths.product(product._id)} className="hover:text-accent hover:underline">
            {product.name}
          </Link>
        </h2>
        {product.sale_money ? (
          <SaleMoneyLine sale={product.sale_money} />
        ) : (
          <ProductPrice product={product} size="md" />
        )}
        <div className="flex flex-wrap items-center gap-2 text-slate-600 text-sm">
          <span className="sr-only">Status: </span>
          <SaleStatusBadge isSold={isSold} isExpired={product.expired} reviewState={product.review_state} />
          {product.sale ? (
            <StageBadge status={product.sale.status} method={product.sale.delivery?.method} />
          ) : null}
          {/* Only a live listing is on the home page: one waiting for review goes there once approved. */}
          {product.advertise && !isSold && !product.expired && isLive ? (
            <Badge tone="outline">On the home page</Badge>
          ) : null}
          <span className="inline-flex items-center gap-1">
            <CalendarDays aria-hidden="true" className="size-4" />
            Posted <time dateTime={product.postedOn}>{formatDate(product.postedOn)}</time>
          </span>
          {product.saved_count !== undefined ? (
            <span className="inline-flex items-center gap-1" data-testid="saved-count">
              <Heart aria-hidden="true" className="size-4" />
              {product.saved_count === 1 ? 'Saved by 1 person' : `Saved by ${product.saved_count} people`}
            </span>
          ) : null}
        </div>
        {product.review_state === 'pending' ? (
          <p className="text-slate-600 text-sm">
            An admin checks it before buyers can see or book it; you are emailed if anything must change.
          </p>
        ) : null}
        {product.review_state === 'rejected' && product.review_reason ? (
          <p className="text-red-800 text-sm" data-testid="review-reason">
            Why: {product.review_reason} Edit the listing to send it back for review.
          </p>
        ) : null}
        {product.offers_waiting ? (
          <Link
            to={`${paths.offers()}?role=seller&productId=${encodeURIComponent(product._id)}`}
            data-testid="offers-waiting"
            className="inline-flex min-h-11 items-center gap-1 font-medium text-accent text-sm hover:underline"
          >
            <HandCoins aria-hidden="true" className="size-4" />
            {product.offers_waiting === 1 ? '1 offer waits' : `${product.offers_waiting} offers wait`} for
            your answer
            <span className="sr-only"> on {product.name}</span>
          </Link>
        ) : null}
        {product.sale ? <SellerDealActions sale={product.sale} productName={product.name} /> : null}
        <ProductMessagesLinks
          productId={product._id}
          productName={product.name}
          saleBookingId={product.sale?._id}
        />
        {product.sale?.status === 'completed' ? (
          <SaleReview bookingId={product.sale._id} otherSide="buyer" />
        ) : null}
      </div>

      <div className="col-span-2 flex flex-wrap gap-2 lg:col-span-1 lg:max-w-sm lg:justify-end">
        {isSold ? null : (
          <>
            {canRenewSoon(product) ? (
              <Button
                size="sm"
                variant={product.expired ? 'primary' : 'secondary'}
                disabled={isRenewing}
                onClick={onRenew}
              >
                <RefreshCw aria-hidden="true" className="size-4" />
                {isRenewing ? 'Renewing…' : 'Renew'}
                {name}
              </Button>
            ) : null}
            <Button
              size="sm"
              variant={product.advertise ? 'secondary' : 'primary'}
              disabled={product.advertise || isAdvertising}
              onClick={onAdvertise}
            >
              <Megaphone aria-hidden="true" className="size-4" />
              {product.advertise ? 'Advertised' : isAdvertising ? 'Advertising…' : 'Advertise'}
              {name}
            </Button>
            <Link to={paths.editProduct(product._id)} className={buttonClasses('secondary', 'sm')}>
              <Pencil aria-hidden="true" className="size-4" />
              Edit
              {name}
            </Link>
            <Button size="sm" variant="secondary" onClick={onMarkSold}>
              <PackageCheck aria-hidden="true" className="size-4" />
              Mark sold
              {name}
            </Button>
          </>
        )}
        <Button
          size="sm"
          variant="danger-outline"
          onClick={onDelete}
          disabled={deleteBlocked !== null}
          aria-describedby={deleteBlocked ? blockedId : undefined}
        >
          <Trash2 aria-hidden="true" className="size-4" />
          Delete
          {name}
        </Button>
        {deleteBlocked ? (
          <p
            id={blockedId}
            className="w-full text-slate-600 text-xs lg:text-right"
            data-testid="delete-blocked"
          >
            {deleteBlocked}
          </p>
        ) : null}
      </div>
    </li>
  )
}
