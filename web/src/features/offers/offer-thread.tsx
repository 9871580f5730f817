import { type FormEvent, useEffect, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import type { Offer, OfferEvent, OfferState } from '#contract/offers'
import { paths } from '#contract/pages'
import { plural } from '#contract/plural'
import { Badge, type BadgeTone } from '../../components/ui/badge'
import { Button, buttonClasses } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { errorMessage, isApiError } from '../../lib/api-client'
import { formatDate, formatMoney, formatTime } from '../../lib/format'
import { toast } from '../../lib/toast'
import { type OfferStep, useOfferStep } from './offers-api'

const STATE_LABEL: Record<OfferState, string> = {
  open: 'Open',
  accepted: 'Accepted',
  paid: 'Paid',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
  expired: 'Expired',
  lapsed: 'Lapsed',
}
const STATE_TONE: Record<OfferState, BadgeTone> = {
  open: 'accent',
  accepted: 'accent',
  paid: 'neutral',
  declined: 'muted',
  withdrawn: 'muted',
  expired: 'muted',
  lapsed: 'muted',
}

export function OfferStateBadge({ state }: { state: OfferState }) {
  return <Badge tone={STATE_TONE[state]}>{STATE_LABEL[state]}</Badge>
}

/** "2 days 3 hours", "5 hours 10 minutes", "12 minutes": what is left before a deadline. */
export function timeLeft(untilIso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((Date.parse(untilIso) - now) / 60_000))
  if (minutes >= 24 * 60) {
    const days = Math.floor(minutes / 1440)
    const hours = Math.floor((minutes % 1440) / 60)
    return hours ? `${plural(days, 'day')} ${plural(hours, 'hour')}` : plural(days, 'day')
  }
  if (minutes >= 60) {
    const hours = Math.floor(minutes / 60)
    const rest = minutes % 60
    return rest ? `${plural(hours, 'hour')} ${plural(rest, 'minute')}` : plural(hours, 'hour')
  }
  return plural(Math.max(1, minutes), 'minute')
}

/** One line of a minute-ticking clock, so "time left" moves while the page is open. */
function useNow(intervalMs = 30_000) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(timer)
  }, [intervalMs])
  return now
}

/** What the card of one step says, from the reader's side. */
function eventText(event: OfferEvent, offer: Offer): string {
  const who = (side: 'buyer' | 'seller' | null) =>
    side === null
      ? 'Laptop Market'
      : side === offer.role
        ? 'You'
        : side === 'buyer'
          ? offer.buyerName
          : offer.sellerName
  const amount = event.amount_cents === null ? '' : formatMoney(event.amount_cents)
  switch (event.kind) {
    case 'offer':
      return `${who(event.by)} offered ${amount}`
    case 'counter':
      return `${who(event.by)} countered with ${amount}`
    case 'accepted':
      return `${who(event.by)} accepted ${amount}`
    case 'declined':
      return `${who(event.by)} declined the offer`
    case 'withdrawn':
      return `${who(event.by)} withdrew the offer`
    case 'expired':
      return 'The offer expired without an answer'
    case 'lapsed':
      return 'The accepted offer lapsed: it was not paid in time'
    case 'sold':
      return 'The laptop sold to another buyer'
    case 'off_sale':
      return 'The laptop is no longer on sale, so the offer closed'
  }
}

/**
 * An offer's thread: each step as its own card (amount, who, when), the latest with the offer's state and time
 * left, and what the reader can do now (accept, counter, decline or withdraw; pay once accepted).
 */
export function OfferThread({ offer }: { offer: Offer }) {
  const now = useNow()
  const last = offer.events.length - 1
  return (
    <section aria-label={`Offer for ${offer.productName}`} className="space-y-3" data-testid="offer-thread">
      <ol className="space-y-3">
        {offer.events.map((event, i) => {
          const fromMe = event.by === offer.role
          return (
            <li
              // Steps never change once written: their order is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={i}
              data-testid="offer-card"
              className={`max-w-xl rounded-xl border p-4 shadow-sm ${
                fromMe ? 'ml-auto border-accent/30 bg-accent-soft/40' : 'border-slate-200 bg-white'
              }`}
            >
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="font-medium text-slate-900">{eventText(event, offer)}</p>
                {event.amount_cents !== null ? (
                  <p className="font-semibold text-2xl text-slate-900 tabular-nums">
                    {formatMoney(event.amount_cents)}
                  </p>
                ) : null}
              </div>
              {event.note ? (
                <p className="mt-1 whitespace-pre-wrap text-slate-700 text-sm">
                  {event.kind === 'declined' ? 'Reason: ' : ''}“{event.note}”
                </p>
              ) : null}
              <p className="mt-2 flex flex-wrap items-center gap-2 text-slate-600 text-xs">
                <time dateTime={event.createdAt} suppressHydrationWarning>
                  {formatDate(event.createdAt)}, {formatTime(event.createdAt)}
                </time>
                {i === last ? (
                  <>
                    <OfferStateBadge state={offer.state} />
                    {offer.state === 'open' && offer.expiresAt ? (
                      <span data-testid="offer-time-left">
                        {timeLeft(offer.expiresAt, now)} left for the {offer.waitingFor}'s answer
                      </span>
                    ) : null}
                    {offer.state === 'accepted' && offer.payBy ? (
                      <span data-testid="offer-time-left">{timeLeft(offer.payBy, now)} left to pay</span>
                    ) : null}
                  </>
                ) : null}
              </p>
            </li>
          )
        })}
      </ol>
      <OfferActions offer={offer} />
    </section>
  )
}

function OfferActions({ offer }: { offer: Offer }) {
  const step = useOfferStep(offer._id)
  const navigate = useNavigate()
  const [form, setForm] = useState<'counter' | 'decline' | null>(null)
  const [amount, setAmount] = useState('')
  const [text, setText] = useState('')
  const [fieldError, setFieldError] = useState<string | undefined>()
  const mine = offer.role
  const myTurn = offer.state === 'open' && offer.waitingFor === mine

  function run(s: OfferStep, done: string) {
    step.mutate(s, {
      onSuccess: (answer) => {
        toast.success(done)
        setForm(null)
        setAmount('')
        setText('')
        if (answer.state === 'accepted' && answer.bookingId && mine === 'buyer')
          navigate(paths.payment(answer.bookingId))
      },
      onError: (err) => {
        toast.error(errorMessage(err))
        if (isApiError(err)) setFieldError(err.fields?.amount ?? err.fields?.reason)
      },
    })
  }

  function submitForm(event: FormEvent) {
    event.preventDefault()
    if (form === 'counter') {
      const dollars = Number(amount.replace(/[$,\s]/g, ''))
      if (!amount.trim() || !Number.isFinite(dollars) || dollars <= 0) {
        setFieldError('Enter an amount in dollars')
        return
      }
      setFieldError(undefined)
      run({ action: 'counter', amount: dollars, note: text.trim() || undefined }, 'Counter-offer sent')
    } else if (form === 'decline') {
      run({ action: 'decline', reason: text.trim() || undefined }, 'Offer declined')
    }
  }

  if (offer.state === 'accepted') {
    return mine === 'buyer' && offer.bookingId ? (
      <div className="flex flex-wrap items-center gap-3">
        <Link to={paths.payment(offer.bookingId)} className={buttonClasses('primary', 'md')}>
          Pay {formatMoney(offer.amount_cents)}
        </Link>
        <p className="text-slate-600 text-sm">The laptop is held for you while you pay.</p>
      </div>
    ) : (
      <p className="text-slate-600 text-sm">
        Agreed at {formatMoney(offer.amount_cents)}: waiting for the buyer to pay.
      </p>
    )
  }
  if (offer.state === 'paid') {
    return (
      <p className="text-slate-600 text-sm">
        Sold at {formatMoney(offer.amount_cents)}. Follow the sale in{' '}
        <Link className="text-accent underline" to={mine === 'buyer' ? paths.myOrders() : paths.myProduct()}>
          {mine === 'buyer' ? 'My Orders' : 'My Product'}
        </Link>
        .
      </p>
    )
  }
  if (offer.state !== 'open') return null

  const busy = step.isPending
  return (
    <div className="space-y-3 rounded-xl border border-slate-200 bg-slate-50 p-4">
      {myTurn ? (
        <>
          <p className="text-slate-700 text-sm">
            {mine === 'seller' ? 'Your listing asks' : 'The seller asks'}{' '}
            {formatMoney(offer.asking_price_cents)}.{' '}
            {offer.roundsLeft > 0
              ? `${plural(offer.roundsLeft, 'more round', 'more rounds')} of counter-offers allowed.`
              : 'This is the last round: no more counter-offers.'}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button disabled={busy} onClick={() => run({ action: 'accept' }, 'Offer accepted')}>
              Accept {formatMoney(offer.amount_cents)}
            </Button>
            {offer.roundsLeft > 0 ? (
              <Button
                variant="secondary"
                disabled={busy}
                onClick={() => setForm(form === 'counter' ? null : 'counter')}
              >
                Counter
              </Button>
            ) : null}
            {mine === 'seller' ? (
              <Button
                variant="danger-outline"
                disabled={busy}
                onClick={() => setForm(form === 'decline' ? null : 'decline')}
              >
                Decline
              </Button>
            ) : (
              <Button
                variant="danger-outline"
                disabled={busy}
                onClick={() => run({ action: 'withdraw' }, 'Offer withdrawn')}
              >
                Withdraw
              </Button>
            )}
          </div>
        </>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-slate-700 text-sm">Waiting for the {offer.waitingFor}'s answer.</p>
          {mine === 'buyer' ? (
            <Button
              size="sm"
              variant="danger-outline"
              disabled={busy}
              onClick={() => run({ action: 'withdraw' }, 'Offer withdrawn')}
            >
              Withdraw
            </Button>
          ) : null}
        </div>
      )}
      {form ? (
        <form noValidate onSubmit={submitForm} className="space-y-3">
          {form === 'counter' ? (
            <FormField
              label="Your counter-offer ($)"
              hint={
                mine === 'seller'
                  ? `Between ${formatMoney(offer.amount_cents)} and ${formatMoney(offer.asking_price_cents)}.`
                  : `More than your last offer, less than ${formatMoney(offer.amount_cents)}.`
              }
              error={fieldError}
            >
              <input
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
              />
            </FormField>
          ) : null}
          <FormField
            label={form === 'counter' ? 'Note (optional)' : 'Reason (optional)'}
            error={form === 'decline' ? fieldError : undefined}
          >
            <input value={text} maxLength={500} onChange={(e) => setText(e.target.value)} />
          </FormField>
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={busy}>
              {form === 'counter' ? 'Send counter-offer' : 'Decline offer'}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setForm(null)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
    </div>
  )
}
