import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Offer } from '#contract/offers'
import { jsonResponse, renderWithApp } from '../../test/render'
import { OffersPage } from './offers-page'

const ME = { id: 's1', name: 'Sam Seller', email: 'sam@example.com', role: 'seller', verified: true }

const OFFER: Offer = {
  _id: 'o1',
  productId: 'p1',
  productName: 'ThinkPad X1 Carbon',
  productImage: '/media/x1-card.webp',
  asking_price_cents: 74_950,
  buyerId: 'u1',
  buyerName: 'Ayesha Rahman',
  sellerId: 's1',
  sellerName: 'Sam Seller',
  role: 'seller',
  state: 'declined',
  waitingFor: null,
  amount: 600,
  amount_cents: 60_000,
  rounds: 1,
  roundsLeft: 2,
  note: null,
  declineReason: 'Too low',
  expiresAt: null,
  bookingId: null,
  payBy: null,
  conversationId: null,
  createdAt: '2026-11-20T10:05:00.000Z',
  updatedAt: '2026-11-20T11:05:00.000Z',
  events: [],
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

/** The session, then the offers answered by `offers` in turn (the last one from then on). */
function stubApi(...offers: Response[]) {
  let n = 0
  const fetchMock = vi.fn(async (url: string) => {
    if (url.startsWith('/api/session')) return jsonResponse({ user: ME })
    if (url.startsWith('/api/offers')) return offers[Math.min(n++, offers.length - 1)] as Response
    return jsonResponse({})
  })
  vi.stubGlobal('fetch', fetchMock)
  return () => fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/offers')).length
}

describe('OffersPage', () => {
  it('shows a failed load with Try again, which asks again and lists the offers', async () => {
    const offerCalls = stubApi(
      jsonResponse({ error: { code: 'INTERNAL', message: 'Offers are resting' } }, { status: 500 }),
      jsonResponse([OFFER]),
    )
    renderWithApp(<OffersPage />, { at: '/dashboard/offers' })

    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('We could not load offers')
    expect(alert.textContent).toContain('Offers are resting')
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))

    expect(await screen.findByTestId('offer-row')).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(offerCalls()).toBe(2)
  })

  it('says there are no offers yet when there are none', async () => {
    stubApi(jsonResponse([]))
    renderWithApp(<OffersPage />, { at: '/dashboard/offers' })
    expect(await screen.findByText('No offers yet')).toBeTruthy()
  })
})
