import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Finance, FinanceSale } from '#contract/payouts'
import { toast } from '../../lib/toast'
import { jsonResponse, renderWithApp } from '../../test/render'
import { FinancePage } from './finance-page'

vi.mock('../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }))

function aSale(id: string, overrides: Partial<FinanceSale> = {}): FinanceSale {
  return {
    booking_id: id,
    product_name: `Laptop ${id}`,
    buyer_name: 'Dana Buyer',
    seller_name: 'Sam Seller',
    completed_at: '2026-11-20T09:00:00.000Z',
    price_cents: 40_000,
    fee_cents: 2_000,
    receive_cents: 38_000,
    refunded: false,
    refund: {
      allowed: true,
      reason: null,
      effect: 'from_balance',
      reversal_cents: 0,
      seller_balance_after_cents: 0,
    },
    ...overrides,
  }
}

const SALES: FinanceSale[] = [
  aSale('b1', {
    refund: {
      allowed: true,
      reason: null,
      effect: 'transfer_reversed',
      reversal_cents: 38_000,
      seller_balance_after_cents: 0,
    },
  }),
  aSale('b2', {
    product_name: 'Laptop b2',
    refund: {
      allowed: true,
      reason: null,
      effect: 'negative_balance',
      reversal_cents: 0,
      seller_balance_after_cents: -38_000,
    },
  }),
  aSale('b3', {
    refund: {
      allowed: false,
      reason: "The seller's share is being transferred right now: try again in a few minutes",
      effect: 'from_balance',
      reversal_cents: 0,
      seller_balance_after_cents: 0,
    },
  }),
  aSale('b4', {
    refunded: true,
    receive_cents: 0,
    refund: {
      allowed: false,
      reason: 'Refunded already',
      effect: 'from_balance',
      reversal_cents: 0,
      seller_balance_after_cents: 0,
    },
  }),
]

const FINANCE: Finance = {
  held_for_buyers_cents: 0,
  sellers_balances_cents: 0,
  negative_balances_cents: 0,
  waiting_for_payout_setup_cents: 0,
  on_its_way_cents: 0,
  paid_out_cents: 76_000,
  failed_payouts: { count: 0, amount_cents: 0 },
  fees_cents: 4_000,
  charges_cents: 80_000,
  refunds_cents: 0,
  balanced: true,
  checks: {
    unbalanced_transactions: 0,
    entries_total_cents: 0,
    ledger_charges_cents: 80_000,
    payments_cents: 80_000,
  },
  recent_payouts: [],
  recent_sales: SALES,
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.mocked(toast.success).mockClear()
  vi.mocked(toast.error).mockClear()
})

function stubApi(refundAnswer: () => Response) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/finance') return jsonResponse(FINANCE)
    if (url.startsWith('/api/bookings/') && init?.method === 'POST') return refundAnswer()
    return jsonResponse({ error: { code: 'NOT_FOUND', message: 'Not found' } }, { status: 404 })
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

const rowOf = async (name: string) =>
  (await screen.findAllByTestId('finance-sale')).find((row) => within(row).queryByText(name)) as HTMLElement

describe('FinancePage: refunding a completed sale', () => {
  it('offers Refund on each completed sale, disabled with the reason when the server would refuse it', async () => {
    stubApi(() => jsonResponse({ acknowledged: true, modifiedCount: 1 }))
    renderWithApp(<FinancePage />)
    const pending = await rowOf('Laptop b3')
    const button = within(pending).getByRole('button', { name: 'Refund the sale of Laptop b3' })
    expect((button as HTMLButtonElement).disabled).toBe(true)
    expect(button.getAttribute('aria-describedby')).toBeTruthy()
    expect(document.getElementById(button.getAttribute('aria-describedby') as string)?.textContent).toMatch(
      /being transferred right now/,
    )
    const refunded = await rowOf('Laptop b4')
    expect(within(refunded).queryByRole('button')).toBeNull()
    expect(within(refunded).getByText('Refunded')).toBeTruthy()
    const open = await rowOf('Laptop b1')
    expect((within(open).getByRole('button', { name: /Refund/ }) as HTMLButtonElement).disabled).toBe(false)
  })

  it('asks first, saying the amount and that the transfer is reversed, then refunds and says so', async () => {
    const fetchMock = stubApi(() => jsonResponse({ acknowledged: true, modifiedCount: 1 }))
    renderWithApp(<FinancePage />)
    fireEvent.click(within(await rowOf('Laptop b1')).getByRole('button', { name: /Refund/ }))
    const dialog = await screen.findByRole('dialog', { name: 'Refund this sale?' })
    expect(dialog.textContent).toContain('Dana Buyer gets $400 back for Laptop b1')
    expect(dialog.textContent).toContain('The transfer of $380 to Sam Seller’s Stripe account is reversed')
    expect(dialog.textContent).toContain('fee of $20 is given back')
    expect(dialog.textContent).toContain('The refund does not include a return of the laptop')
    // A reason is required, and nothing is sent without one.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }))
    expect(
      await within(dialog).findByText(
        'Say why the buyer is refunded in at least 10 characters: both sides see it',
      ),
    ).toBeTruthy()
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false)
    fireEvent.change(within(dialog).getByLabelText('Why is the buyer refunded?'), {
      target: { value: 'The laptop was stolen property' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }))
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Dana Buyer was refunded $400'))
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')
    expect(post?.[0]).toBe('/api/bookings/b1/refund')
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ reason: 'The laptop was stolen property' })
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it("says a test-mode seller's balance goes below zero, and shows the server's refusal", async () => {
    stubApi(() =>
      jsonResponse(
        { error: { code: 'CONFLICT', message: 'This sale is refunded already' } },
        { status: 409 },
      ),
    )
    renderWithApp(<FinancePage />)
    fireEvent.click(within(await rowOf('Laptop b2')).getByRole('button', { name: /Refund/ }))
    const dialog = await screen.findByRole('dialog', { name: 'Refund this sale?' })
    expect(dialog.textContent).toMatch(
      /was paid out already: their balance goes to −\$380 until their next sales/,
    )
    fireEvent.change(within(dialog).getByLabelText('Why is the buyer refunded?'), {
      target: { value: 'The buyer was charged twice' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }))
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('This sale is refunded already'))
    expect(toast.success).not.toHaveBeenCalled()
  })
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
