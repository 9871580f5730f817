import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Product } from '#contract/products'
import { aProduct, jsonResponse, renderWithApp } from '../../test/render'
import { ProductDetailPage } from './product-detail-page'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const SELLER = {
  id: 'seller-1',
  name: 'Rahim Uddin',
  email: 'rahim@example.com',
  role: 'seller',
  verified: false,
}

function serve(product: Product) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url.startsWith('/api/session')) return jsonResponse({ user: SELLER })
      if (url === `/api/products/${product._id}`) return jsonResponse(product)
      return jsonResponse([])
    }),
  )
}

/** The "Listing details" row of a term. */
const detail = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent

describe('ProductDetailPage: its seller’s view of a listing not live yet', () => {
  it('says it waits for review where Book Now would be, and in its status, never "Available"', async () => {
    const product = aProduct({ seller_id: SELLER.id, review_state: 'pending', review_reason: null })
    serve(product)
    renderWithApp(<ProductDetailPage />, { at: `/products/${product._id}`, path: '/products/:id' })
    const notice = await screen.findByTestId('review-notice')
    expect(notice.textContent).toContain('Waiting for review')
    await vi.waitFor(() =>
      expect(notice.textContent).toContain('Only you and our admins can see this listing'),
    )
    expect(within(notice).getByRole('link', { name: 'Edit the listing' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: /Book Now/ })).toBeNull()
    expect(detail('Status')).toBe('Waiting for review')
    expect(document.body.textContent).not.toContain('Available')
  })

  it('says why it was not approved', async () => {
    const product = aProduct({
      seller_id: SELLER.id,
      review_state: 'rejected',
      review_reason: 'The photos are stock pictures.',
      expired: true,
    })
    serve(product)
    renderWithApp(<ProductDetailPage />, { at: `/products/${product._id}`, path: '/products/:id' })
    const notice = await screen.findByTestId('review-notice')
    expect(notice.textContent).toContain('Not approved')
    expect(notice.textContent).toContain('Why: The photos are stock pictures.')
    expect(detail('Status')).toBe('Not approved')
  })
})
