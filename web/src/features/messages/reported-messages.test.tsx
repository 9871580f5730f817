import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Message, ReportedMessage } from '#contract/messages'
import { jsonResponse, renderWithApp } from '../../test/render'
import { ConversationTranscript } from './conversation-transcript'
import { ReportedMessages } from './reported-messages'

const REPORTED: ReportedMessage[] = [
  {
    _id: 'm2',
    bookingId: 'b1',
    productName: 'MacBook Pro 13 M2',
    senderName: 'Sam Seller',
    body: 'Pay me by wire transfer instead.',
    offPlatform: true,
    reportedAt: '2026-11-21T09:00:00.000Z',
    createdAt: '2026-11-20T10:05:00.000Z',
  },
]
const THREAD: Message[] = [
  {
    _id: 'm1',
    bookingId: 'b1',
    senderId: 'buyer-1',
    senderName: 'Jordan Blake',
    mine: false,
    body: 'When could we meet?',
    offPlatform: false,
    reported: false,
    createdAt: '2026-11-20T10:00:00.000Z',
  },
  {
    _id: 'm2',
    bookingId: 'b1',
    senderId: 'seller-1',
    senderName: 'Sam Seller',
    mine: false,
    body: 'Pay me by wire transfer instead.',
    offPlatform: true,
    reported: true,
    createdAt: '2026-11-20T10:05:00.000Z',
  },
]

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function stubApi(thread: Message[] = THREAD) {
  const fetchMock = vi.fn(async (url: string) =>
    url.includes('/messages/reported') ? jsonResponse(REPORTED) : jsonResponse(thread),
  )
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

describe('ReportedMessages', () => {
  it('lists each reported message, and reads its whole conversation only when opened', async () => {
    const fetchMock = stubApi()
    renderWithApp(<ReportedMessages />)
    const item = await screen.findByTestId('reported-message')
    expect(item.textContent).toContain('Sam Seller')
    expect(item.textContent).toContain('about MacBook Pro 13 M2')
    expect(item.textContent).toContain('Pay me by wire transfer instead.')
    within(item).getByText('Asks to pay outside')
    // The conversation is not fetched until the admin opens it.
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/api/messages/reported'])

    const details = item.querySelector('details') as HTMLDetailsElement
    details.open = true
    fireEvent(details, new Event('toggle'))
    const messages = await within(item).findAllByTestId('transcript-message')
    expect(messages.map((m) => m.textContent)).toEqual([
      expect.stringContaining('When could we meet?'),
      expect.stringContaining('Pay me by wire transfer instead.'),
    ])
    within(messages[1] as HTMLElement).getByText('Reported')
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/bookings/b1/messages')
  })
})

describe('ConversationTranscript', () => {
  it('says so when the conversation is empty', async () => {
    stubApi([])
    renderWithApp(<ConversationTranscript bookingId="b9" label="Conversation between A and B" />)
    const details = screen.getByText('Conversation between A and B').closest('details') as HTMLDetailsElement
    details.open = true
    fireEvent(details, new Event('toggle'))
    await screen.findByText('No messages in this conversation.')
  })
})
