import { QueryState } from '../../components/query-state'
import { Badge } from '../../components/ui/badge'
import { PageHeader } from '../../components/ui/page-header'
import { Skeleton } from '../../components/ui/skeleton'
import { kindLabel, utcTime } from '../admin'
import { useSession } from '../auth'
import { PasskeysSection } from './passkeys-section'
import { PasswordSection } from './password-section'
import { useSecurityEvents } from './security-api'
import { SessionsSection } from './sessions-section'
import { TwoStepSection } from './two-step-section'
import { YourDataSection } from './your-data-section'

function RecentActivity() {
  const events = useSecurityEvents()
  return (
    <section
      aria-labelledby="activity-heading"
      className="rounded-xl border border-slate-200 bg-white p-5 sm:p-6"
    >
      <h2 id="activity-heading" className="font-semibold text-lg text-slate-900">
        Recent security activity
      </h2>
      <p className="mt-1 text-slate-600 text-sm">
        Sign-ins and changes to how you sign in. Something you do not recognise? Change your password and sign
        out everywhere else.
      </p>
      <QueryState
        query={events}
        errorTitle="Could not load your activity"
        errorClassName="mt-4"
        loading={<Skeleton className="mt-4 h-24 w-full" />}
        empty={<p className="mt-4 text-slate-700">Nothing yet.</p>}
        isEmpty={(data) => data.items.length === 0}
      >
        {(data) => (
          <ul className="mt-4 divide-y divide-slate-200">
            {data.items.map((event) => (
              <li key={event.id} className="flex flex-wrap items-start justify-between gap-2 py-3 text-sm">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{kindLabel(event.kind)}</p>
                  <p className="break-all text-slate-600">
                    <time dateTime={event.at}>{utcTime(event.at)}</time>
                    {event.ip ? ` · ${event.ip}` : ''}
                    {event.user_agent ? ` · ${event.user_agent}` : ''}
                  </p>
                </div>
                {event.result === 'success' ? null : <Badge tone="outline">Failed</Badge>}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  )
}

/** `/dashboard/security`: how you sign in, where you are signed in, your data, and what happened lately. */
export function SecurityPage() {
  const { user } = useSession()
  return (
    <>
      <title>Security · Laptop Market</title>
      <PageHeader title="Security">
        <p>How you sign in, where you are signed in, what happened lately, and your data.</p>
      </PageHeader>
      <div className="max-w-2xl space-y-6">
        {user ? <PasswordSection person={user} isChangeAsked={user.password_change_asked === true} /> : null}
        <TwoStepSection isOn={user?.two_factor === true} />
        <PasskeysSection />
        <SessionsSection />
        <RecentActivity />
        <YourDataSection needsCode={user?.two_factor === true} />
      </div>
    </>
  )
}
