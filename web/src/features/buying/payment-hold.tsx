import { Clock } from 'lucide-react'
import { type ReactNode, useEffect, useState } from 'react'
import { Link } from 'react-router'
import { LoadFailed } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { Badge } from '../../components/ui/badge'
import { Button, buttonClasses } from '../../components/ui/button'
import { Skeleton } from '../../components/ui/skeleton'
import { isApiError } from '../../lib/api-client'
import { formatCountdown, formatTime } from '../../lib/format'
import { useHold } from './bookings-api'

/** The time now, again every second while mounted. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  return now
}

function holdUntilOf(error: unknown): string | null {
  if (!isApiError(error) || error.code !== 'RESERVED') return null
  const holdUntil = (error.body as { holdUntil?: unknown } | undefined)?.holdUntil
  return typeof holdUntil === 'string' ? holdUntil : null
}

/**
 * Opening the payment page holds the laptop for this booking (HOLD_SECONDS on the server). The card form
 * shows only while the hold lasts, under a countdown; another buyer's hold shows as "Reserved" with its
 * end, and an ended hold can be taken again.
 */
export function PaymentHold({ bookingId, children }: { bookingId: string; children: ReactNode }) {
  const hold = useHold(bookingId, true)
  const now = useNow()

  if (hold.isPending) {
    return (
      <div className="space-y-3 rounded-xl border border-slate-200 bg-white p-5" aria-busy="true">
        <span className="sr-only" role="status">
          Reserving this laptop for you
        </span>
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-10 w-full" />
      </div>
    )
  }

  if (hold.error) {
    const reservedUntil = holdUntilOf(hold.error)
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
          <Button variant={isOver ? 'primary' : 'secondary'} onClick={() => hold.refetch()}>
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
        onRetry={() => hold.refetch()}
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
      <Alert title="Your hold on this laptop has ended">
        <p>Other buyers could pay for it meanwhile. Hold it again to pay, if nobody else has.</p>
        <Button onClick={() => hold.refetch()}>Hold it again</Button>
      </Alert>
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
