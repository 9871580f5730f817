import type { ReactNode } from 'react'
import { errorMessage } from '../lib/api-client'
import { Alert } from './ui/alert'
import { Button } from './ui/button'

/** What a page needs of a query (TanStack Query's result has all of it) to show its states. */
export type QueryLike<T> = {
  data?: T
  isPending: boolean
  isError: boolean
  error: unknown
  refetch: () => unknown
}

/**
 * A load that failed: what could not be loaded (`title`), why, and "Try again". `actions` go before the button
 * (a link that fixes the cause); `message` replaces the server's words where the error is not the server's.
 */
export function LoadFailed({
  title,
  error,
  onRetry,
  message,
  actions,
  className,
}: {
  title: string
  error: unknown
  onRetry?: () => unknown
  message?: string
  actions?: ReactNode
  className?: string
}) {
  const retry = onRetry ? (
    <Button variant="secondary" onClick={() => void onRetry()}>
      Try again
    </Button>
  ) : null
  return (
    <Alert tone="error" title={title} className={className}>
      <p>{message ?? errorMessage(error)}</p>
      {actions ? (
        <div className="flex flex-wrap justify-center gap-3">
          {actions}
          {retry}
        </div>
      ) : (
        retry
      )}
    </Alert>
  )
}

/**
 * A query's states in one place: `loading` while it is first asked, LoadFailed with "Try again" when it fails,
 * `empty` when the answer holds nothing (an empty list, unless `isEmpty` says otherwise), else `children`.
 * `errorClassName` places the failure's box where the page needs it (inside a bordered panel, say).
 */
export function QueryState<T>({
  query,
  errorTitle,
  loading,
  empty,
  isEmpty = isEmptyList,
  errorClassName,
  children,
}: {
  query: QueryLike<T>
  errorTitle: string
  errorClassName?: string
  loading: ReactNode
  empty?: ReactNode
  isEmpty?: (data: T) => boolean
  children: (data: T) => ReactNode
}) {
  if (query.isError)
    return (
      <LoadFailed
        title={errorTitle}
        error={query.error}
        onRetry={() => query.refetch()}
        className={errorClassName}
      />
    )
  if (query.isPending || query.data === undefined) return <>{loading}</>
  if (empty !== undefined && isEmpty(query.data)) return <>{empty}</>
  return <>{children(query.data)}</>
}

function isEmptyList(data: unknown): boolean {
  return Array.isArray(data) && data.length === 0
}
