import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { MyReviews, Review, SellerPage as SellerPageData } from '#contract/reviews'
import { aProduct, jsonResponse, renderWithApp } from '../../test/render'
import { SellerPage } from './seller-page'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
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

describe('SellerPage', () => {
  const page: SellerPageData = {
    seller: { _id: 's1', name: 'Sam Seller', verified: false },
    average: 4.5,
    count: 2,
    products: [],
    reviews: [
      review({ _id: 'r-own', authorName: 'Ayesha', text: 'My own words.', published: true }),
      review({ _id: 'r-other', authorName: 'Bo', text: 'Someone else.', published: true }),
    ],
  }
  const ME = { id: 'u1', name: 'Ayesha', email: 'ayesha@example.com', role: 'buyer', verified: false }

  function stubApi(me: typeof ME | null, shown: SellerPageData = page) {
    const fetchMock = vi.fn(async (url: string) => {
      if (url.startsWith('/api/session')) return jsonResponse({ user: me ?? null })
      if (url === '/api/sellers/s1/page') return jsonResponse(shown)
      if (url === '/api/reviews/mine')
        return jsonResponse({ written: page.reviews.slice(0, 1), received: [] } satisfies MyReviews)
      return jsonResponse({ error: { code: 'NOT_FOUND', message: 'Not found' } }, { status: 404 })
    })
    vi.stubGlobal('fetch', fetchMock)
    return fetchMock
  }

  async function reviewItems() {
    const items = await screen.findAllByTestId('seller-review')
    const byText = (text: string) => within(items.find((i) => i.textContent?.includes(text)) as HTMLElement)
    return { own: byText('My own words.'), other: byText('Someone else.') }
  }

  it("offers no Report this review on the signed-in user's own review, only on others'", async () => {
    const fetchMock = stubApi(ME)
    renderWithApp(<SellerPage />, { at: '/sellers/s1', path: '/sellers/:id' })
    const { own, other } = await reviewItems()
    // Once the session is known, the author's own review loses the action; the other review keeps it.
    await vi.waitFor(() => expect(own.queryByRole('button', { name: /Report this review/ })).toBeNull())
    expect(other.getByRole('button', { name: /Report this review/ })).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledWith('/api/session', expect.anything())
  })

  it('offers Report this review on every review to a signed-out visitor', async () => {
    const fetchMock = stubApi(null)
    renderWithApp(<SellerPage />, { at: '/sellers/s1', path: '/sellers/:id' })
    const { own, other } = await reviewItems()
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/session', expect.anything()))
    expect(own.getByRole('button', { name: /Report this review/ })).toBeTruthy()
    expect(other.getByRole('button', { name: /Report this review/ })).toBeTruthy()
  })

  it("loads the first laptops' photos at once, the first at high priority: on a phone it is the page's largest paint", async () => {
    const products = Array.from({ length: 5 }, (_, i) =>
      aProduct({ _id: `3f1c2a9e-5b7d-4c8e-9a0b-1c2d3e4f5a6${i}`, name: `Laptop ${i}` }),
    )
    stubApi(null, { ...page, products })
    renderWithApp(<SellerPage />, { at: '/sellers/s1', path: '/sellers/:id' })
    await screen.findAllByTestId('product-card')
    const photos = screen.getAllByRole('img').filter((img) => img.getAttribute('alt')?.startsWith('Laptop'))
    // Four lead (loaded at once), the rest when scrolled near.
    expect(photos.findLastIndex((img) => img.getAttribute('loading') === 'eager')).toBe(3)
    expect(photos[4]?.getAttribute('loading')).toBe('lazy')
    expect(photos[0]?.getAttribute('fetchpriority')).toBe('high')
  })
})
