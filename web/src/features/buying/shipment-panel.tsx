import { ExternalLink, FileText, FlaskConical, Truck } from 'lucide-react'
import type { Booking } from '#contract/bookings'
import { PARCEL_STATUS_LABELS, type SaleParcel } from '#contract/delivery'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { errorMessage } from '../../lib/api-client'
import { formatDate, formatMoney } from '../../lib/format'
import { toast } from '../../lib/toast'
import { useBuyShippingLabel } from './bookings-api'

// A shipped sale on the deal (My Orders, My Product, the conversation): the seller's "Buy shipping label" while
// paid, with the date to ship by and the buyer's address; then the label to print (seller), the carrier, the
// tracking number linking to the carrier's page, and each tracking step with its time. docs/decisions/0084.

/** A step's time as "Nov 28, 7:14 PM UTC": the same for every reader and in every test run. */
const stepTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
})
function formatStepTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? '' : stepTime.format(date)
}

const statusLabel = (status: string) => PARCEL_STATUS_LABELS[status] ?? status.replace(/_/g, ' ')

export function TestModeBadge() {
  return (
    <Badge tone="warning">
      <FlaskConical aria-hidden="true" className="size-3.5" />
      Test mode
    </Badge>
  )
}

/** The parcel: carrier, tracking number (a link to the carrier's page), the label for the seller, every step. */
export function ParcelTracking({ parcel, side }: { parcel: SaleParcel; side: 'buyer' | 'seller' }) {
  const steps = [...parcel.events].reverse()
  return (
    <div className="space-y-2" data-testid="parcel-tracking">
      <p className="flex flex-wrap items-center gap-2 text-slate-900 text-sm">
        <Truck aria-hidden="true" className="size-4 text-slate-600" />
        <span className="font-medium">
          {parcel.carrier} {parcel.service}
        </span>
        <Badge tone="outline">{statusLabel(parcel.status)}</Badge>
        {parcel.test_mode ? <TestModeBadge /> : null}
      </p>
      <p className="text-slate-700 text-sm">
        Tracking number{' '}
        {parcel.tracking_url ? (
          <a
            href={parcel.tracking_url}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 break-all font-mono font-semibold text-accent underline-offset-2 hover:underline"
          >
            {parcel.tracking_code}
            <ExternalLink aria-hidden="true" className="size-3.5 shrink-0" />
            <span className="sr-only"> (the carrier’s tracking page, opens in a new tab)</span>
          </a>
        ) : (
          <span className="break-all font-mono font-semibold">{parcel.tracking_code}</span>
        )}
      </p>
      {side === 'seller' && parcel.label_url ? (
        <p>
          <a
            href={parcel.label_url}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex min-h-11 items-center gap-1.5 font-medium text-accent text-sm underline-offset-2 hover:underline"
          >
            <FileText aria-hidden="true" className="size-4" />
            Print the shipping label (PDF)
          </a>
        </p>
      ) : null}
      {parcel.test_mode ? (
        <p className="max-w-md text-slate-600 text-xs">
          Sent through the built-in test carrier: nothing really travels, and the tracking moves by itself.
        </p>
      ) : null}
      {steps.length > 0 ? (
        <ol aria-label="Tracking" className="max-w-md space-y-1.5 border-slate-200 border-l-2 pl-3">
          {steps.map((step) => (
            <li key={`${step.status}-${step.at}`} className="text-sm">
              <span className="font-medium text-slate-900">{statusLabel(step.status)}</span>
              {step.message ? <span className="text-slate-700"> · {step.message}</span> : null}
              <time dateTime={step.at} className="block text-slate-600 text-xs">
                {formatStepTime(step.at)}
              </time>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  )
}

/** The buyer's delivery address (the label carries it; shown so the seller can check it). */
function AddressLines({ address }: { address: NonNullable<NonNullable<Booking['delivery']>['address']> }) {
  return (
    <address className="text-slate-700 text-sm not-italic">
      {address.name}
      <br />
      {address.street1}
      {address.street2 ? (
        <>
          <br />
          {address.street2}
        </>
      ) : null}
      <br />
      {address.city}, {address.state} {address.zip}
    </address>
  )
}

/** A shipped sale's shipping on the deal, for its buyer or seller; nothing for a met one or before payment. */
export function ShipmentPanel({ booking, side }: { booking: Booking; side: 'buyer' | 'seller' }) {
  const buyLabel = useBuyShippingLabel()
  const delivery = booking.delivery
  if (delivery?.method !== 'ship' || !booking.paid) return null
  const parcel = booking.parcel ?? null
  const waiting = booking.status === 'paid' && !parcel

  function buy() {
    buyLabel.mutate(booking._id, {
      onSuccess: ({ parcel: bought }) =>
        toast.success(`Label bought. Print it and hand the parcel to ${bought.carrier}.`),
      onError: (err) => toast.error(errorMessage(err)),
    })
  }

  return (
    <section
      aria-label={`Shipping of ${booking.productName}`}
      className="mt-2 max-w-md space-y-2 rounded-lg border border-slate-200 bg-slate-50 p-3"
    >
      <h3 className="font-semibold text-slate-900 text-sm">Shipping</h3>
      {delivery.rate ? (
        <p className="text-slate-700 text-sm">
          {parcel ? '' : `${delivery.rate.carrier} ${delivery.rate.service} · `}
          {formatMoney(delivery.shipping_cents)}
          {side === 'buyer' ? ' paid for shipping' : ' paid by the buyer for the label'}
        </p>
      ) : null}
      {side === 'seller' && delivery.address ? (
        <div>
          <p className="text-slate-600 text-xs">Ship to</p>
          <AddressLines address={delivery.address} />
        </div>
      ) : null}
      {waiting && delivery.ship_by ? (
        <p className="text-slate-700 text-sm">
          {side === 'seller'
            ? `Ship by ${formatDate(delivery.ship_by)}, or the sale is cancelled and the buyer refunded.`
            : `The seller ships it by ${formatDate(delivery.ship_by)}.`}
        </p>
      ) : null}
      {waiting && side === 'seller' ? (
        <Button size="sm" onClick={buy} disabled={buyLabel.isPending}>
          {buyLabel.isPending ? 'Buying the label…' : 'Buy shipping label'}
          <span className="sr-only"> for {booking.productName}</span>
        </Button>
      ) : null}
      {parcel ? <ParcelTracking parcel={parcel} side={side} /> : null}
    </section>
  )
}
