import { act } from '@testing-library/react'
import { useState } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WideColumn } from './browse-page'

// The server renders the filter column for every screen. A phone hides it by CSS, so hydrating it there would be
// work for nothing: the page keeps the server's HTML untouched, and renders the column once the window is wide.

function Column() {
  const [count, setCount] = useState(0)
  return (
    <WideColumn>
      <button type="button" onClick={() => setCount(count + 1)}>
        Clicked {count}
      </button>
    </WideColumn>
  )
}

function stubScreen(isWide: boolean) {
  const listeners = new Set<() => void>()
  const screen = { isWide }
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return screen.isWide
    },
    media: query,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  }))
  return {
    widen() {
      screen.isWide = true
      for (const listener of listeners) listener()
    },
  }
}

const reactKeys = (node: Element | null) => Object.keys(node ?? {}).filter((k) => k.startsWith('__react'))

afterEach(() => {
  document.body.innerHTML = ''
  vi.unstubAllGlobals()
})

describe('WideColumn', () => {
  it('keeps the server HTML as it is on a narrow screen, and renders it for real once the screen is wide', async () => {
    vi.stubGlobal('matchMedia', undefined)
    const html = renderToString(<Column />)
    expect(html).toContain('<button')
    const container = document.createElement('div')
    container.innerHTML = html
    document.body.append(container)
    const served = container.querySelector('button')

    const screen = stubScreen(false)
    const recoverable = vi.fn()
    await act(async () => {
      hydrateRoot(container, <Column />, { onRecoverableError: recoverable })
    })
    expect(recoverable).not.toHaveBeenCalled()
    // Left as served: same node, never hydrated.
    expect(container.querySelector('button')).toBe(served)
    expect(reactKeys(served)).toEqual([])

    await act(async () => screen.widen())
    const live = container.querySelector('button')
    expect(container.querySelectorAll('button')).toHaveLength(1)
    expect(reactKeys(live).length).toBeGreaterThan(0)
    await act(async () => live?.click())
    expect(container.textContent).toBe('Clicked 1')
  })

  it('hydrates the column on a wide screen', async () => {
    vi.stubGlobal('matchMedia', undefined)
    const container = document.createElement('div')
    container.innerHTML = renderToString(<Column />)
    document.body.append(container)
    const served = container.querySelector('button')

    stubScreen(true)
    const recoverable = vi.fn()
    await act(async () => {
      hydrateRoot(container, <Column />, { onRecoverableError: recoverable })
    })
    expect(recoverable).not.toHaveBeenCalled()
    expect(container.querySelector('button')).toBe(served)
    expect(reactKeys(served).length).toBeGreaterThan(0)
    await act(async () => served?.click())
    expect(container.textContent).toBe('Clicked 1')
  })
})
