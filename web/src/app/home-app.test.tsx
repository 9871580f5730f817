import { dehydrate, QueryClient } from '@tanstack/react-query'
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import type { Root } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { StaticRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Brand } from '#contract/brands'
import { brandKeys, productKeys } from '../lib/query-keys'
import { aProduct, jsonResponse } from '../test/render'
import { AppShell } from './app'
import { HomeApp, hydrateHome, type LeaveHome } from './home-app'
import { AnswerStore, homeBindings } from './home-bindings'
import type { PageState } from './page-state'
import { AppRoutes } from './router'

const PRODUCT = aProduct({ seller_verified: true, seller_rating: { average: 4.5, count: 2 } })

const BRANDS: Brand[] = [
  { _id: 'b1', brand_name: 'Lenovo', brand_img: '/media/lenovo.svg', product_count: 1 },
]

/** The server's query cache for `/`, as entry-server fills it. */
function serverClient() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } })
  client.setQueryData(productKeys.advertised(), [PRODUCT])
  client.setQueryData(brandKeys.list(), BRANDS)
  return client
}

/** `/` rendered as the server renders it: the full app with a static router. */
function serverHtml() {
  const client = serverClient()
  const html = renderToString(
    <AppShell
      queryClient={client}
      router={
        <StaticRouter location="/">
          <AppRoutes />
        </StaticRouter>
      }
    />,
  )
  const state: PageState = { queries: dehydrate(client), isNotFound: false }
  return { html, state }
}

function mockMatchMedia() {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: false,
      media: query,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    })),
  )
}

beforeEach(() => {
  mockMatchMedia()
  window.history.replaceState(null, '', '/')
  // Signed out; every other answer is an empty list.
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input)
      if (url.includes('/api/session')) return jsonResponse({ user: null })
      return jsonResponse([])
    }),
  )
})

/** The roots a test hydrated (cleanup unmounts only those testing-library rendered). */
const hydrated: Root[] = []

afterEach(() => {
  // Unmounted before the page goes, so no timer of theirs (the search box's) fires into a page torn down.
  act(() => {
    for (const root of hydrated.splice(0)) root.unmount()
  })
  cleanup()
  document.body.innerHTML = ''
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('HomeApp', () => {
  it('renders the very HTML the server renders for / with the full app', () => {
    const { html, state } = serverHtml()
    const store = new AnswerStore(
      state.queries.queries.map((q) => ({ queryKey: q.queryKey, data: q.state.data })),
    )
    const home = renderToString(<HomeApp bindings={homeBindings(store, () => undefined)} />)
    expect(home).toBe(html)
    expect(home).toContain('ThinkPad X1 Carbon Gen 9')
  })

  it('hydrates the server HTML without a warning, and a followed link hands over to the full app', async () => {
    const { html, state } = serverHtml()
    const container = document.createElement('div')
    container.innerHTML = html
    document.body.append(container)
    const errors = vi.spyOn(console, 'error')
    const leave = vi.fn<LeaveHome>(async () => undefined)
    delete document.documentElement.dataset.interactive

    await act(async () => {
      hydrated.push(hydrateHome(container, state, leave))
    })
    // Hydrated: the page says it answers input (what the end-to-end journeys wait for before a click).
    expect(document.documentElement.dataset.interactive).toBe('true')

    // The session answer comes back "signed out": the Login link shows.
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Login' }).closest('li')?.className).not.toContain('invisible'),
    )
    expect(errors).not.toHaveBeenCalled()

    fireEvent.click(screen.getByRole('link', { name: /View all laptops/ }))
    expect(leave).toHaveBeenCalledTimes(1)
    expect(leave.mock.calls[0]?.[1]).toBe('/productcard')
    // Still on the home page until the full app has taken over.
    expect(window.location.pathname).toBe('/')
  })

  it('loads the full app in place at the followed link, without reloading the page', {
    timeout: 20_000,
  }, async () => {
    const { html, state } = serverHtml()
    const container = document.createElement('div')
    container.innerHTML = html
    document.body.append(container)
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined)

    await act(async () => {
      hydrated.push(hydrateHome(container, state))
    })
    fireEvent.click(screen.getByRole('link', { name: 'Terms' }))

    await waitFor(() => expect(window.location.pathname).toBe('/terms'), { timeout: 15_000 })
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: /Terms/ })).toBeTruthy(), {
      timeout: 15_000,
    })
    expect(assign).not.toHaveBeenCalled()
    // The navbar is the full app's now, and still there.
    expect(screen.getByRole('link', { name: 'Laptop Market' }).getAttribute('href')).toBe('/')
  })
})
