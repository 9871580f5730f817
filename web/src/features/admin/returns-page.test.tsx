import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Dispute } from '#contract/bookings'
import type { AdminReturn } from '#contract/returns'
import { jsonResponse, renderWithApp } from '../../test/render'
import { DisputesPage } from './disputes-page'
import { ReturnsPage } from './returns-page'

const declined: AdminReturn = {
  _id: 'r1',
  bookingId: 'b1',
  status: 'declined',
  method: 'ship',
  reason: 'The battery lasts forty minutes, the listing said five hours.',
  failed_check: 'battery_as_described',
  photos: [{ _id: 'u1', card: '/media/u1-card.webp', detail: '/media/u1.webp' }],
  declineReason: 'It left here holding a five-hour charge.',
  decisionReason: null,
  backNote: null,
  fromDispute: false,
  label: null,
  createdAt: '2026-11-27T10:00:00.000Z',
  acceptedAt: null,
  deliveredBackAt: null,
  closedAt: null,
  moves: ['admin_accept', 'refuse'],
  productName: 'XPS 13',
  priceCents: 50_000,
  buyer: { _id: 'buyer-1', name: 'Bea Buyer', email: 'bea@example.com' },
  seller: { _id: 'seller-1', name: 'Sam Seller', email: 'sam@example.com' },
}

const lost: AdminReturn = {
  ...declined,
  _id: 'r2',
  status: 'label_bought',
  moves: ['lost_refund', 'lost_release'],
  productName: 'ThinkPad X1',
  declineReason: null,
  acceptedAt: '2026-11-27T11:00:00.000Z',
  label: {
    url: '/labels/r2.pdf',
    carrier: 'USPS',
    trackingCode: '9400100000000000000002',
    trackingUrl: null,
    status: 'failure',
    costCents: 1_250,
  },
}

const dispute: Dispute = {
  _id: 'd1',
  status: 'open',
  reason: 'The screen has a dead line.',
  createdAt: '2026-11-22T09:00:00.000Z',
  resolvedAt: null,
  resolvedBy: null,
  booking: {
    _id: 'b2',
    productId: 'p2',
    productName: 'ThinkPad T14',
    productImage: '/media/2.webp',
    price_cents: 60_000,
    status: 'disputed',
    paidAt: '2026-11-20T09:00:00.000Z',
    handedOverAt: '2026-11-21T09:00:00.000Z',
    handoverNote: null,
  },
  buyer: { _id: 'buyer-1', name: 'Bea Buyer', email: 'bea@example.com' },
  seller: { _id: 'seller-1', name: 'Sam Seller', email: 'sam@example.com' },
  history: [],
}

let awaiting: AdminReturn[] = [declined]
const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
  if (url.startsWith('/api/returns?status=awaiting')) return jsonResponse(awaiting)
  if (url.startsWith('/api/returns?status=all')) return jsonResponse([])
  if (url === '/api/disputes') return jsonResponse([dispute])
  if (init?.method === 'PUT') return jsonResponse({ acknowledged: true, modifiedCount: 1, insertedId: 'r9' })
  return jsonResponse([])
})
const puts = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PUT')
    .map(([url, init]) => ({ url, body: JSON.parse(String(init?.body)) }))

beforeEach(() => {
  awaiting = [declined]
  fetchMock.mockClear()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('the admin’s returns', () => {
  it('lists the returns waiting for a decision with both sides’ words, and accepts one with a reason', async () => {
    renderWithApp(<ReturnsPage />)
    const card = await screen.findByTestId('admin-return')
    expect(within(card).getByText('The seller declined: an admin decides')).toBeTruthy()
    // The way back, said the same before and after the laptop travels.
    expect(within(card).getByText('Way back: by parcel')).toBeTruthy()
    expect(within(card).getByText(declined.reason)).toBeTruthy()
    expect(within(card).getByText(/It left here holding a five-hour charge/)).toBeTruthy()
    expect(within(card).getByText(/✗ Failed: The battery/)).toBeTruthy()
    fireEvent.click(within(card).getByRole('button', { name: /^Accept/ }))
    const dialog = await screen.findByRole('dialog', { name: 'Accept this return?' })
    expect(within(dialog).getByText(/A return label is bought at Sam Seller’s cost/)).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept the return' }))
    expect(
      await within(dialog).findByText('Give a reason both sides will see, in at least 10 characters'),
    ).toBeTruthy()
    fireEvent.change(within(dialog).getByLabelText('Your reason'), {
      target: { value: 'The battery report shows 41 percent of design capacity.' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept the return' }))
    await waitFor(() => expect(puts()).toHaveLength(1))
    expect(puts()[0]).toEqual({
      url: '/api/returns/r1/decide',
      body: { decision: 'accept', reason: 'The battery report shows 41 percent of design capacity.' },
    })
  })

  it('a return parcel the carrier lost waits with its tracking status; the admin refunds the buyer or releases it', async () => {
    awaiting = [lost]
    renderWithApp(<ReturnsPage />)
    const card = await screen.findByTestId('admin-return')
    expect(within(card).getByText('Return parcel lost: an admin decides')).toBeTruthy()
    expect(within(card).getByTestId('admin-return-label').textContent).toMatch(/failure/)
    expect(
      within(card).getByText(/The carrier could not deliver the return parcel to the seller/),
    ).toBeTruthy()
    expect(within(card).queryByRole('button', { name: /^Accept/ })).toBeNull()
    expect(within(card).getByRole('button', { name: 'Release to the seller of ThinkPad X1' })).toBeTruthy()
    fireEvent.click(within(card).getByRole('button', { name: 'Refund the buyer of ThinkPad X1' }))
    const dialog = await screen.findByRole('dialog', { name: 'Refund the buyer?' })
    expect(within(dialog).getByText(/Bea Buyer is refunded in full/)).toBeTruthy()
    fireEvent.change(within(dialog).getByLabelText('Your reason'), {
      target: { value: 'The carrier lost the parcel on its way back.' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund the buyer' }))
    await waitFor(() => expect(puts()).toHaveLength(1))
    expect(puts()[0]).toEqual({
      url: '/api/returns/r2/decide',
      body: { decision: 'accept', reason: 'The carrier lost the parcel on its way back.' },
    })
  })

  it('shows every return on "All returns"', async () => {
    renderWithApp(<ReturnsPage />)
    await screen.findByTestId('admin-return')
    fireEvent.click(screen.getByRole('button', { name: 'All returns' }))
    expect(await screen.findByText('No returns yet')).toBeTruthy()
  })
})

describe('an admin’s refund of a laptop the buyer has', () => {
  it('asks "Refund now" or "Return first"; Return first asks for the laptop back with the reason', async () => {
    renderWithApp(<DisputesPage />)
    fireEvent.click(await screen.findByRole('button', { name: 'Refund the buyer of ThinkPad T14' }))
    const dialog = await screen.findByRole('dialog', { name: 'Refund the buyer?' })
    const choice = within(dialog).getByTestId('refund-choice')
    expect((within(choice).getByLabelText(/Refund now/) as HTMLInputElement).checked).toBe(true)
    fireEvent.click(within(choice).getByLabelText(/Return first/))
    expect(within(dialog).queryByText(/The refund does not include a return of the laptop/)).toBeNull()
    fireEvent.change(within(dialog).getByLabelText('Why is the buyer refunded?'), {
      target: { value: 'The dead line shows in the buyer’s photos.' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Return first' }))
    await waitFor(() => expect(puts()).toHaveLength(1))
    expect(puts()[0]).toEqual({
      url: '/api/disputes/d1/return-first',
      body: { reason: 'The dead line shows in the buyer’s photos.' },
    })
  })
})
