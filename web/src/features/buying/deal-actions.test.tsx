import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { Booking } from '#contract/bookings'
import { renderWithApp } from '../../test/render'
import { SellerDealActions } from './deal-actions'

const sale: Booking = {
  _id: 'b1',
  productId: 'p1',
  productName: 'ThinkPad X1',
  productImage: '/media/1.webp',
  userName: 'Bea Buyer',
  email: 'bea@example.com',
  price: 690,
  price_cents: 69_000,
  booked_price_cents: 69_000,
  phoneNumber: '(312) 555-0187',
  location: 'Chicago, IL',
  paid: true,
  status: 'completed',
  createdAt: '2026-11-03T09:30:00.000Z',
  sellerId: 'seller-1',
  paidAt: '2026-11-03T09:40:00.000Z',
  handedOverAt: '2026-11-04T09:30:00.000Z',
  handoverNote: null,
  autoCompleteAt: null,
  completedAt: '2026-11-05T09:30:00.000Z',
  refundedAt: null,
  dispute: null,
}

afterEach(cleanup)

describe("the seller's sale line on My Product", () => {
  it('names the buyer with their phone and place, without brackets around a bracketed phone number', () => {
    renderWithApp(<SellerDealActions sale={sale} productName="ThinkPad X1" />)
    expect(screen.getByText(/^Bought by/).textContent).toBe(
      'Bought by Bea Buyer · (312) 555-0187 · Chicago, IL',
    )
  })

  it('leaves out what the buyer did not give: no "(, )"', () => {
    renderWithApp(
      <SellerDealActions sale={{ ...sale, phoneNumber: '', location: '' }} productName="ThinkPad X1" />,
    )
    expect(screen.getByText(/^Bought by/).textContent).toBe('Bought by Bea Buyer')
    cleanup()
    renderWithApp(<SellerDealActions sale={{ ...sale, phoneNumber: ' ' }} productName="ThinkPad X1" />)
    expect(screen.getByText(/^Bought by/).textContent).toBe('Bought by Bea Buyer · Chicago, IL')
  })
})
