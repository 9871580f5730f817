import { useState } from 'react'
import { Link } from 'react-router'
import type { BookingEvent, Dispute } from '#contract/bookings'
import { checkLabel, HANDOVER_CHECKS } from '#contract/handover'
import { paths } from '#contract/pages'
import { ProductImage } from '../../components/product/product-image'
import { QueryState } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { ListSkeleton } from '../../components/ui/list-skeleton'
import { PageHeader } from '../../components/ui/page-header'
import { errorMessage } from '../../lib/api-client'
import { formatDate, formatMoney, formatTime } from '../../lib/format'
import { toast } from '../../lib/toast'
import { StageBadge } from '../buying'
import { ConversationTranscript } from '../messages'
import { type DisputeAction, useOpenDisputes, useResolveDispute } from './disputes-api'
import { buyerHasLaptop, RefundChoiceField, useRefundChoice } from './refund-choice'
import { useRefundReason } from './refund-reason'
import { useReturnFirst } from './returns-api'

/** How each step of a sale reads in its history. */
const EVENT_WORDS: Record<BookingEvent['kind'], string> = {
  paid: 'Paid',
  handed_over: 'Marked handed over',
  received: 'Confirmed received, as described',
  auto_completed: 'Completed by itself after the handover',
  problem_reported: 'Reported a problem',
  refunded: 'Refunded the buyer',
  released: 'Released the sale to the seller',
  cancelled: 'Cancelled the sale, refunding the buyer',
  frozen: 'Held for an admin: the serial number was reported stolen',
  booked_again: 'Booked again',
  shipped: 'Bought the shipping label: shipped',
  ship_late: 'Not shipped in time: cancelled, refunding the buyer',
  delivered: 'Delivered by the carrier',
  parcel_lost: 'Held for an admin: the carrier could not deliver the parcel',
  return_opened: 'Asked to return it: not as described',
  return_first: 'Asked for the laptop back before a refund',
  return_refused: 'Refused the return: the sale completed',
  return_refunded: 'Confirmed the laptop came back as sent: the buyer was refunded',
  return_disputed: 'Said the laptop came back otherwise',
}

type Question = { dispute: Dispute; action: DisputeAction }

/**
 * `/dashboard/disputes`: problems buyers reported with a paid sale, newest first. The admin reads the
 * sale, both sides and its history, then refunds the buyer or releases the sale to the seller.
 */
export function DisputesPage() {
  const disputes = useOpenDisputes()
  const resolve = useResolveDispute()
  const [question, setQuestion] = useState<Question | null>(null)
  const refundReason = useRefundReason()
  const refundChoice = useRefundChoice()
  const returnFirst = useReturnFirst()

  function answer() {
    if (!question) return
    const { dispute, action } = question
    const reason = action === 'refund' ? refundReason.check() : undefined
    if (reason === null) return
    if (action === 'refund' && reason && refundChoice.choice === 'return_first' && buyerHasLaptop(dispute)) {
      returnFirst.mutate(
        { disputeId: dispute._id, reason },
        {
          onSuccess: () => {
            toast.success(`${dispute.booking.productName} comes back first: the return is accepted`)
            setQuestion(null)
            refundReason.reset()
            refundChoice.reset()
          },
          onError: (err) => {
            if (refundReason.fromServer(err)) return
            toast.error(errorMessage(err))
            setQuestion(null)
          },
        },
      )
      return
    }
    resolve.mutate(
      { dispute, action, reason },
      {
        onSuccess: () => {
          toast.success(
            action === 'refund'
              ? `${dispute.buyer.name} was refunded ${formatMoney(dispute.booking.price_cents)}`
              : `The sale of ${dispute.booking.productName} was released to ${dispute.seller.name}`,
          )
          setQuestion(null)
          refundReason.reset()
        },
        onError: (err) => {
          if (refundReason.fromServer(err)) return
          toast.error(errorMessage(err))
          setQuestion(null)
        },
      },
    )
  }

  return (
    <>
      <title>Disputes · Laptop Market</title>
      <PageHeader title="Disputes">
        <p>Problems buyers reported with a paid sale. Refund the buyer, or release the sale to the seller.</p>
      </PageHeader>
      <QueryState
        query={disputes}
        errorTitle="Could not load the disputes"
        loading={<ListSkeleton label="Loading disputes" />}
        empty={
          <Alert title="No open disputes">
            <p>When a buyer reports a problem with a sale, it shows here for you to settle.</p>
          </Alert>
        }
      >
        {(data) => (
          <ul className="space-y-4">
            {data.map((dispute) => (
              <li key={dispute._id}>
                <DisputeCard
                  dispute={dispute}
                  isBusy={resolve.isPending && resolve.variables?.dispute._id === dispute._id}
                  onAsk={(action) => setQuestion({ dispute, action })}
                />
              </li>
            ))}
          </ul>
        )}
      </QueryState>

      {question ? (
        <ConfirmDialog
          title={question.action === 'refund' ? 'Refund the buyer?' : 'Release the sale to the seller?'}
          description={
            question.action === 'refund' ? (
              <div className="space-y-3">
                <p>
                  {question.dispute.buyer.name} gets {formatMoney(question.dispute.booking.price_cents)} back
                  through the processor that took the payment. {question.dispute.booking.productName} stays
                  off the market. This cannot be undone.
                </p>
                {buyerHasLaptop(question.dispute) ? (
                  <RefundChoiceField
                    dispute={question.dispute}
                    choice={refundChoice.choice}
                    onChange={refundChoice.setChoice}
                  />
                ) : null}
                {refundChoice.choice === 'refund_now' || !buyerHasLaptop(question.dispute) ? (
                  <p>
                    The refund does not include a return of the laptop: both sides are told so, and that they
                    agree any return between them in Messages.
                  </p>
                ) : null}
                {refundReason.field}
              </div>
            ) : (
              <p>
                The sale of {question.dispute.booking.productName} is completed and the money goes to{' '}
                {question.dispute.seller.name}. This cannot be undone.
              </p>
            )
          }
          tone={question.action === 'refund' ? 'danger' : 'default'}
          confirmLabel={
            question.action === 'release'
              ? 'Release'
              : refundChoice.choice === 'return_first' && buyerHasLaptop(question.dispute)
                ? 'Return first'
                : 'Refund'
          }
          isPending={resolve.isPending || returnFirst.isPending}
          onConfirm={answer}
          onCancel={() => {
            setQuestion(null)
            refundReason.reset()
            refundChoice.reset()
          }}
        />
      ) : null}
    </>
  )
}

function DisputeCard({
  dispute,
  isBusy,
  onAsk,
}: {
  dispute: Dispute
  isBusy: boolean
  onAsk: (action: DisputeAction) => void
}) {
  const { booking } = dispute
  const headingId = `dispute-${dispute._id}`
  return (
    <article
      aria-labelledby={headingId}
      data-testid="dispute"
      className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-4 sm:flex-row"
    >
      <Link to={paths.product(booking.productId)} className="shrink-0 self-start">
        <ProductImage
          src={booking.productImage}
          alt={booking.productName}
          width={160}
          height={120}
          className="aspect-[4/3] w-full rounded-lg bg-slate-100 object-cover sm:w-40"
        />
      </Link>
      <div className="min-w-0 flex-1 space-y-3">
        <div className="space-y-1">
          <h2 id={headingId} className="font-semibold text-lg text-slate-900">
            <Link to={paths.product(booking.productId)} className="hover:text-accent hover:underline">
              {booking.productName}
            </Link>
          </h2>
          <p className="flex flex-wrap items-center gap-2 text-slate-700 text-sm">
            <span className="font-semibold text-slate-900">{formatMoney(booking.price_cents)}</span>
            <StageBadge status={booking.status} />
            {booking.paidAt ? (
              <span>
                paid <time dateTime={booking.paidAt}>{formatDate(booking.paidAt)}</time>
              </span>
            ) : null}
          </p>
        </div>
        <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-500">Buyer</dt>
            <dd className="text-slate-900">
              {dispute.buyer.name} <span className="text-slate-600">({dispute.buyer.email})</span>
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Seller</dt>
            <dd className="text-slate-900">
              {dispute.seller.name} <span className="text-slate-600">({dispute.seller.email})</span>
            </dd>
          </div>
        </dl>
        <div>
          <h3 className="font-medium text-slate-900 text-sm">
            The buyer’s problem, reported{' '}
            <time dateTime={dispute.createdAt}>{formatDate(dispute.createdAt)}</time>
          </h3>
          <blockquote className="mt-1 whitespace-pre-line border-slate-300 border-l-4 pl-3 text-slate-800">
            {dispute.reason}
          </blockquote>
        </div>
        <div data-testid="dispute-checklist">
          <h3 className="font-medium text-slate-900 text-sm">The buyer’s handover checklist</h3>
          {booking.checklist ? (
            <ul className="mt-1 space-y-0.5 text-sm">
              {HANDOVER_CHECKS.map((check) => {
                const ticked = booking.checklist?.checklist[check.key] === true
                return (
                  <li key={check.key} className={ticked ? 'text-slate-700' : 'font-medium text-red-800'}>
                    {ticked ? '✓ ' : '✗ Not ticked: '}
                    {checkLabel(check, booking.serial_last4)}
                  </li>
                )
              })}
            </ul>
          ) : (
            <p className="mt-1 text-slate-600 text-sm">Not answered (the problem was reported without it).</p>
          )}
        </div>
        <div>
          <h3 className="font-medium text-slate-900 text-sm">History</h3>
          <ol className="mt-1 space-y-1 text-slate-700 text-sm">
            {dispute.history.map((event, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the history is in order and never reordered
              <li key={i} className="flex flex-wrap gap-x-2">
                <time dateTime={event.at} className="text-slate-500 tabular-nums">
                  {formatDate(event.at)} {formatTime(event.at)}
                </time>
                <span>
                  {EVENT_WORDS[event.kind]}
                  {event.actorName ? ` · ${event.actorName}` : ''}
                  {event.note ? `: “${event.note}”` : ''}
                </span>
              </li>
            ))}
          </ol>
        </div>
        <ConversationTranscript
          bookingId={booking._id}
          label={`Conversation between ${dispute.buyer.name} and ${dispute.seller.name}`}
        />
        <div className="flex flex-wrap gap-2 pt-1">
          <Button
            size="sm"
            variant="danger-outline"
            onClick={() => onAsk('refund')}
            disabled={isBusy}
            aria-label={`Refund the buyer of ${booking.productName}`}
          >
            Refund
          </Button>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => onAsk('release')}
            disabled={isBusy}
            aria-label={`Release the sale of ${booking.productName} to the seller`}
          >
            Release
          </Button>
        </div>
      </div>
    </article>
  )
}
