import { useState } from 'react'
import { Link } from 'react-router'
import {
  type ListingReview,
  REVIEW_FLAG_TEXT,
  REVIEWED_FIELD_TEXT,
  RejectListingBody,
} from '#contract/listing-reviews'
import { paths } from '#contract/pages'
import { ProductImage } from '../../components/product/product-image'
import { QueryState } from '../../components/query-state'
import { useReasonField } from '../../components/reason-field'
import { Alert } from '../../components/ui/alert'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { ListSkeleton } from '../../components/ui/list-skeleton'
import { PageHeader } from '../../components/ui/page-header'
import { errorMessage } from '../../lib/api-client'
import { formatDate, formatMoney } from '../../lib/format'
import { toast } from '../../lib/toast'
import { BatteryReportFileView } from './battery-report-file'
import { useDecideListingReview, useListingReviews } from './listing-reviews-api'

/**
 * `/dashboard/listing-reviews`: listings waiting for an admin before they appear in search or can be booked (a
 * seller's first listings, serials another seller listed or sold), oldest first: approve, or reject with a reason
 * that is emailed to the seller.
 */
export function ListingReviewsPage() {
  const queue = useListingReviews()
  const decide = useDecideListingReview()
  const [rejecting, setRejecting] = useState<ListingReview | null>(null)
  const [stolen, setStolen] = useState<ListingReview | null>(null)
  const reason = useReasonField(RejectListingBody, { label: 'Reason', rows: 4, maxLength: 2000 })

  function approve(item: ListingReview) {
    decide.mutate(
      { id: item._id, action: 'approve' },
      {
        onSuccess: () => toast.success(`${item.name} is approved and in search`),
        onError: (err) => toast.error(errorMessage(err)),
      },
    )
  }

  function sendRejection() {
    if (!rejecting) return
    const said = reason.check()
    if (said === null) return
    decide.mutate(
      { id: rejecting._id, action: 'reject', reason: said },
      {
        onSuccess: () => {
          toast.success(`${rejecting.name} was rejected; the seller is emailed the reason`)
          setRejecting(null)
          reason.reset()
        },
        onError: (err) => {
          if (!reason.fromServer(err)) toast.error(errorMessage(err))
        },
      },
    )
  }

  function markStolen() {
    if (!stolen) return
    decide.mutate(
      { id: stolen._id, action: 'stolen' },
      {
        onSuccess: () => toast.success(`Serial …${stolen.serial_last4} is marked reported stolen`),
        onError: (err) => toast.error(errorMessage(err)),
        onSettled: () => setStolen(null),
      },
    )
  }

  const counts = queue.data?.counts
  return (
    <>
      <title>Listing reviews · Laptop Market</title>
      <PageHeader title="Listing reviews">
        <p>
          New sellers’ first listings, and listings whose serial number another seller listed or sold, wait
          here before buyers can see or book them.
          {counts ? ` ${counts.pending} waiting, ${counts.flagged} flagged for their serial number.` : ''}
        </p>
      </PageHeader>
      <QueryState
        query={queue}
        errorTitle="Could not load the review queue"
        loading={<ListSkeleton label="Loading the review queue" />}
        empty={
          <Alert title="Nothing to review">
            <p>Listings waiting for review show here.</p>
          </Alert>
        }
        isEmpty={(d) => d.items.length === 0}
      >
        {(data) => (
          <ul className="space-y-4">
            {data.items.map((item) => {
              const isBusy = decide.isPending && decide.variables?.id === item._id
              return (
                <li key={item._id}>
                  <article
                    aria-labelledby={`review-${item._id}`}
                    className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-4 sm:flex-row"
                  >
                    <Link to={paths.product(item._id)} className="shrink-0 self-start">
                      <ProductImage
                        src={item.img}
                        alt={item.name}
                        width={160}
                        height={120}
                        className="aspect-[4/3] w-full rounded-lg bg-slate-100 object-cover sm:w-40"
                      />
                    </Link>
                    <div className="min-w-0 flex-1 space-y-2">
                      <h2 id={`review-${item._id}`} className="font-semibold text-lg text-slate-900">
                        <Link to={paths.product(item._id)} className="hover:text-accent hover:underline">
                          {item.name}
                        </Link>
                      </h2>
                      <p className="flex flex-wrap gap-1.5">
                        {item.review_flags.map((flag) => (
                          <Badge
                            key={flag}
                            tone={flag === 'duplicate_serial' ? 'neutral' : 'muted'}
                            className={flag === 'duplicate_serial' ? 'bg-red-700' : undefined}
                          >
                            {REVIEW_FLAG_TEXT[flag]}
                          </Badge>
                        ))}
                        {item.serial_stolen ? (
                          <Badge tone="neutral" className="bg-red-700">
                            Serial reported stolen
                          </Badge>
                        ) : null}
                      </p>
                      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-slate-700 text-sm sm:grid-cols-2">
                        <div>
                          <dt className="inline font-medium text-slate-900">Seller: </dt>
                          <dd className="inline break-words">
                            {item.seller_name} ({item.seller_email})
                          </dd>
                        </div>
                        <div>
                          <dt className="inline font-medium text-slate-900">Price: </dt>
                          <dd className="inline">
                            {formatMoney(item.resale_price_cents)} · {item.condition}
                          </dd>
                        </div>
                        <div>
                          <dt className="inline font-medium text-slate-900">Serial: </dt>
                          <dd className="inline">
                            {item.serial_last4 ? `ends with ${item.serial_last4}` : 'not given'}
                          </dd>
                        </div>
                        <div>
                          <dt className="inline font-medium text-slate-900">Battery: </dt>
                          <dd className="inline">
                            {item.battery_health_pct === null
                              ? 'not reported'
                              : `${item.battery_health_pct}% ${item.battery_verified ? "(read from the seller's report file)" : '(typed)'}`}
                          </dd>
                        </div>
                        <div>
                          <dt className="inline font-medium text-slate-900">Sent for review: </dt>
                          <dd className="inline">
                            <time dateTime={item.submitted_at}>{formatDate(item.submitted_at)}</time>
                          </dd>
                        </div>
                      </dl>
                      {item.battery_verified ? <BatteryReportFileView productId={item._id} /> : null}
                      {item.changed.length > 0 ? (
                        <p
                          className="rounded-lg bg-amber-50 p-3 text-amber-900 text-sm"
                          data-testid="review-changed"
                        >
                          <span className="font-medium">Changed since it was approved:</span>{' '}
                          {item.changed.map((field) => REVIEWED_FIELD_TEXT[field]).join(', ')}
                        </p>
                      ) : null}
                      {item.same_serial.length > 0 ? (
                        <div className="rounded-lg bg-red-50 p-3 text-red-900 text-sm">
                          <p className="font-medium">The same serial number is on:</p>
                          <ul className="mt-1 list-disc pl-5">
                            {item.same_serial.map((match) => (
                              <li key={match._id}>
                                <Link to={paths.product(match._id)} className="underline">
                                  {match.name}
                                </Link>{' '}
                                by {match.seller_name} ({match.seller_email}),{' '}
                                {match.state === 'sold' && match.sold_on
                                  ? `sold on ${formatDate(match.sold_on)}`
                                  : 'listed'}
                              </li>
                            ))}
                          </ul>
                        </div>
                      ) : null}
                      <div className="flex flex-wrap gap-2 pt-1">
                        <Button
                          size="sm"
                          onClick={() => approve(item)}
                          disabled={isBusy || item.serial_stolen}
                          aria-label={`Approve ${item.name}`}
                        >
                          Approve
                        </Button>
                        <Button
                          size="sm"
                          variant="secondary"
                          onClick={() => {
                            setRejecting(item)
                            reason.clearError()
                          }}
                          disabled={isBusy}
                          aria-label={`Reject ${item.name}`}
                        >
                          Reject…
                        </Button>
                        {item.serial_last4 && !item.serial_stolen ? (
                          <Button
                            size="sm"
                            variant="danger-outline"
                            onClick={() => setStolen(item)}
                            disabled={isBusy}
                            aria-label={`Mark the serial of ${item.name} reported stolen`}
                          >
                            Serial reported stolen…
                          </Button>
                        ) : null}
                      </div>
                    </div>
                  </article>
                </li>
              )
            })}
          </ul>
        )}
      </QueryState>

      {rejecting ? (
        <ConfirmDialog
          title={`Reject ${rejecting.name}?`}
          description={
            <div className="space-y-3">
              <p>
                The seller is emailed your reason as the statement of reasons: say which rule the listing
                breaks and what to change. They can edit it and send it back.
              </p>
              {reason.field}
            </div>
          }
          tone="default"
          confirmLabel="Reject and email the seller"
          isPending={decide.isPending}
          onConfirm={sendRejection}
          onCancel={() => setRejecting(null)}
        />
      ) : null}
      {stolen ? (
        <ConfirmDialog
          title="Mark this serial reported stolen?"
          description={
            <p>
              The serial ending {stolen.serial_last4} can then never be listed again, and every unsold listing
              carrying it leaves the market.
            </p>
          }
          confirmLabel="Mark reported stolen"
          isPending={decide.isPending}
          onConfirm={markStolen}
          onCancel={() => setStolen(null)}
        />
      ) : null}
    </>
  )
}
