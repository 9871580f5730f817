import { Link } from 'react-router'
import type { Booking } from '#contract/bookings'
import { paths } from '#contract/pages'
import { ProductImage } from '../../components/product/product-image'
import { QueryState } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { Badge } from '../../components/ui/badge'
import { buttonClasses } from '../../components/ui/button'
import { type Column, DataTable } from '../../components/ui/data-table'
import { PageHeader } from '../../components/ui/page-header'
import { LoadMore } from '../../components/ui/pagination'
import { Skeleton } from '../../components/ui/skeleton'
import { formatMoney } from '../../lib/format'
import { allItems } from '../../lib/paged-list'
import { useSession } from '../auth'
import { OrderMessagesLink } from '../messages'
import { OfferList, useOffers } from '../offers'
import { SaleReview } from '../sellers'
import { useMyBookings } from './bookings-api'
import { CancelBookingButton } from './cancel-booking-button'
import { BuyerDealActions } from './deal-actions'
import { PaidWithStage, unhandledStatus } from './deal-stage'

/**
 * `/dashboard/myorders`: the signed-in buyer's bookings, with Pay and Cancel booking for the ones still payable,
 * and for paid ones the stage of the deal and the next step.
 */
export function MyOrdersPage() {
  const { user } = useSession()
  const bookings = useMyBookings(user?.email)

  return (
    <>
      <title>My Orders · Laptop Market</title>
      <PageHeader title="My Orders">
        <p>The laptops you booked. Pay for one to make it yours: the first buyer to pay gets it.</p>
      </PageHeader>
      <QueryState
        query={bookings}
        errorTitle="We could not load your orders"
        loading={<OrdersSkeleton />}
        isEmpty={(data) => allItems(data)?.length === 0}
        empty={
          <Alert title="You have not booked any laptops yet">
            <p>Book a laptop and it shows here, ready to pay.</p>
            <Link to={paths.browse()} className={buttonClasses('secondary')}>
              Browse all laptops
            </Link>
          </Alert>
        }
      >
        {(data) => {
          const items = allItems(data) ?? []
          return (
            <>
              <OrdersTable bookings={items} />
              <LoadMore
                shown={items.length}
                total={data.pages.at(-1)?.total}
                noun="booking"
                hasMore={bookings.hasNextPage}
                isLoading={bookings.isFetchingNextPage}
                onLoadMore={() => bookings.fetchNextPage()}
              />
            </>
          )
        }}
      </QueryState>
      <MyOffers enabled={Boolean(user)} />
    </>
  )
}

/** The offers the buyer made, with their states (open, accepted and waiting to be paid, declined…). */
function MyOffers({ enabled }: { enabled: boolean }) {
  const offers = useOffers('buyer', undefined, enabled)
  if (!offers.data || offers.data.length === 0) return null
  return (
    <section aria-labelledby="my-offers" className="mt-10 space-y-3">
      <h2 id="my-offers" className="font-semibold text-2xl text-slate-900">
        Your offers
      </h2>
      <OfferList offers={offers.data} />
    </section>
  )
}

const ORDER_COLUMNS: Column<Booking>[] = [
  {
    key: 'image',
    header: 'Image',
    card: 'media',
    cell: (booking) => (
      <ProductImage
        src={booking.productImage}
        alt={booking.productName}
        width={80}
        height={60}
        loading="lazy"
        className="aspect-[4/3] w-20 rounded-md bg-slate-100 object-cover"
      />
    ),
  },
  {
    key: 'title',
    header: 'Title',
    card: 'title',
    cell: (booking) => (
      <Link to={paths.product(booking.productId)} className="hover:text-accent hover:underline">
        {booking.productName}
      </Link>
    ),
  },
  {
    key: 'price',
    header: 'Price',
    className: 'whitespace-nowrap font-semibold text-slate-900',
    cell: (booking) => formatMoney(booking.price_cents),
  },
  {
    key: 'messages',
    header: 'Messages',
    // On a phone card the link is its own label: "Messages: Messages 1" said it twice.
    card: 'actions',
    cell: (booking) => (
      <OrderMessagesLink bookingId={booking._id} productName={booking.productName} isPaid={booking.paid} />
    ),
  },
  {
    key: 'payment',
    header: 'Payment',
    card: 'actions',
    cell: (booking) => <PaymentCell booking={booking} />,
  },
]

function OrdersTable({ bookings }: { bookings: Booking[] }) {
  return (
    <DataTable
      caption="Your bookings"
      rows={bookings}
      rowKey={(booking) => booking._id}
      columns={ORDER_COLUMNS}
      rowTestId="order-row"
    />
  )
}

function PaymentCell({ booking }: { booking: Booking }) {
  switch (booking.status) {
    case 'unpaid':
      return (
        <span className="flex flex-wrap gap-2">
          <Link to={paths.payment(booking._id)} className={buttonClasses('primary', 'sm')}>
            Pay<span className="sr-only"> for {booking.productName}</span>
          </Link>
          <CancelBookingButton booking={booking} />
        </span>
      )
    case 'paid':
    case 'shipped':
    case 'handed_over':
    case 'returning':
    case 'completed':
    case 'disputed':
    case 'refunded':
      return (
        <div>
          <PaidWithStage status={booking.status} method={booking.delivery?.method} />
          <BuyerDealActions booking={booking} />
          {booking.status === 'completed' ? <SaleReview bookingId={booking._id} otherSide="seller" /> : null}
        </div>
      )
    case 'sold':
      return (
        <span className="space-y-1">
          <Badge tone="neutral">Sold</Badge>
          <span className="block text-slate-600 text-xs">Another buyer paid first.</span>
        </span>
      )
    case 'unavailable':
      return (
        <span className="space-y-1">
          <Badge tone="muted">Unavailable</Badge>
          <span className="block text-slate-600 text-xs">This listing was taken down.</span>
        </span>
      )
    case 'cancelled':
      return (
        <span className="space-y-1">
          <Badge tone="muted">Cancelled</Badge>
          <span className="block text-slate-600 text-xs">
            {booking.cancelledByBuyer
              ? 'You cancelled this booking.'
              : booking.cancelReason
                ? `Cancelled: ${booking.cancelReason}.`
                : 'This booking was cancelled.'}{' '}
            Nothing was charged.
          </span>
        </span>
      )
    default:
      return unhandledStatus(booking.status)
  }
}

function OrdersSkeleton() {
  return (
    <div className="space-y-3 rounded-xl border border-slate-200 bg-white p-4" aria-busy="true">
      <span className="sr-only" role="status">
        Loading your orders
      </span>
      {Array.from({ length: 3 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <div key={i} className="flex items-center gap-4">
          <Skeleton className="aspect-[4/3] w-14 sm:w-20" />
          <Skeleton className="h-5 flex-1" />
          <Skeleton className="h-5 w-16" />
          <Skeleton className="h-9 w-16" />
        </div>
      ))}
    </div>
  )
}
