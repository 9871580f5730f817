// The one fixture layer of the web tests: an API answer as the server sends it, and a render inside the
// providers every page has (a query client that never retries, a router at a chosen address).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { routerBindings } from '../app/router-bindings'
import { BindingsProvider } from '../lib/bindings'

/** A JSON answer with the given status (200 unless said) and extra headers. */
export function jsonResponse(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
) {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': 'application/json', ...init.headers },
  })
}

/**
 * Renders `ui` with a fresh query client and a router at `at`. With `path`, `ui` is that route's element,
 * so the page reads its parameters from the address as it does in the app.
 */
export function renderWithApp(ui: ReactNode, { at = '/', path }: { at?: string; path?: string } = {}) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  })
  const result = render(
    <QueryClientProvider client={client}>
      <BindingsProvider bindings={routerBindings}>
        <MemoryRouter initialEntries={[at]}>
          {path ? (
            <Routes>
              <Route path={path} element={ui} />
            </Routes>
          ) : (
            ui
          )}
        </MemoryRouter>
      </BindingsProvider>
    </QueryClientProvider>,
  )
  return { client, ...result }
}
