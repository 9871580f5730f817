// The one fixture layer of the web tests: an API answer as the server sends it, and a render inside the
// providers every page has (a query client that never retries, a router at a chosen address).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { MemoryRouter, Route, Routes } from 'react-router'
import type { Product } from '#contract/products'
import { routerBindings } from '../app/router-bindings'
import { BindingsProvider } from '../lib/bindings'

/** The router's bindings, for tests that build their own providers (features do not reach into app/). */
export { routerBindings }

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

/** A listing as the API sends it: an advertised, available ThinkPad with one photo, unless `overrides` say. */
export function aProduct(overrides: Partial<Product> = {}): Product {
  return {
    _id: '3f1c2a9e-5b7d-4c8e-9a0b-1c2d3e4f5a6b',
    name: 'ThinkPad X1 Carbon Gen 9',
    category_id: 'b1',
    brand_name: 'Lenovo',
    seller_name: 'Rahim Uddin',
    seller_verified: false,
    resale_price: 749.5,
    resale_price_cents: 74_950,
    original_price: 1299,
    original_price_cents: 129_900,
    img: '/media/x1-card.webp',
    images: [{ card: '/media/x1-card.webp', detail: '/media/x1-detail.webp' }],
    description: 'Light marks on the lid.',
    condition: 'Good',
    location: 'Dhaka',
    uses: 2,
    processor: 'Intel Core i7-1165G7',
    ram_gb: 16,
    storage_gb: 512,
    screen_inches: 14,
    advertise: true,
    sellStatus: false,
    postedOn: '2026-11-03T09:30:00.000Z',
    on_sale_since: '2026-11-03T09:30:00.000Z',
    seller_id: 'seller-1',
    reservedUntil: null,
    battery_health_pct: 88,
    battery_cycles: 150,
    ...overrides,
  }
}

/** `ui` inside the providers every page has: a fresh query client (that never retries) and a router at `at`. */
function withApp(ui: ReactNode, { at = '/', path }: { at?: string; path?: string }) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  })
  const tree = (
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
    </QueryClientProvider>
  )
  return { client, tree }
}

/**
 * Renders `ui` with a fresh query client and a router at `at`. With `path`, `ui` is that route's element,
 * so the page reads its parameters from the address as it does in the app.
 */
export function renderWithApp(ui: ReactNode, options: { at?: string; path?: string } = {}) {
  const { client, tree } = withApp(ui, options)
  return { client, ...render(tree) }
}

/**
 * As the browser meets a server-rendered page: `ui` rendered to HTML in a container, then `beforeHydrating` (what a
 * visitor does before the page goes live), then hydrated by React.
 */
export function hydrateWithApp(
  ui: ReactNode,
  { at = '/', beforeHydrating }: { at?: string; beforeHydrating: (container: HTMLElement) => void },
) {
  const container = document.createElement('div')
  container.innerHTML = renderToString(withApp(ui, { at }).tree)
  document.body.append(container)
  beforeHydrating(container)
  const { client, tree } = withApp(ui, { at })
  return { client, ...render(tree, { container, hydrate: true }) }
}
