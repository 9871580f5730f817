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

let renders = 0

function BookingHint() {
  const { user, isLoading } = useSession()
  renders++
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

  it('goes live without drawing its readers again while the session is unknown, then draws them once it answers', async () => {
    let answer: (response: Response) => void = () => {}
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    )
    const container = document.createElement('div')
    container.innerHTML = renderToString(tree(new QueryClient()))
    document.body.append(container)

    renders = 0
    let root: ReturnType<typeof hydrateRoot> | undefined
    await act(async () => {
      root = hydrateRoot(container, tree(new QueryClient()))
    })
    // Live, the question asked and not answered: the one render was hydration's. Before, React compared the
    // session's "hydrated" flag after hydrating and drew every reader again at once, in one blocking task.
    expect(renders).toBe(1)
    expect(container.textContent).not.toContain('Booking needs an account')

    await act(async () => {
      answer(Response.json({ user: null }))
    })
    await vi.waitFor(() => expect(container.textContent).toContain('Booking needs an account'))
    expect(renders).toBe(2)
    act(() => root?.unmount())
  })
})
