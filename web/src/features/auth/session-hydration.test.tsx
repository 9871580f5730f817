import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act } from '@testing-library/react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BindingsProvider } from '../../lib/bindings'
import { routerBindings } from '../../test/render'
import { SESSION_QUERY_KEY, useSession } from './use-session'

// The server renders a page without knowing who is asking, so it renders "session unknown". When /api/me answers
// before the page hydrates (the navbar asks for it first; a busy phone hydrates slowly), the page must still
// hydrate as the server rendered it: otherwise React throws the server's HTML away and renders again, and a
// button clicked meanwhile is no longer in the page (the boot script's held click is lost).

function BookingHint() {
  const { user, isLoading } = useSession()
  return (
    <div>
      <button type="button">Report this listing</button>
      {user || isLoading ? null : <p>Booking needs an account</p>}
    </div>
  )
}

function tree(client: QueryClient) {
  return (
    <QueryClientProvider client={client}>
      <BindingsProvider bindings={routerBindings}>
        <BookingHint />
      </BindingsProvider>
    </QueryClientProvider>
  )
}

afterEach(() => {
  document.body.innerHTML = ''
  vi.unstubAllGlobals()
})

describe('useSession while the page hydrates', () => {
  it('reads as unknown until hydrated, though /api/me answered first, then as signed out', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 401 })),
    )
    const html = renderToString(tree(new QueryClient()))
    const container = document.createElement('div')
    container.innerHTML = html
    document.body.append(container)
    const button = container.querySelector('button')

    // The session's answer is in the browser's cache before the page hydrates: signed out.
    const client = new QueryClient()
    client.setQueryData(SESSION_QUERY_KEY, null)
    const recoverable = vi.fn()
    let root: ReturnType<typeof hydrateRoot> | undefined
    await act(async () => {
      root = hydrateRoot(container, tree(client), { onRecoverableError: recoverable })
    })

    expect(recoverable).not.toHaveBeenCalled()
    // The server's button is the one on the page: a click held for it is made on a live button.
    expect(container.querySelector('button')).toBe(button)
    expect(container.textContent).toContain('Booking needs an account')
    // Unmounted before the page goes, so nothing of it runs into a page torn down.
    act(() => root?.unmount())
  })
})
