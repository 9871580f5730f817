import os from 'node:os'
import path from 'node:path'
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test'
import type { Brand } from '#contract/brands'
import type { Product } from '#contract/products'
import { confirmEmail, emailTo, expectNoSeriousAxeViolations, saveScreenshots } from './helpers'
import { type OwnServer, startOwnServer } from './support/own-server'

// What a buyer can do with a booking before and after paying, as a person sees it:
// - the payment page of a booking whose hold has ended says "Your hold ended" and holds nothing until "Hold it
//   again" is pressed (a visit, a reload, never does);
// - My Orders offers "Cancel booking" beside Pay, asks first, and the seller is emailed;
// - once paid, the deal shows the serial's last four, and the handover checklist names them.
//
// Holds must end within the test, so this journey starts its own server with HOLD_SECONDS=6 (on the e2e port
// + 1300, on a fresh data folder) and reads its emails there; the shared e2e server keeps the 15-minute hold.
// With E2E_SCREENSHOTS_DIR set, My Orders (with Cancel booking and its question), the payment page saying "Your hold
// ended" and the deal's checklist with the serial's last four are saved there at 1366 and 390 px.

const PORT = Number(process.env.E2E_PORT ?? 4173) + 1300
const BASE = `http://127.0.0.1:${PORT}`
const HOLD_SECONDS = 6
const PASSWORD = 'laptop-market-e2e-1'
const EXPIRY = `12 / ${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0')}`
const DATA_DIR = path.join(os.tmpdir(), `laptop-market-e2e-holds-${PORT}-${Date.now().toString(36)}`)

let server: OwnServer | undefined

test.use({ baseURL: BASE })
test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  test.setTimeout(200_000)
  server = await startOwnServer({
    name: 'the short-hold server',
    args: ['scripts/e2e-server.mjs'],
    baseURL: BASE,
    timeoutMs: 180_000,
    env: {
      ...process.env,
      E2E_PORT: String(PORT),
      PUBLIC_URL: BASE,
      E2E_DATA_DIR: DATA_DIR,
      LISTING_REVIEW_FIRST: '0',
      HOLD_SECONDS: String(HOLD_SECONDS),
      // The seller hears of a booking at once, so the buyer's cancelling it is news to them.
      BOOKING_EMAIL_GROUP_SECONDS: '0',
    },
  })
})

test.afterAll(async () => {
  await server?.stop()
})

/** A new confirmed account on this journey's own server (helpers' newSignedIn reads the shared server's mail). */
async function newSignedIn(browser: Browser, role: 'buyer' | 'seller', name: string) {
  const context = await browser.newContext({ baseURL: BASE, viewport: { width: 1366, height: 900 } })
  const email = `${role}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`
  const res = await context.request.post('/api/auth/sign-up/email', {
    data: { name, email, password: PASSWORD, role },
  })
  expect(res.ok(), `sign-up of a ${role}: ${res.status()} ${await res.text()}`).toBe(true)
  await confirmEmail(context.request, email, DATA_DIR)
  return { context, email, page: await context.newPage() }
}

async function list(request: APIRequestContext, name: string, serial?: string) {
  const brands = (await (await request.get('/api/brands')).json()) as Brand[]
  const res = await request.post('/api/products', {
    data: {
      name,
      category_id: (brands[0] as Brand)._id,
      seller_phone: '+1 555 010 2000',
      resale_price: 720,
      original_price: 1399,
      description: 'Fully working, light marks on the lid, battery at 86% of design capacity.',
      condition: 'Good',
      location: 'Chicago, IL',
      uses: 2,
      processor: 'Intel Core i7-1165G7',
      ram_gb: 16,
      storage_gb: 512,
      screen_inches: 14,
      img: '/images/laptop-placeholder.svg',
      ...(serial ? { serial_number: serial } : {}),
    },
  })
  expect(res.status(), `listing a laptop: ${await res.text()}`).toBe(201)
  return ((await res.json()) as { insertedId: string }).insertedId
}

async function book(request: APIRequestContext, productId: string) {
  const res = await request.post('/api/bookings', {
    data: { productId, phoneNumber: '(312) 555-0187', location: 'Chicago, IL' },
  })
  expect(res.status(), await res.text()).toBe(201)
  return ((await res.json()) as { insertedId: string }).insertedId
}

async function reservedUntil(page: Page, productId: string) {
  return ((await (await page.request.get(`/api/products/${productId}`)).json()) as Product).reservedUntil
}

test('a visit takes no hold once the hold ended; a buyer cancels a booking; the paid deal shows the serial’s last four', async ({
  browser,
}) => {
  test.setTimeout(180_000)
  const seller = await newSignedIn(browser, 'seller', 'Sam Seller')
  const buyer = await newSignedIn(browser, 'buyer', 'Bea Buyer')
  const tag = Math.random().toString(36).slice(2, 7)
  const held = `ThinkPad T14 ${tag}`
  const paidFor = `Latitude 7440 ${tag}`
  const heldId = await list(seller.context.request, held)
  const paidId = await list(seller.context.request, paidFor, 'SN-5CD3X2A7')
  const bookingId = await book(buyer.context.request, heldId)
  // The seller is told of the booking first (at once on this server).
  await emailTo(seller.email, 'deal-booked', DATA_DIR)

  // Pay from My Orders: the first visit of the payment page holds the laptop, under a countdown.
  const { page } = buyer
  await page.goto('/dashboard/myorders')
  const row = page.getByTestId('order-row').filter({ hasText: held })
  await row.getByRole('link', { name: `Pay for ${held}` }).click()
  await expect(page.getByTestId('hold-countdown')).toBeVisible()
  expect(await reservedUntil(page, heldId)).not.toBeNull()

  // The hold runs out on the open page; reopening the page later takes no new one.
  const ended = page.getByRole('region', { name: 'Your hold ended' })
  await expect(ended).toBeVisible({ timeout: (HOLD_SECONDS + 5) * 1000 })
  await page.reload()
  await expect(ended).toBeVisible()
  await expect(ended).toContainText('nothing is held for you')
  await expect(page.getByLabel('Card number')).toHaveCount(0)
  expect(await reservedUntil(page, heldId)).toBeNull()
  await expectNoSeriousAxeViolations(page)
  await saveScreenshots(page, 'payment-hold-ended')

  // Only the button holds it again.
  await ended.getByRole('button', { name: 'Hold it again' }).click()
  await expect(page.getByTestId('hold-countdown')).toBeVisible()
  expect(await reservedUntil(page, heldId)).not.toBeNull()

  // My Orders: Cancel booking beside Pay, asked first.
  await page.goto('/dashboard/myorders')
  await expect(row.getByRole('button', { name: `Cancel booking of ${held}` })).toBeVisible()
  await saveScreenshots(page, 'my-orders-cancel-booking', { part: 'viewport', settle: 150 })
  const question = page.getByRole('dialog', { name: 'Cancel this booking?' })
  // Each width's row opens its own question (a table on a desktop, cards on a phone).
  for (const [width, height] of [
    [390, 844],
    [1366, 900],
  ] as const) {
    await page.setViewportSize({ width, height })
    await row.getByRole('button', { name: `Cancel booking of ${held}` }).click()
    await expect(question).toBeVisible()
    await saveScreenshots(page, `my-orders-cancel-booking-question-${width}`, {
      part: 'viewport',
      asIs: true,
    })
    await question.getByRole('button', { name: 'Keep the booking' }).click()
  }
  await row.getByRole('button', { name: `Cancel booking of ${held}` }).click()
  await expectNoSeriousAxeViolations(page)
  await question.getByRole('button', { name: 'Cancel booking' }).click()
  await expect(row).toContainText('You cancelled this booking. Nothing was charged.')
  await expect(row.getByRole('link', { name: /^Pay/ })).toHaveCount(0)
  // The laptop is free for others at once, and the seller is told.
  expect(await reservedUntil(page, heldId)).toBeNull()
  const told = await emailTo(seller.email, 'booking-withdrawn', DATA_DIR)
  expect(told.subject).toContain('cancelled their booking of')
  expect(told.text).toContain(`cancelled their booking of “${held}” before paying. Nothing was paid.`)
  await page.goto(`/dashboard/payment/${bookingId}`)
  await expect(page.getByRole('region', { name: 'You cancelled this booking' })).toBeVisible()

  // A laptop with a serial, bought: the deal shows its last four once paid, and the checklist names them.
  const paidBooking = await book(buyer.context.request, paidId)
  await page.goto('/dashboard/myorders')
  const paidRow = page.getByTestId('order-row').filter({ hasText: paidFor })
  await expect(paidRow).toContainText('Pay')
  await expect(paidRow).not.toContainText('X2A7')
  const hold = await buyer.context.request.post(`/api/bookings/${paidBooking}/hold`)
  expect(hold.status(), await hold.text()).toBe(200)
  const paid = await buyer.context.request.post('/api/payments/test', {
    data: { bookingId: paidBooking, card: { number: '4242 4242 4242 4242', expiry: EXPIRY, cvc: '123' } },
  })
  expect(paid.status(), await paid.text()).toBe(200)
  const handedOver = await seller.context.request.put(`/api/bookings/${paidBooking}/handed-over`, {
    data: { note: 'Met at the Chicago library' },
  })
  expect(handedOver.status()).toBe(200)

  await page.reload()
  await expect(paidRow.getByTestId('serial-last4')).toHaveText('X2A7')
  await expect(paidRow).toContainText('Serial number ends with X2A7: check it on the laptop at handover.')
  await saveScreenshots(page, 'deal-serial-last4', { part: 'viewport', scroll: paidRow, settle: 150 })
  const checklist = page.getByRole('dialog', { name: 'Did you receive it as described?' })
  for (const [width, height] of [
    [390, 844],
    [1366, 900],
  ] as const) {
    await page.setViewportSize({ width, height })
    await paidRow.getByRole('button', { name: /^Received, as described/ }).click()
    await expect(checklist.getByLabel('The serial number on the laptop ends with "X2A7"')).toBeVisible()
    // The dialog opens with Cancel focused, scrolled to the bottom on a phone: show its top, where the serial is.
    await checklist.evaluate((el) => {
      el.scrollTop = 0
    })
    await saveScreenshots(page, `deal-checklist-serial-${width}`, { part: 'viewport', asIs: true })
    await checklist.getByRole('button', { name: 'Cancel' }).click()
  }
  await expectNoSeriousAxeViolations(page)

  // My Product: the sale names the buyer with their phone and place, once each, without doubled brackets.
  await seller.page.goto('/dashboard/myproduct')
  await expect(seller.page.getByText(/^Bought by Bea Buyer/)).toHaveText(
    'Bought by Bea Buyer · (312) 555-0187 · Chicago, IL',
  )
  await Promise.all([seller.context.close(), buyer.context.close()])
})
