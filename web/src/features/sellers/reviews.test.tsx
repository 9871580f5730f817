import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { MyReviews, Review } from '#contract/reviews'
import { SellerRatingLink } from '../../components/product/seller-rating'
import { BindingsProvider } from '../../lib/bindings'
import { jsonResponse, renderWithApp, routerBindings } from '../../test/render'
import { SaleReview } from './leave-review'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('SellerRatingLink', () => {
  it('shows "★ 4.8 (12)" linking to the seller page, read out in words', () => {
    render(
      <BindingsProvider bindings={routerBindings}>
        <MemoryRouter>
          <SellerRatingLink sellerId="seller-1" rating={{ average: 4.8, count: 12 }} />
        </MemoryRouter>
      </BindingsProvider>,
    )
    const link = screen.getByTestId('seller-rating')
    expect(link.getAttribute('href')).toBe('/sellers/seller-1')
    expect(link.textContent).toBe('Seller rated 4.8 out of 5(12 reviews)')
  })

  it('shows nothing for a seller without published reviews, unless asked', () => {
    const { container } = render(
      <BindingsProvider bindings={routerBindings}>
        <MemoryRouter>
          <SellerRatingLink sellerId="s" rating={{ average: null, count: 0 }} />
        </MemoryRouter>
      </BindingsProvider>,
    )
    expect(container.textContent).toBe('')
    render(
      <BindingsProvider bindings={routerBindings}>
        <MemoryRouter>
          <SellerRatingLink sellerId="s" rating={{ average: null, count: 0 }} showEmpty />
        </MemoryRouter>
      </BindingsProvider>,
    )
    expect(screen.getByRole('link', { name: 'No reviews yet' })).toBeTruthy()
  })
})

const review = (overrides: Partial<Review>): Review => ({
  _id: 'r1',
  bookingId: 'b1',
  rating: 4,
  text: 'Good laptop.',
  authorName: 'Ayesha',
  authorRole: 'buyer',
  createdAt: '2026-11-03T09:30:00.000Z',
  published: false,
  ...overrides,
})

describe('SaleReview', () => {
  it('offers "Leave a review", checks the form, sends it and shows the review', async () => {
    let mine: MyReviews = { written: [], received: [] }
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/bookings/b1/review' && init?.method === 'POST') {
        const body = JSON.parse(String(init.body))
        mine = { written: [review({ rating: body.rating, text: body.text })], received: [] }
        return jsonResponse({ acknowledged: true, insertedId: 'r1' }, { status: 201 })
      }
      return jsonResponse(mine)
    })
    vi.stubGlobal('fetch', fetchMock)
    renderWithApp(<SaleReview bookingId="b1" otherSide="seller" />)

    fireEvent.click(await screen.findByRole('button', { name: 'Leave a review' }))
    fireEvent.click(screen.getByRole('button', { name: 'Send review' }))
    expect(await screen.findByText('Choose a rating from 1 to 5 stars')).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalledWith('/api/bookings/b1/review', expect.anything())

    const stars = screen.getByRole('group', { name: 'Your rating of the seller' })
    fireEvent.click(within(stars).getByLabelText('4 stars'))
    fireEvent.change(screen.getByLabelText('Your review'), { target: { value: 'Friendly, on time.' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send review' }))

    const box = await screen.findByText('Friendly, on time.')
    expect(box).toBeTruthy()
    expect(screen.getByText(/Shown to the seller once they review you too/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Leave a review' })).toBeNull()
  })

  it("shows the other side's published review of the user", async () => {
    const data: MyReviews = {
      written: [review({ published: true })],
      received: [review({ _id: 'r2', authorRole: 'seller', text: 'Paid at once.', published: true })],
    }
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(data)),
    )
    renderWithApp(<SaleReview bookingId="b1" otherSide="buyer" />)
    expect(await screen.findByText('Paid at once.')).toBeTruthy()
    expect(screen.getByText("The buyer's review of you")).toBeTruthy()
  })
})
