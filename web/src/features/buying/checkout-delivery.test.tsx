import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Booking } from '#contract/bookings'
import type { BookingDelivery, DeliveryOption } from '#contract/delivery'
import { jsonResponse, renderWithApp } from '../../test/render'
import { PaymentPage } from './payment-page'

vi.mock('../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }))
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe: vi.fn(() => new Promise(() => {})) }))

const BOOKING_ID = '7d9e6f1a-2b3c-4d5e-8f90-a1b2c3d4e5f6'
const SHIPMENT = 'shp_0123456789abcdef0123456789abcdef'

function makeBooking(offered: DeliveryOption, delivery: Partial<BookingDelivery> = {}): Booking {
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
    location: 'Austin, TX',
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
    delivery: {
      offered,
      method: 'meet',
      shipping_cents: 0,
      address: null,
      rate: null,
      ship_by: null,
      ...delivery,
    },
  }
}

const QUOTE = {
  shipment_id: SHIPMENT,
  test_mode: true,
  rates: [
    { carrier: 'USPS', service: 'GroundAdvantage', amount_cents: 1_045, delivery_days: 5, rate_id: 'rate_a' },
    { carrier: 'USPS', service: 'Priority', amount_cents: 1_595, delivery_days: 2, rate_id: 'rate_b' },
  ].map((r) => ({ ...r, shipment_id: SHIPMENT })),
}
const ADDRESS = {
  name: 'Ayesha Rahman',
  street1: '179 N Harbor Dr',
  city: 'Redondo Beach',
  state: 'CA',
  zip: '90277',
}

type Call = { key: string; body: unknown }

function mockApi(routes: Record<string, () => Response | Promise<Response>>) {
  const calls: Call[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${new URL(input, 'http://x').pathname}`
      calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined })
      const answer = routes[key]
      if (!answer) throw new Error(`unexpected call ${key}`)
      return answer()
    }),
  )
  return calls
}

function routesFor(initial: Booking, onChoose?: (body: Record<string, unknown>) => Booking) {
  let booking = initial
  const calls = mockApi({
    [`GET /api/bookings/${BOOKING_ID}`]: () => jsonResponse(booking),
    'GET /api/payments/config': () => jsonResponse({ mode: 'test' }),
    [`POST /api/bookings/${BOOKING_ID}/hold`]: () =>
      jsonResponse({ holdUntil: new Date(Date.now() + 900_000).toISOString() }),
    [`POST /api/bookings/${BOOKING_ID}/shipping-rates`]: () => jsonResponse(QUOTE),
    [`PUT /api/bookings/${BOOKING_ID}/delivery`]: () => {
      const body = calls.at(-1)?.body as Record<string, unknown>
      booking = onChoose ? onChoose(body) : booking
      return jsonResponse(booking)
    },
  })
  return calls
}

function typeAddress(address: Record<string, string>) {
  const labels: Record<string, string> = {
    name: 'Full name',
    street1: 'Street address',
    city: 'City',
    state: 'State',
    zip: 'ZIP code',
  }
  for (const [field, label] of Object.entries(labels)) {
    fireEvent.input(screen.getByLabelText(label), { target: { value: address[field] ?? '' } })
  }
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('Checkout delivery', () => {
  it('ships: the buyer types the address, sees the rates in Test mode, picks one, and pays laptop + shipping', async () => {
    const calls = routesFor(makeBooking('both'), (body) =>
      body.method === 'ship'
        ? makeBooking('both', {
            method: 'ship',
            shipping_cents: 1_595,
            address: { ...ADDRESS, country: 'US' },
            rate: { carrier: 'USPS', service: 'Priority', amount_cents: 1_595, delivery_days: 2 },
          })
        : makeBooking('both'),
    )
    renderWithApp(<PaymentPage />, { at: `/dashboard/payment/${BOOKING_ID}`, path: '/dashboard/payment/:id' })

    const delivery = await screen.findByRole('region', { name: 'Delivery' })
    // Meeting is the booking's choice so far, and the card form shows for it.
    expect(within(delivery).getByLabelText(/Meet in person/)).toHaveProperty('checked', true)
    expect(await screen.findByLabelText('Card number')).toBeTruthy()

    fireEvent.click(within(delivery).getByLabelText(/Ship to me/))
    // Until a rate is chosen there is nothing to pay.
    expect(screen.queryByLabelText('Card number')).toBeNull()
    typeAddress(ADDRESS)
    fireEvent.click(screen.getByRole('button', { name: 'Get shipping rates' }))

    const rates = await screen.findByRole('group', { name: 'Choose a shipping rate' })
    expect(within(rates).getByText('Test mode')).toBeTruthy()
    const options = within(rates).getAllByRole('radio')
    expect(options).toHaveLength(2)
    expect(rates.textContent).toContain('USPS Ground Advantage')
    expect(rates.textContent).toContain('About 5 days')
    expect(rates.textContent).toContain('$10.45')
    expect(rates.textContent).toContain('$15.95')
    expect(calls.find((c) => c.key.endsWith('/shipping-rates'))?.body).toEqual({
      address: { ...ADDRESS, country: 'US' },
    })

    fireEvent.click(within(rates).getByLabelText(/Priority/))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pay $765.45' })).toBeTruthy())
    expect(calls.find((c) => c.key.startsWith('PUT'))?.body).toEqual({
      method: 'ship',
      address: { ...ADDRESS, country: 'US' },
      shipment_id: SHIPMENT,
      rate_id: 'rate_b',
    })
    const total = screen.getByRole('region', { name: 'Order total' })
    expect(total.textContent).toContain('Laptop$749.50')
    expect(total.textContent).toContain('Shipping$15.95')
    expect(total.textContent).toContain('Total$765.45')
    expect(screen.getByText(/Please Pay/).textContent).toBe('Please Pay $765.45')
  })

  it('a laptop shipped only offers no meeting and keeps the card form back until a rate is chosen', async () => {
    routesFor(makeBooking('ship'))
    renderWithApp(<PaymentPage />, { at: `/dashboard/payment/${BOOKING_ID}`, path: '/dashboard/payment/:id' })
    const delivery = await screen.findByRole('region', { name: 'Delivery' })
    expect(within(delivery).queryByLabelText(/Meet in person/)).toBeNull()
    expect(delivery.textContent).toContain('This laptop is shipped to you')
    expect(screen.getByRole('region', { name: 'Order total' }).textContent).toContain('Choose a rate')
    await screen.findByRole('button', { name: 'Get shipping rates' })
    expect(screen.queryByLabelText('Card number')).toBeNull()
  })

  it('checks the address before asking the carrier', async () => {
    const calls = routesFor(makeBooking('ship'))
    renderWithApp(<PaymentPage />, { at: `/dashboard/payment/${BOOKING_ID}`, path: '/dashboard/payment/:id' })
    await screen.findByRole('region', { name: 'Delivery' })
    typeAddress({ ...ADDRESS, zip: '9027', state: 'XX' })
    fireEvent.click(screen.getByRole('button', { name: 'Get shipping rates' }))
    expect(await screen.findByText('Enter a 5-digit ZIP code')).toBeTruthy()
    expect(screen.getByText('Enter a US state as two letters, like CA')).toBeTruthy()
    expect(calls.some((c) => c.key.endsWith('/shipping-rates'))).toBe(false)
  })

  it('switching a shipped choice back to meeting tells the server and drops the shipping', async () => {
    const calls = routesFor(
      makeBooking('both', {
        method: 'ship',
        shipping_cents: 1_045,
        address: { ...ADDRESS, country: 'US' },
        rate: { carrier: 'USPS', service: 'GroundAdvantage', amount_cents: 1_045, delivery_days: 5 },
      }),
      () => makeBooking('both'),
    )
    renderWithApp(<PaymentPage />, { at: `/dashboard/payment/${BOOKING_ID}`, path: '/dashboard/payment/:id' })
    const delivery = await screen.findByRole('region', { name: 'Delivery' })
    expect(delivery.textContent).toContain('USPS Ground Advantage')
    expect(await screen.findByRole('button', { name: 'Pay $759.95' })).toBeTruthy()
    fireEvent.click(within(delivery).getByLabelText(/Meet in person/))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pay $749.50' })).toBeTruthy())
    expect(calls.find((c) => c.key.startsWith('PUT'))?.body).toEqual({ method: 'meet' })
  })

  it('in Stripe mode, a changed delivery asks for a new payment intent at the new amount', async () => {
    let booking = makeBooking('both')
    let intents = 0
    mockApi({
      [`GET /api/bookings/${BOOKING_ID}`]: () => jsonResponse(booking),
      'GET /api/payments/config': () => jsonResponse({ mode: 'stripe', publishableKey: 'pk_test_x' }),
      [`POST /api/bookings/${BOOKING_ID}/hold`]: () =>
        jsonResponse({ holdUntil: new Date(Date.now() + 900_000).toISOString() }),
      'POST /api/payments/intent': () => {
        intents += 1
        return jsonResponse({ clientSecret: `pi_${intents}_secret`, amount_cents: 0 })
      },
      [`POST /api/bookings/${BOOKING_ID}/shipping-rates`]: () => jsonResponse(QUOTE),
      [`PUT /api/bookings/${BOOKING_ID}/delivery`]: () => {
        booking = makeBooking('both', {
          method: 'ship',
          shipping_cents: 1_045,
          address: { ...ADDRESS, country: 'US' },
          rate: { carrier: 'USPS', service: 'GroundAdvantage', amount_cents: 1_045, delivery_days: 5 },
        })
        return jsonResponse(booking)
      },
    })
    renderWithApp(<PaymentPage />, { at: `/dashboard/payment/${BOOKING_ID}`, path: '/dashboard/payment/:id' })
    const delivery = await screen.findByRole('region', { name: 'Delivery' })
    await waitFor(() => expect(intents).toBe(1))
    fireEvent.click(within(delivery).getByLabelText(/Ship to me/))
    typeAddress(ADDRESS)
    fireEvent.click(screen.getByRole('button', { name: 'Get shipping rates' }))
    const rates = await screen.findByRole('group', { name: 'Choose a shipping rate' })
    fireEvent.click(within(rates).getByLabelText(/Ground Advantage/))
    await waitFor(() => expect(intents).toBe(2))
  })

  it('a listing met in person only shows no delivery step', async () => {
    routesFor(makeBooking('meet'))
    renderWithApp(<PaymentPage />, { at: `/dashboard/payment/${BOOKING_ID}`, path: '/dashboard/payment/:id' })
    expect(await screen.findByRole('button', { name: 'Pay $749.50' })).toBeTruthy()
    expect(screen.queryByRole('region', { name: 'Delivery' })).toBeNull()
  })

  it('a listing that stopped shipping after the buyer chose it: no card form until they switch to meeting', async () => {
    const calls = routesFor(
      makeBooking('meet', {
        method: 'ship',
        shipping_cents: 1_045,
        address: { ...ADDRESS, country: 'US' },
        rate: { carrier: 'USPS', service: 'GroundAdvantage', amount_cents: 1_045, delivery_days: 5 },
      }),
      () => makeBooking('meet'),
    )
    renderWithApp(<PaymentPage />, { at: `/dashboard/payment/${BOOKING_ID}`, path: '/dashboard/payment/:id' })
    const delivery = await screen.findByRole('region', { name: 'Delivery' })
    expect(delivery.textContent).toContain('The seller no longer ships this laptop')
    expect(screen.queryByRole('button', { name: /^Pay / })).toBeNull()
    fireEvent.click(within(delivery).getByRole('button', { name: 'Meet in person instead' }))
    expect(await screen.findByRole('button', { name: 'Pay $749.50' })).toBeTruthy()
    expect(calls.find((c) => c.key.startsWith('PUT'))?.body).toEqual({ method: 'meet' })
  })
})
