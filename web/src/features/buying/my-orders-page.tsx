import { Link } from 'react-router'
import type { Booking } from '#contract/bookings'
import { Alert } from '../../components/ui/alert'
import { Badge } from '../../components/ui/badge'
import { Button, buttonClasses } from '../../components/ui/button'
import { PageHeader } from '../../components/ui/page-header'
import { Skeleton } from '../../components/ui/skeleton'
import { formatMoney } from '../../lib/format'
import { useSession } from '../auth/use-session'
import { ProductImage } from '../products/product-image'
import { useMyBookings } from './bookings-api'

/** `/dashboard/myorders`: the signed-in buyer's bookings, with Pay for the ones still payable. */
export function MyOrdersPage() {
  const { user } = useSession()
  const bookings = useMyBookings(user?.email)

  return (
    <>
      <title>My Orders · Laptop Market</title>
      <PageHeader title="My Orders">
        <p>The laptops you booked. Pay for one to make it yours: the first buyer to pay gets it.</p>
      </PageHeader>
      {bookings.isPending ? (
        <OrdersSkeleton />
      ) : bookings.error ? (
        <Alert tone="error" title="We could not load your orders">
          <p>{bookings.error.message}</p>
          <Button variant="secondary" onClick={() => bookings.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : bookings.data.length === 0 ? (
        <Alert title="You have not booked any laptops yet">
          <p>Book a laptop and it shows here, ready to pay.</p>
          <Link to="/productcard" className={buttonClasses('secondary')}>
            Browse all laptops
          </Link>
        </Alert>
      ) : (
        <OrdersTable bookings={bookings.data} />
      )}
    </>
  )
}

function OrdersTable({ bookings }: { bookings: Booking[] }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Your bookings</caption>
        <thead className="border-slate-200 border-b bg-slate-50 text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-3 font-semibold sm:px-4">
              Image
            </th>
            <th scope="col" className="px-3 py-3 font-semibold sm:px-4">
              Title
            </th>
            <th scope="col" className="px-3 py-3 font-semibold sm:px-4">
              Price
            </th>
            <th scope="col" className="px-3 py-3 font-semibold sm:px-4">
              Payment
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {bookings.map((booking) => (
            <tr key={booking._id} data-testid="order-row">
              <td className="px-3 py-3 sm:px-4">
                <ProductImage
                  src={booking.productImage}
                  alt={booking.productName}
                  width={80}
                  height={60}
                  loading="lazy"
                  className="aspect-[4/3] w-14 rounded-md bg-slate-100 object-cover sm:w-20"
                />
              </td>
              <th scope="row" className="px-3 py-3 font-medium text-slate-900 sm:px-4">
                <Link to={`/products/${booking.productId}`} className="hover:text-accent hover:underline">
                  {booking.productName}
                </Link>
              </th>
              <td className="whitespace-nowrap px-3 py-3 font-semibold text-slate-900 sm:px-4">
                {formatMoney(booking.price_cents)}
              </td>
              <td className="px-3 py-3 sm:px-4">
                <PaymentCell booking={booking} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function PaymentCell({ booking }: { booking: Booking }) {
  switch (booking.status) {
    case 'unpaid':
      return (
        <Link to={`/dashboard/payment/${booking._id}`} className={buttonClasses('primary', 'sm')}>
          Pay<span className="sr-only"> for {booking.productName}</span>
        </Link>
      )
    case 'paid':
      return <Badge tone="accent">Paid</Badge>
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
