import { zodResolver } from '@hookform/resolvers/zod'
import { CalendarClock, Download, FlaskConical, Landmark } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useSearchParams } from 'react-router'
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { type Earnings, type PayoutAccount, TestBankAccount } from '#contract/payouts'
import { earningsCsv, MONEY_WORDS, WHERE_WORDS } from '#contract/seller-money'
import { SellerMoneyFigures } from '../../components/money/seller-money'
import { LoadFailed } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { PageHeader } from '../../components/ui/page-header'
import { Skeleton } from '../../components/ui/skeleton'
import { errorMessage, isApiError } from '../../lib/api-client'
import { formatDate, formatMoney } from '../../lib/format'
import { toast } from '../../lib/toast'
import { ChartCard } from '../dashboard'
import { useEarnings, usePayoutAccount, useSetUpPayouts, useUndoPayoutChange } from './earnings-api'
import { nextPayoutWords } from './next-payout'

const PAYOUT_STATE_WORDS: Record<Earnings['payouts'][number]['state'], string> = {
  pending: 'Being sent',
  in_transit: MONEY_WORDS.on_its_way,
  paid: 'Paid',
  failed: 'Failed: back in your balance',
}

const monthLabel = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' })

/** Stripe's documented test bank numbers, which the built-in processor answers the same way. */
const TEST_BANK = [
  { number: '000123456789', outcome: 'pays out' },
  { number: '000111111116', outcome: 'fails at payout' },
] as const

function BankForm({ onDone }: { onDone?: () => void }) {
  const setUp = useSetUpPayouts()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<TestBankAccount>({
    resolver: zodResolver(TestBankAccount),
    defaultValues: { account_holder: '', routing_number: '', account_number: '' },
  })
  const submit = handleSubmit((bank) =>
    setUp.mutate(bank, {
      onSuccess: () => {
        toast.success('Payouts are set up')
        onDone?.()
      },
      onError: (err) => {
        toast.error(errorMessage(err))
        if (!isApiError(err)) return
        for (const field of ['account_holder', 'routing_number', 'account_number'] as const) {
          const message = err.fields?.[field]
          if (message) setError(field, { message })
        }
      },
    }),
  )
  return (
    <form noValidate onSubmit={submit} className="mt-4 space-y-4" aria-label="Bank account for payouts">
      <div className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950 text-sm">
        <p className="flex items-center gap-2 font-semibold text-base">
          <FlaskConical aria-hidden="true" className="size-5" />
          Test mode
        </p>
        <p className="mt-1">
          No real money moves. Use routing number <span className="font-mono font-semibold">110000000</span>{' '}
          with one of these account numbers:
        </p>
        <ul className="mt-2 space-y-1">
          {TEST_BANK.map((a) => (
            <li key={a.number}>
              <span className="font-mono font-semibold tabular-nums">{a.number}</span> {a.outcome}
            </li>
          ))}
        </ul>
      </div>
      <FormField label="Account holder" error={errors.account_holder?.message}>
        <input autoComplete="name" {...register('account_holder')} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Routing number" error={errors.routing_number?.message}>
          <input inputMode="numeric" autoComplete="off" {...register('routing_number')} />
        </FormField>
        <FormField label="Account number" error={errors.account_number?.message}>
          <input inputMode="numeric" autoComplete="off" {...register('account_number')} />
        </FormField>
      </div>
      <Button type="submit" disabled={setUp.isPending}>
        {setUp.isPending ? 'Saving…' : 'Save bank account'}
      </Button>
    </form>
  )
}

function PayoutSetup({
  account,
  availableCents,
  nextPayoutAt,
}: {
  account: PayoutAccount
  availableCents: number
  nextPayoutAt: string
}) {
  const [editing, setEditing] = useState(false)
  const setUp = useSetUpPayouts()
  const startStripe = () =>
    setUp.mutate(
      {},
      {
        onSuccess: ({ url }) => window.location.assign(url),
        onError: (err) => toast.error(errorMessage(err)),
      },
    )
  const status =
    account.status === 'enabled' ? (
      <Badge tone="accent">Payouts on</Badge>
    ) : account.status === 'none' ? (
      <Badge tone="outline">Not set up</Badge>
    ) : (
      <Badge tone="muted">{account.status === 'pending' ? 'Setup not finished' : 'Payouts stopped'}</Badge>
    )
  return (
    <section
      aria-labelledby="payout-setup"
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="payout-setup" className="flex items-center gap-2 font-semibold text-lg text-slate-900">
          <Landmark aria-hidden="true" className="size-5 text-accent" />
          Where we pay you
        </h2>
        {status}
      </div>
      {account.status === 'enabled' && !editing ? (
        <div className="mt-2 space-y-3 text-slate-700 text-sm">
          <p>
            Payouts go to {account.account_holder ? `${account.account_holder}’s ` : ''}account ending{' '}
            <span className="font-mono font-semibold">{account.account_last4}</span>
            {account.routing_number ? ` (routing ${account.routing_number})` : ''}.
          </p>
          {account.payable_from ? (
            <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950" role="status">
              New bank details: for your safety, payouts to this account start{' '}
              <span className="font-semibold">{nextPayoutWords(account.payable_from)}</span>. Until then your
              balance waits here; nothing is lost.
            </p>
          ) : (
            <p className="flex items-center gap-2">
              <CalendarClock aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
              <span>
                Next payout: <span className="font-semibold">{nextPayoutWords(nextPayoutAt)}</span>
              </span>
            </p>
          )}
          {account.mode === 'test' ? (
            <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
              Change bank account
            </Button>
          ) : null}
        </div>
      ) : (
        <>
          {account.problem ? (
            <Alert tone="error" title="Payouts are stopped" className="mt-3">
              <p>{account.problem}</p>
            </Alert>
          ) : account.status === 'none' ? (
            <p className="mt-2 text-slate-700 text-sm">
              {availableCents > 0
                ? `Set up payouts to receive ${formatMoney(availableCents)}. `
                : 'You can list and sell before this; your money waits for you. '}
              Tell us where to pay you.
            </p>
          ) : null}
          {account.mode === 'test' ? (
            <BankForm onDone={() => setEditing(false)} />
          ) : (
            <Button className="mt-4" onClick={startStripe} disabled={setUp.isPending}>
              {account.status === 'none' ? 'Set up payouts with Stripe' : 'Continue setup with Stripe'}
            </Button>
          )}
        </>
      )}
    </section>
  )
}

function MonthlyChart({ months }: { months: Earnings['months'] }) {
  const data = months.map((m) => ({
    label: monthLabel.format(new Date(`${m.month}-01T00:00:00Z`)),
    dollars: m.net_cents / 100,
    sales: m.sales,
  }))
  const total = months.reduce((s, m) => s + m.net_cents, 0)
  return (
    <ChartCard title="Earnings by month" description="What you received from completed sales, after the fee.">
      <p className="sr-only">
        Earnings by month, last twelve months: {formatMoney(total)} in all.{' '}
        {months
          .filter((m) => m.sales > 0)
          .map((m) => `${m.month}: ${formatMoney(m.net_cents)}`)
          .join('; ')}
      </p>
      <div className="mt-3 h-56" aria-hidden="true" data-testid="chart-drawing">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={data} margin={{ top: 4, right: 8, left: 0, bottom: 0 }}>
            <CartesianGrid stroke="#e2e8f0" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 12, fill: '#475569' }} interval="preserveStartEnd" />
            <YAxis
              tick={{ fontSize: 12, fill: '#475569' }}
              width={48}
              tickFormatter={(v: number) => `$${v}`}
            />
            <Tooltip formatter={(v) => formatMoney(Math.round(Number(v) * 100))} />
            <Bar
              dataKey="dollars"
              name="Earned"
              fill="#0f766e"
              radius={[3, 3, 0, 0]}
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </ChartCard>
  )
}

function downloadCsv(earnings: Earnings) {
  const blob = new Blob([earningsCsv(earnings.sales)], { type: 'text/csv;charset=utf-8' })
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = `laptop-market-earnings-${new Date().toISOString().slice(0, 10)}.csv`
  document.body.append(a)
  a.click()
  a.remove()
  URL.revokeObjectURL(url)
}

/**
 * `/dashboard/earnings`: where the seller is paid, their money (held, available, on its way, paid out, fees),
 * a chart by month, each sale with its fee and where its money is, their payouts, and a CSV of the sales.
 */
/** `?undo=<change>`, from the email about a change of payout details: asks, then puts the previous details back. */
function UndoPayoutChange() {
  const [params, setParams] = useSearchParams()
  const changeId = params.get('undo')
  const undo = useUndoPayoutChange()
  if (!changeId) return null
  const close = () => {
    const next = new URLSearchParams(params)
    next.delete('undo')
    setParams(next, { replace: true })
  }
  return (
    <section
      aria-labelledby="undo-payout-change"
      className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-950 sm:p-6"
    >
      <h2 id="undo-payout-change" className="font-semibold text-lg">
        Undo the change to your payout details?
      </h2>
      <p className="mt-2 text-sm">
        Your previous bank details come back as they were, and any change made after this one is undone too.
        If you did not make the change, change your password next.
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Button
          variant="danger"
          disabled={undo.isPending}
          onClick={() =>
            undo.mutate(changeId, {
              onSuccess: () => {
                toast.success('Your previous payout details are back')
                close()
              },
              onError: (err) => toast.error(errorMessage(err)),
            })
          }
        >
          Undo the change
        </Button>
        <Button variant="secondary" onClick={close} disabled={undo.isPending}>
          Keep it
        </Button>
      </div>
    </section>
  )
}

export function EarningsPage() {
  const earnings = useEarnings()
  const account = usePayoutAccount()

  return (
    <>
      <title>Earnings · Laptop Market</title>
      <PageHeader title="Earnings">
        <p>Your money from sales: held until each buyer confirms, then paid out to your bank.</p>
      </PageHeader>
      {earnings.isPending || account.isPending ? (
        <div className="space-y-4" role="status" aria-label="Loading your earnings">
          <Skeleton className="h-32 w-full" />
          <div className="grid grid-cols-2 gap-4 lg:grid-cols-5">
            {[0, 1, 2, 3, 4].map((n) => (
              <Skeleton key={n} className="h-24" />
            ))}
          </div>
        </div>
      ) : earnings.isError || account.isError ? (
        <LoadFailed
          title="Could not load your earnings"
          error={earnings.error ?? account.error}
          onRetry={() => {
            void earnings.refetch()
            void account.refetch()
          }}
        />
      ) : (
        <div className="space-y-6">
          <UndoPayoutChange />
          <PayoutSetup
            account={account.data}
            availableCents={earnings.data.available_cents}
            nextPayoutAt={earnings.data.next_payout_at}
          />
          {earnings.data.available_cents < 0 ? (
            <Alert tone="error" title="A refund came after your payout">
              <p>
                You owe {formatMoney(-earnings.data.available_cents)}: a sale was refunded after its money was
                paid out to you. It comes out of your next sales before anything is paid out again.
              </p>
            </Alert>
          ) : null}
          <SellerMoneyFigures
            money={earnings.data}
            availableNote={`Paid out once it reaches ${formatMoney(earnings.data.payout_minimum_cents)}`}
            feesNote={`${earnings.data.fee.percent}% of each sale${
              earnings.data.fee.min_cents > 0 ? `, at least ${formatMoney(earnings.data.fee.min_cents)}` : ''
            }`}
          />
          <MonthlyChart months={earnings.data.months} />
          <section aria-labelledby="sales-heading" className="space-y-3">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id="sales-heading" className="font-semibold text-lg text-slate-900">
                Sales
              </h2>
              <Button
                variant="secondary"
                size="sm"
                disabled={earnings.data.sales.length === 0}
                onClick={() => downloadCsv(earnings.data)}
              >
                <Download aria-hidden="true" className="size-4" />
                Export CSV
              </Button>
            </div>
            {earnings.data.sales.length === 0 ? (
              <p className="text-slate-600 text-sm">No paid sales yet.</p>
            ) : (
              <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
                <table className="w-full text-left text-sm tabular-nums">
                  <thead className="bg-slate-50 text-slate-600">
                    <tr>
                      <th scope="col" className="px-3 py-2 font-medium">
                        Laptop
                      </th>
                      <th scope="col" className="hidden px-3 py-2 font-medium sm:table-cell">
                        Paid on
                      </th>
                      <th scope="col" className="hidden px-3 py-2 text-right font-medium sm:table-cell">
                        {MONEY_WORDS.price}
                      </th>
                      <th scope="col" className="hidden px-3 py-2 text-right font-medium sm:table-cell">
                        {MONEY_WORDS.fee}
                      </th>
                      <th scope="col" className="px-3 py-2 text-right font-medium">
                        {MONEY_WORDS.receive}
                      </th>
                      <th scope="col" className="px-3 py-2 font-medium">
                        Where it is
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {earnings.data.sales.map((s) => (
                      <tr key={s.booking_id}>
                        <th scope="row" className="px-3 py-2 font-medium text-slate-900">
                          {s.product_name}
                        </th>
                        <td className="hidden px-3 py-2 text-slate-700 sm:table-cell">
                          {s.paid_at ? formatDate(s.paid_at) : '—'}
                        </td>
                        <td className="hidden px-3 py-2 text-right sm:table-cell">
                          {formatMoney(s.price_cents)}
                        </td>
                        <td className="hidden px-3 py-2 text-right text-slate-600 sm:table-cell">
                          −{formatMoney(s.fee_cents)}
                        </td>
                        <td className="px-3 py-2 text-right font-semibold">{formatMoney(s.receive_cents)}</td>
                        <td className="px-3 py-2 text-slate-700">{WHERE_WORDS[s.where]}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          <section aria-labelledby="payouts-heading" className="space-y-3">
            <h2 id="payouts-heading" className="font-semibold text-lg text-slate-900">
              Payouts
            </h2>
            {earnings.data.payouts.length === 0 ? (
              <p className="text-slate-600 text-sm">No payouts yet.</p>
            ) : (
              <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
                {earnings.data.payouts.map((p) => (
                  <li
                    key={p._id}
                    className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm"
                  >
                    <span className="text-slate-700">{formatDate(p.created_at)}</span>
                    <span className="font-semibold tabular-nums">{formatMoney(p.amount_cents)}</span>
                    <span className="text-slate-600">
                      {p.account_last4 ? (
                        <>
                          To account ending <span className="font-mono">{p.account_last4}</span>
                        </>
                      ) : (
                        'To your bank account'
                      )}
                    </span>
                    <Badge tone={p.state === 'paid' ? 'accent' : p.state === 'failed' ? 'outline' : 'muted'}>
                      {PAYOUT_STATE_WORDS[p.state]}
                    </Badge>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </>
  )
}
