import { QueryState } from '../../components/query-state'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { Skeleton } from '../../components/ui/skeleton'
import { errorMessage } from '../../lib/api-client'
import { toast } from '../../lib/toast'
import { utcTime } from '../admin'
import { useEndSessions, useSessions } from './security-api'

/** Where you are signed in, and signing out any or all others. */
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
                    <p className="break-all text-slate-600">
                      {s.place} · last seen <time dateTime={s.last_seen}>{utcTime(s.last_seen)}</time>
                    </p>
                  </div>
                  {s.current ? null : (
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={end.isPending}
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
