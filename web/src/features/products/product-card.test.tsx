import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Product } from '#contract/products'
import { aProduct, jsonResponse, renderWithApp } from '../../test/render'
import { ProductCard } from './product-card'
import { ProductGrid } from './product-grid'

const makeProduct = aProduct

function renderCard(product: Product) {
  renderWithApp(<ProductCard product={product} />)
  return screen.getByTestId('product-card')
}

// Signed out: the heart asks who is signed in and is told nobody.
beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      jsonResponse({ error: { code: 'UNAUTHENTICATED', message: 'Sign in' } }, { status: 401 }),
    ),
  )
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

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

  it('shows the battery health, or that none was reported', () => {
    expect(within(renderCard(makeProduct({ battery_health_pct: 91 }))).getByText('Battery 91%')).toBeTruthy()
    cleanup()
    const none = renderCard(makeProduct({ battery_health_pct: null, battery_cycles: null }))
    expect(within(none).getByText('Battery not reported')).toBeTruthy()
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

describe('ProductGrid photos', () => {
  afterEach(() => cleanup())

  it("loads the lead cards' photos at once, the first at high priority and the others at low, and the rest when scrolled near, at low too", () => {
    const products = Array.from({ length: 6 }, (_, i) =>
      makeProduct({ _id: `3f1c2a9e-5b7d-4c8e-9a0b-1c2d3e4f5a6${i}`, name: `Laptop ${i}` }),
    )
    // A grid leads its page unless it says otherwise.
    const { unmount } = renderWithApp(
      <ProductGrid products={products} isPending={false} error={null} empty={null} />,
    )
    const photos = screen.getAllByRole('img').filter((img) => img.getAttribute('alt')?.startsWith('Laptop'))
    expect(photos.map((img) => img.getAttribute('loading'))).toEqual([
      'eager',
      'eager',
      'eager',
      'eager',
      'lazy',
      'lazy',
    ])
    expect(photos.map((img) => img.getAttribute('fetchpriority'))).toEqual([
      'high',
      'low',
      'low',
      'low',
      'low',
      'low',
    ])
    unmount()

    // Under something larger (the home page's row under its slideshow): every photo waits, at low priority.
    renderWithApp(
      <ProductGrid products={products} isPending={false} error={null} empty={null} leadCards={0} />,
    )
    const below = screen.getAllByRole('img').filter((img) => img.getAttribute('alt')?.startsWith('Laptop'))
    expect(below.map((img) => [img.getAttribute('loading'), img.getAttribute('fetchpriority')])).toEqual(
      below.map(() => ['lazy', 'low']),
    )
  })

  it('lays out every card after the first only once it comes near the screen, in the grid, not in the row of the home page', () => {
    const products = Array.from({ length: 3 }, (_, i) =>
      makeProduct({ _id: `3f1c2a9e-5b7d-4c8e-9a0b-1c2d3e4f5a6${i}`, name: `Laptop ${i}` }),
    )
    const { unmount } = renderWithApp(
      <ProductGrid products={products} isPending={false} error={null} empty={null} leadCards={4} />,
    )
    const deferred = () =>
      screen
        .getAllByRole('listitem')
        .filter((li) => li.querySelector('[data-testid="product-card"]'))
        .map((li) => li.className.includes('[content-visibility:auto]'))
    expect(deferred()).toEqual([false, true, true])
    unmount()

    renderWithApp(<ProductGrid products={products} isPending={false} error={null} empty={null} rowOnPhone />)
    expect(deferred()).toEqual([false, false, false])
  })
})

describe('ProductCard price badge', () => {
  const guide = { count: 23, p25: 700, median: 800, p75: 900 }

  it('says "Great price" at or below the 25th percentile, with the range and sales as its description', () => {
    const card = renderCard(
      makeProduct({ resale_price: 700, resale_price_cents: 70_000, price_guide: guide }),
    )
    const badge = within(card).getByRole('button', { name: 'Great price' })
    expect(badge.getAttribute('aria-describedby')).toBeTruthy()
    const detail = document.getElementById(badge.getAttribute('aria-describedby') ?? '')
    expect(detail?.textContent).toBe(
      'Similar laptops sold for $700–$900, median $800, 23 sales in the last 180 days.',
    )
  })

  it('clips nothing that must show outside the photo: the title link’s focus ring, and the tooltip opening below the price', () => {
    const card = renderCard(
      makeProduct({ resale_price: 700, resale_price_cents: 70_000, price_guide: guide }),
    )
    // The card itself does not clip (its title link draws the focus ring around the whole card); the photo does.
    expect(card.className).not.toMatch(/overflow-hidden/)
    expect(card.querySelector('img')?.parentElement?.className).toMatch(/overflow-hidden/)
    const badge = within(card).getByRole('button', { name: 'Great price' })
    const tooltip = document.getElementById(badge.getAttribute('aria-describedby') ?? '')
    expect(tooltip?.className).toMatch(/\btop-full\b/)
    expect(tooltip?.className).not.toMatch(/\bbottom-full\b/)
  })

  it('says "Fair price" up to the 75th percentile, and nothing above it, without a guide, or once sold', () => {
    renderCard(makeProduct({ resale_price: 900, price_guide: guide }))
    expect(screen.getByRole('button', { name: 'Fair price' })).toBeTruthy()
    cleanup()
    renderCard(makeProduct({ resale_price: 900.01, price_guide: guide }))
    expect(screen.queryByTestId('price-badge')).toBeNull()
    cleanup()
    renderCard(makeProduct({ resale_price: 500, price_guide: null }))
    expect(screen.queryByTestId('price-badge')).toBeNull()
    cleanup()
    renderCard(makeProduct({ resale_price: 500, price_guide: guide, sellStatus: true }))
    expect(screen.queryByTestId('price-badge')).toBeNull()
  })
})
