import { cleanup, render, screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import type { Product } from '#contract/products'
import { ProductCard } from './product-card'

function makeProduct(overrides: Partial<Product> = {}): Product {
  return {
    _id: '3f1c2a9e-5b7d-4c8e-9a0b-1c2d3e4f5a6b',
    name: 'ThinkPad X1 Carbon Gen 9',
    category_id: 'b1',
    brand_name: 'Lenovo',
    seller_name: 'Rahim Uddin',
    seller_verified: false,
    resale_price: 749.5,
    resale_price_cents: 74_950,
    original_price: 1299,
    original_price_cents: 129_900,
    img: '/media/x1-card.webp',
    images: [{ card: '/media/x1-card.webp', detail: '/media/x1-detail.webp' }],
    description: 'Light marks on the lid.',
    condition: 'Good',
    location: 'Dhaka',
    uses: 2,
    processor: 'Intel Core i7-1165G7',
    ram_gb: 16,
    storage_gb: 512,
    screen_inches: 14,
    advertise: true,
    sellStatus: false,
    postedOn: '2026-11-03T09:30:00.000Z',
    ...overrides,
  }
}

function renderCard(product: Product) {
  render(
    <MemoryRouter>
      <ProductCard product={product} />
    </MemoryRouter>,
  )
  return screen.getByTestId('product-card')
}

afterEach(cleanup)

describe('ProductCard', () => {
  it('shows the photo, name link, prices, condition, location, use, date and seller', () => {
    const card = renderCard(makeProduct())
    const view = within(card)

    expect(view.getByRole('img', { name: 'ThinkPad X1 Carbon Gen 9' }).getAttribute('src')).toBe(
      '/media/x1-card.webp',
    )
    expect(view.getByRole('link', { name: 'ThinkPad X1 Carbon Gen 9' }).getAttribute('href')).toBe(
      '/products/3f1c2a9e-5b7d-4c8e-9a0b-1c2d3e4f5a6b',
    )
    expect(card.textContent).toContain('$749.50')
    expect(card.querySelector('s')?.textContent).toBe('$1,299')
    expect(view.getByText('Good')).toBeTruthy()
    expect(view.getByText('Dhaka')).toBeTruthy()
    expect(view.getByText('2 years of use')).toBeTruthy()
    expect(view.getByText('Nov 3, 2026').getAttribute('datetime')).toBe('2026-11-03T09:30:00.000Z')
    expect(view.getByText('Rahim Uddin')).toBeTruthy()
  })

  it('shows the specs a buyer filters by', () => {
    const card = renderCard(makeProduct({ storage_gb: 1024 }))
    expect(within(card).getByTestId('product-specs').textContent).toBe(
      'Specifications: Intel Core i7-1165G7 · 16 GB RAM · 1 TB · 14-inch',
    )
  })

  it('shows whole-dollar prices without cents', () => {
    const card = renderCard(makeProduct({ resale_price_cents: 80_000, original_price_cents: 150_000 }))
    expect(card.textContent).toContain('$800')
    expect(card.textContent).not.toContain('$800.00')
    expect(card.querySelector('s')?.textContent).toBe('$1,500')
  })

  it('says Available for a laptop still for sale and Sold once sold', () => {
    const available = renderCard(makeProduct())
    expect(within(available).getByText('Available')).toBeTruthy()
    expect(within(available).queryByText('Sold')).toBeNull()
    cleanup()

    const sold = renderCard(makeProduct({ sellStatus: true }))
    expect(within(sold).getByText('Sold')).toBeTruthy()
    expect(within(sold).queryByText('Available')).toBeNull()
  })

  it('shows the Verified seller badge only for verified sellers', () => {
    expect(within(renderCard(makeProduct())).queryByText('Verified seller')).toBeNull()
    cleanup()
    expect(
      within(renderCard(makeProduct({ seller_verified: true }))).getByText('Verified seller'),
    ).toBeTruthy()
  })

  it('falls back to the listing image when there are no photos', () => {
    const card = renderCard(makeProduct({ images: [], img: '/images/laptop-placeholder.svg' }))
    expect(within(card).getByRole('img').getAttribute('src')).toBe('/images/laptop-placeholder.svg')
  })
})
