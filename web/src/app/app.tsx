import { type DehydratedState, hydrate, type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { BrowserRouter } from 'react-router'
import { ApiError, type ApiErrorCode } from '../lib/api-client'
import { type AnswerKey, BindingsProvider } from '../lib/bindings'
import { createQueryClient } from './query-client'
import { AppRoutes } from './router'
import { routerBindings } from './router-bindings'
import { Shell } from './shell'

export { preloadPage } from './router'

/**
 * What the browser and the server render alike: the query cache, the bindings to react-router and React
 * Query, a router (BrowserRouter here, StaticRouter on the server) around the routes, and the toaster once
 * the page is idle. The same tree on both sides is what lets the browser hydrate the server's HTML without
 * a mismatch.
 */
export function AppShell({ queryClient, router }: { queryClient: QueryClient; router: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BindingsProvider bindings={routerBindings}>
        <Shell>{router}</Shell>
      </BindingsProvider>
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

/**
 * The browser app; `dehydratedState` is the server's query cache for the page it rendered, `answers` what the
 * home page had read before the app took over from it (the session, among others).
 */
export function App({
  dehydratedState,
  answers = [],
}: {
  dehydratedState?: DehydratedState
  answers?: { queryKey: AnswerKey; data: unknown }[]
}) {
  const [queryClient] = useState(() => {
    const client = createQueryClient()
    if (dehydratedState) hydrate(client, withApiErrors(dehydratedState))
    for (const { queryKey, data } of answers) client.setQueryData(queryKey, data)
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
