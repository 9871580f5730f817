import { describe, expect, it } from 'vitest'
import { ApiError } from '../lib/api-client'
import { createQueryClient, retryDelay, shouldRetry } from './query-client'

describe('query client cache rules', () => {
  it('retries network and server failures up to three times', () => {
    const down = new ApiError(0, 'NETWORK', 'offline')
    expect(shouldRetry(0, down)).toBe(true)
    expect(shouldRetry(2, new ApiError(503, 'INTERNAL', 'busy'))).toBe(true)
    expect(shouldRetry(3, down)).toBe(false)
  })

  it('treats a 4xx answer as final, except timeouts and rate limits', () => {
    expect(shouldRetry(0, new ApiError(404, 'NOT_FOUND', 'Product not found'))).toBe(false)
    expect(shouldRetry(0, new ApiError(400, 'VALIDATION', 'Invalid query'))).toBe(false)
    expect(shouldRetry(0, new ApiError(429, 'RATE_LIMITED', 'Slow down'))).toBe(true)
  })

  it('backs off exponentially, capped at 30 seconds', () => {
    expect(retryDelay(0)).toBe(1000)
    expect(retryDelay(2)).toBe(4000)
    expect(retryDelay(10)).toBe(30_000)
  })

  it('keeps unused data for five minutes', () => {
    expect(createQueryClient().getDefaultOptions().queries?.gcTime).toBe(5 * 60_000)
  })
})
