import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Finance } from '#contract/payouts'
import { jsonResponse, renderWithApp } from '../../test/render'
import { FinancePage } from './finance-page'

const FINANCE: Finance = {
  held_for_buyers_cents: 120_000,
  sellers_balances_cents: 80_000,
  negative_balances_cents: 0,
  waiting_for_payout_setup_cents: 0,
  on_its_way_cents: 0,
  paid_out_cents: 300_000,
  failed_payouts: { count: 0, amount_cents: 0 },
  fees_cents: 15_000,
  charges_cents: 500_000,
  refunds_cents: 0,
  balanced: true,
  checks: {
    unbalanced_transactions: 0,
    entries_total_cents: 0,
    ledger_charges_cents: 500_000,
    payments_cents: 500_000,
  },
  recent_payouts: [],
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('FinancePage', () => {
  it('shows a failed load with Try again, which asks again and shows the figures', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(
        jsonResponse({ error: { code: 'INTERNAL', message: 'The ledger is busy' } }, { status: 500 }),
      )
      .mockResolvedValue(jsonResponse(FINANCE))
    vi.stubGlobal('fetch', fetchMock)
    renderWithApp(<FinancePage />)

    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Could not load the figures')
    expect(alert.textContent).toContain('The ledger is busy')
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))

    expect(await screen.findByText('The ledger balances')).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })
})
