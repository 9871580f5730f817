import { QueryState } from '../../components/query-state'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { Skeleton } from '../../components/ui/skeleton'
import { errorMessage } from '../../lib/api-client'
import { formatDate } from '../../lib/format'
import { toast } from '../../lib/toast'
import { useEndSessions, useSessions } from './security-api'

/** "Nov 28, 2026, 12:40 UTC": the same on the server's page and in the browser. */
export function sessionTime(iso: string): string {
  const day = formatDate(iso)
  return day ? `${day}, ${iso.slice(11, 16)} UTC` : ''
}

/**
 * Where you are signed in, each session named by its device, when it signed in and from which address, and
 * signing out any or all others (each Sign out button says which session it ends).
 */
export function SessionsSection() {
  const sessions = useSessions()
  const end = useEndSessions()
  const others = sessions.data?.items.filter((s) => !s.current).length ?? 0

  const endSessions = (id?: string) =>
    end.mutate(id, {
      onSuccess: ({ endedCount }) =>
        toast.success(endedCount === 1 ? 'Signed out 1 session' : `Signed out ${endedCount} sessions`),
      onError: (err) => toast.error(errorMessage(err, 'Could not sign out. Please try again.')),
    })

  return (
    <section
      aria-labelledby="sessions-heading"
      className="rounded-xl border border-slate-200 bg-white p-5 sm:p-6"
    >
      <h2 id="sessions-heading" className="font-semibold text-lg text-slate-900">
        Where you are signed in
      </h2>
      <QueryState
        query={sessions}
        errorTitle="Could not load your sessions"
        errorClassName="mt-4"
        loading={<Skeleton className="mt-4 h-20 w-full" />}
      >
        {(data) => (
          <>
            <ul aria-label="Sessions" className="mt-3 divide-y divide-slate-200">
              {data.items.map((s) => (
                <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                      {s.browser}
                      {s.current ? <Badge tone="accent">This device</Badge> : null}
                    </p>
                    <p className="text-slate-600">
                      Signed in <time dateTime={s.created_at}>{sessionTime(s.created_at)}</time> from{' '}
                      <span className="[overflow-wrap:anywhere]">{s.place}</span>
                    </p>
                    <p className="text-slate-500">
                      Last seen <time dateTime={s.last_seen}>{sessionTime(s.last_seen)}</time>
                    </p>
                  </div>
                  {s.current ? null : (
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={end.isPending}
                      aria-label={`Sign out ${s.browser}, signed in ${sessionTime(s.created_at)}`}
                      onClick={() => endSessions(s.id)}
                    >
                      Sign out
                    </Button>
                  )}
                </li>
              ))}
            </ul>
            <Button
              variant="danger-outline"
              className="mt-3"
              disabled={end.isPending || others === 0}
              onClick={() => endSessions()}
            >
              Sign out everywhere else
            </Button>
          </>
        )}
      </QueryState>
    </section>
  )
}
