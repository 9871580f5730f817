import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { FeeHint } from './fee-hint'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function renderHint(price: string, fee = { basis_points: 500, min_cents: 0 }) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ mode: 'test', fee })),
  )
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <FeeHint price={price} />
    </QueryClientProvider>,
  )
}

describe('FeeHint', () => {
  it('says what the seller receives after the fee for the price typed', async () => {
    renderHint('749.50')
    expect((await screen.findByText(/You’ll receive/)).textContent).toBe(
      'You’ll receive $712.02 after the fee ($37.48, 5%).',
    )
  })

  it('uses the minimum fee, and explains the fee while no price is typed', async () => {
    renderHint('10', { basis_points: 500, min_cents: 99 })
    expect((await screen.findByText(/You’ll receive/)).textContent).toContain(
      '$9.01 after the fee ($0.99, 5%)',
    )
    cleanup()
    renderHint('', { basis_points: 500, min_cents: 99 })
    expect((await screen.findByText(/keeps 5% of the price/)).textContent).toContain('(at least $0.99)')
  })
})
