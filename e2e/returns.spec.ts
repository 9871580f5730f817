import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import sharp from 'sharp'
import type { Booking } from '#contract/bookings'
import type { Brand } from '#contract/brands'
import type { RateQuoteAnswer } from '#contract/delivery'
import type { BookingReturn } from '#contract/returns'
import { expectNoSeriousAxeViolations, newSignedIn, saveScreenshots } from './helpers'

// A shipped laptop comes back: the buyer of a delivered sale returns it as not as described (the failed check, the
// reason, a photo); the seller accepts; the return label is bought at the seller's cost and the buyer prints it; the
// test carrier carries it back (TEST_CARRIER_SECONDS a step: 2 s on the e2e server, playwright.config.ts); the seller
// confirms it is as sent and the buyer is refunded in full.

const EXPIRY = `12 / ${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0')}`
const ADDRESS = {
  name: 'Bailey Buyer',
  street1: '179 N Harbor Dr',
  city: 'Redondo Beach',
  state: 'CA',
  zip: '90277',
}
const REASON = 'The battery lasts forty minutes; the listing said five hours.'
async function until<T>(what: string, read: () => Promise<T | undefined>, seconds = 150): Promise<T> {
  const end = Date.now() + seconds * 1000
  for (;;) {
    const v = await read()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`Waited ${seconds} s for ${what}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

const returnOf = async (request: APIRequestContext, bookingId: string) =>
  ((await (await request.get(`/api/bookings/${bookingId}/return`)).json()) as BookingReturn).return

const orderRow = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name })

test('a buyer returns a shipped laptop not as described; the seller pays the label, gets it back and refunds', async ({
  browser,
}) => {
  test.setTimeout(420_000)
  const seller = await newSignedIn(browser, 'seller', 'Sam Seller')
  const brands = (await (await seller.context.request.get('/api/brands')).json()) as Brand[]
  const brand = [...brands].sort((a, b) => b.product_count - a.product_count)[0] as Brand
  const name = `E2E returned ${Math.random().toString(36).slice(2, 8)} XPS`
  const listed = await seller.context.request.post('/api/products', {
    data: {
      name,
      category_id: brand._id,
      seller_phone: '+1 555 010 2000',
      resale_price: 640,
      original_price: 1299,
      description: 'Fully working, light marks on the lid, battery at 88% of design capacity.',
      condition: 'Good',
      location: 'San Francisco, CA',
      uses: 2,
      processor: 'Intel Core i7-1165G7',
      ram_gb: 16,
      storage_gb: 512,
      screen_inches: 13.4,
      img: '/images/laptop-placeholder.svg',
      delivery: 'ship',
      ship_from: {
        name: 'Sam Seller',
        street1: '417 Montgomery St',
        city: 'San Francisco',
        state: 'CA',
        zip: '94104',
      },
    },
  })
  expect(listed.status(), `listing: ${await listed.text()}`).toBe(201)
  const { insertedId: productId } = (await listed.json()) as { insertedId: string }

  // The buyer books it, has it shipped at the cheapest rate and pays, as the payment page does.
  const buyer = await newSignedIn(browser, 'buyer', 'Bailey Buyer')
  const req = buyer.context.request
  const booked = await req.post('/api/bookings', {
    data: { productId, phoneNumber: '+1 555 020 3000', location: 'Redondo Beach, CA' },
  })
  expect(booked.status(), `booking: ${await booked.text()}`).toBe(201)
  const { insertedId: bookingId } = (await booked.json()) as { insertedId: string }
  const quote = (await (
    await req.post(`/api/bookings/${bookingId}/shipping-rates`, { data: { address: ADDRESS } })
  ).json()) as RateQuoteAnswer
  const rate = quote.rates[0]
  expect(rate).toBeTruthy()
  const chosen = await req.put(`/api/bookings/${bookingId}/delivery`, {
    data: { method: 'ship', address: ADDRESS, shipment_id: rate?.shipment_id, rate_id: rate?.rate_id },
  })
  expect(chosen.status(), `delivery: ${await chosen.text()}`).toBe(200)
  expect((await req.post(`/api/bookings/${bookingId}/hold`)).status()).toBe(200)
  const paid = await req.post('/api/payments/test', {
    data: { bookingId, card: { number: '4242 4242 4242 4242', expiry: EXPIRY, cvc: '123' } },
  })
  expect(paid.status(), `payment: ${await paid.text()}`).toBe(200)

  // The seller buys the label; the test carrier delivers it (three steps).
  const label = await seller.context.request.post(`/api/bookings/${bookingId}/label`)
  expect(label.status(), `label: ${await label.text()}`).toBeLessThan(300)
  await until('the delivery', async () => {
    const b = (await (await req.get(`/api/bookings/${bookingId}`)).json()) as Booking
    return b.status === 'handed_over' ? b : undefined
  })

  // The buyer returns it from My Orders.
  const page = buyer.page
  await page.goto('/dashboard/myorders')
  const row = orderRow(page, name)
  await expect(row.getByText(/Not as described\? You can return it until/)).toBeVisible()
  await row.getByRole('button', { name: /Return it/ }).click()
  const dialog = page.getByRole('dialog', { name: 'Return it: not as described' })
  await dialog.getByLabel('Which check failed?').selectOption('battery_as_described')
  await dialog.getByLabel('What is not as described?').fill(REASON)
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#44536b' } })
    .jpeg()
    .toBuffer()
  await dialog
    .getByLabel('Add photos')
    .setInputFiles({ name: 'battery.jpg', mimeType: 'image/jpeg', buffer: photo })
  await expect(dialog.getByRole('img').first()).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await saveScreenshots(page, 'return-open', { part: dialog, asIs: true })
  await dialog.getByRole('button', { name: 'Request the return' }).click()
  await expect(row.getByText('Return requested: waiting for the seller')).toBeVisible()

  // The seller accepts on My Product; the label is bought at their cost.
  const sellerPage = seller.page
  await sellerPage.goto(`/dashboard/myproduct?product=${productId}`)
  await expect(sellerPage.getByText(`The buyer’s reason: “${REASON}”`)).toBeVisible()
  await sellerPage.getByRole('button', { name: /Accept the return/ }).click()
  const ret = await until('the return label', async () => {
    const r = await returnOf(seller.context.request, bookingId)
    return r?.label ? r : undefined
  })
  await sellerPage.reload()
  await expect(sellerPage.getByText(/Return label paid by you: \$/)).toBeVisible()

  // The buyer prints the label and follows the parcel.
  await page.reload()
  const print = row.getByRole('link', { name: 'Print the return label (PDF)' })
  await expect(print).toBeVisible()
  const pdf = await req.get((await print.getAttribute('href')) ?? '')
  expect(pdf.headers()['content-type']).toContain('application/pdf')
  await expect(row.getByRole('link', { name: ret.label?.trackingCode ?? '' })).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await saveScreenshots(page, 'return-label', { part: row, asIs: true })

  // Delivered back: the seller confirms it is as sent, and the buyer is refunded.
  await until('the delivery back', async () => {
    const r = await returnOf(seller.context.request, bookingId)
    return r?.status === 'delivered_back' ? r : undefined
  })
  await sellerPage.reload()
  await saveScreenshots(sellerPage, 'return-back', { scroll: 'top' })
  await sellerPage.getByRole('button', { name: /Confirm it is as sent/ }).click()
  await sellerPage
    .getByRole('dialog', { name: 'Is it as you sent it?' })
    .getByRole('button', { name: 'Yes, refund the buyer' })
    .click()
  await expect(sellerPage.getByText('Returned and refunded')).toBeVisible()
  const after = (await (await req.get(`/api/bookings/${bookingId}`)).json()) as Booking
  expect(after.status).toBe('refunded')
})
