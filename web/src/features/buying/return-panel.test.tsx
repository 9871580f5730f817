import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Booking } from '#contract/bookings'
import type { BookingReturn, Return } from '#contract/returns'
import { FakeXhr } from '../../components/photos/fake-xhr'
import { jsonResponse, renderWithApp } from '../../test/render'
import { BuyerReturnPanel, SellerReturnPanel } from './return-panel'

const booking: Booking = {
  _id: 'b1',
  productId: 'p1',
  productName: 'XPS 13',
  productImage: '/media/1.webp',
  userName: 'Bea Buyer',
  email: 'bea@example.com',
  price: 500,
  price_cents: 50_000,
  booked_price_cents: 50_000,
  phoneNumber: '',
  location: '',
  paid: true,
  status: 'handed_over',
  createdAt: '2026-11-20T09:30:00.000Z',
  sellerId: 'seller-1',
  paidAt: '2026-11-20T09:40:00.000Z',
  handedOverAt: '2026-11-27T09:30:00.000Z',
  handoverNote: null,
  autoCompleteAt: '2026-11-30T09:30:00.000Z',
  completedAt: null,
  refundedAt: null,
  dispute: null,
  serial_last4: '7QX2',
  delivery: { method: 'ship', shipping_cents: 1_250, address: null, rate: null, ship_by: null },
}

const requested: Return = {
  _id: 'r1',
  bookingId: 'b1',
  status: 'requested',
  method: 'ship',
  reason: 'The battery lasts forty minutes, the listing said five hours.',
  failed_check: 'battery_as_described',
  photos: [{ _id: 'u1', card: '/media/u1-card.webp', detail: '/media/u1.webp' }],
  declineReason: null,
  decisionReason: null,
  backNote: null,
  fromDispute: false,
  label: null,
  createdAt: '2026-11-27T10:00:00.000Z',
  acceptedAt: null,
  deliveredBackAt: null,
  closedAt: null,
  // As its seller reads it: the server's table of moves says what they can do now.
  moves: ['accept', 'decline'],
}

const labelled: Return = {
  ...requested,
  status: 'label_bought',
  moves: [],
  acceptedAt: '2026-11-27T11:00:00.000Z',
  label: {
    url: '/test-carrier/labels/shp_1.pdf',
    carrier: 'USPS',
    trackingCode: 'EZ1000000001',
    trackingUrl: '/test-carrier/track/EZ1000000001',
    status: 'in_transit',
    costCents: 1_180,
  },
}

let answer: BookingReturn = { return: null, canOpenUntil: '2026-11-30T09:30:00.000Z' }
const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
  if (url === '/api/bookings/b1/return' && init?.method === 'GET') return jsonResponse(answer)
  if (init?.method === 'POST' || init?.method === 'PUT')
    return jsonResponse({ acknowledged: true, modifiedCount: 1 })
  return jsonResponse({ error: { code: 'NOT_FOUND', message: 'Not found' } }, { status: 404 })
})
const sentCalls = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST' || init?.method === 'PUT')
    .map(([url, init]) => ({
      url,
      method: init?.method,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    }))

beforeEach(() => {
  FakeXhr.install()
  fetchMock.mockClear()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe("the buyer's return", () => {
  it('offers "Return it" within the window; the return needs the failed check, a reason and a photo uploaded to the booking', async () => {
    answer = { return: null, canOpenUntil: '2026-11-30T09:30:00.000Z' }
    renderWithApp(<BuyerReturnPanel booking={booking} />)
    expect(await screen.findByText(/Not as described\? You can return it until/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: /Return it/ }))
    const dialog = await screen.findByRole('dialog', { name: 'Return it: not as described' })
    expect(within(dialog).getByText(/you get a return label paid by the seller/)).toBeTruthy()
    const confirm = within(dialog).getByRole('button', { name: 'Request the return' }) as HTMLButtonElement
    expect(confirm.disabled).toBe(true)

    const file = new File([new Uint8Array(10)], 'keys.jpg', { type: 'image/jpeg' })
    fireEvent.change(within(dialog).getByLabelText('Add photos'), { target: { files: [file] } })
    expect(FakeXhr.requests[0]?.url).toBe('/api/bookings/b1/return-photos')
    await act(async () => {
      FakeXhr.requests[0]?.respond(201, {
        _id: '5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6',
        card: '/media/a-card.webp',
        detail: '',
      })
    })
    fireEvent.click(confirm)
    expect(await within(dialog).findByText('Choose the checklist item that failed')).toBeTruthy()
    expect(within(dialog).getByText('Tell us what went wrong in at least 10 characters')).toBeTruthy()
    expect(sentCalls()).toEqual([])

    fireEvent.change(within(dialog).getByLabelText('Which check failed?'), {
      target: { value: 'battery_as_described' },
    })
    fireEvent.change(within(dialog).getByLabelText('What is not as described?'), {
      target: { value: requested.reason },
    })
    fireEvent.click(confirm)
    await waitFor(() => expect(sentCalls()).toHaveLength(1))
    expect(sentCalls()[0]).toEqual({
      url: '/api/bookings/b1/return',
      method: 'POST',
      body: {
        reason: requested.reason,
        failed_check: 'battery_as_described',
        photos: ['5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6'],
      },
    })
  })

  it('shows nothing to do once the window has passed', async () => {
    answer = { return: null, canOpenUntil: null }
    renderWithApp(<BuyerReturnPanel booking={booking} />)
    await waitFor(() => expect(fetchMock).toHaveBeenCalled())
    expect(screen.queryByRole('button', { name: /Return it/ })).toBeNull()
  })

  it('shows the return label to print and its tracking', async () => {
    answer = { return: labelled, canOpenUntil: null }
    renderWithApp(<BuyerReturnPanel booking={{ ...booking, status: 'returning' }} />)
    const label = await screen.findByRole('link', { name: 'Print the return label (PDF)' })
    expect(label.getAttribute('href')).toBe('/test-carrier/labels/shp_1.pdf')
    expect(screen.getByRole('link', { name: 'EZ1000000001' }).getAttribute('href')).toBe(
      '/test-carrier/track/EZ1000000001',
    )
    expect(screen.getByText('Return label ready: send the laptop back')).toBeTruthy()
    expect(screen.getByTestId('return-label').textContent).toContain('On its way back')
  })
})

describe("the seller's return", () => {
  it('reads the buyer’s reason, failed check and photos, and accepts the return', async () => {
    answer = { return: requested, canOpenUntil: null }
    renderWithApp(<SellerReturnPanel sale={{ ...booking, status: 'returning' }} productName="XPS 13" />)
    expect(await screen.findByText(/The buyer’s reason: “The battery lasts forty minutes/)).toBeTruthy()
    expect(screen.getByText(/Failed check: The battery/)).toBeTruthy()
    expect(screen.getByRole('img', { name: 'What the buyer shows, 1 of 1' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: /Accept the return/ }))
    await waitFor(() => expect(sentCalls()).toHaveLength(1))
    expect(sentCalls()[0]).toMatchObject({ url: '/api/bookings/b1/return/accept', method: 'PUT' })
  })

  it('offers only the moves the server says the reader can make now', async () => {
    // A requested return read by someone the table gives no move (an admin on the sale's page, say): no buttons.
    answer = { return: { ...requested, moves: [] }, canOpenUntil: null }
    renderWithApp(<SellerReturnPanel sale={{ ...booking, status: 'returning' }} productName="XPS 13" />)
    expect(await screen.findByText(/The buyer’s reason/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: /Accept the return/ })).toBeNull()
    expect(screen.queryByRole('button', { name: /^Decline/ })).toBeNull()
    expect(screen.queryByRole('button', { name: /Confirm it is as sent/ })).toBeNull()
  })

  it('declines with a reason of at least 10 characters', async () => {
    answer = { return: requested, canOpenUntil: null }
    renderWithApp(<SellerReturnPanel sale={{ ...booking, status: 'returning' }} productName="XPS 13" />)
    fireEvent.click(await screen.findByRole('button', { name: /^Decline/ }))
    const dialog = await screen.findByRole('dialog', { name: 'Decline this return?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decline the return' }))
    expect(
      await within(dialog).findByText('Tell the buyer why you decline in at least 10 characters'),
    ).toBeTruthy()
    fireEvent.change(within(dialog).getByLabelText('Why do you decline?'), {
      target: { value: 'It left here holding a five-hour charge.' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decline the return' }))
    await waitFor(() => expect(sentCalls()).toHaveLength(1))
    expect(sentCalls()[0]).toEqual({
      url: '/api/bookings/b1/return/decline',
      method: 'PUT',
      body: { reason: 'It left here holding a five-hour charge.' },
    })
  })

  it('once delivered back: confirms it is as sent (refunding the buyer) or says what is different', async () => {
    answer = {
      return: {
        ...labelled,
        status: 'delivered_back',
        deliveredBackAt: '2026-11-29T10:00:00.000Z',
        moves: ['back_as_sent', 'back_otherwise'],
      },
      canOpenUntil: null,
    }
    renderWithApp(<SellerReturnPanel sale={{ ...booking, status: 'returning' }} productName="XPS 13" />)
    expect(await screen.findByText(/Return label paid by you: \$11\.80/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: /It came back otherwise/ }))
    let dialog = await screen.findByRole('dialog', { name: 'What is different?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send to an admin' }))
    expect(await within(dialog).findByText('Say what is different, in at least 10 characters')).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))

    fireEvent.click(screen.getByRole('button', { name: /Confirm it is as sent/ }))
    dialog = await screen.findByRole('dialog', { name: 'Is it as you sent it?' })
    expect(within(dialog).getByText(/Bea Buyer is refunded \$500 in full/)).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, refund the buyer' }))
    await waitFor(() => expect(sentCalls()).toHaveLength(1))
    expect(sentCalls()[0]).toEqual({
      url: '/api/bookings/b1/return/back',
      method: 'PUT',
      body: { as_sent: true },
    })
  })
})
