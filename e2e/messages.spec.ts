import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test'
import type { Brand } from '#contract/brands'
import type { Product } from '#contract/products'
import { confirmEmail, expectNoSeriousAxeViolations, mainHeading } from './helpers'

// Messages between buyer and seller (docs/decisions/0022): a buyer who booked (and, booking being free, paid:
// an unpaid booking offers no conversation) writes to the seller from My Orders, asking to pay by bank
// transfer; the seller opens the conversation from My Product, sees the warning under that message and
// answers; the answer reaches the buyer's open page without a reload. Each test makes its own people and laptop.

const PASSWORD = 'laptop-market-e2e-1'

function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`
}

async function signUpByApi(request: APIRequestContext, role: 'buyer' | 'seller', name: string) {
  const email = uniqueEmail(role)
  const res = await request.post('/api/auth/sign-up/email', {
    data: { name, email, password: PASSWORD, role },
  })
  expect(res.ok(), `sign-up of a ${role}: ${res.status()} ${await res.text()}`).toBe(true)
  // A buyer holds a laptop to pay only with a confirmed address.
  if (role === 'buyer') await confirmEmail(request, email)
}

/** Holds and pays through the API, as the payment page does. */
async function payByApi(request: APIRequestContext, bookingId: string) {
  expect((await request.post(`/api/bookings/${bookingId}/hold`)).status()).toBe(200)
  const expiry = `12 / ${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0')}`
  const res = await request.post('/api/payments/test', {
    data: { bookingId, card: { number: '4242 4242 4242 4242', expiry, cvc: '123' } },
  })
  expect(res.status(), `payment: ${await res.text()}`).toBe(200)
}

async function listLaptop(browser: Browser) {
  const context = await browser.newContext()
  await signUpByApi(context.request, 'seller', 'Sam Seller')
  const brands = (await (await context.request.get('/api/brands')).json()) as Brand[]
  const brand = [...brands].sort((a, b) => b.product_count - a.product_count)[0] as Brand
  const res = await context.request.post('/api/products', {
    data: {
      name: `E2E messages ${Math.random().toString(36).slice(2, 8)} ThinkPad`,
      category_id: brand._id,
      seller_phone: '+1 555 010 2000',
      resale_price: 540,
      original_price: 1199,
      description: 'Fully working, light marks on the lid, battery at 82% of design capacity.',
      condition: 'Good',
      location: 'Austin, TX',
      uses: 2,
      processor: 'Intel Core i5-1135G7',
      ram_gb: 16,
      storage_gb: 512,
      screen_inches: 14,
      img: '/images/laptop-placeholder.svg',
    },
  })
  expect(res.status(), `listing a laptop: ${await res.text()}`).toBe(201)
  const { insertedId } = (await res.json()) as { insertedId: string }
  const product = (await (await context.request.get(`/api/products/${insertedId}`)).json()) as Product
  return { context, product }
}

function messages(page: Page) {
  return page.getByTestId('message')
}

test('a buyer writes from My Orders; the seller sees the warning, answers, and the answer arrives without a reload', async ({
  browser,
}) => {
  const { context: sellerContext, product } = await listLaptop(browser)
  const buyerContext = await browser.newContext()
  await signUpByApi(buyerContext.request, 'buyer', 'Bea Buyer')
  const booked = await buyerContext.request.post('/api/bookings', {
    data: { productId: product._id, phoneNumber: '+1 555 020 3000', location: 'Austin, TX' },
  })
  expect(booked.status()).toBe(201)
  const bookingId = ((await booked.json()) as { insertedId: string }).insertedId

  // Unpaid, the order offers no conversation: booking is free, so it is no way to reach a seller.
  const buyerPage = await buyerContext.newPage()
  await buyerPage.goto('/dashboard/myorders')
  const order = buyerPage.getByRole('row').filter({ hasText: product.name })
  await expect(order.getByRole('link', { name: /^Pay for/ })).toBeVisible()
  await expect(order.getByRole('link', { name: /^Messages/ })).toHaveCount(0)
  await payByApi(buyerContext.request, bookingId)

  // Paid, the buyer opens the conversation from the order's row and writes.
  await buyerPage.goto('/dashboard/myorders')
  await buyerPage
    .getByRole('row')
    .filter({ hasText: product.name })
    .getByRole('link', { name: /^Messages/ })
    .click()
  await expect(mainHeading(buyerPage, `Messages about ${product.name}`)).toBeVisible()
  await buyerPage.getByRole('button', { name: 'Send' }).click()
  await expect(buyerPage.getByText('Write a message')).toBeVisible()
  const question = 'Could I pay you directly by bank transfer? See https://pay.example.test'
  await buyerPage.getByLabel('Your message').fill(question)
  await buyerPage.getByRole('button', { name: 'Send' }).click()
  await expect(messages(buyerPage)).toHaveCount(1)
  await expect(messages(buyerPage).first()).toContainText(question)
  await expect(messages(buyerPage).first().getByRole('link')).toHaveCount(0)
  await expect(buyerPage.getByLabel('Your message')).toHaveValue('')

  // The seller finds it on My Product, unread, and reads it with the warning.
  const sellerPage = await sellerContext.newPage()
  await sellerPage.goto('/dashboard/myproduct')
  const link = sellerPage
    .getByTestId('my-product')
    .filter({ hasText: product.name })
    .getByRole('link', { name: /Messages with Bea Buyer/ })
  await expect(link).toContainText('1')
  await expect(sellerPage.getByRole('navigation', { name: 'Main' })).toContainText('Messages1')
  await link.click()
  await expect(mainHeading(sellerPage, `Messages about ${product.name}`)).toBeVisible()
  await expect(messages(sellerPage).first().getByRole('note')).toContainText(
    'Payments outside Laptop Market are not protected',
  )
  await expectNoSeriousAxeViolations(sellerPage)
  await sellerPage.getByLabel('Your message').fill('Please keep paying here: it protects us both.')
  await sellerPage.getByRole('button', { name: 'Send' }).click()
  await expect(messages(sellerPage)).toHaveCount(2)

  // The buyer's open page shows the answer by itself.
  await expect(messages(buyerPage)).toHaveCount(2, { timeout: 15_000 })
  await expect(messages(buyerPage).nth(1)).toContainText('Please keep paying here')
  await expect(messages(buyerPage).nth(1).getByRole('note')).toHaveCount(0)
  await Promise.all([sellerContext.close(), buyerContext.close()])
})
