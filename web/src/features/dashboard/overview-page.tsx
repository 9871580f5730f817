import { useQuery } from '@tanstack/react-query'
import type { Overview } from '#contract/users'
import { LoadFailed } from '../../components/query-state'
import { PageHeader } from '../../components/ui/page-header'
import { Skeleton } from '../../components/ui/skeleton'
import { api } from '../../lib/api-client'
import { dashboardKeys } from '../../lib/query-keys'
import { useSession } from '../auth'
import { AdminCharts, BuyerCharts, SellerCharts } from './role-dashboards'

/** A new account is welcomed; someone signing in again is welcomed back. */
export function greeting(kind: Overview['greeting'], name: string): string {
  return kind === 'new' ? `Welcome to Laptop Market, ${name}.` : `Welcome back, ${name}.`
}

/** `/dashboard`: the counts that matter to the signed-in role, as cards. */
export function OverviewPage() {
  const { user } = useSession()
  const query = useQuery({
    queryKey: dashboardKeys.overview(),
    queryFn: ({ signal }) => api.get<Overview>('/dashboard/overview', undefined, signal),
  })

  return (
    <>
      <title>Dashboard · Laptop Market</title>
      <PageHeader title="Dashboard">
        {user && query.data ? <p>{greeting(query.data.greeting, user.name)}</p> : null}
      </PageHeader>
      {query.isError ? (
        <LoadFailed
          title="Could not load your overview"
          error={query.error}
          onRetry={() => query.refetch()}
        />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-busy={query.isPending}>
          {query.isPending
            ? [0, 1, 2].map((n) => (
                <li key={n} className="rounded-xl border border-slate-200 bg-white p-5">
                  <Skeleton className="h-4 w-24" />
                  <Skeleton className="mt-3 h-8 w-16" />
                </li>
              ))
            : query.data.counts.map((count) => (
                <li key={count.label} className="rounded-xl border border-slate-200 bg-white p-5">
                  <p className="font-medium text-slate-600 text-sm">{count.label}</p>
                  <p className="mt-2 font-bold text-3xl text-slate-900 tabular-nums">{count.value}</p>
                </li>
              ))}
        </ul>
      )}
      {user ? (
        <div className="mt-6">
          {user.role === 'seller' ? (
            <SellerCharts />
          ) : user.role === 'admin' ? (
            <AdminCharts />
          ) : (
            <BuyerCharts />
          )}
        </div>
      ) : null}
    </>
  )
}
