import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Booking } from '#contract/bookings'
import { aProduct, jsonResponse, renderWithApp } from '../../test/render'
import { BookNowButton } from './book-now-button'

vi.mock('../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }))

const BUYER = {
  id: 'buyer-1',
  name: 'Ayesha Rahman',
  email: 'ayesha@example.com',
  role: 'buyer',
  verified: false,
}
const SELLER = {
  id: 'seller-1',
  name: 'Rahim Uddin',
  email: 'rahim@example.com',
  role: 'seller',
  verified: false,
}
const product = aProduct({ seller_id: SELLER.id })

function aBooking(): Booking {
  return {
    _id: 'b-42',
    productId: product._id,
    productName: product.name,
    productImage: product.img,
    userName: BUYER.name,
    email: BUYER.email,
    price: 749.5,
    price_cents: 74_950,
    booked_price_cents: 74_950,
    phoneNumber: '+1 555 0100',
    location: 'Dhaka',
    paid: false,
    status: 'unpaid',
    createdAt: '2026-11-03T09:30:00.000Z',
    sellerId: SELLER.id,
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

describe('BookNowButton', () => {
  it('shows the seller "Your listing" with a link to edit it, never Book Now', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/api/session' ? jsonResponse({ user: SELLER }) : jsonResponse([]),
      ),
    )
    renderWithApp(<BookNowButton product={product} />)
    expect(await screen.findByText('Your listing')).toBeTruthy()
    expect(screen.getByRole('link', { name: `Edit ${product.name}` }).getAttribute('href')).toBe(
      `/dashboard/products/${product._id}/edit`,
    )
    expect(screen.queryByRole('button', { name: /Book Now/ })).toBeNull()
  })

  it('once booked, reads "Booked — Pay now" and leads to the payment page', async () => {
    let booked = false
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/session') return jsonResponse({ user: BUYER })
      if (init?.method === 'POST' && url === '/api/bookings') {
        booked = true
        return jsonResponse({ acknowledged: true, insertedId: 'b-42' }, { status: 201 })
      }
      if (url.startsWith('/api/bookings?')) return jsonResponse(booked ? [aBooking()] : [])
      return jsonResponse([])
    })
    vi.stubGlobal('fetch', fetchMock)
    renderWithApp(<BookNowButton product={product} />)
    const book = await screen.findByRole('button', { name: `Book Now ${product.name}` })
    await waitFor(() => expect((book as HTMLButtonElement).disabled).toBe(false))
    expect(fetchMock).toHaveBeenCalledWith(
      `/api/bookings?email=ayesha%40example.com&product_id=${product._id}`,
      expect.anything(),
    )
    fireEvent.click(book)
    // The modal's code loads when it opens: on a busy machine that import alone took longer than findBy's default 1 s.
    const phone = await screen.findByLabelText('Phone number', {}, { timeout: 5_000 })
    fireEvent.input(phone, { target: { value: '+1 555 0100' } })
    fireEvent.input(screen.getByLabelText('Location'), { target: { value: 'Dhaka' } })
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
    const pay = await screen.findByRole('link', { name: `Booked — Pay now for ${product.name}` })
    expect(pay.getAttribute('href')).toBe('/dashboard/payment/b-42')
    expect(screen.queryByRole('button', { name: /Book Now/ })).toBeNull()
  })
})
