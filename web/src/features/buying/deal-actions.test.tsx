import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Booking } from '#contract/bookings'
import { renderWithApp } from '../../test/render'
import { BuyerDealActions, SellerDealActions } from './deal-actions'

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

describe('a refunded sale says what ended it, on both sides', () => {
  // The shipment and return panels ask for what they show: left unanswered here.
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    )
  })
  afterEach(() => {
    vi.unstubAllGlobals()
  })
  const shipped = {
    method: 'ship' as const,
    shipping_cents: 900,
    address: null,
    rate: null,
    ship_by: '2026-11-06T09:40:00.000Z',
  }
  const refunded: Booking = {
    ...sale,
    status: 'refunded',
    completedAt: null,
    refundedAt: '2026-11-06T10:00:00.000Z',
    cancelReason: null,
    refundReason: null,
    delivery: shipped,
  }
  const texts = () => screen.getAllByText(/refunded|Refunded/).map((el) => el.textContent ?? '')

  it('a sale not shipped in time: the date it was due, no admin and no laptop kept by the buyer', () => {
    const late: Booking = { ...refunded, handedOverAt: null, refundEvent: 'ship_late' }
    renderWithApp(<BuyerDealActions booking={late} />)
    expect(texts().join(' ')).toContain('Refunded: the seller did not ship it by Nov 6, 2026.')
    expect(texts().join(' ')).not.toContain('An admin')
    cleanup()
    renderWithApp(<SellerDealActions sale={late} productName="ThinkPad X1" />)
    expect(texts().join(' ')).toContain('Refunded: you did not ship it by Nov 6, 2026')
    expect(texts().join(' ')).not.toContain('An admin')
  })

  it('a return that came back: the laptop is with the seller, not "the buyer still has it"', () => {
    const back: Booking = { ...refunded, refundEvent: 'return_refunded' }
    renderWithApp(<BuyerDealActions booking={back} />)
    expect(texts().join(' ')).toContain('Refunded: the laptop came back to the seller.')
    expect(document.body.textContent).not.toMatch(/An admin|does not include a return/)
    cleanup()
    renderWithApp(<SellerDealActions sale={back} productName="ThinkPad X1" />)
    expect(texts().join(' ')).toContain('Refunded: the laptop came back to you')
    expect(document.body.textContent).not.toMatch(/An admin|still has it/)
  })

  it('a return parcel the carrier lost, refunded by an admin: not "came back", with their reason', () => {
    const lost: Booking = { ...refunded, refundEvent: 'return_lost', refundReason: 'USPS lost the parcel' }
    renderWithApp(<BuyerDealActions booking={lost} />)
    expect(texts().join(' ')).toContain('the carrier lost the laptop on its way back to the seller.')
    expect(texts().join(' ')).toContain('“USPS lost the parcel”')
    expect(document.body.textContent).not.toMatch(/came back/)
  })

  it("an admin's refund still reads as one, with their reason", () => {
    const admin: Booking = { ...refunded, refundEvent: 'refunded', refundReason: 'The screen was cracked' }
    renderWithApp(<BuyerDealActions booking={admin} />)
    expect(texts().join(' ')).toContain(
      'An admin refunded your money in full. Their reason: “The screen was cracked”.',
    )
  })
})

describe("the seller's Cancel sale dialog", () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    )
  })
  afterEach(() => {
    vi.unstubAllGlobals()
  })
  const paid: Booking = { ...sale, status: 'paid', handedOverAt: null, completedAt: null }

  it('a shipped sale: the buyer gets back the price and the shipping, and the seller says why they cannot ship it', () => {
    const delivery = {
      method: 'ship' as const,
      shipping_cents: 1_250,
      address: null,
      rate: null,
      ship_by: null,
    }
    renderWithApp(<SellerDealActions sale={{ ...paid, delivery }} productName="ThinkPad X1" />)
    fireEvent.click(screen.getByRole('button', { name: /Cancel sale/ }))
    const dialog = screen.getByRole('dialog')
    expect(dialog.textContent).toContain('gets back the $702.50 they paid for ThinkPad X1 and its shipping')
    expect(screen.getByLabelText('Why can you not ship it?')).toBeTruthy()
  })

  it('a met sale: the price, and why they cannot hand it over', () => {
    renderWithApp(<SellerDealActions sale={paid} productName="ThinkPad X1" />)
    fireEvent.click(screen.getByRole('button', { name: /Cancel sale/ }))
    expect(screen.getByRole('dialog').textContent).toContain('gets back the $690 they paid for ThinkPad X1,')
    expect(screen.getByLabelText('Why can you not hand it over?')).toBeTruthy()
  })
})
