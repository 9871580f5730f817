import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Conversation } from '#contract/messages'
import { jsonResponse, renderWithApp } from '../../test/render'
import { MessagesPage } from './messages-page'

const CONVERSATION: Conversation = {
  bookingId: 'b1',
  productId: 'p1',
  productName: 'ThinkPad X1 Carbon',
  productImage: '/media/x1-card.webp',
  otherName: 'Sam Seller',
  asBuyer: true,
  lastMessageAt: '2026-11-20T10:05:00.000Z',
  unread: 2,
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('MessagesPage', () => {
  it('shows a failed load with the server message, and Try again asks again and shows the conversations', async () => {
    let answers = 0
    const fetchMock = vi.fn(async (url: string) => {
      if (url !== '/api/messages/conversations') return jsonResponse({})
      answers += 1
      return answers === 1
        ? jsonResponse({ error: { code: 'INTERNAL', message: 'The database is away' } }, { status: 500 })
        : jsonResponse([CONVERSATION])
    })
    vi.stubGlobal('fetch', fetchMock)
    renderWithApp(<MessagesPage />)

    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('We could not load your messages')
    expect(alert.textContent).toContain('The database is away')
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))

    expect(await screen.findByText('ThinkPad X1 Carbon')).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(answers).toBe(2)
  })

  it('says there are no messages yet, in its own words, when there are none', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse([])),
    )
    renderWithApp(<MessagesPage />)
    expect(await screen.findByText('No messages yet')).toBeTruthy()
    expect(screen.getByText('Write to a seller from My Orders once you have booked a laptop.')).toBeTruthy()
  })
})
