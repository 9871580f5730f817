import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Booking } from '#contract/bookings'
import { jsonResponse, renderWithApp } from '../../test/render'
import { BuyerDealActions } from './deal-actions'

const handedOver: Booking = {
  _id: 'b1',
  productId: 'p1',
  productName: 'ThinkPad X1',
  productImage: '/media/1.webp',
  userName: 'Bea Buyer',
  email: 'bea@example.com',
  price: 690,
  price_cents: 69_000,
  booked_price_cents: 69_000,
  phoneNumber: '+1 555 123 4567',
  location: 'Portland',
  paid: true,
  status: 'handed_over',
  createdAt: '2026-11-03T09:30:00.000Z',
  sellerId: 'seller-1',
  paidAt: '2026-11-03T09:40:00.000Z',
  handedOverAt: '2026-11-04T09:30:00.000Z',
  handoverNote: null,
  autoCompleteAt: '2026-11-11T09:30:00.000Z',
  completedAt: null,
  refundedAt: null,
  dispute: null,
  serial_last4: 'X2A7',
  checklist: null,
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('the handover checklist before "Received, as described"', () => {
  it('confirms only with every item ticked, and sends the answers', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ acknowledged: true, modifiedCount: 1 }))
    vi.stubGlobal('fetch', fetchMock)
    renderWithApp(<BuyerDealActions booking={handedOver} />)
    fireEvent.click(screen.getByRole('button', { name: /^Received, as described/ }))
    const dialog = within(await screen.findByRole('dialog'))
    expect(dialog.getByText('The serial number on the laptop ends with "X2A7"')).toBeTruthy()
    // The guide behind the checklist, on the deal and in the checklist itself.
    expect(dialog.getByRole('link', { name: 'What to check at handover' }).getAttribute('href')).toBe(
      '/guides/handover-checklist',
    )
    expect(screen.getAllByRole('link', { name: 'What to check at handover' }).length).toBeGreaterThanOrEqual(
      2,
    )
    const confirm = dialog.getByRole('button', { name: 'Yes, received as described' }) as HTMLButtonElement
    expect(confirm.disabled).toBe(true)
    const boxes = dialog.getAllByRole('checkbox')
    expect(boxes).toHaveLength(5)
    for (const box of boxes) fireEvent.click(box)
    expect(confirm.disabled).toBe(false)
    fireEvent.click(confirm)
    // The deal also reads its return (the returns panel); the confirmation is the call to /received.
    const received = () =>
      (fetchMock.mock.calls as unknown as [string, RequestInit][]).find(
        ([u]) => u === '/api/bookings/b1/received',
      )
    await vi.waitFor(() => expect(received()).toBeDefined())
    const [url, init] = received() as [string, RequestInit]
    expect(url).toBe('/api/bookings/b1/received')
    expect(JSON.parse(String(init.body)).checklist).toEqual({
      serial: true,
      no_activation_lock: true,
      no_firmware_password: true,
      accounts_signed_out: true,
      battery_as_described: true,
    })
  })

  it('offers "Report a problem" on an unticked item, with its reason filled in', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({})),
    )
    renderWithApp(<BuyerDealActions booking={handedOver} />)
    fireEvent.click(screen.getByRole('button', { name: /^Received, as described/ }))
    const dialog = within(await screen.findByRole('dialog'))
    const report = dialog
      .getAllByRole('button')
      .find((b) => b.textContent === 'Report a problem: No firmware or BIOS password')
    expect(report).toBeTruthy()
    fireEvent.click(report as HTMLElement)
    const problem = within(await screen.findByRole('dialog'))
    expect((problem.getByLabelText('What went wrong?') as HTMLTextAreaElement).value).toBe(
      'The laptop has a firmware (BIOS) password I was not given.',
    )
  })

  it('shows the serial’s last four on the deal once paid, and the report from the serial item names them', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({})),
    )
    renderWithApp(<BuyerDealActions booking={{ ...handedOver, status: 'paid', handedOverAt: null }} />)
    expect(screen.getByTestId('serial-last4').textContent).toBe('X2A7')
    expect(screen.getByText(/: check it on the laptop at handover\./)).toBeTruthy()
    cleanup()

    renderWithApp(<BuyerDealActions booking={handedOver} />)
    fireEvent.click(screen.getByRole('button', { name: /^Received, as described/ }))
    const dialog = within(await screen.findByRole('dialog'))
    const report = dialog
      .getAllByRole('button')
      .find((b) => b.textContent === 'Report a problem: The serial number on the laptop ends with "X2A7"')
    fireEvent.click(report as HTMLElement)
    const problem = within(await screen.findByRole('dialog'))
    expect((problem.getByLabelText('What went wrong?') as HTMLTextAreaElement).value).toBe(
      'The serial number on the laptop does not end with "X2A7", the four characters shown on the deal.',
    )
  })

  it('says "no serial given" when the seller gave none, on the deal and in the checklist', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({})),
    )
    renderWithApp(<BuyerDealActions booking={{ ...handedOver, serial_last4: null }} />)
    expect(screen.getByText('No serial given for this laptop.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: /^Received, as described/ }))
    const dialog = await screen.findByRole('dialog')
    expect(
      within(dialog).getByText(
        'No serial given for this laptop: write down the serial number on the laptop for your records',
      ),
    ).toBeTruthy()
    expect(dialog.textContent).not.toContain('the four characters the listing shows')
  })
})
