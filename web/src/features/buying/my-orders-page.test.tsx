import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Booking, BookingStatus } from '#contract/bookings'
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
    phoneNumber: '+1 555 123 4567',
    location: 'Dhaka',
    paid: status === 'paid',
    status,
    createdAt: '2026-11-03T09:30:00.000Z',
  }
}

function json(body: unknown) {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
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
    const fetchMock = vi.fn(async (url: string) => (url.startsWith('/api/me') ? json(ME) : json(bookings)))
    vi.stubGlobal('fetch', fetchMock)
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <MyOrdersPage />
        </MemoryRouter>
      </QueryClientProvider>,
    )

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
