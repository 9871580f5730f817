import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Message, ReportedMessage } from '#contract/messages'
import { jsonResponse, renderWithApp } from '../../test/render'
import { ReportedItemsPage } from './reported-items-page'

const REPORTED: ReportedMessage[] = [
  {
    _id: 'm2',
    bookingId: 'b1',
    productName: 'ThinkPad X1 Carbon',
    senderName: 'Sam Seller',
    body: 'Send me a gift card and I will post it today.',
    offPlatform: true,
    reportedAt: '2026-11-21T09:00:00.000Z',
    createdAt: '2026-11-20T10:05:00.000Z',
  },
]
const THREAD: Message[] = [
  {
    _id: 'm2',
    bookingId: 'b1',
    senderId: 'seller-1',
    senderName: 'Sam Seller',
    mine: false,
    body: 'Send me a gift card and I will post it today.',
    offPlatform: true,
    reported: true,
    createdAt: '2026-11-20T10:05:00.000Z',
  },
]

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function stubApi(reported: ReportedMessage[]) {
  const fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/messages/reported') return jsonResponse(reported)
    if (url === '/api/bookings/b1/messages') return jsonResponse(THREAD)
    // Reported listings and reported reviews: none open.
    return jsonResponse([])
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

describe('ReportedItemsPage', () => {
  it('shows reported messages beside reported listings and reviews, each with its conversation to read', async () => {
    const fetchMock = stubApi(REPORTED)
    renderWithApp(<ReportedItemsPage />)
    expect(await screen.findByText('No open reports')).toBeTruthy()
    expect(await screen.findByText('No reported reviews')).toBeTruthy()

    const section = screen.getByRole('region', { name: 'Reported messages' })
    const item = await within(section).findByTestId('reported-message')
    expect(item.textContent).toContain('Sam Seller')
    expect(item.textContent).toContain('about ThinkPad X1 Carbon')
    expect(item.textContent).toContain('reported Nov 21, 2026')
    expect(item.textContent).toContain('Send me a gift card and I will post it today.')
    // The server offers no action on a reported message: the admin reads, nothing more.
    expect(within(item).queryByRole('button')).toBeNull()

    const details = within(item)
      .getByText('Read the whole conversation')
      .closest('details') as HTMLDetailsElement
    details.open = true
    fireEvent(details, new Event('toggle'))
    const [message] = await within(item).findAllByTestId('transcript-message')
    expect(message?.textContent).toContain('Sam Seller')
    expect(within(message as HTMLElement).getByText('Reported')).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledWith('/api/bookings/b1/messages', expect.anything())
  })

  it('says so when no message is reported', async () => {
    stubApi([])
    renderWithApp(<ReportedItemsPage />)
    const section = screen.getByRole('region', { name: 'Reported messages' })
    expect(await within(section).findByText('No reported messages')).toBeTruthy()
  })
})
