import { QueryClient } from '@tanstack/react-query'
import { isApiError } from '../lib/api-client'

const MAX_RETRIES = 3
const MAX_RETRY_DELAY_MS = 30_000

/**
 * Cache rules: up to 3 retries with exponential backoff capped at 30 s, unused data kept 5 minutes.
 * A 4xx answer is final (a missing product stays missing), so only network errors, 5xx, 408 and 429
 * are retried; a "Product not found" then shows at once instead of after three retries.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false
  if (isApiError(error) && error.status >= 400 && error.status < 500) {
    return error.status === 408 || error.status === 429
  }
  return true
}

export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, MAX_RETRY_DELAY_MS)
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay,
        gcTime: 5 * 60_000,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  })
}
