import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { useLocation } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Product } from '#contract/products'
import { aProduct, jsonResponse, renderWithApp } from '../../test/render'
import { BrowsePage } from './browse-page'

const LENOVO = '0b8f3c6e-7a52-4f4e-9d0a-2a1c5b7e9f10'

function makeProduct(n: number): Product {
  return aProduct({
    _id: `p${n}`,
    name: `ThinkPad T14 No. ${n}`,
    category_id: LENOVO,
    resale_price: 500 + n,
    resale_price_cents: (500 + n) * 100,
    img: '/media/x.webp',
    images: [],
    processor: 'Intel Core i5-1135G7',
    advertise: false,
  })
}

function Where() {
  const location = useLocation()
  return <p data-testid="where">{location.search}</p>
}

function renderBrowse(at: string, search: (url: URL) => unknown, { wide = true } = {}) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: wide,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }))
  const fetchMock = vi.fn(async (input: string) => {
    const url = new URL(input, 'http://localhost')
    if (url.pathname === '/api/brands') {
      return jsonResponse([{ _id: LENOVO, brand_name: 'Lenovo', brand_img: '/l.svg', product_count: 3 }])
    }
    return jsonResponse(search(url))
  })
  vi.stubGlobal('fetch', fetchMock)
  renderWithApp(
    <>
      <BrowsePage />
      <Where />
    </>,
    { at },
  )
  const searchUrls = () =>
    fetchMock.mock.calls
      .map(([u]) => new URL(u, 'http://localhost'))
      .filter((u) => u.pathname === '/api/search')
  return { searchUrls }
}

const where = () => screen.getByTestId('where').textContent

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('BrowsePage', () => {
  it('asks the server for the filters in the URL and shows the counts beside each choice', async () => {
    const { searchUrls } = renderBrowse(`/productcard?q=thinkpad&brand=${LENOVO}&condition=Good`, () => ({
      items: [makeProduct(1), makeProduct(2)],
      total: 2,
      page: 1,
      page_size: 24,
      next_cursor: null,
      total_is_estimate: false,
      sort: 'relevance',
      facets: {
        brand: [{ value: LENOVO, label: 'Lenovo', count: 2 }],
        condition: [{ value: 'Good', label: 'Good', count: 2 }],
        ram: [
          { value: '8', label: '8 GB', count: 3 },
          { value: '16', label: '16 GB', count: 1204 },
        ],
        storage: [],
        screen: [{ value: '14', label: '14″', count: 2 }],
        processor: [{ value: 'intel-core-i5', label: 'Intel Core i5', count: 2 }],
        posted_within: [{ value: '7', label: 'Last 7 days', count: 1 }],
      },
    }))
    expect(await screen.findByText('2 laptops found')).toBeTruthy()
    const sent = searchUrls()[0]
    expect(sent?.searchParams.get('q')).toBe('thinkpad')
    expect(sent?.searchParams.get('brand')).toBe(LENOVO)
    expect(sent?.searchParams.get('condition')).toBe('Good')
    expect(sent?.searchParams.get('facets')).toBe('1')
    const ram = screen.getByRole('group', { name: 'RAM' })
    expect(within(ram).getByRole('radio', { name: '16 GB (1,204)' })).toBeTruthy()
    expect(screen.getByRole('radio', { name: 'Intel Core i5 (2)' })).toBeTruthy()
    expect(screen.getByRole('option', { name: 'Lenovo (2)' })).toBeTruthy()
    expect((screen.getByRole('radio', { name: 'Good (2)' }) as HTMLInputElement).checked).toBe(true)
  })

  it('a choice goes into the URL and back to page 1; the sort too', async () => {
    renderBrowse('/productcard?condition=Good&page=3', () => ({
      items: [makeProduct(1)],
      total: 80,
      total_is_estimate: false,
      page: 3,
      page_size: 24,
      next_cursor: 'c4',
      sort: 'newest',
    }))
    await screen.findByText('80 laptops found')
    fireEvent.click(screen.getByRole('radio', { name: '16 GB' }))
    expect(where()).toBe('?condition=Good&ram=16')
    fireEvent.click(screen.getByRole('radio', { name: 'AMD Ryzen 7' }))
    expect(where()).toBe('?condition=Good&ram=16&processor=amd-ryzen-7')
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'price_asc' } })
    expect(where()).toBe('?condition=Good&ram=16&processor=amd-ryzen-7&sort=price_asc')
    // Best match is offered only when there is text to match.
    expect(screen.queryByRole('option', { name: 'Best match' })).toBeNull()
  })

  it('pages through real links that keep the filters', async () => {
    renderBrowse('/productcard?condition=Good&sort=price_asc', () => ({
      items: [makeProduct(1)],
      total: 60,
      total_is_estimate: false,
      page: 1,
      page_size: 24,
      next_cursor: 'c2',
      sort: 'price_asc',
    }))
    await screen.findByText('Page 1 of 3')
    expect(screen.getByRole('link', { name: 'Next' }).getAttribute('href')).toBe(
      '/productcard?condition=Good&sort=price_asc&page=2',
    )
    expect(screen.getByRole('link', { name: 'Page 3' }).getAttribute('href')).toBe(
      '/productcard?condition=Good&sort=price_asc&page=3',
    )
  })

  it("says when the total is an estimate, and past the numbered pages follows the server's cursor", async () => {
    renderBrowse('/productcard?q=ryzen&page=416', (url) => ({
      items: [makeProduct(1)],
      total: 10_000,
      total_is_estimate: true,
      page: url.searchParams.get('cursor') ? null : 416,
      page_size: 24,
      next_cursor: 'c417',
      sort: 'relevance',
    }))
    expect(await screen.findByText('10,000+ laptops found')).toBeTruthy()
    const next = screen.getByRole('link', { name: 'Next' })
    expect(next.getAttribute('href')).toBe('/productcard?q=ryzen&cursor=c417&page=417')
    fireEvent.click(next)
    expect(where()).toBe('?q=ryzen&cursor=c417&page=417')
    expect(await screen.findByText('Page 417')).toBeTruthy()
  })

  it('an empty result says so and clears the filters', async () => {
    renderBrowse('/productcard?q=zzzz&condition=Fair&sort=price_desc', () => ({
      items: [],
      total: 0,
      total_is_estimate: false,
      page: 1,
      page_size: 24,
      next_cursor: null,
      sort: 'price_desc',
    }))
    expect(await screen.findByText('No laptops match these filters')).toBeTruthy()
    const main = screen.getByText('No laptops match these filters').parentElement as HTMLElement
    fireEvent.click(within(main).getByRole('button', { name: 'Clear filters' }))
    expect(where()).toBe('?sort=price_desc')
  })

  it('on a phone the filters open in a panel', async () => {
    renderBrowse(
      '/productcard?condition=Good',
      () => ({
        items: [makeProduct(1)],
        total: 1,
        total_is_estimate: false,
        page: 1,
        page_size: 24,
        next_cursor: null,
        sort: 'newest',
      }),
      { wide: false },
    )
    await screen.findByText('1 laptop found')
    // The side column is hidden below the lg breakpoint by CSS (which happy-dom does not apply).
    expect(screen.getByRole('complementary', { name: 'Filters' }).className).toMatch(
      /(^| )hidden( |$).*lg:block/,
    )
    expect(screen.queryByRole('dialog')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Filters (1)' }))
    const panel = await screen.findByRole('dialog', { name: 'Filters' })
    expect(within(panel).getByRole('form', { name: 'Filter laptops' })).toBeTruthy()
    fireEvent.click(within(panel).getByRole('button', { name: 'Show 1 laptop' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })
})

describe('BrowsePage past the last page', () => {
  it('says the page is past the last one, keeps the total, and links to the last page', async () => {
    renderBrowse('/productcard?q=thinkpad&page=99', (url) => ({
      items: [],
      total: 39,
      page: Number(url.searchParams.get('page') ?? 1),
      page_size: 24,
      next_cursor: null,
      total_is_estimate: false,
      sort: 'relevance',
    }))
    expect(await screen.findByText('Page 99 is past the last page')).toBeTruthy()
    expect(screen.queryByText('No laptops for sale yet')).toBeNull()
    expect(screen.queryByText('No laptops match these filters')).toBeNull()
    expect(screen.getByText('39 laptops found, on 2 pages.')).toBeTruthy()
    const last = screen.getByRole('link', { name: 'Go to the last page (page 2)' })
    expect(new URLSearchParams(last.getAttribute('href')?.split('?')[1]).get('page')).toBe('2')
    expect(new URLSearchParams(last.getAttribute('href')?.split('?')[1]).get('q')).toBe('thinkpad')
  })

  it('still says there are none when nothing matches', async () => {
    renderBrowse('/productcard?page=3', () => ({
      items: [],
      total: 0,
      page: 3,
      page_size: 24,
      next_cursor: null,
      total_is_estimate: false,
      sort: 'newest',
    }))
    expect(await screen.findByText('No laptops for sale yet')).toBeTruthy()
    expect(screen.queryByText(/past the last page/)).toBeNull()
  })
})
