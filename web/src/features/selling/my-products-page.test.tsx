import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type Booking, type BookingStatus, DELETE_BLOCKED } from '#contract/bookings'
import { aProduct, jsonResponse, renderWithApp } from '../../test/render'
import { MyProductsPage } from './my-products-page'

const ME = {
  id: 'seller-1',
  name: 'Rahim Uddin',
  email: 'rahim@example.com',
  role: 'seller',
  verified: false,
}

function aSale(status: BookingStatus): Booking {
  return {
    _id: 'b1',
    productId: 'p1',
    productName: 'ThinkPad X1 Carbon Gen 9',
    productImage: '/media/x1-card.webp',
    userName: 'Bea Buyer',
    email: 'bea@example.com',
    price: 749.5,
    price_cents: 74_950,
    booked_price_cents: 74_950,
    phoneNumber: '+1 555 0100',
    location: 'Dhaka',
    paid: true,
    status,
    createdAt: '2026-11-03T09:30:00.000Z',
    sellerId: ME.id,
    paidAt: '2026-11-04T09:30:00.000Z',
    handedOverAt: null,
    handoverNote: null,
    autoCompleteAt: null,
    completedAt: null,
    refundedAt: null,
    dispute: null,
  }
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function serve(products: ReturnType<typeof aProduct>[]) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/session') return jsonResponse({ user: ME })
    if (url.includes('/cancel')) return jsonResponse({ acknowledged: true, modifiedCount: 1 })
    if (init?.method === 'DELETE') return jsonResponse({ acknowledged: true, deletedCount: 1 })
    if (url.startsWith('/api/products')) return jsonResponse(products)
    if (url.startsWith('/api/messages/unread')) return jsonResponse({ count: 0 })
    return jsonResponse([])
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

describe('MyProductsPage: a listing with a paid sale', () => {
  it('disables Delete and says why while the sale is paid, handed over or disputed', async () => {
    serve([
      aProduct({ _id: 'p1', name: 'Paid one', sellStatus: true, sale: aSale('paid') }),
      aProduct({ _id: 'p2', name: 'Handed one', sellStatus: true, sale: aSale('handed_over') }),
      aProduct({ _id: 'p3', name: 'Free one' }),
      aProduct({ _id: 'p4', name: 'Done one', sellStatus: true, sale: aSale('completed') }),
    ])
    renderWithApp(<MyProductsPage />)
    await screen.findAllByTestId('my-product')
    const deleteOf = (name: string) =>
      screen.getByRole('button', { name: new RegExp(`Delete ${name}`) }) as HTMLButtonElement
    const reasonOf = (button: HTMLButtonElement) =>
      document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent
    expect(deleteOf('Paid one').disabled).toBe(true)
    expect(reasonOf(deleteOf('Paid one'))).toBe(DELETE_BLOCKED.paid)
    expect(deleteOf('Handed one').disabled).toBe(true)
    expect(reasonOf(deleteOf('Handed one'))).toBe(DELETE_BLOCKED.handed_over)
    expect(deleteOf('Free one').disabled).toBe(false)
    expect(deleteOf('Done one').disabled).toBe(false)
    expect(deleteOf('Done one').getAttribute('aria-describedby')).toBeNull()
  })

  it('lets the seller cancel a paid sale with a reason, refunding the buyer', async () => {
    const fetchMock = serve([
      aProduct({ _id: 'p1', name: 'Paid one', sellStatus: true, sale: aSale('paid') }),
    ])
    renderWithApp(<MyProductsPage />)
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel sale of Paid one' }))
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this sale?' })
    expect(dialog.textContent).toContain('Bea Buyer gets back the $749.50 they paid for Paid one, in full')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel sale and refund' }))
    // Too short: the contract's own message, and nothing sent.
    expect(await within(dialog).findByText(/at least 10 characters/)).toBeTruthy()
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/cancel'))).toBe(false)

    fireEvent.change(within(dialog).getByLabelText('Why can you not hand it over?'), {
      target: { value: 'The screen cracked in transit.' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel sale and refund' }))
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/bookings/b1/cancel',
        expect.objectContaining({
          method: 'PUT',
          body: JSON.stringify({ reason: 'The screen cracked in transit.' }),
        }),
      ),
    )
  })
})

describe('MyProductsPage: Renew', () => {
  it('is offered only in the last days before expiry, and on an expired listing', async () => {
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString()
    serve([
      aProduct({ _id: 'p1', name: 'Posted today', expires_at: inDays(60) }),
      aProduct({ _id: 'p2', name: 'Expiring soon', expires_at: inDays(3) }),
      aProduct({ _id: 'p3', name: 'Gone quiet', expired: true, expires_at: inDays(-2) }),
    ])
    renderWithApp(<MyProductsPage />)
    await screen.findAllByTestId('my-product')
    expect(screen.queryByRole('button', { name: 'Renew Posted today' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Renew Expiring soon' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Renew Gone quiet' })).toBeTruthy()
  })
})

describe('MyProductsPage: a listing not live yet', () => {
  it('says it waits for review (or was not approved), never "Available" or "On the home page", until approved', async () => {
    serve([
      aProduct({ _id: 'p1', name: 'Waiting one', advertise: true, review_state: 'pending' }),
      aProduct({
        _id: 'p2',
        name: 'Refused one',
        advertise: true,
        review_state: 'rejected',
        review_reason: 'The photos are stock pictures.',
      }),
      aProduct({ _id: 'p3', name: 'Live one', advertise: true, review_state: 'approved' }),
    ])
    renderWithApp(<MyProductsPage />)
    const [waiting, refused, live] = (await screen.findAllByTestId('my-product')) as HTMLElement[]
    const text = (card: HTMLElement | undefined) => card?.textContent ?? ''
    expect(text(waiting)).toContain('Waiting for review')
    expect(text(waiting)).not.toContain('Available')
    expect(text(waiting)).not.toContain('On the home page')
    expect(text(refused)).toContain('Not approved')
    expect(text(refused)).not.toContain('Available')
    expect(text(refused)).not.toContain('On the home page')
    expect(text(live)).toContain('Available')
    expect(text(live)).toContain('On the home page')
    expect(text(live)).not.toContain('Waiting for review')
  })
})

describe('MyProductsPage: the money of a sale', () => {
  it('shows the price agreed, the fee and what the seller receives, nothing once refunded', async () => {
    serve([
      aProduct({
        _id: 'p1',
        name: 'Offer one',
        resale_price_cents: 79_900,
        sellStatus: true,
        sale: aSale('paid'),
        sale_money: { price_cents: 72_000, fee_cents: 3600, receive_cents: 68_400, where: 'in_escrow' },
      }),
      aProduct({
        _id: 'p2',
        name: 'Refunded one',
        resale_price_cents: 61_900,
        sellStatus: true,
        sale: aSale('refunded'),
        sale_money: { price_cents: 61_900, fee_cents: 3095, receive_cents: 0, where: 'refunded' },
      }),
    ])
    renderWithApp(<MyProductsPage />)
    const [offer, refunded] = await screen.findAllByTestId('sale-money')
    expect(offer?.textContent).toBe('Price agreed$720Fee−$36You receive$684Where it is(Held)')
    expect(screen.queryByText('$799')).toBeNull()
    expect(refunded?.textContent).toBe(
      'Price agreed$619Fee−$30.95You receive$0Where it is(Refunded to the buyer)',
    )
  })
})

describe('MyProductsPage: tabs by state', () => {
  function serveTabs(needsAction: number) {
    const fetchMock = vi.fn(async (url: string) => {
      if (url === '/api/session') return jsonResponse({ user: ME })
      if (url.startsWith('/api/products/states')) {
        return jsonResponse({
          needs_action: needsAction,
          on_sale: 3,
          in_review: 1,
          sold: 20,
          ended: 2,
          all: 26,
        })
      }
      if (url.startsWith('/api/products')) {
        const state = new URL(url, 'http://x').searchParams.get('state')
        return jsonResponse([
          aProduct({
            _id: 'p1',
            name: state ? `A ${state} one` : 'Any one',
            listing_state: (state ?? 'on_sale') as 'on_sale',
          }),
        ])
      }
      if (url.startsWith('/api/messages/unread')) return jsonResponse({ count: 0 })
      return jsonResponse([])
    })
    vi.stubGlobal('fetch', fetchMock)
    const listUrls = () =>
      fetchMock.mock.calls
        .map(([u]) => new URL(String(u), 'http://x'))
        .filter((u) => u.pathname === '/api/products')
    return { listUrls }
  }

  it('opens on what needs the seller, with a count on each tab, each a link', async () => {
    const { listUrls } = serveTabs(1)
    renderWithApp(<MyProductsPage />, { at: '/dashboard/myproduct' })
    expect(await screen.findAllByText('A needs_action one')).not.toHaveLength(0)
    expect(listUrls().map((u) => u.searchParams.get('state'))).toEqual(['needs_action'])
    const tabs = screen.getByRole('navigation', { name: 'Your listings by state' })
    const links = within(tabs).getAllByRole('link')
    expect(links.map((l) => l.textContent)).toEqual([
      'Needs action: 1',
      'On sale: 3',
      'Waiting for review: 1',
      'Sold: 20',
      'Ended: 2',
      'All: 26',
    ])
    expect(links[0]?.getAttribute('aria-current')).toBe('page')
    expect(links[3]?.getAttribute('href')).toBe('/dashboard/myproduct?state=sold')
  })

  it('opens on all when nothing needs the seller, and keeps the tab the address names', async () => {
    const { listUrls } = serveTabs(0)
    renderWithApp(<MyProductsPage />, { at: '/dashboard/myproduct' })
    expect(await screen.findAllByText('Any one')).not.toHaveLength(0)
    expect(listUrls()[0]?.searchParams.has('state')).toBe(false)
    cleanup()
    const second = serveTabs(0)
    renderWithApp(<MyProductsPage />, { at: '/dashboard/myproduct?state=sold' })
    expect(await screen.findAllByText('A sold one')).not.toHaveLength(0)
    expect(second.listUrls().map((u) => u.searchParams.get('state'))).toEqual(['sold'])
  })

  it('shows one listing when the address names it (a sale’s email), with a way to all', async () => {
    const { listUrls } = serveTabs(1)
    renderWithApp(<MyProductsPage />, { at: '/dashboard/myproduct?product=p1' })
    expect(await screen.findAllByText('Any one')).not.toHaveLength(0)
    expect(listUrls().map((u) => u.searchParams.get('product'))).toEqual(['p1'])
    expect(screen.getByRole('link', { name: 'Show all your listings' }).getAttribute('href')).toBe(
      '/dashboard/myproduct',
    )
  })
})
