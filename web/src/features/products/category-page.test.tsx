import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Product } from '#contract/products'
import { aProduct, jsonResponse, renderWithApp } from '../../test/render'
import { CategoryPage } from './category-page'

const BRAND = '0b8f3c6e-7a52-4f4e-9d0a-2a1c5b7e9f10'
const ME = { id: 'u1', name: 'Ayesha Rahman', email: 'ayesha@example.com', role: 'buyer', verified: false }

function makeProduct(n: number): Product {
  return aProduct({
    _id: `p${n}`,
    name: `Yoga Slim No. ${n}`,
    category_id: BRAND,
    resale_price: 500,
    resale_price_cents: 50_000,
    original_price: 900,
    original_price_cents: 90_000,
    img: '/media/x.webp',
    images: [],
    processor: 'Intel Core i5',
    advertise: false,
  })
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('CategoryPage', () => {
  it("shows every listing of the brand, a page at a time, following the server's next-page header", async () => {
    const fetchMock = vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost')
      if (url.pathname === '/api/session') return jsonResponse({ user: ME })
      if (url.pathname === '/api/brands') return jsonResponse([])
      if (url.searchParams.get('cursor') === 'c2') {
        return jsonResponse([makeProduct(3)], { headers: { 'x-total-count': '3' } })
      }
      return jsonResponse([makeProduct(1), makeProduct(2)], {
        headers: {
          'x-total-count': '3',
          link: `</api/category/${BRAND}?cursor=c2>; rel="next"`,
        },
      })
    })
    vi.stubGlobal('fetch', fetchMock)
    renderWithApp(<CategoryPage />, { at: `/category/${BRAND}`, path: '/category/:id' })
    expect(await screen.findByText('Showing 2 of 3 laptops')).toBeTruthy()
    expect(screen.getAllByTestId('product-card')).toHaveLength(2)
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }))
    await waitFor(() => expect(screen.getAllByTestId('product-card')).toHaveLength(3))
    expect(screen.getByText('Showing 3 laptops')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
    expect(fetchMock).toHaveBeenCalledWith(`/api/category/${BRAND}?cursor=c2`, expect.anything())
  })
})
