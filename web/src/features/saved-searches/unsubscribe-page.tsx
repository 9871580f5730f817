import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useParams } from 'react-router'
import { paths } from '#contract/pages'
import type { UnsubscribeInfo } from '#contract/saved-searches'
import { LoadFailed } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { PageHeader } from '../../components/ui/page-header'
import { Skeleton } from '../../components/ui/skeleton'
import { api, errorMessage, isApiError } from '../../lib/api-client'

/** The server read the link and refused it (malformed, or no such token): asking again changes nothing. */
const isRefusedLink = (err: unknown) => isApiError(err) && (err.status === 400 || err.status === 404)

/**
 * `/unsubscribe/{token}`, from an alert email's link, without signing in. It asks before turning anything off,
 * so a mail scanner that opens every link unsubscribes nobody.
 */
export function UnsubscribePage() {
  const { token = '' } = useParams()
  const info = useQuery({
    queryKey: ['unsubscribe', token],
    queryFn: ({ signal }) =>
      api.get<UnsubscribeInfo>(`/unsubscribe/${encodeURIComponent(token)}`, undefined, signal),
    retry: false,
  })
  const [state, setState] = useState<
    { kind: 'idle' | 'sending' | 'done' } | { kind: 'failed'; message: string }
  >({
    kind: 'idle',
  })

  async function confirm() {
    setState({ kind: 'sending' })
    try {
      await api.post<unknown>(`/unsubscribe/${encodeURIComponent(token)}`)
      setState({ kind: 'done' })
    } catch (err) {
      setState({ kind: 'failed', message: errorMessage(err, 'Could not turn it off. Please try again.') })
    }
  }

  return (
    <div className="mx-auto max-w-xl">
      <title>Unsubscribe · Laptop Market</title>
      <PageHeader title="Unsubscribe">
        <p>Turn off one kind of alert email. Nothing else changes.</p>
      </PageHeader>
      {info.isPending ? (
        <Skeleton className="h-32 w-full" />
      ) : info.isError ? (
        <LoadFailed
          title="This link does not work"
          error={info.error}
          // A link the server refused stays refused; a failure on the way may pass when asked again.
          onRetry={isRefusedLink(info.error) ? undefined : () => info.refetch()}
          actions={
            <Link to={paths.emailSettings()} className="font-medium text-accent underline underline-offset-4">
              Open your email settings
            </Link>
          }
        />
      ) : state.kind === 'done' || info.data.alreadyOff ? (
        <Alert title="You are unsubscribed">
          <p>{info.data.description}: we will not send these any more.</p>
          <p>
            Changed your mind? Turn alerts back on in{' '}
            <Link to={paths.savedSearches()} className="font-medium text-accent underline underline-offset-4">
              Saved searches
            </Link>{' '}
            or{' '}
            <Link to={paths.favourites()} className="font-medium text-accent underline underline-offset-4">
              Favourites
            </Link>
            .
          </p>
        </Alert>
      ) : (
        <section className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 sm:p-6">
          <h2 className="font-semibold text-lg text-slate-900">Stop these emails?</h2>
          <p className="text-slate-700">{info.data.description}.</p>
          {state.kind === 'failed' ? (
            <p role="alert" className="text-red-700 text-sm">
              {state.message}
            </p>
          ) : null}
          <Button onClick={confirm} disabled={state.kind === 'sending'}>
            {state.kind === 'sending' ? 'Turning off…' : 'Unsubscribe'}
          </Button>
        </section>
      )}
    </div>
  )
}
