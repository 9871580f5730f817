import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Dispute } from '#contract/bookings'
import type { Message } from '#contract/messages'
import { jsonResponse, renderWithApp } from '../../test/render'
import { DisputesPage } from './disputes-page'

function makeDispute(n: number): Dispute {
  return {
    _id: `d${n}`,
    status: 'open',
    reason: `The laptop ${n} arrived with a cracked screen.`,
    createdAt: '2026-11-22T09:00:00.000Z',
    resolvedAt: null,
    resolvedBy: null,
    booking: {
      _id: `b${n}`,
      productId: `p${n}`,
      productName: `Laptop ${n}`,
      productImage: `/media/${n}.webp`,
      price_cents: 50_000,
      status: 'disputed',
      paidAt: '2026-11-20T09:00:00.000Z',
      handedOverAt: null,
      handoverNote: null,
    },
    buyer: { _id: 'buyer-1', name: 'Dana Buyer', email: 'dana@example.com' },
    seller: { _id: 'seller-1', name: 'Sam Seller', email: 'sam@example.com' },
    history: [{ kind: 'paid', actorName: 'Dana Buyer', note: null, at: '2026-11-20T09:00:00.000Z' }],
  }
}

const THREAD: Message[] = [
  {
    _id: 'm1',
    bookingId: 'b1',
    senderId: 'buyer-1',
    senderName: 'Dana Buyer',
    mine: false,
    body: 'Did you send it yet?',
    offPlatform: false,
    reported: false,
    createdAt: '2026-11-21T10:00:00.000Z',
  },
  {
    _id: 'm2',
    bookingId: 'b1',
    senderId: 'seller-1',
    senderName: 'Sam Seller',
    mine: false,
    body: 'Yes, on Monday.',
    offPlatform: false,
    reported: false,
    createdAt: '2026-11-21T11:00:00.000Z',
  },
]

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function stubApi() {
  const fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/disputes') return jsonResponse([makeDispute(1), makeDispute(2)])
    if (url === '/api/bookings/b1/messages') return jsonResponse(THREAD)
    if (url === '/api/bookings/b2/messages') return jsonResponse([])
    return jsonResponse({ error: { code: 'NOT_FOUND', message: 'Not found' } }, { status: 404 })
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

/** Opens a dispute's conversation as a click on its summary does. */
function openConversation(card: HTMLElement) {
  const summary = within(card).getByText('Conversation between Dana Buyer and Sam Seller')
  const details = summary.closest('details') as HTMLDetailsElement
  details.open = true
  fireEvent(details, new Event('toggle'))
}

describe('DisputesPage', () => {
  it("reads each dispute's conversation, read-only, only when the admin opens it", async () => {
    const fetchMock = stubApi()
    renderWithApp(<DisputesPage />)
    const [first, second] = (await screen.findAllByTestId('dispute')) as [HTMLElement, HTMLElement]
    const urls = () => fetchMock.mock.calls.map(([url]) => String(url))
    expect(urls()).toEqual(['/api/disputes'])

    openConversation(first)
    const messages = await within(first).findAllByTestId('transcript-message')
    expect(messages.map((m) => m.textContent)).toEqual([
      expect.stringMatching(/^Dana Buyer.*Did you send it yet\?$/),
      expect.stringMatching(/^Sam Seller.*Yes, on Monday\.$/),
    ])
    expect(within(messages[0] as HTMLElement).getByText(/Nov 21, 2026/)).toBeTruthy()
    // Read-only: nothing to write with, nothing to report.
    expect(within(first).queryByRole('textbox')).toBeNull()
    expect(within(first).queryByRole('button', { name: /report|send/i })).toBeNull()
    expect(urls()).toEqual(['/api/disputes', '/api/bookings/b1/messages'])

    openConversation(second)
    await within(second).findByText('No messages in this conversation.')
    expect(urls()).toContain('/api/bookings/b2/messages')
  })

  it('says so when the conversation cannot be read', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/api/disputes'
          ? jsonResponse([makeDispute(1)])
          : jsonResponse({ error: { code: 'NOT_FOUND', message: 'Booking not found' } }, { status: 404 }),
      ),
    )
    renderWithApp(<DisputesPage />)
    const card = await screen.findByTestId('dispute')
    openConversation(card)
    const alert = await within(card).findByRole('alert')
    expect(alert.textContent).toContain('Could not load the conversation')
    expect(alert.textContent).toContain('Booking not found')
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy()
  })

  it('asks for the reason of a refund, says the laptop is not returned, and sends the reason', async () => {
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/disputes') return jsonResponse([makeDispute(1)])
      if (url === '/api/disputes/d1/refund' && init?.method === 'PUT') {
        return jsonResponse({ acknowledged: true, modifiedCount: 1 })
      }
      return jsonResponse({ error: { code: 'NOT_FOUND', message: 'Not found' } }, { status: 404 })
    })
    vi.stubGlobal('fetch', fetchMock)
    renderWithApp(<DisputesPage />)
    fireEvent.click(await screen.findByRole('button', { name: 'Refund the buyer of Laptop 1' }))
    const dialog = await screen.findByRole('dialog', { name: 'Refund the buyer?' })
    expect(dialog.textContent).toContain('The refund does not include a return of the laptop')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }))
    expect(
      await within(dialog).findByText(
        'Say why the buyer is refunded in at least 10 characters: both sides see it',
      ),
    ).toBeTruthy()
    const puts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT')
    expect(puts()).toEqual([])
    fireEvent.change(within(dialog).getByLabelText('Why is the buyer refunded?'), {
      target: { value: 'The screen was cracked, as the photos show' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }))
    await waitFor(() => expect(puts()).toHaveLength(1))
    expect(JSON.parse(String(puts()[0]?.[1]?.body))).toEqual({
      reason: 'The screen was cracked, as the photos show',
    })
  })
})
