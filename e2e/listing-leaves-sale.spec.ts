import { type APIRequestContext, expect, test } from '@playwright/test'
import type { Brand } from '#contract/brands'
import { emailTo, newSignedIn, saveScreenshots } from './helpers'

// A listing that leaves sale ends what was under way on it (docs/decisions/0053): a buyer books and opens the payment
// page, the seller takes the listing down, and the buyer finds the booking cancelled with the reason in My Orders
// and on its payment page, with an email saying so; nothing can be paid. With E2E_SCREENSHOTS_DIR set, My Orders and
// the payment page are saved there at 1366 and 390 px.

async function list(request: APIRequestContext, name: string) {
  const brands = (await (await request.get('/api/brands')).json()) as Brand[]
  const res = await request.post('/api/products', {
    data: {
      name,
      category_id: (brands[0] as Brand)._id,
      seller_phone: '+1 555 010 2000',
      resale_price: 640,
      original_price: 1299,
      description: 'Fully working, light marks on the lid, battery at 86% of design capacity.',
      condition: 'Good',
      location: 'Austin, TX',
      uses: 2,
      processor: 'Intel Core i5-1235U',
      ram_gb: 16,
      storage_gb: 512,
      screen_inches: 14,
      img: '/images/laptop-placeholder.svg',
    },
  })
  expect(res.status(), `listing a laptop: ${await res.text()}`).toBe(201)
  return ((await res.json()) as { insertedId: string }).insertedId
}

test('a buyer’s booking is cancelled, with the reason, when the seller takes the listing down', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const seller = await newSignedIn(browser, 'seller', 'Sam Seller')
  const buyer = await newSignedIn(browser, 'buyer', 'Bea Buyer')
  const name = `Leaves sale ${Math.random().toString(36).slice(2, 7)}`
  const productId = await list(seller.context.request, name)
  const booked = await buyer.context.request.post('/api/bookings', {
    data: { productId, phoneNumber: '+1 555 020 3000', location: 'Austin, TX' },
  })
  expect(booked.status()).toBe(201)
  const { insertedId: bookingId } = (await booked.json()) as { insertedId: string }
  expect((await buyer.context.request.post(`/api/bookings/${bookingId}/hold`)).status()).toBe(200)

  expect((await seller.context.request.delete(`/api/products/${productId}`)).status()).toBe(200)

  const { page } = buyer
  await page.goto('/dashboard/myorders')
  const row = page.getByRole('row').filter({ hasText: name })
  await expect(row).toContainText('Cancelled')
  await expect(row).toContainText('Cancelled: the listing was taken down. Nothing was charged.')
  await expect(row.getByRole('link', { name: /^Pay/ })).toHaveCount(0)
  await saveScreenshots(page, 'booking-cancelled-my-orders')

  await page.goto(`/dashboard/payment/${bookingId}`)
  await expect(page.getByText('This booking was cancelled')).toBeVisible()
  await expect(page.getByText(/cancelled because the listing was taken down/)).toBeVisible()
  await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0)
  await saveScreenshots(page, 'booking-cancelled-payment')

  const mail = await emailTo(buyer.person.email, 'booking-cancelled')
  expect(mail.text).toContain('is cancelled: the listing was taken down. Nothing was charged.')
  await seller.context.close()
  await buyer.context.close()
})
