import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { MemoryRouter, useLocation } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { CursorPagination, LoadMore, Pagination, pageWindow } from './pagination'

afterEach(cleanup)

function Where() {
  const location = useLocation()
  return <p data-testid="where">{location.pathname + location.search}</p>
}

describe('Pagination', () => {
  it('offers the first, the last and the pages around the current one', () => {
    expect(pageWindow(1, 1)).toEqual([1])
    expect(pageWindow(1, 4)).toEqual([1, 2, 3, 4])
    expect(pageWindow(10, 20)).toEqual([1, 'gap', 8, 9, 10, 11, 12, 'gap', 20])
    expect(pageWindow(4, 20)).toEqual([1, 2, 3, 4, 5, 6, 'gap', 20])
  })

  it('is made of real links that keep the query, and follows them', () => {
    render(
      <MemoryRouter initialEntries={['/list?q=dell&page=2']}>
        <Pagination page={2} pageCount={5} hrefFor={(p) => `/list?q=dell&page=${p}`} />
        <Where />
      </MemoryRouter>,
    )
    expect(screen.getByText('Page 2 of 5')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Previous' }).getAttribute('href')).toBe('/list?q=dell&page=1')
    expect(screen.getByRole('link', { name: 'Next' }).getAttribute('href')).toBe('/list?q=dell&page=3')
    expect(screen.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page')
    fireEvent.click(screen.getByRole('link', { name: 'Page 5' }))
    expect(screen.getByTestId('where').textContent).toBe('/list?q=dell&page=5')
  })

  it('has no Previous link on the first page, and nothing at all for one page', () => {
    const { rerender } = render(
      <MemoryRouter>
        <Pagination page={1} pageCount={3} hrefFor={(p) => `?page=${p}`} />
      </MemoryRouter>,
    )
    expect(screen.queryByRole('link', { name: 'Previous' })).toBeNull()
    expect(screen.getByText('Previous').closest('[aria-disabled="true"]')).toBeTruthy()
    rerender(
      <MemoryRouter>
        <Pagination page={1} pageCount={1} hrefFor={(p) => `?page=${p}`} />
      </MemoryRouter>,
    )
    expect(screen.queryByRole('navigation')).toBeNull()
  })

  it('pages by cursor with Previous and Next only', () => {
    render(
      <MemoryRouter>
        <CursorPagination previousHref={null} nextHref="/x?cursor=abc" status="Page 1" />
      </MemoryRouter>,
    )
    expect(screen.getByRole('link', { name: 'Next' }).getAttribute('href')).toBe('/x?cursor=abc')
    expect(screen.queryByRole('link', { name: 'Previous' })).toBeNull()
  })
})

describe('LoadMore', () => {
  it('says how many are shown and loads more until there is no more', () => {
    let clicks = 0
    const { rerender } = render(
      <LoadMore shown={24} total={30} noun="laptop" hasMore isLoading={false} onLoadMore={() => clicks++} />,
    )
    expect(screen.getByText('Showing 24 of 30 laptops')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }))
    expect(clicks).toBe(1)
    rerender(
      <LoadMore
        shown={30}
        total={30}
        noun="laptop"
        hasMore={false}
        isLoading={false}
        onLoadMore={() => {}}
      />,
    )
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
    expect(screen.getByText('Showing 30 laptops')).toBeTruthy()
  })
})

describe('LoadMore counts', () => {
  it('puts the noun in the number of the count: "Showing 1 booking", never "1 of 1 bookings"', () => {
    render(
      <LoadMore shown={1} total={1} noun="booking" hasMore={false} isLoading={false} onLoadMore={() => {}} />,
    )
    expect(screen.getByText('Showing 1 booking')).toBeTruthy()
    cleanup()
    render(<LoadMore shown={0} total={1} noun="booking" hasMore isLoading onLoadMore={() => {}} />)
    expect(screen.getByText('Showing 0 of 1 booking')).toBeTruthy()
    cleanup()
    render(<LoadMore shown={25} total={1204} noun="laptop" hasMore isLoading={false} onLoadMore={() => {}} />)
    expect(screen.getByText('Showing 25 of 1,204 laptops')).toBeTruthy()
  })
})
