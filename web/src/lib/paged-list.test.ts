import { describe, expect, it } from 'vitest'
import { readPageHeaders, toPageRequest } from './paged-list'

const request = { path: '/category/b1', query: { page_size: 24 } }

describe('paging headers', () => {
  it('reads the total and the next page from a Link header', () => {
    const headers = new Headers({
      'x-total-count': '130',
      link: '</api/category/b1?cursor=abc&page_size=24>; rel="next", </api/category/b1>; rel="first"',
    })
    expect(readPageHeaders(headers, request)).toEqual({
      total: 130,
      isEstimate: false,
      next: { path: '/category/b1', query: { cursor: 'abc', page_size: '24' } },
    })
  })

  it('reads a next cursor or page header, and an estimated total', () => {
    expect(
      readPageHeaders(
        new Headers({ 'x-next-cursor': 'c2', 'x-total-count': '10000', 'x-total-estimate': 'true' }),
        request,
      ),
    ).toEqual({
      total: 10000,
      isEstimate: true,
      next: { path: '/category/b1', query: { page_size: 24, cursor: 'c2' } },
    })
    expect(readPageHeaders(new Headers({ 'x-next-page': '3' }), request).next).toEqual({
      path: '/category/b1',
      query: { page_size: 24, page: '3' },
    })
  })

  it('knows the last page: no next link', () => {
    expect(readPageHeaders(new Headers({ 'x-total-count': '7' }), request)).toEqual({
      total: 7,
      isEstimate: false,
      next: null,
    })
    expect(readPageHeaders(new Headers(), request).total).toBeUndefined()
  })

  it('takes an absolute next address', () => {
    expect(toPageRequest('http://127.0.0.1:3000/api/bookings?email=a%40b.c&cursor=x')).toEqual({
      path: '/bookings',
      query: { email: 'a@b.c', cursor: 'x' },
    })
  })
})
