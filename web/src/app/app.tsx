import { type DehydratedState, hydrate, type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react'
import { BrowserRouter } from 'react-router'
import { ApiError, type ApiErrorCode } from '../lib/api-client'
import { createQueryClient } from './query-client'
import { AppRoutes } from './router'

// No page shows a toast on first render, so the toaster's code waits until the page is up.
// Toasts raised before it mounts are kept in react-hot-toast's store and shown when it does.
const AppToaster = lazy(() => import('./toaster').then((m) => ({ default: m.AppToaster })))

function useIdle(): boolean {
  const [isIdle, setIsIdle] = useState(false)
  useEffect(() => {
    const done = () => setIsIdle(true)
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(done, { timeout: 2000 })
      return () => window.cancelIdleCallback(id)
    }
    const id = window.setTimeout(done, 200)
    return () => window.clearTimeout(id)
  }, [])
  return isIdle
}

/**
 * What the browser and the server render alike: the query cache, a router (BrowserRouter here,
 * StaticRouter on the server) around the routes, and the toaster once the page is idle. The same tree
 * on both sides is what lets the browser hydrate the server's HTML without a mismatch.
 */
export function AppShell({ queryClient, router }: { queryClient: QueryClient; router: ReactNode }) {
  const isIdle = useIdle()
  return (
    <QueryClientProvider client={queryClient}>
      {router}
      {isIdle ? (
        <Suspense fallback={null}>
          <AppToaster />
        </Suspense>
      ) : null}
    </QueryClientProvider>
  )
}

/** The server sends a failed query's ApiError as plain fields; pages tell errors apart by class. */
function withApiErrors(state: DehydratedState): DehydratedState {
  for (const query of state.queries) {
    const error = query.state.error as { status?: unknown; code?: unknown; message?: unknown } | null
    if (error && typeof error.status === 'number' && !(error instanceof ApiError)) {
      query.state.error = new ApiError(error.status, error.code as ApiErrorCode, String(error.message ?? ''))
    }
  }
  return state
}

/** The browser app; `dehydratedState` is the server's query cache for the page it rendered. */
export function App({ dehydratedState }: { dehydratedState?: DehydratedState }) {
  const [queryClient] = useState(() => {
    const client = createQueryClient()
    if (dehydratedState) hydrate(client, withApiErrors(dehydratedState))
    return client
  })
  return (
    <AppShell
      queryClient={queryClient}
      router={
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      }
    />
  )
}
