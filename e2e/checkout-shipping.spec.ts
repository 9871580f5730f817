import { expect, test } from '@playwright/test'
import type { Booking } from '#contract/bookings'
import type { Brand } from '#contract/brands'
import { formatMoney } from '#contract/money'
import { expectNoSeriousAxeViolations, newSignedIn, saveScreenshots } from './helpers'

// A seller lists a laptop that ships (from an address only they see); a buyer books it, gives a delivery address
// at checkout, sees the test carrier's rates ("Test mode"), picks one and pays laptop + shipping with the test
// card; the deal then carries the shipping, and the seller sees where to ship it.

const EXPIRY = `12 / ${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0')}`

test('a buyer chooses a shipping rate at checkout and pays the laptop with its shipping', async ({
  browser,
}) => {
  const seller = await newSignedIn(browser, 'seller', 'Sam Seller')
  const brands = (await (await seller.context.request.get('/api/brands')).json()) as Brand[]
  const brand = [...brands].sort((a, b) => b.product_count - a.product_count)[0] as Brand
  const name = `E2E shipped ${Math.random().toString(36).slice(2, 8)} ThinkPad`
  const listed = await seller.context.request.post('/api/products', {
    data: {
      name,
      category_id: brand._id,
      seller_phone: '+1 555 010 2000',
      resale_price: 612.5,
      original_price: 1199,
      description: 'Fully working, light marks on the lid, battery at 82% of design capacity.',
      condition: 'Good',
      location: 'San Francisco, CA',
      uses: 2,
      processor: 'Intel Core i5-1135G7',
      ram_gb: 16,
      storage_gb: 512,
      screen_inches: 14,
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

  // The buyer's own browser: signed in, books the laptop, opens the payment page.
  const buyer = await newSignedIn(browser, 'buyer', 'Bailey Buyer')
  const booked = await buyer.context.request.post('/api/bookings', {
    data: { productId, phoneNumber: '+1 555 020 3000', location: 'Redondo Beach, CA' },
  })
  expect(booked.status(), `booking: ${await booked.text()}`).toBe(201)
  const { insertedId: bookingId } = (await booked.json()) as { insertedId: string }
  const buyerPage = buyer.page
  await buyerPage.goto(`/dashboard/payment/${bookingId}`)

  const delivery = buyerPage.getByRole('region', { name: 'Delivery' })
  await expect(delivery).toContainText('This laptop is shipped to you')
  await expect(delivery.getByLabel(/Meet in person/)).toHaveCount(0)
  await expect(buyerPage.getByLabel('Card number')).toHaveCount(0)

  await buyerPage.getByLabel('Full name').fill('Bailey Buyer')
  await buyerPage.getByLabel('Street address').fill('179 N Harbor Dr')
  await buyerPage.getByLabel('City').fill('Redondo Beach')
  await buyerPage.getByLabel('State').fill('CA')
  await buyerPage.getByLabel('ZIP code').fill('90277')
  await buyerPage.getByRole('button', { name: 'Get shipping rates' }).click()

  const rates = buyerPage.getByRole('group', { name: 'Choose a shipping rate' })
  await expect(rates.getByText('Test mode')).toBeVisible()
  const options = rates.getByRole('radio')
  await expect(options).toHaveCount(3)
  await rates.getByLabel(/Priority/).check()
  await expect(buyerPage.getByRole('button', { name: /^Pay \$/ })).toBeVisible()

  const chosen = (await (await buyer.context.request.get(`/api/bookings/${bookingId}`)).json()) as Booking
  const shipping = chosen.delivery?.shipping_cents ?? 0
  expect(shipping).toBeGreaterThan(0)
  expect(chosen.delivery?.rate?.service).toBe('Priority')
  const total = formatMoney(61_250 + shipping)
  await expect(buyerPage.getByRole('region', { name: 'Order total' })).toContainText(`Total${total}`)
  await expect(buyerPage.getByRole('button', { name: `Pay ${total}` })).toBeVisible()
  await expectNoSeriousAxeViolations(buyerPage)
  await saveScreenshots(buyerPage, 'checkout-shipping', { scroll: 'top' })

  await buyerPage.getByLabel('Card number').fill('4242 4242 4242 4242')
  await buyerPage.getByLabel('Expiry (MM / YY)').fill(EXPIRY)
  await buyerPage.getByLabel('CVC').fill('123')
  await buyerPage.getByRole('button', { name: `Pay ${total}` }).click()
  const receipt = buyerPage.getByRole('region', { name: 'Payment successful' })
  await expect(receipt).toContainText(total)

  // The deal carries the shipping; the seller now sees where to send the laptop.
  const deal = (await (await seller.context.request.get(`/api/bookings/${bookingId}`)).json()) as Booking
  expect(deal.status).toBe('paid')
  expect(deal.price_cents + (deal.delivery?.shipping_cents ?? 0)).toBe(61_250 + shipping)
  expect(deal.delivery?.method).toBe('ship')
  expect(deal.delivery?.address?.street1).toBe('179 N Harbor Dr')
  expect(deal.delivery?.ship_by).toBeTruthy()

  await seller.context.close()
  await buyer.context.close()
})

test('a laptop that ships or meets: the buyer picks "Ship to me" or "Meet in person", and meeting pays the laptop alone', async ({
  browser,
}) => {
  const seller = await newSignedIn(browser, 'seller', 'Sam Seller')
  const brands = (await (await seller.context.request.get('/api/brands')).json()) as Brand[]
  const brand = brands[0] as Brand
  const listed = await seller.context.request.post('/api/products', {
    data: {
      name: `E2E either ${Math.random().toString(36).slice(2, 8)} XPS`,
      category_id: brand._id,
      seller_phone: '+1 555 010 2000',
      resale_price: 450,
      original_price: 999,
      description: 'Works well, small scuff on the palm rest, battery at 88% of design capacity.',
      condition: 'Good',
      location: 'Austin, TX',
      uses: 2,
      processor: 'Intel Core i7-1165G7',
      ram_gb: 16,
      storage_gb: 512,
      screen_inches: 13.3,
      img: '/images/laptop-placeholder.svg',
      delivery: 'both',
      ship_from: {
        name: 'Sam Seller',
        street1: '600 Congress Ave',
        city: 'Austin',
        state: 'TX',
        zip: '78701',
      },
    },
  })
  expect(listed.status(), `listing: ${await listed.text()}`).toBe(201)
  const { insertedId: productId } = (await listed.json()) as { insertedId: string }
  const buyer = await newSignedIn(browser, 'buyer', 'Bailey Buyer')
  const booked = await buyer.context.request.post('/api/bookings', {
    data: { productId, phoneNumber: '+1 555 020 3000', location: 'Austin, TX' },
  })
  expect(booked.status()).toBe(201)
  const { insertedId: bookingId } = (await booked.json()) as { insertedId: string }
  const page = buyer.page
  await page.goto(`/dashboard/payment/${bookingId}`)
  const delivery = page.getByRole('region', { name: 'Delivery' })
  await expect(delivery.getByLabel(/Meet in person/)).toBeChecked()
  await expect(page.getByRole('button', { name: `Pay ${formatMoney(45_000)}` })).toBeVisible()
  await saveScreenshots(page, 'checkout-meet-or-ship', { scroll: 'top' })
  await delivery.getByLabel(/Ship to me/).check()
  await expect(page.getByLabel('Card number')).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Order total' })).toContainText('Choose a rate')
  await expectNoSeriousAxeViolations(page)
  await seller.context.close()
  await buyer.context.close()
})
