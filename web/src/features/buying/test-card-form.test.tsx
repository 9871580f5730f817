import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { toast } from '../../lib/toast'
import { jsonResponse, renderWithApp } from '../../test/render'
import { formatCardNumber, formatExpiry, TestCardForm, TestModeNotice } from './test-card-form'

vi.mock('../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }))

const BOOKING_ID = '7d9e6f1a-2b3c-4d5e-8f90-a1b2c3d4e5f6'

function nextYear(): string {
  return String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0')
}

function renderForm() {
  const onPaid = vi.fn()
  renderWithApp(<TestCardForm bookingId={BOOKING_ID} amountCents={74_950} onPaid={onPaid} />)
  return { onPaid }
}

function fill(number: string, expiry: string, cvc: string) {
  fireEvent.input(screen.getByLabelText('Card number'), { target: { value: number } })
  fireEvent.input(screen.getByLabelText('Expiry (MM / YY)'), { target: { value: expiry } })
  fireEvent.input(screen.getByLabelText('CVC'), { target: { value: cvc } })
  fireEvent.click(screen.getByRole('button', { name: 'Pay $749.50' }))
}

beforeEach(() => {
  vi.mocked(toast.success).mockClear()
  vi.mocked(toast.error).mockClear()
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('card formatting', () => {
  it('groups the number in fours and stops at 19 digits', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242')
    expect(formatCardNumber('4242-42')).toBe('4242 42')
    expect(formatCardNumber('1'.repeat(25))).toBe('1111 1111 1111 1111 111')
  })

  it('adds the slash to the expiry only once the year is typed', () => {
    expect(formatExpiry('1')).toBe('1')
    expect(formatExpiry('12')).toBe('12')
    expect(formatExpiry('123')).toBe('12 / 3')
    expect(formatExpiry('12/345')).toBe('12 / 34')
  })
})

describe('TestModeNotice', () => {
  it('says Test mode and lists the test cards', () => {
    render(<TestModeNotice />)
    expect(screen.getByText('Test mode')).toBeTruthy()
    for (const n of ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000 0000 0000 9995']) {
      expect(screen.getByText(n)).toBeTruthy()
    }
  })
})

describe('TestCardForm', () => {
  it('checks the number (Luhn), the expiry and the CVC before sending anything', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    renderForm()

    fill('', '', '')
    expect(await screen.findByText('Your card number is incomplete')).toBeTruthy()
    expect(screen.getByText('Enter the expiry as MM / YY')).toBeTruthy()
    expect(screen.getByText('Your card’s security code is incomplete')).toBeTruthy()

    fill('4242 4242 4242 4241', '01 / 20', '12')
    expect(await screen.findByText('Your card number is invalid')).toBeTruthy()
    expect(screen.getByText('Your card’s expiration date is in the past')).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('pays with a good card and hands the receipt on', async () => {
    const fetchMock = vi.fn(async () =>
      jsonResponse({ status: 'succeeded', transactionId: 'test_tx_1', amount_cents: 74_950 }),
    )
    vi.stubGlobal('fetch', fetchMock)
    const { onPaid } = renderForm()

    fill('4242424242424242', `12${nextYear()}`, '123')

    await waitFor(() => expect(onPaid).toHaveBeenCalled())
    expect(onPaid.mock.calls[0]?.[0]).toMatchObject({ transactionId: 'test_tx_1' })
    expect(toast.success).toHaveBeenCalledWith('Payment successful')
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1]
    expect(JSON.parse(init.body as string)).toEqual({
      bookingId: BOOKING_ID,
      card: { number: '4242424242424242', expiry: `12 / ${nextYear()}`, cvc: '123' },
    })
  })

  it('shows a decline on the page and keeps the form usable', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          { error: { code: 'PAYMENT_FAILED', message: 'Your card was declined.' } },
          { status: 402 },
        ),
      ),
    )
    const { onPaid } = renderForm()

    fill('4000 0000 0000 0002', `12 / ${nextYear()}`, '123')

    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Your card was declined.')
    expect(onPaid).not.toHaveBeenCalled()
    expect(toast.error).not.toHaveBeenCalled()
    const button = screen.getByRole('button', { name: 'Pay $749.50' }) as HTMLButtonElement
    expect(button.disabled).toBe(false)
  })

  it('clears an earlier decline when the next try fails for another reason', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          { error: { code: 'PAYMENT_FAILED', message: 'Your card has insufficient funds.' } },
          { status: 402 },
        ),
      ),
    )
    renderForm()
    fill('4000 0000 0000 9995', `12 / ${nextYear()}`, '123')
    expect((await screen.findByRole('alert')).textContent).toContain('Your card has insufficient funds.')

    fill('4242 4242 4242 4241', `12 / ${nextYear()}`, '123')
    expect(await screen.findByText('Your card number is invalid')).toBeTruthy()
    expect(screen.queryByText('Your card has insufficient funds.')).toBeNull()
  })
})
