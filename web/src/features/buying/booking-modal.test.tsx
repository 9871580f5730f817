import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Product } from '#contract/products'
import { toast } from '../../lib/toast'
import { jsonResponse, renderWithApp } from '../../test/render'
import { BookingModal } from './booking-modal'

vi.mock('../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }))

const product = {
  _id: '3f1c2a9e-5b7d-4c8e-9a0b-1c2d3e4f5a6b',
  name: 'ThinkPad X1 Carbon Gen 9',
  resale_price_cents: 74_950,
  img: '/media/x1.webp',
  images: [{ card: '/media/x1-card.webp', detail: '/media/x1-detail.webp' }],
  sellStatus: false,
} as Product

function renderModal(onClose = vi.fn()) {
  renderWithApp(
    <BookingModal
      product={product}
      buyer={{ name: 'Ayesha Rahman', email: 'ayesha@example.com' }}
      onClose={onClose}
    />,
  )
  return { onClose }
}

function type(label: string, value: string) {
  fireEvent.input(screen.getByLabelText(label), { target: { value } })
}

function submit() {
  fireEvent.click(screen.getByRole('button', { name: 'Submit' }))
}

beforeEach(() => {
  vi.mocked(toast.success).mockClear()
  vi.mocked(toast.error).mockClear()
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('BookingModal', () => {
  it('shows the buyer, the price and the photo read-only, and the two fields to fill', () => {
    renderModal()
    expect(screen.getByRole('dialog', { name: 'Book ThinkPad X1 Carbon Gen 9' })).toBeTruthy()
    for (const [label, value] of [
      ['Name', 'Ayesha Rahman'],
      ['Email', 'ayesha@example.com'],
      ['Price', '$749.50'],
    ]) {
      const input = screen.getByLabelText(label as string) as HTMLInputElement
      expect(input.value).toBe(value)
      expect(input.readOnly).toBe(true)
    }
    expect(screen.getByRole('img', { name: 'ThinkPad X1 Carbon Gen 9' }).getAttribute('src')).toBe(
      '/media/x1-card.webp',
    )
    expect((screen.getByLabelText('Phone number') as HTMLInputElement).readOnly).toBe(false)
    expect((screen.getByLabelText('Location') as HTMLInputElement).readOnly).toBe(false)
  })

  it('shows each field its own message and sends nothing while one is wrong', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    renderModal()

    submit()
    expect(await screen.findByText('Phone number is required')).toBeTruthy()
    expect(screen.getByText('Location is required')).toBeTruthy()
    expect(screen.getByLabelText('Phone number').getAttribute('aria-invalid')).toBe('true')

    type('Phone number', 'call me')
    type('Location', 'x'.repeat(121))
    submit()
    expect(await screen.findByText('Enter a valid phone number')).toBeTruthy()
    expect(screen.getByText('Location is too long')).toBeTruthy()

    type('Phone number', '1'.repeat(31))
    submit()
    expect(await screen.findByText('Phone number is too long')).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('books with the product id, phone and location only, then says so and closes', async () => {
    const fetchMock = vi.fn(async () =>
      jsonResponse({ acknowledged: true, insertedId: 'b1' }, { status: 201 }),
    )
    vi.stubGlobal('fetch', fetchMock)
    const { onClose } = renderModal()

    type('Phone number', '+1 555 123 4567')
    type('Location', 'Dhaka')
    submit()

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Product booked Successfully'))
    expect(fetchMock).toHaveBeenCalledWith('/api/bookings', expect.objectContaining({ method: 'POST' }))
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1]
    expect(JSON.parse(init.body as string)).toEqual({
      productId: product._id,
      phoneNumber: '+1 555 123 4567',
      location: 'Dhaka',
    })
    await waitFor(() => expect(onClose).toHaveBeenCalled())
  })

  it("shows the server's refusal as an error toast", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          { error: { code: 'CONFLICT', message: 'You have already booked this laptop' } },
          { status: 409 },
        ),
      ),
    )
    renderModal()
    type('Phone number', '01711 000000')
    type('Location', 'Chattogram')
    submit()
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('You have already booked this laptop'))
    expect(toast.success).not.toHaveBeenCalled()
  })
})
