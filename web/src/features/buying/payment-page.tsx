import { CircleCheck } from 'lucide-react'
import { lazy, type ReactNode, Suspense, useId, useState } from 'react'
import { Link, useParams, useSearchParams } from 'react-router'
import type { Booking } from '#contract/bookings'
import { ProductImage } from '../../components/product/product-image'
import { LoadFailed } from '../../components/query-state'
import { Badge } from '../../components/ui/badge'
import { buttonClasses } from '../../components/ui/button'
import { Skeleton } from '../../components/ui/skeleton'
import { Spinner } from '../../components/ui/spinner'
import { isApiError } from '../../lib/api-client'
import { formatMoney } from '../../lib/format'
import { type PaymentResult, useBooking, usePaymentConfig } from './bookings-api'
import { amountDueOf, CheckoutDelivery } from './checkout-delivery'
import { PaidWithStage, unhandledStatus } from './deal-stage'
import { PaymentHold } from './payment-hold'
import { TestCardForm, TestModeNotice } from './test-card-form'

// Stripe.js and Elements load only here, and only when the server takes cards through Stripe.
const StripePaymentForm = lazy(() => import('./stripe-payment-form'))

/** `/dashboard/payment/{id}`: pay for one booking by card. */
export function PaymentPage() {
  const { id = '' } = useParams()
  const [searchParams] = useSearchParams()
  // Back from a 3-D Secure check, Stripe adds redirect_status to this page's address.
  const [isConfirming, setIsConfirming] = useState(() => searchParams.get('redirect_status') === 'succeeded')
  const [receipt, setReceipt] = useState<PaymentResult | null>(null)
  const booking = useBooking(id, { pollWhileUnpaid: isConfirming })

  if (booking.isPending) return <PaymentSkeleton />
  if (booking.error) {
    const status = isApiError(booking.error) ? booking.error.status : 0
    if (status === 404 || status === 400) {
      return (
        <PaymentProblem title="Booking not found">
          <p>We have no booking at this address. Your bookings are listed in My Orders.</p>
        </PaymentProblem>
      )
    }
    if (status === 403) {
      return (
        <PaymentProblem title="This booking is not yours">
          <p>Only the buyer who booked a laptop can pay for it.</p>
        </PaymentProblem>
      )
    }
    return (
      <LoadFailed
        title="We could not load this booking"
        error={booking.error}
        onRetry={() => booking.refetch()}
      />
    )
  }

  const b = booking.data
  return (
    <>
      <title>{`Payment for ${b.productName} · Laptop Market`}</title>
      <div className="max-w-xl space-y-6">
        <header className="flex items-center gap-4">
          <ProductImage
            src={b.productImage}
            alt={b.productName}
            width={128}
            height={96}
            className="aspect-[4/3] w-24 shrink-0 rounded-lg bg-slate-100 object-cover sm:w-32"
          />
          <div className="min-w-0 space-y-1">
            <h1 className="font-bold text-2xl text-slate-900 tracking-tight">Payment for {b.productName}</h1>
            <p className="text-lg text-slate-700">
              {b.status === 'unpaid' ? 'Please Pay' : b.paid ? 'Paid' : 'Price'}{' '}
              <strong className="text-slate-900">{formatMoney(amountDueOf(b))}</strong>
            </p>
            {b.status === 'unpaid' && b.price_cents < b.booked_price_cents ? (
              <p className="text-emerald-700 text-sm">
                The seller lowered the price from {formatMoney(b.booked_price_cents)} since you booked it: you
                pay the lower price.
              </p>
            ) : null}
          </div>
        </header>
        {receipt ? (
          <PaymentConfirmation receipt={receipt} shipped={b.delivery?.method === 'ship'} />
        ) : (
          <PaymentState
            booking={b}
            isConfirming={isConfirming}
            onConfirmed={() => setIsConfirming(true)}
            onPaid={setReceipt}
          />
        )}
      </div>
    </>
  )
}

type PaymentStateProps = {
  booking: Booking
  isConfirming: boolean
  onConfirmed: () => void
  onPaid: (receipt: PaymentResult) => void
}

function PaymentState({ booking, isConfirming, onConfirmed, onPaid }: PaymentStateProps) {
  switch (booking.status) {
    case 'shipped':
    case 'handed_over':
    case 'returning':
    case 'completed':
    case 'disputed':
    case 'refunded':
      return (
        <StatusPanel
          badge={<PaidWithStage status={booking.status} method={booking.delivery?.method} />}
          title="You have paid for this laptop"
        >
          <p>Follow the sale in My Orders.</p>
        </StatusPanel>
      )
    case 'paid':
      return (
        <StatusPanel badge={<Badge tone="accent">Paid</Badge>} title="You have paid for this laptop">
          <p>{handoverNext(booking.delivery?.method === 'ship')}</p>
        </StatusPanel>
      )
    case 'sold':
      return (
        <StatusPanel badge={<Badge tone="neutral">Sold</Badge>} title="This laptop has been sold">
          <p>Another buyer paid for it first, so this booking can no longer be paid. Nothing was charged.</p>
        </StatusPanel>
      )
    case 'unavailable':
      return (
        <StatusPanel badge={<Badge tone="muted">Unavailable</Badge>} title="This listing was taken down">
          <p>It can no longer be paid for. Nothing was charged.</p>
        </StatusPanel>
      )
    case 'cancelled':
      return (
        <StatusPanel
          badge={<Badge tone="muted">Cancelled</Badge>}
          title={booking.cancelledByBuyer ? 'You cancelled this booking' : 'This booking was cancelled'}
        >
          <p>
            {!booking.cancelledByBuyer && booking.cancelReason
              ? `It was cancelled because ${booking.cancelReason}. `
              : ''}
            It can no longer be paid for. Nothing was charged.
            {booking.cancelledByBuyer
              ? ' While the laptop is for sale you can book it again from its page.'
              : ''}
          </p>
        </StatusPanel>
      )
    case 'unpaid':
      if (isConfirming) {
        return (
          <div className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-5">
            <Spinner label="Confirming your payment" />
            <p aria-hidden="true" className="text-slate-700">
              Confirming your payment…
            </p>
          </div>
        )
      }
      return (
        <PaymentHold booking={booking}>
          <CheckoutDelivery booking={booking}>
            <CardPayment booking={booking} onConfirmed={onConfirmed} onPaid={onPaid} />
          </CheckoutDelivery>
        </PaymentHold>
      )
    default:
      return unhandledStatus(booking.status)
  }
}

/** What happens once the buyer paid: the seller ships it, or contacts them to hand it over. */
function handoverNext(shipped: boolean) {
  return shipped
    ? 'The seller will ship it to you; follow it in My Orders.'
    : 'The seller will contact you to hand it over.'
}

function CardPayment({
  booking,
  onConfirmed,
  onPaid,
}: Pick<PaymentStateProps, 'booking' | 'onConfirmed' | 'onPaid'>) {
  const config = usePaymentConfig()
  if (config.isPending) return <CardFormSkeleton />
  if (config.error) {
    return (
      <LoadFailed
        title="We could not load the card form"
        error={config.error}
        onRetry={() => config.refetch()}
      />
    )
  }
  return (
    <section
      aria-labelledby="card-heading"
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-5"
    >
      <h2 id="card-heading" className="font-semibold text-lg text-slate-900">
        Card details
      </h2>
      {config.data.mode === 'stripe' && config.data.publishableKey ? (
        <Suspense fallback={<CardFormSkeleton />}>
          <StripePaymentForm
            bookingId={booking._id}
            publishableKey={config.data.publishableKey}
            amountCents={amountDueOf(booking)}
            onConfirmed={onConfirmed}
          />
        </Suspense>
      ) : (
        <>
          <TestModeNotice />
          <TestCardForm bookingId={booking._id} amountCents={amountDueOf(booking)} onPaid={onPaid} />
        </>
      )}
    </section>
  )
}

function PaymentConfirmation({ receipt, shipped }: { receipt: PaymentResult; shipped: boolean }) {
  return (
    <section
      aria-labelledby="confirmation-heading"
      className="space-y-4 rounded-xl border border-accent/30 bg-accent-soft/40 p-5"
    >
      <div className="flex items-center gap-3">
        <CircleCheck aria-hidden="true" className="size-7 shrink-0 text-accent" />
        <h2 id="confirmation-heading" className="font-semibold text-lg text-slate-900">
          Payment successful
        </h2>
        <Badge tone="accent" className="ml-auto">
          Paid
        </Badge>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="font-medium text-slate-700">Amount</dt>
        <dd className="font-semibold text-slate-900">{formatMoney(receipt.amount_cents)}</dd>
        <dt className="font-medium text-slate-700">Transaction id</dt>
        <dd className="break-all font-mono text-slate-900">{receipt.transactionId}</dd>
      </dl>
      <p className="text-slate-700 text-sm">The laptop is yours. {handoverNext(shipped)}</p>
      <Link to="/dashboard/myorders" className={buttonClasses('secondary')}>
        Back to My Orders
      </Link>
    </section>
  )
}

function StatusPanel({ badge, title, children }: { badge: ReactNode; title: string; children: ReactNode }) {
  const titleId = useId()
  return (
    <section
      aria-labelledby={titleId}
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 text-slate-700"
    >
      <div className="flex flex-wrap items-center gap-3">
        {badge}
        <h2 id={titleId} className="font-semibold text-lg text-slate-900">
          {title}
        </h2>
      </div>
      {children}
      <Link to="/dashboard/myorders" className={buttonClasses('secondary')}>
        Back to My Orders
      </Link>
    </section>
  )
}

function PaymentProblem({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <title>{`${title} · Laptop Market`}</title>
      <div className="mx-auto max-w-lg py-12 text-center">
        <h1 className="font-bold text-3xl text-slate-900">{title}</h1>
        <div className="mt-3 text-slate-600">{children}</div>
        <Link to="/dashboard/myorders" className={buttonClasses('primary', 'md', 'mt-6')}>
          Go to My Orders
        </Link>
      </div>
    </>
  )
}

function CardFormSkeleton() {
  return (
    <div className="space-y-4 rounded-xl border border-slate-200 bg-white p-5" aria-busy="true">
      <span className="sr-only" role="status">
        Loading the card form
      </span>
      <Skeleton className="h-6 w-32" />
      <Skeleton className="h-11 w-full" />
      <div className="grid grid-cols-2 gap-4">
        <Skeleton className="h-11" />
        <Skeleton className="h-11" />
      </div>
      <Skeleton className="h-12 w-full" />
    </div>
  )
}

function PaymentSkeleton() {
  return (
    <div className="max-w-xl space-y-6" aria-busy="true">
      <span className="sr-only" role="status">
        Loading your booking
      </span>
      <div className="flex items-center gap-4">
        <Skeleton className="aspect-[4/3] w-24 sm:w-32" />
        <div className="flex-1 space-y-2">
          <Skeleton className="h-7 w-3/4" />
          <Skeleton className="h-6 w-1/3" />
        </div>
      </div>
      <CardFormSkeleton />
    </div>
  )
}
