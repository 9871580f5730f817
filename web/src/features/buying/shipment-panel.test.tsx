import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Booking } from '#contract/bookings'
import type { SaleParcel } from '#contract/delivery'
import { jsonResponse, renderWithApp } from '../../test/render'
import { ShipmentPanel } from './shipment-panel'

const parcel: SaleParcel = {
  carrier: 'USPS',
  service: 'Priority',
  tracking_code: 'EZ1000000001',
  tracking_url: 'http://127.0.0.1:3000/test-carrier/track/EZ1000000001',
  label_url: 'http://127.0.0.1:3000/test-carrier/labels/shp_1.pdf',
  status: 'in_transit',
  status_at: '2026-11-28T14:05:00.000Z',
  test_mode: true,
  events: [
    { status: 'pre_transit', message: 'Shipping label created', at: '2026-11-28T09:30:00.000Z' },
    {
      status: 'in_transit',
      message: 'Accepted at the post office, San Francisco',
      at: '2026-11-28T14:05:00.000Z',
    },
  ],
}

const sale: Booking = {
  _id: 'b1',
  productId: 'p1',
  productName: 'ThinkPad X1',
  productImage: '/media/1.webp',
  userName: 'Bea Buyer',
  email: 'bea@example.com',
  price: 690,
  price_cents: 69_000,
  booked_price_cents: 69_000,
  phoneNumber: '(312) 555-0187',
  location: 'Chicago, IL',
  paid: true,
  status: 'paid',
  createdAt: '2026-11-27T09:30:00.000Z',
  sellerId: 'seller-1',
  paidAt: '2026-11-27T09:40:00.000Z',
  handedOverAt: null,
  handoverNote: null,
  autoCompleteAt: null,
  completedAt: null,
  refundedAt: null,
  dispute: null,
  delivery: {
    method: 'ship',
    shipping_cents: 1_240,
    address: {
      name: 'Bea Buyer',
      street1: '179 N Harbor Dr',
      city: 'Redondo Beach',
      state: 'CA',
      zip: '90277',
      country: 'US',
    },
    rate: { carrier: 'USPS', service: 'Priority', amount_cents: 1_240, delivery_days: 2 },
    ship_by: '2026-11-30T09:40:00.000Z',
  },
  parcel: null,
}
const delivery = sale.delivery as NonNullable<Booking['delivery']>

const shipped: Booking = {
  ...sale,
  status: 'shipped',
  delivery: sale.delivery ? { ...sale.delivery, ship_by: null } : undefined,
  parcel,
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('a shipped sale on the deal', () => {
  it('shows the seller the address, the date to ship by and "Buy shipping label" while paid, which buys it', async () => {
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST' && url === '/api/bookings/b1/label') return jsonResponse({ parcel })
      return jsonResponse(null)
    })
    vi.stubGlobal('fetch', fetchMock)
    renderWithApp(<ShipmentPanel booking={sale} side="seller" />)
    expect(screen.getByText('179 N Harbor Dr', { exact: false })).toBeTruthy()
    expect(screen.getByText(/Ship by Nov 30, 2026/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Buy shipping label for ThinkPad X1' }))
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/bookings/b1/label',
        expect.objectContaining({ method: 'POST' }),
      ),
    )
  })

  it('tells the buyer when it ships, with no button and no address of theirs repeated', () => {
    renderWithApp(<ShipmentPanel booking={sale} side="buyer" />)
    expect(screen.getByText('The seller ships it by Nov 30, 2026.')).toBeTruthy()
    expect(screen.queryByRole('button')).toBeNull()
    expect(screen.queryByText('179 N Harbor Dr', { exact: false })).toBeNull()
  })

  it('shows the carrier, the tracking number linking to its page, each step with its time, and Test mode', () => {
    renderWithApp(<ShipmentPanel booking={shipped} side="buyer" />)
    const link = screen.getByRole('link', { name: /EZ1000000001/ })
    expect(link.getAttribute('href')).toBe(parcel.tracking_url)
    expect(link.getAttribute('target')).toBe('_blank')
    expect(screen.getByText('Test mode')).toBeTruthy()
    const steps = within(screen.getByRole('list', { name: 'Tracking' })).getAllByRole('listitem')
    // The newest step first, each with its time in UTC.
    expect(steps.map((s) => s.textContent)).toEqual([
      'In transit · Accepted at the post office, San FranciscoNov 28, 2:05 PM UTC',
      'Label created · Shipping label createdNov 28, 9:30 AM UTC',
    ])
    expect(steps[0]?.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-28T14:05:00.000Z')
    // The label is the seller's to print.
    expect(screen.queryByRole('link', { name: /shipping label/ })).toBeNull()
    expect(screen.queryByRole('button')).toBeNull()
  })

  it('gives the seller the label to print once bought', () => {
    renderWithApp(<ShipmentPanel booking={shipped} side="seller" />)
    expect(screen.getByRole('link', { name: 'Print the shipping label (PDF)' }).getAttribute('href')).toBe(
      parcel.label_url,
    )
    expect(screen.queryByRole('button', { name: /Buy shipping label/ })).toBeNull()
  })

  it('says nothing of shipping for a met sale, nor for a real carrier’s Test mode', () => {
    renderWithApp(
      <ShipmentPanel booking={{ ...sale, delivery: { ...delivery, method: 'meet' } }} side="seller" />,
    )
    expect(screen.queryByText('Shipping')).toBeNull()
    cleanup()
    renderWithApp(
      <ShipmentPanel booking={{ ...shipped, parcel: { ...parcel, test_mode: false } }} side="buyer" />,
    )
    expect(screen.queryByText('Test mode')).toBeNull()
  })
})
