import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Message } from '#contract/messages'
import { jsonResponse, renderWithApp } from '../../test/render'
import { ConversationPanel } from './conversation-panel'

const THREAD: Message[] = [
  {
    _id: 'm1',
    bookingId: 'b1',
    senderId: 'buyer-1',
    senderName: 'Jordan Blake',
    mine: true,
    body: 'Hi! When could we meet?',
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
    body: '<b>Cheaper</b> if you pay me directly by wire transfer: https://pay.example.test',
    offPlatform: true,
    reported: false,
    createdAt: '2026-11-20T10:05:00.000Z',
  },
]

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function stubApi(onPost: (url: string, init: RequestInit) => Response) {
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) =>
    init.method === 'POST' ? onPost(url, init) : jsonResponse(THREAD),
  )
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

describe('ConversationPanel', () => {
  it('shows messages as text, links not clickable, with the warning under the one asking to pay outside', async () => {
    stubApi(() => jsonResponse({ acknowledged: true, insertedId: 'm3' }, { status: 201 }))
    renderWithApp(<ConversationPanel bookingId="b1" canWrite />)

    const items = await screen.findAllByTestId('message')
    expect(items).toHaveLength(2)
    const [mine, theirs] = items.map((item) => within(item))
    expect(mine?.getByText('You')).toBeTruthy()
    expect(mine?.queryByRole('note')).toBeNull()
    expect(theirs?.getByText(/<b>Cheaper<\/b> if you pay me directly/)).toBeTruthy()
    expect(items[1]?.querySelector('b')).toBeNull()
    expect(theirs?.queryByRole('link')).toBeNull()
    expect(theirs?.getByRole('note').textContent).toMatch(/Payments outside Laptop Market are not protected/)
    expect(theirs?.getByRole('button', { name: 'Report this message from Sam Seller' })).toBeTruthy()
    expect(mine?.queryByRole('button', { name: /Report/ })).toBeNull()
  })

  it('sends a message from the labelled textarea and clears it', async () => {
    const fetchMock = stubApi(() => jsonResponse({ acknowledged: true, insertedId: 'm3' }, { status: 201 }))
    renderWithApp(<ConversationPanel bookingId="b1" canWrite />)
    const box = (await screen.findByLabelText('Your message')) as HTMLTextAreaElement
    fireEvent.change(box, { target: { value: '  Tomorrow at 6 works.  ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send' }))
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/bookings/b1/messages',
        expect.objectContaining({ method: 'POST', body: JSON.stringify({ body: 'Tomorrow at 6 works.' }) }),
      ),
    )
    await waitFor(() => expect(box.value).toBe(''))
  })

  it("refuses an empty message before sending, and shows the server's own refusal", async () => {
    const fetchMock = stubApi(() =>
      jsonResponse(
        {
          error: {
            code: 'RATE_LIMITED',
            message: 'You are sending messages too quickly. Please wait 42 seconds and try again.',
          },
        },
        { status: 429 },
      ),
    )
    renderWithApp(<ConversationPanel bookingId="b1" canWrite />)
    const box = await screen.findByLabelText('Your message')
    fireEvent.click(screen.getByRole('button', { name: 'Send' }))
    expect(await screen.findByText('Write a message')).toBeTruthy()
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false)

    fireEvent.change(box, { target: { value: 'Hello again' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send' }))
    expect(await screen.findByText(/sending messages too quickly. Please wait 42 seconds/)).toBeTruthy()
    expect(box.getAttribute('aria-invalid')).toBe('true')
  })

  it('offers the buyer of an unpaid booking no form until the seller has written, and says why', async () => {
    const note = 'You can message the seller once you have paid for this laptop.'
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse([])),
    )
    renderWithApp(<ConversationPanel bookingId="b1" canWrite writesAfterReply={note} />)
    expect(await screen.findByText(note)).toBeTruthy()
    expect(screen.queryByLabelText('Your message')).toBeNull()
    cleanup()

    // The seller wrote first: the buyer may answer.
    stubApi(() => jsonResponse({ acknowledged: true, insertedId: 'm3' }, { status: 201 }))
    renderWithApp(<ConversationPanel bookingId="b1" canWrite writesAfterReply={note} />)
    expect(await screen.findByLabelText('Your message')).toBeTruthy()
    expect(screen.queryByText(note)).toBeNull()
  })

  it('has no form for an admin reading a reported conversation', async () => {
    stubApi(() => jsonResponse({}))
    renderWithApp(<ConversationPanel bookingId="b1" canWrite={false} />)
    await screen.findAllByTestId('message')
    expect(screen.queryByLabelText('Your message')).toBeNull()
    expect(screen.queryByRole('button', { name: /Report/ })).toBeNull()
  })
})
