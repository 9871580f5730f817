import { cleanup, fireEvent, screen } from '@testing-library/react'
import { useLocation } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { hydrateWithApp, jsonResponse, renderWithApp } from '../../test/render'
import { NavbarSearch } from './navbar-search'
import { readSuggestions } from './search-api'

function Where() {
  const location = useLocation()
  return <p data-testid="where">{location.pathname + location.search}</p>
}

function renderSearch(fetchMock: (url: string) => Promise<Response>, at = '/') {
  const spy = vi.fn(fetchMock)
  vi.stubGlobal('fetch', spy)
  renderWithApp(
    <>
      <NavbarSearch />
      <Where />
    </>,
    { at },
  )
  return { box: screen.getByRole('combobox', { name: 'Search laptops' }), fetch: spy }
}

const where = () => screen.getByTestId('where').textContent

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('NavbarSearch', () => {
  it('suggests brands and models as you type, once typing pauses, and opens the one picked by keyboard', async () => {
    const { box, fetch } = renderSearch(async () =>
      jsonResponse({
        brands: [{ _id: 'b-lenovo', brand_name: 'Lenovo', product_count: 6 }],
        models: [{ name: 'ThinkPad X1 Carbon Gen 9', brand_name: 'Lenovo', count: 1 }],
      }),
    )
    fireEvent.focus(box)
    fireEvent.change(box, { target: { value: 't' } })
    fireEvent.change(box, { target: { value: 'th' } })
    fireEvent.change(box, { target: { value: 'thnkpad' } })
    const options = await screen.findAllByRole('option')
    // One request for the text as it stood when typing paused, not one per keystroke.
    const suggestCalls = fetch.mock.calls.filter(([url]) => String(url).startsWith('/api/search/suggest'))
    expect(suggestCalls.map(([url]) => url)).toEqual(['/api/search/suggest?q=thnkpad'])
    expect(options.map((o) => o.textContent)).toEqual(['LenovoBrand', 'ThinkPad X1 Carbon Gen 9Model'])
    expect(box.getAttribute('aria-expanded')).toBe('true')

    fireEvent.keyDown(box, { key: 'ArrowDown' })
    fireEvent.keyDown(box, { key: 'ArrowDown' })
    expect(box.getAttribute('aria-activedescendant')).toBe(options[1]?.id)
    expect(options[1]?.getAttribute('aria-selected')).toBe('true')
    fireEvent.keyDown(box, { key: 'Enter' })
    expect(where()).toBe('/productcard?q=ThinkPad+X1+Carbon+Gen+9')
  })

  it('keeps what was typed into the server-rendered box before the page went live, and suggests for it', async () => {
    const fetch = vi.fn(async (_url: string) =>
      jsonResponse({ brands: [{ _id: 'b-lenovo', brand_name: 'Lenovo', product_count: 6 }], models: [] }),
    )
    vi.stubGlobal('fetch', fetch)
    hydrateWithApp(<NavbarSearch />, {
      beforeHydrating: (container) => {
        const input = container.querySelector('input') as HTMLInputElement
        input.focus()
        input.value = 'Lenov'
      },
    })
    const box = screen.getByRole('combobox', { name: 'Search laptops' }) as HTMLInputElement
    // The suggestions arrive (a render of the box after hydrating), and the box still holds what was typed.
    expect(await screen.findByRole('option', { name: /Lenovo/ })).toBeTruthy()
    expect(box.value).toBe('Lenov')
    expect(fetch.mock.calls.map(([url]) => String(url))).toContain('/api/search/suggest?q=Lenov')
    fireEvent.change(box, { target: { value: 'Lenovo' } })
    expect(box.value).toBe('Lenovo')
  })

  it('a brand suggestion opens the results for that brand', async () => {
    const { box } = renderSearch(async () =>
      jsonResponse({ brands: [{ _id: 'b-dell', brand_name: 'Dell', product_count: 5 }], models: [] }),
    )
    fireEvent.focus(box)
    fireEvent.change(box, { target: { value: 'del' } })
    fireEvent.mouseDown(await screen.findByRole('option', { name: /Dell/ }))
    expect(where()).toBe('/productcard?brand=b-dell')
  })

  it('Escape closes the list; Enter searches the text as typed', async () => {
    const { box } = renderSearch(async () =>
      jsonResponse({ brands: [], models: [{ name: 'MacBook Air 13 M2', brand_name: 'Apple', count: 1 }] }),
    )
    fireEvent.focus(box)
    fireEvent.change(box, { target: { value: 'macbok air' } })
    await screen.findByRole('option')
    fireEvent.keyDown(box, { key: 'Escape' })
    expect(screen.queryByRole('option')).toBeNull()
    expect(box.getAttribute('aria-expanded')).toBe('false')
    fireEvent.submit(box.closest('form') as HTMLFormElement)
    expect(where()).toBe('/productcard?q=macbok+air')
  })

  it('without a suggestion endpoint, still suggests the matching brands', async () => {
    const { box } = renderSearch(async (url) =>
      url.startsWith('/api/brands')
        ? jsonResponse([
            { _id: 'b-asus', brand_name: 'ASUS', brand_img: '', product_count: 3 },
            { _id: 'b-hp', brand_name: 'HP', brand_img: '', product_count: 2 },
          ])
        : jsonResponse({ error: { code: 'NOT_FOUND', message: 'Not found' } }, { status: 404 }),
    )
    fireEvent.focus(box)
    fireEvent.change(box, { target: { value: 'asu' } })
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['ASUSBrand'])
  })

  it('shows the search in force on the results page', () => {
    const { box } = renderSearch(async () => jsonResponse([]), '/productcard?q=ryzen+7')
    expect((box as HTMLInputElement).value).toBe('ryzen 7')
  })
})

describe('readSuggestions', () => {
  it('reads the usual answer shapes and drops duplicates', () => {
    expect(
      readSuggestions({
        suggestions: [
          { type: 'brand', text: 'Apple', brand_id: 'b1' },
          { type: 'model', text: 'MacBook Air M2' },
          { type: 'model', text: 'macbook air m2' },
        ],
      }),
    ).toEqual([
      { kind: 'brand', label: 'Apple', brandId: 'b1' },
      { kind: 'model', label: 'MacBook Air M2', brandId: undefined },
    ])
    expect(readSuggestions(null)).toEqual([])
  })
})
