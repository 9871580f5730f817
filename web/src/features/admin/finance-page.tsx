import { CircleAlert, CircleCheck } from 'lucide-react'
import { useState } from 'react'
import type { FinanceSale } from '#contract/payouts'
import { MONEY_WORDS } from '#contract/seller-money'
import { QueryState } from '../../components/query-state'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { PageHeader } from '../../components/ui/page-header'
import { Skeleton } from '../../components/ui/skeleton'
import { errorMessage } from '../../lib/api-client'
import { formatDate, formatMoney, formatSignedMoney } from '../../lib/format'
import { toast } from '../../lib/toast'
import { useFinance } from '../earnings'
import { useRefundReason } from './refund-reason'
import { useRefundSale } from './sales-api'

function Figure({ label, cents, note }: { label: string; cents: number; note?: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-slate-600 text-sm">{label}</dt>
      <dd
        className={`mt-1 font-bold text-lg tabular-nums sm:text-2xl ${cents < 0 ? 'text-red-700' : 'text-slate-900'}`}
      >
        {formatSignedMoney(cents)}
      </dd>
      {note ? <dd className="mt-1 text-slate-500 text-xs">{note}</dd> : null}
    </div>
  )
}

const STATE_WORDS = {
  pending: 'Being sent',
  in_transit: MONEY_WORDS.on_its_way,
  paid: 'Paid',
  failed: 'Failed',
} as const

/**
 * `/dashboard/finance`: the marketplace's money, every figure a sum over the ledger, and the ledger's own
 * check (every transaction sums to zero; the money taken equals the succeeded payments).
 */
export function FinancePage() {
  const finance = useFinance()
  const refund = useRefundSale()
  const [asked, setAsked] = useState<FinanceSale | null>(null)
  const refundReason = useRefundReason()

  function confirmRefund() {
    if (!asked) return
    const sale = asked
    const reason = refundReason.check()
    if (reason === null) return
    refund.mutate(
      { sale, reason },
      {
        onSuccess: () => {
          toast.success(`${sale.buyer_name} was refunded ${formatMoney(sale.price_cents)}`)
          setAsked(null)
          refundReason.reset()
        },
        onError: (err) => {
          if (refundReason.fromServer(err)) return
          toast.error(errorMessage(err))
          setAsked(null)
        },
      },
    )
  }

  return (
    <>
      <title>Finance · Laptop Market</title>
      <PageHeader title="Finance">
        <p>Money held for buyers, sellers’ balances, payouts and fees, from the ledger.</p>
      </PageHeader>
      <QueryState
        query={finance}
        errorTitle="Could not load the figures"
        loading={
          <div
            className="grid grid-cols-2 gap-4 lg:grid-cols-4"
            role="status"
            aria-label="Loading the figures"
          >
            {[0, 1, 2, 3, 4, 5, 6, 7].map((n) => (
              <Skeleton key={n} className="h-24" />
            ))}
          </div>
        }
      >
        {(data) => (
          <div className="space-y-6">
            <section
              aria-labelledby="ledger-check"
              className={`rounded-xl border p-4 sm:p-5 ${
                data.balanced ? 'border-emerald-300 bg-emerald-50' : 'border-red-300 bg-red-50'
              }`}
            >
              <h2 id="ledger-check" className="flex items-center gap-2 font-semibold text-lg text-slate-900">
                {data.balanced ? (
                  <CircleCheck aria-hidden="true" className="size-5 text-emerald-700" />
                ) : (
                  <CircleAlert aria-hidden="true" className="size-5 text-red-700" />
                )}
                {data.balanced ? 'The ledger balances' : 'The ledger does not balance'}
              </h2>
              <ul className="mt-2 space-y-1 text-slate-700 text-sm">
                <li>
                  Transactions that do not sum to zero: <strong>{data.checks.unbalanced_transactions}</strong>
                </li>
                <li>
                  All entries together: <strong>{formatSignedMoney(data.checks.entries_total_cents)}</strong>
                </li>
                <li>
                  Taken from buyers, less refunds (ledger):{' '}
                  <strong>{formatMoney(data.checks.ledger_charges_cents)}</strong>; succeeded payments:{' '}
                  <strong>{formatMoney(data.checks.payments_cents)}</strong>
                </li>
              </ul>
            </section>
            <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
              <Figure
                label={MONEY_WORDS.held}
                cents={data.held_for_buyers_cents}
                note="Paid, waiting for buyers to confirm (with the fees)"
              />
              <Figure
                label={MONEY_WORDS.available}
                cents={data.sellers_balances_cents}
                note={`Sellers’ balances; ${formatMoney(data.waiting_for_payout_setup_cents)} waits for payout setup`}
              />
              <Figure
                label="Owed by sellers"
                cents={data.negative_balances_cents}
                note="Refunds after a payout"
              />
              <Figure
                label={MONEY_WORDS.on_its_way}
                cents={data.on_its_way_cents}
                note="Paid out, not arrived yet"
              />
              <Figure
                label={MONEY_WORDS.paid_out}
                cents={data.paid_out_cents}
                note="In sellers’ bank accounts"
              />
              <Figure
                label="Failed payouts"
                cents={data.failed_payouts.amount_cents}
                note={`${data.failed_payouts.count} returned to balances`}
              />
              <Figure label={MONEY_WORDS.fees} cents={data.fees_cents} note="Taken from completed sales" />
              <Figure
                label="Refunds"
                cents={data.refunds_cents}
                note={`of ${formatMoney(data.charges_cents)} charged`}
              />
            </dl>
            <section aria-labelledby="recent-payouts" className="space-y-3">
              <h2 id="recent-payouts" className="font-semibold text-lg text-slate-900">
                Recent payouts
              </h2>
              {data.recent_payouts.length === 0 ? (
                <p className="text-slate-600 text-sm">No payouts yet.</p>
              ) : (
                <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
                  {data.recent_payouts.map((p) => (
                    <li
                      key={p._id}
                      className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm"
                    >
                      <span className="min-w-40 font-medium text-slate-900">{p.seller_name}</span>
                      <span className="text-slate-600">{formatDate(p.created_at)}</span>
                      <span className="font-semibold tabular-nums">{formatMoney(p.amount_cents)}</span>
                      <Badge
                        tone={p.state === 'paid' ? 'accent' : p.state === 'failed' ? 'outline' : 'muted'}
                      >
                        {STATE_WORDS[p.state]}
                      </Badge>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <RecentSales
              sales={data.recent_sales}
              busyId={refund.isPending ? (refund.variables?.sale.booking_id ?? null) : null}
              onRefund={setAsked}
            />
          </div>
        )}
      </QueryState>
      {asked ? (
        <ConfirmDialog
          title="Refund this sale?"
          description={
            <div className="space-y-3">
              <RefundConsequences sale={asked} />
              <p>
                The refund does not include a return of the laptop: both sides are told so, and that they
                agree any return between them in Messages.
              </p>
              {refundReason.field}
            </div>
          }
          tone="danger"
          confirmLabel="Refund"
          isPending={refund.isPending}
          onConfirm={confirmRefund}
          onCancel={() => {
            setAsked(null)
            refundReason.reset()
          }}
        />
      ) : null}
    </>
  )
}

/** What an admin's refund does, in the sale's own figures, before they confirm it. */
function RefundConsequences({ sale }: { sale: FinanceSale }) {
  const { refund } = sale
  return (
    <div className="space-y-2">
      <p>
        {sale.buyer_name} gets <strong>{formatMoney(sale.price_cents)}</strong> back for {sale.product_name},
        through the processor that took the payment.
      </p>
      <p>
        {refund.effect === 'transfer_reversed' ? (
          <>
            The transfer of <strong>{formatMoney(refund.reversal_cents)}</strong> to {sale.seller_name}’s
            Stripe account is reversed: Stripe takes the seller’s share back from their account.
          </>
        ) : refund.effect === 'negative_balance' ? (
          <>
            {sale.seller_name}’s share of {formatMoney(sale.receive_cents)} was paid out already: their
            balance goes to{' '}
            <strong className="text-red-700">{formatSignedMoney(refund.seller_balance_after_cents)}</strong>{' '}
            until their next sales make it up.
          </>
        ) : (
          <>
            {sale.seller_name}’s share of {formatMoney(sale.receive_cents)} comes out of their balance, which
            was not paid out yet (it will be {formatSignedMoney(refund.seller_balance_after_cents)}).
          </>
        )}
      </p>
      <p>The marketplace’s fee of {formatMoney(sale.fee_cents)} is given back too. This cannot be undone.</p>
    </div>
  )
}

/** The latest completed sales, each with a Refund, disabled with the server's reason when it would refuse. */
function RecentSales({
  sales,
  busyId,
  onRefund,
}: {
  sales: FinanceSale[]
  busyId: string | null
  onRefund: (sale: FinanceSale) => void
}) {
  return (
    <section aria-labelledby="recent-sales" className="space-y-3">
      <h2 id="recent-sales" className="font-semibold text-lg text-slate-900">
        Completed sales
      </h2>
      <p className="text-slate-600 text-sm">
        The latest completed sales. A refund gives the buyer their money back and takes the seller’s share
        back; a disputed sale is refunded from Disputes.
      </p>
      {sales.length === 0 ? (
        <p className="text-slate-600 text-sm">No completed sales yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
          {sales.map((sale) => {
            const reasonId = `refund-reason-${sale.booking_id}`
            return (
              <li
                key={sale.booking_id}
                data-testid="finance-sale"
                className="flex flex-col gap-3 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="min-w-0 space-y-0.5">
                  <p className="font-medium text-slate-900">{sale.product_name}</p>
                  <p className="text-slate-600">
                    {sale.buyer_name} bought from {sale.seller_name} · completed{' '}
                    <time dateTime={sale.completed_at}>{formatDate(sale.completed_at)}</time>
                  </p>
                  <p className="text-slate-600 tabular-nums">
                    {MONEY_WORDS.price}{' '}
                    <span className="font-semibold text-slate-900">{formatMoney(sale.price_cents)}</span> ·{' '}
                    {MONEY_WORDS.fee} {formatMoney(sale.fee_cents)} · {MONEY_WORDS.seller_receives}{' '}
                    {formatMoney(sale.receive_cents)}
                  </p>
                </div>
                <div className="flex shrink-0 flex-col items-start gap-1 sm:items-end">
                  {sale.refunded ? (
                    <Badge tone="outline">Refunded</Badge>
                  ) : (
                    <>
                      <Button
                        size="sm"
                        variant="danger-outline"
                        disabled={!sale.refund.allowed || busyId === sale.booking_id}
                        aria-describedby={sale.refund.reason ? reasonId : undefined}
                        aria-label={`Refund the sale of ${sale.product_name}`}
                        onClick={() => onRefund(sale)}
                      >
                        Refund
                      </Button>
                      {sale.refund.reason ? (
                        <p id={reasonId} className="max-w-xs text-slate-600 text-xs sm:text-right">
                          {sale.refund.reason}
                        </p>
                      ) : null}
                    </>
                  )}
                </div>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
