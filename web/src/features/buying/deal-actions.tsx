import { type ReactNode, useState } from 'react'
import type { Booking } from '#contract/bookings'
import { buyerContact, CancelSaleBody, ProblemBody } from '#contract/bookings'
import type { HandoverChecklist as Ticks } from '#contract/handover'
import { refundLaptopWords } from '#contract/refunds'
import { GuideLink } from '../../components/guide-link'
import { useReasonField } from '../../components/reason-field'
import { Button } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { FormField } from '../../components/ui/form-field'
import { errorMessage } from '../../lib/api-client'
import { formatDate, formatMoney } from '../../lib/format'
import { toast } from '../../lib/toast'
import { useCancelSale, useConfirmReceived, useMarkHandedOver, useReportProblem } from './bookings-api'
import { HandoverChecklist, NOTHING_TICKED } from './handover-checklist'
import { BuyerReturnPanel, SellerReturnPanel } from './return-panel'
import { ShipmentPanel } from './shipment-panel'

// What each side of a paid sale can do next, beside its stage: the seller marks it handed over (with an
// optional note); the buyer confirms "Received, as described" or reports a problem with a reason.
// docs/decisions/0020 has the stages.

function Hint({ children }: { children: ReactNode }) {
  return <span className="block max-w-xs text-slate-600 text-xs">{children}</span>
}

/**
 * The serial's last four, which the buyer compares with the laptop at handover (the server gives them once paid),
 * or that the seller gave none.
 */
function SerialHint({ serialLast4 }: { serialLast4: string | null | undefined }) {
  return (
    <Hint>
      {serialLast4 ? (
        <>
          Serial number ends with{' '}
          <strong className="font-mono font-semibold text-slate-900" data-testid="serial-last4">
            {serialLast4}
          </strong>
          : check it on the laptop at handover.
        </>
      ) : (
        'No serial given for this laptop.'
      )}
    </Hint>
  )
}

/** The buyer's next step on My Orders, under "Paid" and the stage. */
export function BuyerDealActions({ booking }: { booking: Booking }) {
  const received = useConfirmReceived()
  const problem = useReportProblem()
  const [asking, setAsking] = useState<'received' | 'problem' | null>(null)
  const reason = useReasonField(ProblemBody, { label: 'What went wrong?', rows: 4, maxLength: 2000 })
  const [ticks, setTicks] = useState<Ticks>(NOTHING_TICKED)
  // Reporting from the checklist sends its answers with the problem, for the admin.
  const [fromChecklist, setFromChecklist] = useState(false)
  const allTicked = Object.values(ticks).every(Boolean)
  const name = <span className="sr-only"> for {booking.productName}</span>

  function confirmReceived() {
    received.mutate(
      { bookingId: booking._id, checklist: ticks },
      {
        onSuccess: () => toast.success('Thank you! The sale is completed.'),
        onError: (err) => toast.error(errorMessage(err)),
        onSettled: () => setAsking(null),
      },
    )
  }

  function sendProblem() {
    const said = reason.check()
    if (said === null) return
    problem.mutate(
      { bookingId: booking._id, reason: said, checklist: fromChecklist ? ticks : undefined },
      {
        onSuccess: () => {
          toast.success('Problem reported. An admin will look at it.')
          setAsking(null)
          reason.reset()
        },
        onError: (err) => {
          if (!reason.fromServer(err)) {
            toast.error(errorMessage(err))
            setAsking(null)
          }
        },
      },
    )
  }

  const canReport = booking.status === 'paid' || booking.status === 'handed_over'
  return (
    <div className="mt-1 space-y-1.5">
      {booking.status === 'paid' && booking.delivery?.method !== 'ship' ? (
        <Hint>The seller hands it over next.</Hint>
      ) : null}
      <ShipmentPanel booking={booking} side="buyer" />
      {canReport ? <SerialHint serialLast4={booking.serial_last4} /> : null}
      {canReport ? (
        <Hint>
          Before you confirm: <GuideLink slug="handover-checklist" />
        </Hint>
      ) : null}
      {booking.status === 'handed_over' ? (
        <>
          {booking.handoverNote ? <Hint>Seller’s note: {booking.handoverNote}</Hint> : null}
          {booking.autoCompleteAt ? (
            <Hint>Completes by itself on {formatDate(booking.autoCompleteAt)} if you do nothing.</Hint>
          ) : null}
        </>
      ) : null}
      {booking.status === 'disputed' ? <Hint>You reported a problem. An admin is looking at it.</Hint> : null}
      {booking.status === 'refunded' ? <Hint>{refundedWords('buyer', booking)}</Hint> : null}
      {booking.status === 'handed_over' || canReport ? (
        <span className="flex flex-wrap gap-2">
          {booking.status === 'handed_over' ? (
            <Button size="sm" onClick={() => setAsking('received')}>
              Received, as described{name}
            </Button>
          ) : null}
          {canReport ? (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                setFromChecklist(false)
                setAsking('problem')
              }}
            >
              Report a problem{name}
            </Button>
          ) : null}
        </span>
      ) : null}

      <BuyerReturnPanel booking={booking} />
      {asking === 'received' ? (
        <ConfirmDialog
          title="Did you receive it as described?"
          description={
            <div className="space-y-3">
              <p>
                {booking.productName} completes, and the money goes to the seller. You cannot report a problem
                after this.
              </p>
              <HandoverChecklist
                serialLast4={booking.serial_last4}
                ticks={ticks}
                onChange={setTicks}
                onProblem={(problemReason) => {
                  reason.set(problemReason)
                  setFromChecklist(true)
                  setAsking('problem')
                }}
              />
            </div>
          }
          tone="default"
          wide
          confirmLabel="Yes, received as described"
          confirmDisabled={!allTicked}
          isPending={received.isPending}
          onConfirm={confirmReceived}
          onCancel={() => setAsking(null)}
        />
      ) : null}
      {asking === 'problem' ? (
        <ConfirmDialog
          title="Report a problem"
          description={
            <div className="space-y-3">
              <p>
                Tell us what is wrong with {booking.productName}. The money waits while an admin looks at the
                sale and either refunds you or releases it to the seller.
              </p>
              {reason.field}
            </div>
          }
          tone="default"
          confirmLabel="Report the problem"
          isPending={problem.isPending}
          onConfirm={sendProblem}
          onCancel={() => {
            setAsking(null)
            reason.clearError()
          }}
        />
      ) : null}
    </div>
  )
}

/** The seller's view of a sold listing's deal on My Product: the stage, the buyer, and the next step. */
export function SellerDealActions({ sale, productName }: { sale: Booking; productName: string }) {
  const handOver = useMarkHandedOver()
  const cancel = useCancelSale()
  const [asking, setAsking] = useState<'handover' | 'cancel' | null>(null)
  const [note, setNote] = useState('')
  // A shipped sale is handed over by the carrier's delivery, after the seller buys its label.
  const ships = sale.delivery?.method === 'ship'
  const reason = useReasonField(CancelSaleBody, {
    label: ships ? 'Why can you not ship it?' : 'Why can you not hand it over?',
    rows: 3,
    maxLength: 500,
  })
  // What the buyer paid, and gets back if the seller cancels: the price, and the shipping of a shipped sale.
  const paidCents = sale.price_cents + (ships ? (sale.delivery?.shipping_cents ?? 0) : 0)

  function confirmCancel() {
    const said = reason.check()
    if (said === null) return
    cancel.mutate(
      { bookingId: sale._id, reason: said },
      {
        onSuccess: () => {
          toast.success('Sale cancelled. The buyer is refunded in full.')
          setAsking(null)
          reason.reset()
        },
        onError: (err) => {
          if (!reason.fromServer(err)) {
            toast.error(errorMessage(err))
            setAsking(null)
          }
        },
      },
    )
  }

  function confirmHandover() {
    handOver.mutate(
      { bookingId: sale._id, note },
      {
        onSuccess: () => {
          toast.success('Marked handed over. We told the buyer.')
          setNote('')
        },
        onError: (err) => toast.error(errorMessage(err)),
        onSettled: () => setAsking(null),
      },
    )
  }

  return (
    <div className="space-y-1.5">
      <Hint>Bought by {buyerContact(sale)}</Hint>
      <SellerReturnPanel sale={sale} productName={productName} />
      <ShipmentPanel booking={sale} side="seller" />
      {sale.status === 'paid' ? (
        <>
          <Hint>
            {ships
              ? 'Buy the label, pack the laptop and hand it to the carrier. If you cannot, cancel the sale: the buyer is refunded.'
              : 'Hand it over, then tell us here. If you cannot, cancel the sale: the buyer is refunded.'}
          </Hint>
          <Hint>
            Before you {ships ? 'ship' : 'hand'} it{ships ? '' : ' over'}:{' '}
            <GuideLink slug="wiping-a-laptop" />
          </Hint>
          <span className="flex flex-wrap gap-2">
            {ships ? null : (
              <Button size="sm" onClick={() => setAsking('handover')}>
                Mark handed over<span className="sr-only"> {productName}</span>
              </Button>
            )}
            <Button size="sm" variant="danger-outline" onClick={() => setAsking('cancel')}>
              Cancel sale<span className="sr-only"> of {productName}</span>
            </Button>
          </span>
        </>
      ) : null}
      {sale.status === 'shipped' ? (
        <Hint>
          On its way: the carrier’s delivery hands it over, and the buyer then has a few days to check it.
        </Hint>
      ) : null}
      {sale.status === 'handed_over' ? (
        <Hint>
          Waiting for the buyer to confirm
          {sale.autoCompleteAt ? `; completes by itself on ${formatDate(sale.autoCompleteAt)}` : ''}.
          {sale.handoverNote ? ` Your note: ${sale.handoverNote}` : ''}
        </Hint>
      ) : null}
      {sale.status === 'completed' ? <Hint>Completed: the money is yours.</Hint> : null}
      {sale.status === 'disputed' && sale.dispute ? (
        <Hint>The buyer reported a problem: “{sale.dispute.reason}” An admin is looking at it.</Hint>
      ) : null}
      {sale.status === 'refunded' ? <Hint>{refundedWords('seller', sale)}</Hint> : null}

      {asking === 'cancel' ? (
        <ConfirmDialog
          title="Cancel this sale?"
          description={
            <div className="space-y-3">
              <p>
                {sale.userName} gets back the {formatMoney(paidCents)} they paid for {productName}
                {ships ? ' and its shipping' : ''}, in full, and the listing leaves Laptop Market. We email
                them your reason. Admins see cancelled sales on your record. This cannot be undone.
              </p>
              {reason.field}
            </div>
          }
          confirmLabel="Cancel sale and refund"
          cancelLabel="Keep the sale"
          isPending={cancel.isPending}
          onConfirm={confirmCancel}
          onCancel={() => {
            setAsking(null)
            reason.clearError()
          }}
        />
      ) : null}
      {asking === 'handover' ? (
        <ConfirmDialog
          title="Mark it handed over?"
          description={
            <div className="space-y-3">
              <p>
                Only when the buyer has {productName} (or it is on its way). We email them to confirm it
                arrived as described.
              </p>
              <FormField label="Note for the buyer (optional)" hint="A tracking number, or where you met.">
                <textarea
                  rows={3}
                  maxLength={500}
                  value={note}
                  onChange={(e) => setNote(e.target.value)}
                  className="py-2"
                />
              </FormField>
            </div>
          }
          tone="default"
          confirmLabel="Mark handed over"
          isPending={handOver.isPending}
          onConfirm={confirmHandover}
          onCancel={() => setAsking(null)}
        />
      ) : null}
    </div>
  )
}

/**
 * Why a refunded sale ended, for one side: what refunded it (the seller's cancellation, the ship-within rule, the
 * laptop come back, or an admin), with the admin's reason and where the laptop is when an admin refunded it.
 */
function refundedWords(role: 'buyer' | 'seller', b: Booking): string {
  const kind = b.refundEvent ?? (b.cancelReason ? 'cancelled' : 'refunded')
  const shipBy = b.delivery?.ship_by ? ` by ${formatDate(b.delivery.ship_by)}` : ' in time'
  switch (kind) {
    case 'ship_late':
      return role === 'buyer'
        ? `Refunded: the seller did not ship it${shipBy}. Your money was refunded in full.`
        : `Refunded: you did not ship it${shipBy}, so the sale was cancelled and the buyer refunded in full.`
    case 'return_refunded':
      return role === 'buyer'
        ? 'Refunded: the laptop came back to the seller.'
        : 'Refunded: the laptop came back to you, and the buyer was refunded.'
    case 'return_lost':
      return role === 'buyer'
        ? `An admin refunded your money: the carrier lost the laptop on its way back to the seller.${b.refundReason ? ` Their reason: “${b.refundReason}”.` : ''}`
        : `An admin refunded the buyer: the carrier lost the laptop on its way back to you.${b.refundReason ? ` Their reason: “${b.refundReason}”.` : ''}`
    case 'cancelled':
      return role === 'buyer'
        ? `The seller cancelled the sale and your money was refunded in full.${b.cancelReason ? ` Their reason: ${b.cancelReason}` : ''}`
        : 'You cancelled the sale; the buyer was refunded in full.'
    case 'refunded':
      return role === 'buyer'
        ? `An admin refunded your money in full.${b.refundReason ? ` Their reason: “${b.refundReason}”.` : ''} ${refundLaptopWords('buyer', b.handedOverAt !== null)}`
        : `An admin refunded the buyer in full.${b.refundReason ? ` Their reason: “${b.refundReason}”.` : ''} ${refundLaptopWords('seller', b.handedOverAt !== null)}`
  }
}
