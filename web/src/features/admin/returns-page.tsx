import { useState } from 'react'
import { checkLabel, HANDOVER_CHECKS } from '#contract/handover'
import { type AdminReturn, DecideReturnBody, RETURN_STATUS_WORDS } from '#contract/returns'
import { PhotoThumbs } from '../../components/photos/photo-thumbs'
import { QueryState } from '../../components/query-state'
import { useReasonField } from '../../components/reason-field'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { ListSkeleton } from '../../components/ui/list-skeleton'
import { PageHeader } from '../../components/ui/page-header'
import { errorMessage } from '../../lib/api-client'
import { formatDate, formatMoney } from '../../lib/format'
import { toast } from '../../lib/toast'
import { useAdminReturns, useDecideReturn } from './returns-api'

type Decision = { ret: AdminReturn; decision: 'accept' | 'refuse' }

/** A return whose parcel the carrier lost (failure, or back to the buyer): the server offers ending it. */
const isLostParcel = (ret: AdminReturn) => ret.moves.includes('lost_refund')

/**
 * `/dashboard/returns`: returns of laptops not as described. Those the seller declined (or has not answered) wait
 * here for an admin, oldest first: accept (a shipped sale's return label is bought at the seller's cost) or refuse
 * (the sale completes). A return parcel the carrier lost or sent back to the buyer waits here too: refund the buyer, or
 * release the sale to the seller. "All" shows every return with where it is, its label and tracking.
 */
export function ReturnsPage() {
  const [which, setWhich] = useState<'awaiting' | 'all'>('awaiting')
  const returns = useAdminReturns(which)
  const decide = useDecideReturn()
  const [asking, setAsking] = useState<Decision | null>(null)
  const reason = useReasonField(
    DecideReturnBody,
    {
      label: 'Your reason',
      hint: 'The buyer and the seller both see it, on the deal and in their emails.',
      rows: 3,
      maxLength: 500,
    },
    { with: { decision: asking?.decision } },
  )

  function close() {
    setAsking(null)
    reason.reset()
  }

  function confirm() {
    if (!asking) return
    const said = reason.check()
    if (said === null) return
    decide.mutate(
      { returnId: asking.ret._id, body: { decision: asking.decision, reason: said } },
      {
        onSuccess: () => {
          toast.success(
            isLostParcel(asking.ret)
              ? asking.decision === 'accept'
                ? `The buyer of ${asking.ret.productName} is refunded`
                : `${asking.ret.productName} is released to the seller: the sale completed`
              : asking.decision === 'accept'
                ? `The return of ${asking.ret.productName} is accepted`
                : `The return of ${asking.ret.productName} is refused: the sale completed`,
          )
          close()
        },
        onError: (err) => {
          if (!reason.fromServer(err)) {
            toast.error(errorMessage(err))
            close()
          }
        },
      },
    )
  }

  return (
    <>
      <title>Returns · Laptop Market</title>
      <PageHeader title="Returns">
        <p>
          Laptops buyers are sending back as not as described. Decide those the seller declined or has not
          answered, and those whose return parcel the carrier lost.
        </p>
      </PageHeader>
      <fieldset className="mb-4 flex gap-2">
        <legend className="sr-only">Which returns</legend>
        <Button
          size="sm"
          variant={which === 'awaiting' ? 'primary' : 'secondary'}
          aria-pressed={which === 'awaiting'}
          onClick={() => setWhich('awaiting')}
        >
          Waiting for a decision
        </Button>
        <Button
          size="sm"
          variant={which === 'all' ? 'primary' : 'secondary'}
          aria-pressed={which === 'all'}
          onClick={() => setWhich('all')}
        >
          All returns
        </Button>
      </fieldset>
      <QueryState
        query={returns}
        errorTitle="Could not load the returns"
        loading={<ListSkeleton label="Loading returns" />}
        empty={
          <Alert title={which === 'awaiting' ? 'No returns to decide' : 'No returns yet'}>
            <p>When a seller declines a buyer’s return, it shows here for you to decide.</p>
          </Alert>
        }
      >
        {(data) => (
          <ul className="space-y-4">
            {data.map((ret) => (
              <li key={ret._id}>
                <ReturnCard
                  ret={ret}
                  isBusy={decide.isPending && decide.variables?.returnId === ret._id}
                  onDecide={(decision) => setAsking({ ret, decision })}
                />
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      {asking ? (
        <ConfirmDialog
          title={
            isLostParcel(asking.ret)
              ? asking.decision === 'accept'
                ? 'Refund the buyer?'
                : 'Release to the seller?'
              : asking.decision === 'accept'
                ? 'Accept this return?'
                : 'Refuse this return?'
          }
          tone={asking.decision === 'refuse' ? 'danger' : 'default'}
          description={
            <div className="space-y-3">
              <p>
                {isLostParcel(asking.ret)
                  ? asking.decision === 'accept'
                    ? `The return parcel did not reach ${asking.ret.seller.name}. ${asking.ret.buyer.name} is refunded in full; the return label stays ${asking.ret.seller.name}’s cost.`
                    : `The return parcel did not reach ${asking.ret.seller.name}. The sale completes and ${asking.ret.seller.name} is paid. This cannot be undone.`
                  : asking.decision === 'accept'
                    ? asking.ret.method === 'ship'
                      ? `A return label is bought at ${asking.ret.seller.name}’s cost and emailed to ${asking.ret.buyer.name}. Once the laptop is back as sent, the buyer is refunded.`
                      : `${asking.ret.buyer.name} hands the laptop back. Once it is back as sent, the buyer is refunded.`
                    : `The sale completes and ${asking.ret.seller.name} is paid. This cannot be undone.`}
              </p>
              {reason.field}
            </div>
          }
          confirmLabel={
            isLostParcel(asking.ret)
              ? asking.decision === 'accept'
                ? 'Refund the buyer'
                : 'Release to the seller'
              : asking.decision === 'accept'
                ? 'Accept the return'
                : 'Refuse the return'
          }
          isPending={decide.isPending}
          onConfirm={confirm}
          onCancel={close}
        />
      ) : null}
    </>
  )
}

function ReturnCard({
  ret,
  isBusy,
  onDecide,
}: {
  ret: AdminReturn
  isBusy: boolean
  onDecide: (decision: 'accept' | 'refuse') => void
}) {
  const headingId = `return-${ret._id}`
  const failed = HANDOVER_CHECKS.find((c) => c.key === ret.failed_check)
  // What the server's table of moves lets an admin do now: decide the return, or end one whose parcel was lost.
  const canDecide = ret.moves.includes('admin_accept')
  const lost = isLostParcel(ret)
  return (
    <article
      aria-labelledby={headingId}
      data-testid="admin-return"
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-4"
    >
      <div className="space-y-1">
        <h2 id={headingId} className="font-semibold text-lg text-slate-900">
          {ret.productName}
        </h2>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-700 text-sm">
          <span className="font-semibold text-slate-900">{formatMoney(ret.priceCents)}</span>
          <span>{lost ? 'Return parcel lost: an admin decides' : RETURN_STATUS_WORDS[ret.status]}</span>
          <span>
            opened <time dateTime={ret.createdAt}>{formatDate(ret.createdAt)}</time>
          </span>
          <span>{ret.method === 'ship' ? 'Way back: by parcel' : 'Way back: in person'}</span>
          {ret.fromDispute ? <span>From a dispute (“Return first”)</span> : null}
        </p>
      </div>
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-slate-500">Buyer</dt>
          <dd className="break-words text-slate-900">
            {ret.buyer.name} <span className="text-slate-600">({ret.buyer.email})</span>
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Seller</dt>
          <dd className="break-words text-slate-900">
            {ret.seller.name} <span className="text-slate-600">({ret.seller.email})</span>
          </dd>
        </div>
      </dl>
      <div className="text-sm">
        <h3 className="font-medium text-slate-900">The buyer’s reason</h3>
        <blockquote className="mt-1 whitespace-pre-line border-slate-300 border-l-4 pl-3 text-slate-800">
          {ret.reason}
        </blockquote>
        {failed ? (
          <p className="mt-1 font-medium text-red-800">✗ Failed: {checkLabel(failed, null)}</p>
        ) : null}
      </div>
      <PhotoThumbs photos={ret.photos} label="The buyer’s photos" />
      {ret.declineReason ? (
        <p className="text-sm text-slate-800">
          <span className="font-medium">The seller declined:</span> “{ret.declineReason}”
        </p>
      ) : null}
      {ret.decisionReason ? (
        <p className="text-sm text-slate-800">
          <span className="font-medium">Decision:</span> “{ret.decisionReason}”
        </p>
      ) : null}
      {ret.backNote ? (
        <p className="text-sm text-slate-800">
          <span className="font-medium">What came back:</span> “{ret.backNote}”
        </p>
      ) : null}
      {ret.label ? (
        <p className="text-sm text-slate-800" data-testid="admin-return-label">
          <span className="font-medium">Return label:</span> {ret.label.carrier}{' '}
          {ret.label.trackingUrl ? (
            <a
              href={ret.label.trackingUrl}
              target="_blank"
              rel="noreferrer"
              className="font-mono text-accent underline"
            >
              {ret.label.trackingCode}
            </a>
          ) : (
            <span className="font-mono">{ret.label.trackingCode}</span>
          )}{' '}
          · {ret.label.status.replaceAll('_', ' ')} · {formatMoney(ret.label.costCents)} paid by the seller
        </p>
      ) : null}
      {lost ? (
        <div className="space-y-2 pt-1" data-testid="admin-return-lost">
          <p className="font-medium text-red-800 text-sm">
            {ret.label?.status === 'failure'
              ? 'The carrier could not deliver the return parcel to the seller.'
              : 'The carrier sent the return parcel back to the buyer.'}{' '}
            The buyer’s money is held until you end this return.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => onDecide('accept')} disabled={isBusy}>
              Refund the buyer<span className="sr-only"> of {ret.productName}</span>
            </Button>
            <Button size="sm" variant="danger-outline" onClick={() => onDecide('refuse')} disabled={isBusy}>
              Release to the seller<span className="sr-only"> of {ret.productName}</span>
            </Button>
          </div>
        </div>
      ) : null}
      {canDecide ? (
        <div className="flex flex-wrap gap-2 pt-1">
          <Button size="sm" onClick={() => onDecide('accept')} disabled={isBusy}>
            Accept<span className="sr-only"> the return of {ret.productName}</span>
          </Button>
          <Button size="sm" variant="danger-outline" onClick={() => onDecide('refuse')} disabled={isBusy}>
            Refuse<span className="sr-only"> the return of {ret.productName}</span>
          </Button>
        </div>
      ) : null}
    </article>
  )
}
