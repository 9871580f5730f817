import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError, api, apiRequestWithHeaders, buildApiUrl } from './api-client'

function mockFetch(response: Response | Error) {
  const fn = vi.fn(async () => {
    if (response instanceof Error) throw response
    return response
  })
  vi.stubGlobal('fetch', fn)
  return fn
}

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
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
    const fetchMock = mockFetch(json(200, [{ _id: '1' }]))
    await expect(api.get('/brands')).resolves.toEqual([{ _id: '1' }])
    expect(fetchMock).toHaveBeenCalledWith('/api/brands', expect.objectContaining({ method: 'GET' }))
  })

  it("maps the server's error body to an ApiError with status, code, message and fields", async () => {
    mockFetch(
      json(400, {
        error: { code: 'VALIDATION', message: 'Invalid query: page', fields: { page: 'Too small' } },
      }),
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
    mockFetch(json(404, { error: { code: 'NOT_FOUND', message: 'Product not found' } }))
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
    const fetchMock = mockFetch(json(201, { acknowledged: true }))
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
