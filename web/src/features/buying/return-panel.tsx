import { useState } from 'react'
import type { Booking } from '#contract/bookings'
import { checkLabel, HANDOVER_CHECK_KEYS, HANDOVER_CHECKS, type HandoverCheckKey } from '#contract/handover'
import {
  DeclineReturnBody,
  OpenReturnBody,
  RETURN_STATUS_WORDS,
  type Return,
  ReturnBackBody,
} from '#contract/returns'
import { PhotoPicker } from '../../components/photos/photo-picker'
import { PhotoThumbs } from '../../components/photos/photo-thumbs'
import { countPhotos, usePhotoUploads } from '../../components/photos/use-photo-uploads'
import { useReasonField } from '../../components/reason-field'
import { Button } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { FormField } from '../../components/ui/form-field'
import { errorMessage, isApiError } from '../../lib/api-client'
import { formatDate, formatMoney } from '../../lib/format'
import { toast } from '../../lib/toast'
import {
  returnPhotosUrl,
  type SellerReturnStep,
  useAnswerReturn,
  useBookingReturn,
  useOpenReturn,
} from './returns-api'

// Returns on the deal (docs/decisions/0076, 0085): the buyer's "Return it" within the inspection window, and the
// return as it goes for both sides: the seller accepts or declines, the label and its tracking, the seller's check
// of what came back. Shown under each side's deal actions.

/** The stages in which a booking may have a return to show (or the buyer may open one). */
const WITH_RETURN: readonly Booking['status'][] = ['handed_over', 'returning', 'disputed', 'refunded']

const PARCEL_WORDS: Record<string, string> = {
  pre_transit: 'Label bought, not yet with the carrier',
  in_transit: 'On its way back',
  out_for_delivery: 'Out for delivery to the seller',
  available_for_pickup: 'Waiting at the carrier for pickup',
  delivered: 'Delivered back to the seller',
  failure: 'The carrier could not deliver it',
  return_to_sender: 'The carrier is sending it back to the buyer',
}

const failedCheckLabel = (key: HandoverCheckKey | null, serialLast4: string | null | undefined) => {
  const check = HANDOVER_CHECKS.find((c) => c.key === key)
  return check ? checkLabel(check, serialLast4) : null
}

function ReturnLabel({ label, forBuyer }: { label: NonNullable<Return['label']>; forBuyer: boolean }) {
  return (
    <div className="space-y-1 text-sm" data-testid="return-label">
      <p className="text-slate-800">
        {label.carrier} · tracking{' '}
        {label.trackingUrl ? (
          <a
            href={label.trackingUrl}
            target="_blank"
            rel="noreferrer"
            className="font-mono text-accent underline"
          >
            {label.trackingCode}
          </a>
        ) : (
          <span className="font-mono">{label.trackingCode}</span>
        )}
        : {PARCEL_WORDS[label.status] ?? label.status}
      </p>
      {forBuyer ? (
        <p>
          <a href={label.url} target="_blank" rel="noreferrer" className="font-medium text-accent underline">
            Print the return label (PDF)
          </a>
          <span className="text-slate-600"> · paid by the seller</span>
        </p>
      ) : (
        <p className="text-slate-600">Return label paid by you: {formatMoney(label.costCents)}</p>
      )}
    </div>
  )
}

/** The return as both sides read it: its status, the reasons given, and a shipped one's label and tracking. */
function ReturnSummary({ ret, booking, side }: { ret: Return; booking: Booking; side: 'buyer' | 'seller' }) {
  const failed = failedCheckLabel(ret.failed_check, booking.serial_last4)
  return (
    <section
      aria-label="Return"
      data-testid="return-panel"
      className="max-w-md space-y-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm"
    >
      <p className="font-semibold text-slate-900">{RETURN_STATUS_WORDS[ret.status]}</p>
      <p className="text-slate-700">
        {side === 'buyer' ? 'Your reason' : 'The buyer’s reason'}: “{ret.reason}”
        {failed ? <span className="block text-slate-600">Failed check: {failed}</span> : null}
      </p>
      <PhotoThumbs photos={ret.photos} label="Photos of the return" size="sm" />
      {ret.declineReason ? (
        <p className="text-slate-700">Seller’s reason to decline: “{ret.declineReason}”</p>
      ) : null}
      {ret.decisionReason ? <p className="text-slate-700">Admin’s decision: “{ret.decisionReason}”</p> : null}
      {ret.backNote ? <p className="text-slate-700">What came back: “{ret.backNote}”</p> : null}
      {ret.method === 'ship' && ret.status === 'accepted' ? (
        <p className="text-slate-700">The return label is being bought; it shows here in a moment.</p>
      ) : null}
      {ret.method === 'meet' && ret.status === 'accepted' ? (
        <p className="text-slate-700">
          {side === 'buyer'
            ? 'Hand the laptop back to the seller as you met. Once they confirm it is as they sent it, you are refunded in full.'
            : 'The buyer hands the laptop back to you. Check it, then say here how it came back.'}
        </p>
      ) : null}
      {ret.label ? <ReturnLabel label={ret.label} forBuyer={side === 'buyer'} /> : null}
    </section>
  )
}

/** The buyer's return: "Return it" within the inspection window, then the return as it goes. */
export function BuyerReturnPanel({ booking }: { booking: Booking }) {
  const shown = WITH_RETURN.includes(booking.status)
  const query = useBookingReturn(booking._id, shown)
  const [open, setOpen] = useState(false)
  if (!shown || !query.data) return null
  const { return: ret, canOpenUntil } = query.data
  if (ret) return <ReturnSummary ret={ret} booking={booking} side="buyer" />
  if (!canOpenUntil) return null
  return (
    <div className="space-y-1">
      <span className="block max-w-xs text-slate-600 text-xs">
        Not as described? You can return it until {formatDate(canOpenUntil)}.
      </span>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)}>
        Return it<span className="sr-only"> ({booking.productName})</span>
      </Button>
      {open ? <OpenReturnDialog booking={booking} onClose={() => setOpen(false)} /> : null}
    </div>
  )
}

type OpenErrors = Partial<Record<'failed_check' | 'photos', string>>

function OpenReturnDialog({ booking, onClose }: { booking: Booking; onClose: () => void }) {
  const photos = usePhotoUploads([], returnPhotosUrl(booking._id))
  const openReturn = useOpenReturn()
  // The same field as a problem report's (deal-actions.tsx), checked against this call's own body.
  const reason = useReasonField(OpenReturnBody.pick({ reason: true }), {
    label: 'What is not as described?',
    rows: 4,
    maxLength: 2000,
  })
  const [failedCheck, setFailedCheck] = useState('')
  const [errors, setErrors] = useState<OpenErrors>({})

  function send() {
    if (photos.items.some((p) => p.status === 'uploading')) {
      setErrors({ photos: 'Wait for the photos to finish uploading' })
      return
    }
    const ids = photos.items.flatMap((p) => (p.status === 'done' && p.uploadId ? [p.uploadId] : []))
    const said = reason.check()
    const parsed = OpenReturnBody.safeParse({
      reason: said ?? reason.reason,
      failed_check: failedCheck || undefined,
      photos: ids,
    })
    if (!parsed.success) {
      // The reason's own message is under its field.
      const next: OpenErrors = {}
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof OpenErrors | 'reason'
        if (key !== 'reason') next[key] ??= issue.message
      }
      setErrors(next)
      return
    }
    openReturn.mutate(
      { bookingId: booking._id, body: parsed.data },
      {
        onSuccess: () => {
          toast.success('Return requested. The seller answers; if they decline, an admin decides.')
          onClose()
        },
        onError: (err) => {
          if (isApiError(err) && err.fields) {
            reason.fromServer(err)
            setErrors(err.fields as OpenErrors)
          } else {
            toast.error(errorMessage(err))
            onClose()
          }
        },
      },
    )
  }

  return (
    <ConfirmDialog
      title="Return it: not as described"
      wide
      tone="default"
      description={
        <div className="space-y-4">
          <p>
            Tell the seller what is not as described in {booking.productName}. The money stays with us while
            the seller answers (or an admin decides). Accepted,{' '}
            {booking.delivery?.method === 'ship'
              ? 'you get a return label paid by the seller'
              : 'you hand it back to the seller'}
            , and you are refunded in full once it is back as sent.
          </p>
          <FormField label="Which check failed?" error={errors.failed_check}>
            <select
              value={failedCheck}
              onChange={(e) => {
                setFailedCheck(e.target.value)
                setErrors((x) => ({ ...x, failed_check: undefined }))
              }}
            >
              <option value="">Choose the checklist item</option>
              {HANDOVER_CHECK_KEYS.map((key) => (
                <option key={key} value={key}>
                  {failedCheckLabel(key, booking.serial_last4)}
                </option>
              ))}
            </select>
          </FormField>
          {reason.field}
          <PhotoPicker photos={photos} error={errors.photos} hint="Show what is not as described." />
        </div>
      }
      confirmLabel="Request the return"
      confirmDisabled={countPhotos(photos.items) === 0}
      isPending={openReturn.isPending}
      onConfirm={send}
      onCancel={onClose}
    />
  )
}

/** The seller's side of a return: accept or decline it, and once the laptop is back, say how it came back. */
export function SellerReturnPanel({ sale, productName }: { sale: Booking; productName: string }) {
  const shown = WITH_RETURN.includes(sale.status)
  const query = useBookingReturn(sale._id, shown)
  const answer = useAnswerReturn()
  const [asking, setAsking] = useState<'decline' | 'otherwise' | 'as_sent' | null>(null)
  const decline = useReasonField(DeclineReturnBody, {
    label: 'Why do you decline?',
    rows: 3,
    maxLength: 500,
  })
  const otherwise = useReasonField(
    ReturnBackBody,
    { label: 'What is different from how you sent it?', rows: 3, maxLength: 2000 },
    { key: 'note', with: { as_sent: false } },
  )
  const ret = query.data?.return
  if (!shown || !ret) return null

  function send(step: SellerReturnStep, done: string) {
    answer.mutate(
      { bookingId: sale._id, answer: step },
      {
        onSuccess: () => {
          toast.success(done)
          setAsking(null)
          decline.reset()
          otherwise.reset()
        },
        onError: (err) => {
          if (!decline.fromServer(err) && !otherwise.fromServer(err)) {
            toast.error(errorMessage(err))
            setAsking(null)
          }
        },
      },
    )
  }

  function confirm() {
    if (asking === 'decline') {
      const said = decline.check()
      if (said === null) return
      return send({ step: 'decline', reason: said }, 'Return declined. An admin decides.')
    }
    if (asking === 'as_sent') {
      return send({ step: 'back', body: { as_sent: true } }, 'Thank you. The buyer is refunded.')
    }
    const said = otherwise.check()
    if (said === null) return
    send({ step: 'back', body: { as_sent: false, note: said } }, 'Sent to an admin, who decides.')
  }

  return (
    <div className="space-y-1.5">
      <ReturnSummary ret={ret} booking={sale} side="seller" />
      {ret.moves.includes('accept') || ret.moves.includes('decline') ? (
        <span className="flex flex-wrap gap-2">
          {ret.moves.includes('accept') ? (
            <Button
              size="sm"
              disabled={answer.isPending}
              onClick={() =>
                send(
                  { step: 'accept' },
                  ret.method === 'ship'
                    ? 'Return accepted. We are buying the return label at your cost.'
                    : 'Return accepted. The buyer hands it back to you.',
                )
              }
            >
              Accept the return<span className="sr-only"> of {productName}</span>
            </Button>
          ) : null}
          {ret.moves.includes('decline') ? (
            <Button size="sm" variant="secondary" onClick={() => setAsking('decline')}>
              Decline<span className="sr-only"> the return of {productName}</span>
            </Button>
          ) : null}
        </span>
      ) : null}
      {ret.status === 'delivered_back' && ret.deliveredBackAt ? (
        <span className="block max-w-xs text-slate-600 text-xs">
          Delivered back on {formatDate(ret.deliveredBackAt)}. Check it: with no answer in a few days, the
          buyer is refunded.
        </span>
      ) : null}
      {ret.moves.includes('back_as_sent') || ret.moves.includes('back_otherwise') ? (
        <span className="flex flex-wrap gap-2">
          {ret.moves.includes('back_as_sent') ? (
            <Button size="sm" onClick={() => setAsking('as_sent')}>
              Confirm it is as sent<span className="sr-only"> ({productName})</span>
            </Button>
          ) : null}
          {ret.moves.includes('back_otherwise') ? (
            <Button size="sm" variant="danger-outline" onClick={() => setAsking('otherwise')}>
              It came back otherwise<span className="sr-only"> ({productName})</span>
            </Button>
          ) : null}
        </span>
      ) : null}
      {asking ? (
        <ConfirmDialog
          title={
            asking === 'decline'
              ? 'Decline this return?'
              : asking === 'as_sent'
                ? 'Is it as you sent it?'
                : 'What is different?'
          }
          tone="default"
          description={
            <div className="space-y-3">
              <p>
                {asking === 'decline'
                  ? `${sale.userName} says ${productName} is not as described. Tell them why you decline: an admin reads both sides and decides.`
                  : asking === 'as_sent'
                    ? `${sale.userName} is refunded ${formatMoney(sale.price_cents)} in full through the processor. This cannot be undone.`
                    : 'Nothing is refunded yet: an admin reads what you say and decides.'}
              </p>
              {asking === 'decline' ? decline.field : asking === 'otherwise' ? otherwise.field : null}
            </div>
          }
          confirmLabel={
            asking === 'decline'
              ? 'Decline the return'
              : asking === 'as_sent'
                ? 'Yes, refund the buyer'
                : 'Send to an admin'
          }
          isPending={answer.isPending}
          onConfirm={confirm}
          onCancel={() => {
            setAsking(null)
            decline.clearError()
            otherwise.clearError()
          }}
        />
      ) : null}
    </div>
  )
}
