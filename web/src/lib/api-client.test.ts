import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse } from '../test/render'
import { ApiError, api, apiRequestWithHeaders, buildApiUrl, errorMessage } from './api-client'

function mockFetch(response: Response | Error) {
  const fn = vi.fn(async () => {
    if (response instanceof Error) throw response
    return response
  })
  vi.stubGlobal('fetch', fn)
  return fn
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('api-client', () => {
  it('hands back the headers with the body, for totals sent as x-total-count', async () => {
    mockFetch(
      new Response('[]', {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-total-count': '10000' },
      }),
    )
    const { data, headers } = await apiRequestWithHeaders('/buyers', { query: { page: 2 } })
    expect(data).toEqual([])
    expect(headers.get('x-total-count')).toBe('10000')
  })

  it('returns the parsed JSON body on success', async () => {
    const fetchMock = mockFetch(jsonResponse([{ _id: '1' }]))
    await expect(api.get('/brands')).resolves.toEqual([{ _id: '1' }])
    expect(fetchMock).toHaveBeenCalledWith('/api/brands', expect.objectContaining({ method: 'GET' }))
  })

  it("maps the server's error body to an ApiError with status, code, message and fields", async () => {
    mockFetch(
      jsonResponse(
        {
          error: { code: 'VALIDATION', message: 'Invalid query: page', fields: { page: 'Too small' } },
        },
        { status: 400 },
      ),
    )
    const err = await api.get('/search', { page: 0 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({
      status: 400,
      code: 'VALIDATION',
      message: 'Invalid query: page',
      fields: { page: 'Too small' },
    })
  })

  it('keeps the code of a 404', async () => {
    mockFetch(jsonResponse({ error: { code: 'NOT_FOUND', message: 'Product not found' } }, { status: 404 }))
    await expect(api.get('/products/x')).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'Product not found',
      fields: undefined,
    })
  })

  it('falls back to a code from the status when the body is not JSON', async () => {
    mockFetch(new Response('<html>Bad gateway</html>', { status: 502 }))
    await expect(api.get('/brands')).rejects.toMatchObject({ status: 502, code: 'INTERNAL' })
  })

  it('reports an unreachable server as a NETWORK error', async () => {
    mockFetch(new TypeError('Failed to fetch'))
    await expect(api.get('/brands')).rejects.toMatchObject({ status: 0, code: 'NETWORK' })
  })

  it('sends JSON bodies and leaves empty query values out of the URL', async () => {
    const fetchMock = mockFetch(jsonResponse({ acknowledged: true }, { status: 201 }))
    await api.post('/bookings', { phone: '1' })
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/bookings',
      expect.objectContaining({ method: 'POST', body: '{"phone":"1"}' }),
    )
    expect(buildApiUrl('/search', { q: 'mac book', brand: '', page: 2, condition: undefined })).toBe(
      '/api/search?q=mac+book&page=2',
    )
  })
})

describe('errorMessage', () => {
  it("is the server's message for an API error and a calm sentence otherwise", () => {
    expect(errorMessage(new ApiError(409, 'CONFLICT', 'Already booked'))).toBe('Already booked')
    expect(errorMessage(new TypeError('x is undefined'))).toBe('Something went wrong. Please try again.')
    expect(errorMessage(null, 'Sign-in failed.')).toBe('Sign-in failed.')
  })
})
