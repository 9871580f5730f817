import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import pg from 'pg'
import PgBoss from 'pg-boss'
import type { z } from 'zod'
import type { Booking } from '#contract/bookings'
import type { Brand } from '#contract/brands'
import type { RateQuoteAnswer } from '#contract/delivery'
import { PLACEHOLDER_IMAGE } from '#contract/products'
import { SERVER_NODE_FLAGS, serverEnv } from '../scripts/server-runtime.mjs'
import { expectNoSeriousAxeViolations, saveScreenshots, signUpConfirmed } from './helpers'
import { type OwnServer, startOwnServer } from './support/own-server'

// A laptop that travels, end to end (docs/decisions/0084): a seller lists it to ship, a buyer gets the test
// carrier's rates to their address, picks one and pays price + shipping; the seller buys the label on My Product;
// the test carrier's clock (TEST_CARRIER_SECONDS=2) carries the parcel to delivered through its signed webhooks, the
// deal following it on both sides; the inspection window ends and the seller is paid. It runs its own server on
// PostgreSQL (the e2e port + 1100: e2e/listing-trust.spec.ts's is on + 1000, and the two files may run at once), so
// the test can move the delivery back past INSPECTION_DAYS and run the auto-complete job at once instead of waiting
// days. With E2E_SCREENSHOTS_DIR set, the deal is saved at 1366 and 390 px as the seller and the buyer.

const PORT = Number(process.env.E2E_PORT ?? 4173) + 1100
const BASE = `http://127.0.0.1:${PORT}`
const DB_NAME = `laptop_e2e_shipping_${PORT}`
const ADMIN_URL = process.env.E2E_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const DATABASE_URL = ADMIN_URL.replace(/\/[^/]*$/, `/${DB_NAME}`)
// Made when the server starts, not when the file is loaded: Playwright loads it in processes that run none of its
// tests (the runner, to list them), which would each leave a folder behind.
let DATA_DIR = ''
const SHARED_DATA_DIR = process.env.E2E_DATA_DIR
const EXPIRY = `12 / ${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0')}`
const SHIP_FROM = {
  name: 'Sam Seller',
  street1: '417 Montgomery St',
  city: 'San Francisco',
  state: 'CA',
  zip: '94104',
  country: 'US',
}
const SHIP_TO = {
  name: 'Bea Buyer',
  street1: '179 N Harbor Dr',
  city: 'Redondo Beach',
  state: 'CA',
  zip: '90277',
  country: 'US',
}

let server: OwnServer | undefined

test.use({ baseURL: BASE })
test.describe.configure({ mode: 'serial' })

/** One statement on the PostgreSQL server (its `postgres` database unless `url` names another). */
async function adminQuery(sql: string, url = ADMIN_URL) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

test.beforeAll(async () => {
  test.setTimeout(240_000)
  await adminQuery(`drop database if exists ${DB_NAME}`)
  await adminQuery(`create database ${DB_NAME}`)
  DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'laptop-market-e2e-shipping-'))
  process.env.E2E_DATA_DIR = DATA_DIR
  // The compiled server with the node flags every instance starts with, as the shared e2e server runs it.
  server = await startOwnServer({
    name: 'the shipping server',
    args: [...SERVER_NODE_FLAGS, 'dist/app/main.js'],
    baseURL: BASE,
    timeoutMs: 200_000,
    env: {
      ...serverEnv(),
      NODE_ENV: 'development',
      DATA_DIR,
      DATABASE_URL,
      HOST: '127.0.0.1',
      PORT: String(PORT),
      PUBLIC_URL: BASE,
      LOG_LEVEL: 'warn',
      // No demo data: seeding it on PostgreSQL (every listing's pictures made) took minutes of a busy machine's CPU,
      // and the journey signs up its own people. It needs one brand, added below.
      SEED_DEMO: 'never',
      SIGNUPS_PER_ADDRESS_PER_HOUR: '0',
      LIVE_HOLDS_PER_ADDRESS: '1000',
      UPLOADS_PER_MINUTE: '0',
      LISTING_REVIEW_FIRST: '0',
      EASYPOST_API_KEY: '',
      TEST_CARRIER_SECONDS: '2',
      INSPECTION_DAYS: '2',
    },
  })
  await adminQuery(
    `insert into brands (name, image_url) values ('Dell', '${PLACEHOLDER_IMAGE}')`,
    DATABASE_URL,
  )
})

test.afterAll(async () => {
  process.env.E2E_DATA_DIR = SHARED_DATA_DIR
  await server?.stop()
  if (DATA_DIR) fs.rmSync(DATA_DIR, { recursive: true, force: true })
  await adminQuery(`drop database if exists ${DB_NAME}`).catch(() => undefined)
})

async function shoot(page: Page, name: string) {
  await saveScreenshots(page, name, { scroll: 'top', settle: 300 })
}

test('a shipped laptop: listed to ship, bought with a rate, labelled, tracked to delivered, the seller paid', async ({
  browser,
}) => {
  test.setTimeout(180_000)
  const sellerContext = await browser.newContext()
  await signUpConfirmed(sellerContext.request, 'seller', 'Sam Seller')
  const seller = await sellerContext.newPage()

  // The seller lists the laptop to ship, from their address (as the listing form sends it).
  const brands = (await (await seller.request.get('/api/brands')).json()) as Brand[]
  const brand = brands[0] as Brand
  const productName = `E2E shipped ${Math.random().toString(36).slice(2, 8)} XPS 13`
  const listed = await seller.request.post('/api/products', {
    data: {
      name: productName,
      category_id: brand._id,
      seller_phone: '+1 555 010 2000',
      resale_price: 640,
      original_price: 1199,
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
      ship_from: SHIP_FROM,
    },
  })
  expect(listed.status(), await listed.text()).toBe(201)
  const productId = ((await listed.json()) as { insertedId: string }).insertedId

  // The buyer books it, gets the carrier's rates to their address, picks the cheapest and pays price + shipping.
  const buyerContext = await browser.newContext()
  await signUpConfirmed(buyerContext.request, 'buyer', 'Bea Buyer')
  const buyerApi = buyerContext.request
  const booked = await buyerApi.post('/api/bookings', {
    data: { productId, phoneNumber: '+1 555 020 3000', location: 'Redondo Beach, CA' },
  })
  expect(booked.status(), await booked.text()).toBe(201)
  const bookingId = ((await booked.json()) as { insertedId: string }).insertedId
  const quoted = await buyerApi.post(`/api/bookings/${bookingId}/shipping-rates`, {
    data: { address: SHIP_TO },
  })
  expect(quoted.status(), await quoted.text()).toBe(200)
  const { rates } = (await quoted.json()) as z.infer<typeof RateQuoteAnswer>
  const rate = rates[0]
  if (!rate) throw new Error('no rate quoted')
  const chose = await buyerApi.put(`/api/bookings/${bookingId}/delivery`, {
    data: { method: 'ship', address: SHIP_TO, shipment_id: rate.shipment_id, rate_id: rate.rate_id },
  })
  expect(chose.status(), await chose.text()).toBeLessThan(300)
  expect((await buyerApi.post(`/api/bookings/${bookingId}/hold`)).status()).toBe(200)
  const paid = await buyerApi.post('/api/payments/test', {
    data: { bookingId, card: { number: '4242 4242 4242 4242', expiry: EXPIRY, cvc: '123' } },
  })
  expect(paid.status(), await paid.text()).toBe(200)

  // The seller's deal: the buyer's address, the date to ship by, "Buy shipping label".
  await seller.goto(`/dashboard/myproduct?product=${productId}`)
  const shipping = seller.getByRole('region', { name: `Shipping of ${productName}` })
  await expect(shipping).toContainText('179 N Harbor Dr')
  await expect(shipping).toContainText(/Ship by \w{3} \d{1,2}, \d{4}/)
  await expectNoSeriousAxeViolations(seller)
  await shoot(seller, 'shipping-seller-paid')
  await shipping.getByRole('button', { name: `Buy shipping label for ${productName}` }).click()
  await expect(
    seller.getByText(`Label bought. Print it and hand the parcel to ${rate.carrier}.`),
  ).toBeVisible()
  const label = shipping.getByRole('link', { name: 'Print the shipping label (PDF)' })
  await expect(label).toBeVisible()
  const pdf = await seller.request.get((await label.getAttribute('href')) as string)
  expect(pdf.headers()['content-type']).toContain('application/pdf')
  await expect(shipping.getByText('Test mode')).toBeVisible()
  const trackingLink = shipping.getByRole('link', { name: /^EZ/ })
  const tracking = await seller.request.get((await trackingLink.getAttribute('href')) as string)
  expect(await tracking.text()).toContain('Test mode: test carrier tracking')

  // The test carrier's clock carries it; the buyer follows each step on My Orders until delivered.
  const buyer = await buyerContext.newPage()
  await expect
    .poll(async () => ((await (await buyerApi.get(`/api/bookings/${bookingId}`)).json()) as Booking).status, {
      timeout: 60_000,
      intervals: [1000],
    })
    .toBe('handed_over')
  await buyer.goto('/dashboard/myorders')
  const tracked = buyer.getByRole('region', { name: `Shipping of ${productName}` })
  const steps = tracked.getByRole('list', { name: 'Tracking' }).getByRole('listitem')
  await expect(steps).toHaveCount(4)
  await expect(steps.first()).toContainText('Delivered')
  await expect(tracked.getByRole('link', { name: 'Print the shipping label (PDF)' })).toHaveCount(0)
  await expectNoSeriousAxeViolations(buyer)
  await shoot(buyer, 'shipping-buyer-delivered')
  await seller.reload()
  await expect(shipping.getByRole('list', { name: 'Tracking' }).getByRole('listitem')).toHaveCount(4)
  await shoot(seller, 'shipping-seller-delivered')

  // The inspection window (INSPECTION_DAYS = 2) ends with no answer from the buyer: moved back past it, and the
  // auto-complete job run now instead of at its next quarter hour. The sale completes and the seller is paid.
  await adminQuery(
    `update bookings set handed_over_at = now() - interval '2 days 1 minute' where id = '${bookingId}'`,
    DATABASE_URL,
  )
  // A client that only sends: no maintenance and no schedules, whose worker (pg-boss's own send-it queue) could
  // still be fetching when the client stops, and fail unhandled ("Database connection is not opened").
  const boss = new PgBoss({
    connectionString: DATABASE_URL,
    schema: 'pgboss',
    supervise: false,
    schedule: false,
  })
  await boss.start()
  await boss.send('deals.auto-complete', {})
  await boss.stop({ graceful: false })
  await expect
    .poll(async () => ((await (await buyerApi.get(`/api/bookings/${bookingId}`)).json()) as Booking).status, {
      timeout: 60_000,
      intervals: [1000],
    })
    .toBe('completed')
  const earnings = (await (await seller.request.get('/api/earnings')).json()) as { available_cents: number }
  expect(earnings.available_cents).toBeGreaterThan(0)
  await sellerContext.close()
  await buyerContext.close()
})
