import { Clock } from 'lucide-react'
import { type ReactNode, useEffect, useState } from 'react'
import { Link } from 'react-router'
import type { Booking } from '#contract/bookings'
import { LoadFailed } from '../../components/query-state'
import { Badge } from '../../components/ui/badge'
import { Button, buttonClasses } from '../../components/ui/button'
import { Skeleton } from '../../components/ui/skeleton'
import { isApiError } from '../../lib/api-client'
import { formatCountdown, formatTime } from '../../lib/format'
import { useHold } from './bookings-api'
import { CancelBookingButton } from './cancel-booking-button'

/** The time now, again every second while mounted. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  return now
}

/** The time a refused hold names: until when another buyer holds it (RESERVED), or when ours ended (HOLD_ENDED). */
function holdUntilOf(error: unknown, code: 'RESERVED' | 'HOLD_ENDED'): string | null {
  if (!isApiError(error) || error.code !== code) return null
  const holdUntil = (error.body as { holdUntil?: unknown } | undefined)?.holdUntil
  return typeof holdUntil === 'string' ? holdUntil : null
}

/**
 * The payment page's hold on the laptop (HOLD_SECONDS on the server). Opening the page takes the booking's first
 * hold; once one has ended, the page says "Your hold ended" and only "Hold it again" takes another (a visit never
 * does). The card form shows only while the hold lasts, under a countdown; another buyer's hold shows as "Reserved"
 * with its end.
 */
export function PaymentHold({
  booking,
  children,
}: {
  booking: Pick<Booking, '_id' | 'productName'>
  children: ReactNode
}) {
  const { hold, holdAgain } = useHold(booking._id)
  const now = useNow()

  if (hold.isPending) {
    return (
      <div className="space-y-3 rounded-xl border border-slate-200 bg-white p-5" aria-busy="true">
        <span className="sr-only" role="status">
          Checking your hold on this laptop
        </span>
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-10 w-full" />
      </div>
    )
  }

  if (hold.error) {
    const endedAt = holdUntilOf(hold.error, 'HOLD_ENDED')
    if (endedAt) {
      return (
        <HoldEnded booking={booking} endedAt={endedAt} isAsking={hold.isFetching} onHoldAgain={holdAgain} />
      )
    }
    const reservedUntil = holdUntilOf(hold.error, 'RESERVED')
    if (reservedUntil) {
      const isOver = Date.parse(reservedUntil) <= now
      return (
        <section
          aria-labelledby="reserved-heading"
          className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 text-slate-700"
        >
          <div className="flex flex-wrap items-center gap-3">
            <Badge tone="outline">Reserved</Badge>
            <h2 id="reserved-heading" className="font-semibold text-lg text-slate-900">
              Another buyer is paying for this laptop
            </h2>
          </div>
          <p>
            It is reserved until{' '}
            <time dateTime={reservedUntil} className="font-semibold text-slate-900">
              {formatTime(reservedUntil)}
            </time>
            {isOver ? '.' : ` (${formatCountdown(Date.parse(reservedUntil) - now)} from now).`} If they have
            not paid by then, you can pay for it.
          </p>
          <Button variant={isOver ? 'primary' : 'secondary'} onClick={holdAgain}>
            {isOver ? 'Pay for it now' : 'Check again'}
          </Button>
        </section>
      )
    }
    // 403: the buyer's email address is not confirmed yet; Settings sends the link again.
    const needsConfirmedEmail = isApiError(hold.error) && hold.error.status === 403
    return (
      <LoadFailed
        title="We could not hold this laptop for you"
        error={hold.error}
        onRetry={holdAgain}
        actions={
          needsConfirmedEmail ? (
            <Link to="/dashboard/settings" className={buttonClasses()}>
              Open Settings
            </Link>
          ) : null
        }
      />
    )
  }

  // The ticking `now` may be up to a second older than the answer that set the hold: reading the clock here
  // keeps a fresh 15-minute hold from starting at 15:01.
  const left = Date.parse(hold.data.holdUntil) - Math.max(now, Date.now())
  if (left <= 0) {
    return (
      <HoldEnded
        booking={booking}
        endedAt={hold.data.holdUntil}
        isAsking={hold.isFetching}
        onHoldAgain={holdAgain}
      />
    )
  }
  return (
    <div className="space-y-4">
      <p className="flex items-center gap-2 rounded-lg border border-accent/30 bg-accent-soft/40 px-4 py-3 text-slate-800">
        <Clock aria-hidden="true" className="size-5 shrink-0 text-accent" />
        <span>
          This laptop is held for you for{' '}
          <strong className="font-mono text-slate-900 tabular-nums" data-testid="hold-countdown">
            {formatCountdown(left)}
          </strong>
          <span className="sr-only">
            {' '}
            (until <time dateTime={hold.data.holdUntil}>{formatTime(hold.data.holdUntil)}</time>)
          </span>
          : nobody else can pay for it meanwhile.
        </span>
      </p>
      {children}
    </div>
  )
}

/**
 * The booking's hold is over, ended while the page was open or before it was opened: the buyer holds it again
 * (if nobody else has) or cancels the booking. Nothing is held until they choose.
 */
function HoldEnded({
  booking,
  endedAt,
  isAsking,
  onHoldAgain,
}: {
  booking: Pick<Booking, '_id' | 'productName'>
  endedAt: string
  isAsking: boolean
  onHoldAgain: () => void
}) {
  return (
    <section
      aria-labelledby="hold-ended-heading"
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 text-slate-700"
    >
      <div className="flex flex-wrap items-center gap-3">
        <Badge tone="muted">Not held</Badge>
        <h2 id="hold-ended-heading" className="font-semibold text-lg text-slate-900">
          Your hold ended
        </h2>
      </div>
      <p>
        The laptop was held for you until{' '}
        <time dateTime={endedAt} className="font-semibold text-slate-900">
          {formatTime(endedAt)}
        </time>
        . Since then other buyers can pay for it, and nothing is held for you. Hold it again to pay, if nobody
        else has, or cancel the booking if you no longer want it.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button onClick={onHoldAgain} disabled={isAsking}>
          Hold it again
        </Button>
        <CancelBookingButton booking={booking} size="md" />
      </div>
    </section>
  )
}
