import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SessionList } from '#contract/account'
import { jsonResponse, renderWithApp } from '../../test/render'
import { SessionsSection } from './sessions-section'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const LIST: SessionList = {
  items: [
    {
      id: 's-this',
      browser: 'Firefox on macOS',
      place: '198.51.100.7',
      ip: '198.51.100.7',
      created_at: '2026-11-28T09:15:00.000Z',
      last_seen: '2026-11-28T12:44:00.000Z',
      current: true,
    },
    {
      id: 's-laptop',
      browser: 'Chrome on Linux',
      place: '203.0.113.42',
      ip: '203.0.113.42',
      created_at: '2026-11-28T12:40:00.000Z',
      last_seen: '2026-11-28T12:41:00.000Z',
      current: false,
    },
    {
      id: 's-office',
      browser: 'Chrome on Linux',
      place: '10.0.0.8 (this computer or a local network)',
      ip: '10.0.0.8',
      created_at: '2026-11-20T08:05:00.000Z',
      last_seen: '2026-11-27T17:30:00.000Z',
      current: false,
    },
  ],
}

describe('SessionsSection', () => {
  it('names each session by device, when it signed in and from where; each Sign out button says which', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(LIST)),
    )
    renderWithApp(<SessionsSection />)
    const list = await screen.findByRole('list', { name: 'Sessions' })
    const items = within(list).getAllByRole('listitem')
    expect(items[1]?.textContent).toContain('Signed in Nov 28, 2026, 12:40 UTC from 203.0.113.42')
    expect(items[2]?.textContent).toContain('from 10.0.0.8 (this computer or a local network)')
    const buttons = within(list).getAllByRole('button')
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Sign out Chrome on Linux, signed in Nov 28, 2026, 12:40 UTC',
      'Sign out Chrome on Linux, signed in Nov 20, 2026, 08:05 UTC',
    ])
    expect(
      screen.getByRole('button', { name: 'Sign out Chrome on Linux, signed in Nov 28, 2026, 12:40 UTC' }),
    ).toBeTruthy()
    // The device in use has no Sign out of its own.
    expect(within(items[0] as HTMLElement).queryByRole('button')).toBeNull()
    expect(screen.queryByText(/Unknown place/)).toBeNull()
  })
})
