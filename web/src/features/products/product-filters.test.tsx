import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Brand } from '#contract/brands'
import { hydrateWithApp } from '../../test/render'
import { ProductFilters } from './product-filters'

const brands: Brand[] = [
  { _id: 'b-dell', brand_name: 'Dell', brand_img: '/brands/dell.svg', product_count: 3 },
  { _id: 'b-lenovo', brand_name: 'Lenovo', brand_img: '/brands/lenovo.svg', product_count: 5 },
]

afterEach(() => cleanup())

describe('ProductFilters', () => {
  it('keeps a price typed and a brand chosen on the server-rendered form before the page went live, and applies them', async () => {
    const onChange = vi.fn()
    hydrateWithApp(<ProductFilters filters={{}} brands={brands} onChange={onChange} />, {
      beforeHydrating: (container) => {
        const min = container.querySelector('input[id$="-min"]') as HTMLInputElement
        min.value = '500'
        const brand = container.querySelector('select') as HTMLSelectElement
        brand.value = 'b-lenovo'
      },
    })
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ brand: 'b-lenovo' }))
    // The typed price applies after the usual pause, and stays in its field.
    await waitFor(() =>
      expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ min_price: 500 }), { replace: true }),
    )
    expect((screen.getByLabelText('Min price') as HTMLInputElement).value).toBe('500')
  })

  it('leaves a form rendered in the browser as it is, then follows the filters when they change from outside', () => {
    const onChange = vi.fn()
    const { rerender } = render(<ProductFilters filters={{ q: 'x1' }} brands={brands} onChange={onChange} />)
    const search = screen.getByLabelText('Search') as HTMLInputElement
    expect(search.value).toBe('x1')
    expect(onChange).not.toHaveBeenCalled()
    fireEvent.change(search, { target: { value: 'x1 carbon' } })
    expect(search.value).toBe('x1 carbon')
    // Back, or "Clear filters": the fields show the filters in force.
    rerender(<ProductFilters filters={{ q: 'xps', min_price: 300 }} brands={brands} onChange={onChange} />)
    expect(search.value).toBe('xps')
    expect((screen.getByLabelText('Min price') as HTMLInputElement).value).toBe('300')
  })
})
