import { cleanup, fireEvent, screen, within } from '@testing-library/react'
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
      url.startsWith('/api/session') ? jsonResponse({ user: ME }) : jsonResponse(bookings),
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

describe('MyOrdersPage: cancelling a booking before paying', () => {
  it('offers Cancel booking beside Pay, asks first, then cancels and shows it as cancelled by the buyer', async () => {
    let bookings: Booking[] = [makeBooking(1, 'unpaid'), makeBooking(2, 'paid'), makeBooking(3, 'sold')]
    const calls: { url: string; method: string }[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url.startsWith('/api/messages/unread')) return jsonResponse({ count: 0, bookings: {} })
        if (url.startsWith('/api/session')) return jsonResponse({ user: ME })
        if (init?.method && init.method !== 'GET') {
          calls.push({ url, method: init.method })
          bookings = bookings.map((b) =>
            b._id === 'b1' ? { ...b, status: 'cancelled', cancelledByBuyer: true, cancelReason: null } : b,
          )
          return jsonResponse({ acknowledged: true, modifiedCount: 1 })
        }
        return jsonResponse(bookings)
      }),
    )
    renderWithApp(<MyOrdersPage />)
    const [unpaid, paid, sold] = (await screen.findAllByTestId('order-row')).map((row) => within(row))
    expect(paid?.queryByRole('button', { name: /Cancel booking/ })).toBeNull()
    expect(sold?.queryByRole('button', { name: /Cancel booking/ })).toBeNull()

    // Asked first; keeping the booking sends nothing.
    fireEvent.click(unpaid?.getByRole('button', { name: 'Cancel booking of Laptop 1' }) as HTMLElement)
    let dialog = within(await screen.findByRole('dialog', { name: 'Cancel this booking?' }))
    expect(dialog.getByText(/nothing is charged. We tell the seller/)).toBeTruthy()
    fireEvent.click(dialog.getByRole('button', { name: 'Keep the booking' }))
    expect(calls).toEqual([])

    fireEvent.click(unpaid?.getByRole('button', { name: 'Cancel booking of Laptop 1' }) as HTMLElement)
    dialog = within(await screen.findByRole('dialog', { name: 'Cancel this booking?' }))
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel booking' }))
    await vi.waitFor(() => expect(calls).toEqual([{ url: '/api/bookings/b1/cancel-booking', method: 'PUT' }]))
    const row = within((await screen.findAllByTestId('order-row'))[0] as HTMLElement)
    expect(await row.findByText('Cancelled')).toBeTruthy()
    expect(row.getByText(/You cancelled this booking\. Nothing was charged\./)).toBeTruthy()
    expect(row.queryByRole('link', { name: /Pay/ })).toBeNull()
  })
})

describe('MyOrdersPage: the deal after payment', () => {
  it('shows each stage beside Paid and the next step: confirm or report after handover, report before', async () => {
    const handedOver = {
      ...makeBooking(1, 'handed_over'),
      paid: true,
      handedOverAt: '2026-11-20T10:00:00.000Z',
      handoverNote: 'Met at the library',
      autoCompleteAt: '2026-11-27T10:00:00.000Z',
    }
    const bookings = [
      handedOver,
      makeBooking(2, 'paid'),
      { ...makeBooking(3, 'completed'), paid: true },
      {
        ...makeBooking(4, 'disputed'),
        paid: true,
        dispute: { _id: 'd1', reason: 'Dead pixels', status: 'open' as const },
      },
      { ...makeBooking(5, 'refunded'), paid: true },
    ]
    const calls: { url: string; method: string; body: unknown }[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url.startsWith('/api/messages/unread')) return jsonResponse({ count: 0, bookings: {} })
        if (url.startsWith('/api/session')) return jsonResponse({ user: ME })
        if (url.startsWith('/api/reviews/mine')) return jsonResponse({ written: [], received: [] })
        if (init?.method && init.method !== 'GET') {
          calls.push({ url, method: init.method, body: init.body ? JSON.parse(String(init.body)) : null })
          return jsonResponse({ acknowledged: true, modifiedCount: 1, insertedId: 'd2' })
        }
        return jsonResponse(bookings)
      }),
    )
    renderWithApp(<MyOrdersPage />)
    const rows = (await screen.findAllByTestId('order-row')).map((row) => within(row))
    const [h, p, c, d, r] = rows

    expect(h?.getByText('Handed over')).toBeTruthy()
    expect(h?.getByText('Seller’s note: Met at the library')).toBeTruthy()
    expect(h?.getByText('Completes by itself on Nov 27, 2026 if you do nothing.')).toBeTruthy()
    expect(h?.getByRole('button', { name: 'Received, as described for Laptop 1' })).toBeTruthy()
    expect(h?.getByRole('button', { name: 'Report a problem for Laptop 1' })).toBeTruthy()

    expect(p?.getByText('Waiting for handover')).toBeTruthy()
    expect(p?.queryByRole('button', { name: /Received/ })).toBeNull()
    expect(p?.getByRole('button', { name: 'Report a problem for Laptop 2' })).toBeTruthy()

    expect(c?.getByText('Completed')).toBeTruthy()
    expect(c?.queryAllByRole('button')).toHaveLength(0)
    expect(d?.getByText('Problem reported')).toBeTruthy()
    expect(d?.queryAllByRole('button')).toHaveLength(0)
    expect(r?.getByText('Refunded')).toBeTruthy()
    for (const row of rows) expect(row.getByText('Paid')).toBeTruthy()

    // Report a problem: a reason of at least 10 characters, checked before anything is sent.
    fireEvent.click(p?.getByRole('button', { name: 'Report a problem for Laptop 2' }) as HTMLElement)
    const dialog = within(await screen.findByRole('dialog', { name: 'Report a problem' }))
    fireEvent.click(dialog.getByRole('button', { name: 'Report the problem' }))
    expect(await dialog.findByText('Tell us what went wrong in at least 10 characters')).toBeTruthy()
    expect(calls).toEqual([])
    fireEvent.change(dialog.getByLabelText('What went wrong?'), {
      target: { value: 'It never arrived at all.' },
    })
    fireEvent.click(dialog.getByRole('button', { name: 'Report the problem' }))
    await vi.waitFor(() =>
      expect(calls).toEqual([
        { url: '/api/bookings/b2/problem', method: 'POST', body: { reason: 'It never arrived at all.' } },
      ]),
    )
  })
})

describe('MyOrdersPage: a laptop that ships', () => {
  it('says a paid shipped sale waits to be shipped, and shows one on its way as Shipped beside Paid', async () => {
    const delivery = { method: 'ship' as const, shipping_cents: 1875, address: null, rate: null }
    const bookings = [
      { ...makeBooking(1, 'paid'), paid: true, delivery },
      { ...makeBooking(2, 'shipped'), paid: true, delivery },
    ]
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.startsWith('/api/messages/unread')) return jsonResponse({ count: 0, bookings: {} })
        if (url.startsWith('/api/session')) return jsonResponse({ user: ME })
        if (url.startsWith('/api/reviews/mine')) return jsonResponse({ written: [], received: [] })
        if (url.includes('/return')) return jsonResponse({ return: null })
        return jsonResponse(bookings)
      }),
    )
    renderWithApp(<MyOrdersPage />)
    const [toShip, onItsWay] = (await screen.findAllByTestId('order-row')).map((row) => within(row))
    expect(toShip?.getByText('Paid')).toBeTruthy()
    expect(toShip?.getByText('Waiting to be shipped')).toBeTruthy()
    expect(toShip?.queryByText('Waiting for handover')).toBeNull()
    expect(onItsWay?.getByText('Paid')).toBeTruthy()
    expect(onItsWay?.getByText('Shipped')).toBeTruthy()
  })
})
