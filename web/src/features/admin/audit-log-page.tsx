import { type FormEvent, useState } from 'react'
import { AUDIT_KINDS, type AuditEntry, type AuditKind } from '#contract/audit'
import { QueryState } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { inputClasses } from '../../components/ui/form-field'
import { PageHeader } from '../../components/ui/page-header'
import { Skeleton } from '../../components/ui/skeleton'
import { type AuditFilters, useAuditLog } from './audit-api'

/** An instant as the log keeps it: UTC, to the second. */
export function utcTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`
}

export function kindLabel(kind: string): string {
  return AUDIT_KINDS[kind as AuditKind] ?? kind
}

function ResultBadge({ result }: { result: AuditEntry['result'] }) {
  if (result === 'success') return <Badge tone="accent">Done</Badge>
  return <Badge tone="outline">{result === 'denied' ? 'Refused' : 'Failed'}</Badge>
}

/** A date field's day as the start (or the end) of that day in UTC. */
function dayBound(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined
  return `${day}T${end ? '23:59:59.999' : '00:00:00.000'}Z`
}

/** `/dashboard/audit-log`: who did what, on what, when and from where; filters by person, kind and day. */
export function AuditLogPage() {
  const [filters, setFilters] = useState<AuditFilters>({ page: 1 })
  const [draft, setDraft] = useState({ email: '', kind: '', since: '', until: '' })
  const log = useAuditLog(filters)

  const apply = (e: FormEvent) => {
    e.preventDefault()
    setFilters({
      page: 1,
      actor_email: draft.email.trim() || undefined,
      kind: draft.kind || undefined,
      since: dayBound(draft.since, false),
      until: dayBound(draft.until, true),
    })
  }

  return (
    <>
      <title>Audit log · Laptop Market</title>
      <PageHeader title="Audit log">
        <p>Every admin action, security event and payment, newest first. Times are in UTC.</p>
      </PageHeader>
      <form
        onSubmit={apply}
        aria-label="Filter the audit log"
        className="mb-6 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-5"
      >
        <label className="text-slate-700 text-sm">
          Person (email)
          <input
            type="email"
            className={`${inputClasses} mt-1`}
            value={draft.email}
            onChange={(e) => setDraft({ ...draft, email: e.target.value })}
          />
        </label>
        <label className="text-slate-700 text-sm">
          Kind
          <select
            className={`${inputClasses} mt-1`}
            value={draft.kind}
            onChange={(e) => setDraft({ ...draft, kind: e.target.value })}
          >
            <option value="">Any</option>
            {Object.entries(AUDIT_KINDS).map(([kind, label]) => (
              <option key={kind} value={kind}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-slate-700 text-sm">
          From (UTC day)
          <input
            type="date"
            className={`${inputClasses} mt-1`}
            value={draft.since}
            onChange={(e) => setDraft({ ...draft, since: e.target.value })}
          />
        </label>
        <label className="text-slate-700 text-sm">
          To (UTC day)
          <input
            type="date"
            className={`${inputClasses} mt-1`}
            value={draft.until}
            onChange={(e) => setDraft({ ...draft, until: e.target.value })}
          />
        </label>
        <div className="flex items-end">
          <Button type="submit" className="w-full">
            Show
          </Button>
        </div>
      </form>
      <QueryState
        query={log}
        errorTitle="Could not load the audit log"
        loading={<Skeleton className="h-64 w-full" />}
        empty={<Alert title="Nothing matches these filters" />}
        isEmpty={(data) => data.items.length === 0}
      >
        {(data) => (
          <ol
            aria-label="Audit entries"
            className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
          >
            {data.items.map((entry) => (
              <li
                key={entry.id}
                className="grid gap-1 p-4 text-sm sm:grid-cols-[12rem_1fr_auto] sm:items-start sm:gap-4"
              >
                <time dateTime={entry.at} className="text-slate-600 tabular-nums">
                  {utcTime(entry.at)}
                </time>
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{kindLabel(entry.kind)}</p>
                  <p className="break-all text-slate-700">
                    {entry.actor_email ?? 'Someone not signed in'}
                    {entry.target ? (
                      <span className="text-slate-500">
                        {' · on '}
                        <span
                          title={entry.target}
                          className={entry.target_label ? 'text-slate-700' : undefined}
                        >
                          {entry.target_label ?? entry.target}
                        </span>
                      </span>
                    ) : null}
                  </p>
                  <p className="break-all text-slate-500 text-xs">
                    {entry.ip ?? 'no address'}
                    {entry.user_agent ? ` · ${entry.user_agent}` : ''}
                    {entry.detail ? ` · ${entry.detail}` : ''}
                  </p>
                </div>
                <ResultBadge result={entry.result} />
              </li>
            ))}
          </ol>
        )}
      </QueryState>
      <div className="mt-4 flex items-center justify-between gap-3">
        <Button
          variant="secondary"
          disabled={filters.page <= 1}
          onClick={() => setFilters({ ...filters, page: filters.page - 1 })}
        >
          Newer
        </Button>
        <span className="text-slate-600 text-sm">Page {filters.page}</span>
        <Button
          variant="secondary"
          disabled={!log.data?.has_more}
          onClick={() => setFilters({ ...filters, page: filters.page + 1 })}
        >
          Older
        </Button>
      </div>
    </>
  )
}
