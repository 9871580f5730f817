import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Booking, BookingStatus } from '#contract/bookings'
import { jsonResponse, renderWithApp } from '../../test/render'
import { MyOrdersPage } from './my-orders-page'

const ME = { id: 'u1', name: 'Ayesha Rahman', email: 'ayesha@example.com', role: 'buyer', verified: false }

function makeBooking(n: number, status: BookingStatus): Booking {
  return {
    _id: `b${n}`,
    productId: `p${n}`,
    productName: `Laptop ${n}`,
    productImage: `/media/${n}.webp`,
    userName: ME.name,
    email: ME.email,
    price: 500 + n,
    price_cents: (500 + n) * 100,
    booked_price_cents: (500 + n) * 100,
    phoneNumber: '+1 555 123 4567',
    location: 'Dhaka',
    paid: status === 'paid',
    status,
    createdAt: '2026-11-03T09:30:00.000Z',
    sellerId: 'seller-1',
    paidAt: null,
    handedOverAt: null,
    handoverNote: null,
    autoCompleteAt: null,
    completedAt: null,
    refundedAt: null,
    dispute: null,
  }
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('MyOrdersPage', () => {
  it("lists the buyer's own bookings with Pay, Paid, Sold or Unavailable", async () => {
    const bookings = [
      makeBooking(1, 'unpaid'),
      makeBooking(2, 'paid'),
      makeBooking(3, 'sold'),
      makeBooking(4, 'unavailable'),
    ]
    const fetchMock = vi.fn(async (url: string) =>
      url.startsWith('/api/me') ? jsonResponse(ME) : jsonResponse(bookings),
    )
    vi.stubGlobal('fetch', fetchMock)
    renderWithApp(<MyOrdersPage />)

    const rows = await screen.findAllByTestId('order-row')
    expect(fetchMock).toHaveBeenCalledWith('/api/bookings?email=ayesha%40example.com', expect.anything())
    expect(rows).toHaveLength(4)
    const [unpaid, paid, sold, unavailable] = rows.map((row) => within(row))

    expect(unpaid?.getByRole('img', { name: 'Laptop 1' })).toBeTruthy()
    expect(unpaid?.getByText('$501')).toBeTruthy()
    expect(unpaid?.getByRole('link', { name: 'Pay for Laptop 1' }).getAttribute('href')).toBe(
      '/dashboard/payment/b1',
    )
    expect(paid?.getByText('Paid')).toBeTruthy()
    expect(paid?.queryByRole('link', { name: /Pay/ })).toBeNull()
    expect(sold?.getByText('Sold')).toBeTruthy()
    expect(sold?.queryByRole('link', { name: /Pay/ })).toBeNull()
    expect(unavailable?.getByText('Unavailable')).toBeTruthy()
  })
})
