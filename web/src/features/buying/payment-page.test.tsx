import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Booking } from '#contract/bookings'
import { jsonResponse, renderWithApp } from '../../test/render'
import { PaymentPage } from './payment-page'

vi.mock('../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }))
const loadStripe = vi.hoisted(() => vi.fn(() => new Promise(() => {})))
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe }))

const BOOKING_ID = '7d9e6f1a-2b3c-4d5e-8f90-a1b2c3d4e5f6'

function makeBooking(overrides: Partial<Booking> = {}): Booking {
  return {
    _id: BOOKING_ID,
    productId: '3f1c2a9e-5b7d-4c8e-9a0b-1c2d3e4f5a6b',
    productName: 'ThinkPad X1 Carbon Gen 9',
    productImage: '/media/x1-card.webp',
    userName: 'Ayesha Rahman',
    email: 'ayesha@example.com',
    price: 749.5,
    price_cents: 74_950,
    booked_price_cents: 74_950,
    phoneNumber: '+1 555 123 4567',
    location: 'Dhaka',
    paid: false,
    status: 'unpaid',
    createdAt: '2026-11-03T09:30:00.000Z',
    sellerId: 'seller-1',
    paidAt: null,
    handedOverAt: null,
    handoverNote: null,
    autoCompleteAt: null,
    completedAt: null,
    refundedAt: null,
    dispute: null,
    ...overrides,
  }
}

function inMinutes(minutes: number) {
  return new Date(Date.now() + minutes * 60_000).toISOString()
}

type ApiAnswers = Record<string, () => Response | Promise<Response>>

/** Answers fetch by "METHOD /path"; anything else fails the test loudly. */
function mockApi(routes: ApiAnswers) {
  const fetchMock = vi.fn(async (input: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${new URL(input, 'http://x').pathname}`
    const answer = routes[key]
    if (!answer) throw new Error(`unexpected call ${key}`)
    return answer()
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

function renderPage() {
  renderWithApp(<PaymentPage />, { at: `/dashboard/payment/${BOOKING_ID}`, path: '/dashboard/payment/:id' })
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  loadStripe.mockClear()
})

describe('PaymentPage', () => {
  it('in test mode: names the laptop and the price, labels Test mode, and pays with a test card', async () => {
    let booking = makeBooking()
    mockApi({
      [`GET /api/bookings/${BOOKING_ID}`]: () => jsonResponse(booking),
      'GET /api/payments/config': () => jsonResponse({ mode: 'test' }),
      [`POST /api/bookings/${BOOKING_ID}/hold`]: () => jsonResponse({ holdUntil: inMinutes(15) }),
      'POST /api/payments/test': () => {
        booking = makeBooking({ paid: true, status: 'paid' })
        return jsonResponse({ status: 'succeeded', transactionId: 'test_tx_42', amount_cents: 74_950 })
      },
    })
    renderPage()

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Payment for ThinkPad X1 Carbon Gen 9' }),
    ).toBeTruthy()
    expect(screen.getByText(/Please Pay/).textContent).toBe('Please Pay $749.50')
    expect(await screen.findByText('Test mode')).toBeTruthy()

    const year = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0')
    fireEvent.input(screen.getByLabelText('Card number'), { target: { value: '4242 4242 4242 4242' } })
    fireEvent.input(screen.getByLabelText('Expiry (MM / YY)'), { target: { value: `12 / ${year}` } })
    fireEvent.input(screen.getByLabelText('CVC'), { target: { value: '123' } })
    fireEvent.click(screen.getByRole('button', { name: 'Pay $749.50' }))

    const confirmation = await screen.findByRole('region', { name: 'Payment successful' })
    expect(confirmation.textContent).toContain('test_tx_42')
    expect(confirmation.textContent).toContain('Paid')
    expect(screen.queryByLabelText('Card number')).toBeNull()
    expect(loadStripe).not.toHaveBeenCalled()
  })

  it('shows Paid or Sold instead of the card form when the booking cannot be paid', async () => {
    mockApi({
      [`GET /api/bookings/${BOOKING_ID}`]: () => jsonResponse(makeBooking({ status: 'sold' })),
      'GET /api/payments/config': () => jsonResponse({ mode: 'test' }),
    })
    renderPage()
    const sold = await screen.findByRole('region', { name: 'This laptop has been sold' })
    expect(within(sold).getByText('Sold')).toBeTruthy()
    expect(screen.queryByLabelText('Card number')).toBeNull()
    cleanup()

    mockApi({
      [`GET /api/bookings/${BOOKING_ID}`]: () => jsonResponse(makeBooking({ paid: true, status: 'paid' })),
    })
    renderPage()
    const paid = await screen.findByRole('region', { name: 'You have paid for this laptop' })
    expect(within(paid).getByText('Paid')).toBeTruthy()
    expect(screen.queryByText(/Please Pay/)).toBeNull()
    expect(screen.queryByLabelText('Card number')).toBeNull()
  })

  it('shows a shipped sale on its way or being returned as paid, and says the seller ships a paid one', async () => {
    const delivery = {
      method: 'ship' as const,
      shipping_cents: 900,
      address: null,
      rate: null,
      ship_by: null,
    }
    for (const [status, stage] of [
      ['shipped', 'Shipped'],
      ['returning', 'Being returned'],
    ] as const) {
      mockApi({
        [`GET /api/bookings/${BOOKING_ID}`]: () =>
          jsonResponse(makeBooking({ paid: true, status, delivery })),
      })
      renderPage()
      const panel = await screen.findByRole('region', { name: 'You have paid for this laptop' })
      expect(panel.textContent).toContain(stage)
      expect(panel.textContent).toContain('Follow the sale in My Orders.')
      expect(document.querySelector('header p')?.textContent).toBe('Paid $758.50')
      cleanup()
    }
    mockApi({
      [`GET /api/bookings/${BOOKING_ID}`]: () =>
        jsonResponse(makeBooking({ paid: true, status: 'paid', delivery })),
    })
    renderPage()
    const paid = await screen.findByRole('region', { name: 'You have paid for this laptop' })
    expect(paid.textContent).toContain('The seller will ship it to you; follow it in My Orders.')
    expect(paid.textContent).not.toContain('hand it over')
  })

  it('says so when the seller lowered the price since the booking, and asks the lower one', async () => {
    mockApi({
      [`GET /api/bookings/${BOOKING_ID}`]: () =>
        jsonResponse(makeBooking({ price: 700, price_cents: 70_000, booked_price_cents: 74_950 })),
      'GET /api/payments/config': () => jsonResponse({ mode: 'test' }),
      [`POST /api/bookings/${BOOKING_ID}/hold`]: () => jsonResponse({ holdUntil: inMinutes(15) }),
    })
    renderPage()
    expect((await screen.findByText(/Please Pay/)).textContent).toBe('Please Pay $700')
    expect(screen.getByText(/lowered the price from \$749\.50/)).toBeTruthy()
  })

  it('in Stripe mode: loads Stripe.js with the publishable key and shows the form loading', async () => {
    mockApi({
      [`GET /api/bookings/${BOOKING_ID}`]: () => jsonResponse(makeBooking()),
      'GET /api/payments/config': () => jsonResponse({ mode: 'stripe', publishableKey: 'pk_test_123' }),
      [`POST /api/bookings/${BOOKING_ID}/hold`]: () => jsonResponse({ holdUntil: inMinutes(15) }),
      'POST /api/payments/intent': () =>
        jsonResponse({ clientSecret: 'pi_1_secret_2', amount_cents: 74_950 }),
    })
    renderPage()
    await waitFor(() =>
      expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain('Loading the card form'),
    )
    await waitFor(() => expect(loadStripe).toHaveBeenCalledWith('pk_test_123'))
    expect(screen.queryByText('Test mode')).toBeNull()
  })

  it('says so when the booking does not exist', async () => {
    mockApi({
      [`GET /api/bookings/${BOOKING_ID}`]: () =>
        jsonResponse({ error: { code: 'NOT_FOUND', message: 'Booking not found' } }, { status: 404 }),
    })
    renderPage()
    expect(await screen.findByRole('heading', { level: 1, name: 'Booking not found' })).toBeTruthy()
  })

  it('holds the laptop while the buyer pays and counts down the time left', async () => {
    mockApi({
      [`GET /api/bookings/${BOOKING_ID}`]: () => jsonResponse(makeBooking()),
      'GET /api/payments/config': () => jsonResponse({ mode: 'test' }),
      [`POST /api/bookings/${BOOKING_ID}/hold`]: () => jsonResponse({ holdUntil: inMinutes(14.5) }),
    })
    renderPage()
    const countdown = await screen.findByTestId('hold-countdown')
    expect(countdown.textContent).toMatch(/^14:(29|30|31)$/)
    expect(countdown.closest('p')?.textContent).toContain('nobody else can pay for it meanwhile')
    expect(await screen.findByLabelText('Card number')).toBeTruthy()
  })

  it('starts a 15-minute hold at 15:00, not 15:01, however long the hold took to answer', async () => {
    mockApi({
      [`GET /api/bookings/${BOOKING_ID}`]: () => jsonResponse(makeBooking()),
      'GET /api/payments/config': () => jsonResponse({ mode: 'test' }),
      [`POST /api/bookings/${BOOKING_ID}/hold`]: async () => {
        await new Promise((resolve) => setTimeout(resolve, 30))
        return jsonResponse({ holdUntil: new Date(Date.now() + 15 * 60_000).toISOString() })
      },
    })
    renderPage()
    expect((await screen.findByTestId('hold-countdown')).textContent).toBe('15:00')
  })

  it('shows Reserved, and no card form, while another buyer holds the laptop', async () => {
    const until = inMinutes(9)
    mockApi({
      [`GET /api/bookings/${BOOKING_ID}`]: () => jsonResponse(makeBooking()),
      'GET /api/payments/config': () => jsonResponse({ mode: 'test' }),
      [`POST /api/bookings/${BOOKING_ID}/hold`]: () =>
        jsonResponse(
          {
            error: { code: 'RESERVED', message: 'Another buyer is paying for this laptop.' },
            holdUntil: until,
          },
          { status: 409 },
        ),
    })
    renderPage()
    const reserved = await screen.findByRole('region', { name: 'Another buyer is paying for this laptop' })
    expect(within(reserved).getByText('Reserved')).toBeTruthy()
    expect(within(reserved).getByText(/If they have not paid by then, you can pay for it/)).toBeTruthy()
    expect(within(reserved).getByRole('button', { name: 'Check again' })).toBeTruthy()
    expect(screen.queryByLabelText('Card number')).toBeNull()
  })

  it("says why when the buyer's own limits refuse a hold", async () => {
    mockApi({
      [`GET /api/bookings/${BOOKING_ID}`]: () => jsonResponse(makeBooking()),
      [`POST /api/bookings/${BOOKING_ID}/hold`]: () =>
        jsonResponse(
          {
            error: { code: 'RATE_LIMITED', message: 'You are already paying for 3 other laptops.' },
          },
          { status: 429 },
        ),
    })
    renderPage()
    const alert = await screen.findByText('We could not hold this laptop for you')
    expect(alert.closest('[role="alert"], div')?.textContent).toContain(
      'You are already paying for 3 other laptops.',
    )
    expect(screen.queryByLabelText('Card number')).toBeNull()
  })

  it('takes no hold on a visit once the booking’s hold ended: "Your hold ended", and only "Hold it again" asks for one', async () => {
    const ended = inMinutes(-3)
    const asks: unknown[] = []
    const fetchMock = mockApi({
      [`GET /api/bookings/${BOOKING_ID}`]: () => jsonResponse(makeBooking()),
      'GET /api/payments/config': () => jsonResponse({ mode: 'test' }),
      [`POST /api/bookings/${BOOKING_ID}/hold`]: () => {
        const body = fetchMock.mock.calls.at(-1)?.[1]?.body
        asks.push(body === undefined ? undefined : JSON.parse(String(body)))
        return asks.length === 1
          ? jsonResponse(
              {
                error: { code: 'HOLD_ENDED', message: 'Your hold on this laptop has ended.' },
                holdUntil: ended,
              },
              { status: 409 },
            )
          : jsonResponse({ holdUntil: inMinutes(15) })
      },
    })
    renderPage()
    const panel = await screen.findByRole('region', { name: 'Your hold ended' })
    expect(panel.textContent).toContain('nothing is held for you')
    expect(within(panel).getByRole('button', { name: /^Cancel booking/ })).toBeTruthy()
    expect(screen.queryByLabelText('Card number')).toBeNull()
    expect(screen.queryByTestId('hold-countdown')).toBeNull()
    // The visit asked without "again": the server takes no hold for it.
    expect(asks).toEqual([undefined])

    fireEvent.click(within(panel).getByRole('button', { name: 'Hold it again' }))
    expect(await screen.findByTestId('hold-countdown')).toBeTruthy()
    expect(asks).toEqual([undefined, { again: true }])
    expect(await screen.findByLabelText('Card number')).toBeTruthy()
  })

  it('says "Your hold ended" when the countdown runs out on the open page, and holds again only when asked', async () => {
    const asks: unknown[] = []
    const fetchMock = mockApi({
      [`GET /api/bookings/${BOOKING_ID}`]: () => jsonResponse(makeBooking()),
      'GET /api/payments/config': () => jsonResponse({ mode: 'test' }),
      [`POST /api/bookings/${BOOKING_ID}/hold`]: () => {
        const body = fetchMock.mock.calls.at(-1)?.[1]?.body
        asks.push(body === undefined ? undefined : JSON.parse(String(body)))
        return jsonResponse({ holdUntil: asks.length === 1 ? inMinutes(-0.1) : inMinutes(15) })
      },
    })
    renderPage()
    const panel = await screen.findByRole('region', { name: 'Your hold ended' })
    expect(screen.queryByLabelText('Card number')).toBeNull()
    fireEvent.click(within(panel).getByRole('button', { name: 'Hold it again' }))
    expect(await screen.findByTestId('hold-countdown')).toBeTruthy()
    expect(asks).toEqual([undefined, { again: true }])
  })

  it('says the buyer cancelled a booking they cancelled, with no card form', async () => {
    mockApi({
      [`GET /api/bookings/${BOOKING_ID}`]: () =>
        jsonResponse(makeBooking({ status: 'cancelled', cancelledByBuyer: true, cancelReason: null })),
    })
    renderPage()
    const panel = await screen.findByRole('region', { name: 'You cancelled this booking' })
    expect(panel.textContent).toContain('It can no longer be paid for. Nothing was charged.')
    expect(screen.queryByLabelText('Card number')).toBeNull()
  })
})
