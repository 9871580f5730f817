import { type APIRequestContext, type Browser, expect, type Locator, type Page, test } from '@playwright/test'
import type { Brand } from '#contract/brands'
import { formatMoney } from '#contract/money'
import type { Product } from '#contract/products'
import { confirmEmail, expectNoSeriousAxeViolations, mainHeading, saveScreenshots } from './helpers'

// The deal after payment (docs/decisions/0020): a buyer opens the payment page and holds the laptop while a
// second buyer sees it Reserved; the buyer pays, the seller marks it handed over, the buyer confirms it
// arrived as described. On another sale the buyer reports a problem and an admin refunds it from the
// Disputes page. Every test makes its own people (sign-in is limited per account) and its own laptop.

const PASSWORD = 'laptop-market-e2e-1'
const DEMO_ADMIN = { email: 'admin@laptopmarket.test', password: 'demo-pass-123' }
const EXPIRY = `12 / ${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0')}`

type Person = { id: string; name: string; email: string }

function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`
}

/** Signs up through the API in this context's cookie jar, which signs the context in. */
async function signUpByApi(
  request: APIRequestContext,
  role: 'buyer' | 'seller',
  name: string,
): Promise<Person> {
  const email = uniqueEmail(role)
  const res = await request.post('/api/auth/sign-up/email', {
    data: { name, email, password: PASSWORD, role },
  })
  expect(res.ok(), `sign-up of a ${role}: ${res.status()} ${await res.text()}`).toBe(true)
  const { user } = (await res.json()) as { user: { id: string } }
  // A buyer holds a laptop to pay only with a confirmed address.
  if (role === 'buyer') await confirmEmail(request, email)
  return { id: user.id, name, email }
}

/** A new seller, signed in in a context of its own, lists a laptop of the biggest brand. */
async function listLaptop(browser: Browser, tag: string) {
  const context = await browser.newContext()
  const seller = await signUpByApi(context.request, 'seller', 'Sam Seller')
  const brands = (await (await context.request.get('/api/brands')).json()) as Brand[]
  const brand = [...brands].sort((a, b) => b.product_count - a.product_count)[0] as Brand
  const res = await context.request.post('/api/products', {
    data: {
      name: `E2E ${tag} ${Math.random().toString(36).slice(2, 8)} ThinkPad`,
      category_id: brand._id,
      seller_phone: '+1 555 010 2000',
      resale_price: 612.5,
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
  return { context, seller, product }
}

async function bookByApi(request: APIRequestContext, product: Product): Promise<string> {
  const res = await request.post('/api/bookings', {
    data: { productId: product._id, phoneNumber: '+1 555 020 3000', location: 'Austin, TX' },
  })
  expect(res.status(), `booking: ${await res.text()}`).toBe(201)
  return ((await res.json()) as { insertedId: string }).insertedId
}

/** Holds and pays through the API, as the payment page does. */
async function payByApi(request: APIRequestContext, bookingId: string) {
  expect((await request.post(`/api/bookings/${bookingId}/hold`)).status()).toBe(200)
  const res = await request.post('/api/payments/test', {
    data: { bookingId, card: { number: '4242 4242 4242 4242', expiry: EXPIRY, cvc: '123' } },
  })
  expect(res.status(), `payment: ${await res.text()}`).toBe(200)
}

function orderRow(page: Page, product: Product): Locator {
  return page.getByRole('row').filter({ hasText: product.name })
}

function ownListing(page: Page, product: Product): Locator {
  return page.getByTestId('my-product').filter({ hasText: product.name })
}

test('a buyer holds and pays while another sees Reserved; the seller hands it over; the buyer confirms', async ({
  page,
  browser,
}) => {
  const { context: sellerContext, product } = await listLaptop(browser, 'deal')
  const price = formatMoney(product.resale_price_cents)
  await signUpByApi(page.request, 'buyer', 'Bailey Buyer')
  const bookingId = await bookByApi(page.request, product)

  // Opening the payment page holds the laptop for this buyer, under a countdown.
  await page.goto('/dashboard/myorders')
  await orderRow(page, product).getByRole('link', { name: /^Pay/ }).click()
  await expect(page).toHaveURL(`/dashboard/payment/${bookingId}`)
  await expect(page.getByText(`Please Pay ${price}`)).toBeVisible()
  await expect(page.getByTestId('hold-countdown')).toHaveText(/^1[45]:\d\d$/)

  // Meanwhile a second buyer sees it Reserved and cannot start paying.
  const rivalContext = await browser.newContext()
  await signUpByApi(rivalContext.request, 'buyer', 'Riley Rival')
  const rivalBooking = await bookByApi(rivalContext.request, product)
  const rivalPage = await rivalContext.newPage()
  await expect(async () => {
    await rivalPage.goto(`/products/${product._id}`)
    await expect(rivalPage.getByText('Reserved').first()).toBeVisible({ timeout: 1000 })
  }).toPass({ timeout: 15_000 })
  await expect(rivalPage.getByText('Bailey Buyer')).toHaveCount(0)
  await rivalPage.goto(`/dashboard/payment/${rivalBooking}`)
  await expect(rivalPage.getByText('Another buyer is paying for this laptop')).toBeVisible()
  await expect(rivalPage.getByLabel('Card number')).toHaveCount(0)

  // The first buyer pays within the hold.
  await page.getByLabel('Card number').fill('4242 4242 4242 4242')
  await page.getByLabel('Expiry (MM / YY)').fill(EXPIRY)
  await page.getByLabel('CVC').fill('123')
  await page.getByRole('button', { name: /^Pay \$/ }).click()
  await expect(page.getByRole('region', { name: 'Payment successful' })).toBeVisible()
  await page.goto('/dashboard/myorders')
  await expect(orderRow(page, product)).toContainText('Paid')
  await expect(orderRow(page, product)).toContainText('Waiting for handover')
  await expect(orderRow(page, product).getByRole('button', { name: /^Received, as described/ })).toHaveCount(
    0,
  )

  // The seller marks it handed over, with a note.
  const sellerPage = await sellerContext.newPage()
  await sellerPage.goto('/dashboard/myproduct')
  // My Product opens on what needs the seller: the sale to hand over, with a count on each tab.
  const tabs = sellerPage.getByRole('navigation', { name: 'Your listings by state' })
  await expect(tabs.getByRole('link', { name: /^Needs action\W+1$/ })).toHaveAttribute('aria-current', 'page')
  await expect(sellerPage.getByTestId('my-product')).toHaveCount(1)
  const listing = ownListing(sellerPage, product)
  await expect(listing).toContainText('Sold')
  await saveScreenshots(sellerPage, 'my-product-needs-action')
  await expect(listing).toContainText('Waiting for handover')
  await expect(listing).toContainText('Bought by Bailey Buyer')
  await listing.getByRole('button', { name: /^Mark handed over/ }).click()
  const handover = sellerPage.getByRole('dialog', { name: 'Mark it handed over?' })
  await handover.getByLabel('Note for the buyer (optional)').fill('Met at the Austin Central Library')
  await expectNoSeriousAxeViolations(sellerPage)
  await handover.getByRole('button', { name: 'Mark handed over' }).click()
  await expect(sellerPage.getByText('Marked handed over. We told the buyer.')).toBeVisible()
  // Handed over, it needs the seller no more: it is with the sold ones.
  await expect(tabs.getByRole('link', { name: /^Needs action\W+0$/ })).toBeVisible()
  await tabs.getByRole('link', { name: /^Sold\W/ }).click()
  await expect(sellerPage).toHaveURL(/\/dashboard\/myproduct\?state=sold$/)
  await expect(listing).toContainText('Handed over')
  await expect(listing).toContainText('Waiting for the buyer to confirm')

  // The buyer sees the handover and its note, and confirms.
  await page.reload()
  const row = orderRow(page, product)
  await expect(row).toContainText('Handed over')
  await expect(row).toContainText('Met at the Austin Central Library')
  await expect(row).toContainText(/Completes by itself on/)
  await expectNoSeriousAxeViolations(page)
  await row.getByRole('button', { name: /^Received, as described/ }).click()
  // The handover checklist first: every item ticked before the sale can be confirmed.
  const received = page.getByRole('dialog', { name: 'Did you receive it as described?' })
  for (const box of await received.getByRole('checkbox').all()) await box.check()
  await received.getByRole('button', { name: 'Yes, received as described' }).click()
  await expect(page.getByText('Thank you! The sale is completed.')).toBeVisible()
  await expect(row).toContainText('Completed')
  // The deal's own steps are gone; what is left is reviewing the completed sale.
  await expect(row.getByRole('button')).toHaveText([/^Leave a review/])

  await sellerPage.reload()
  await expect(ownListing(sellerPage, product)).toContainText('Completed: the money is yours.')
  await Promise.all([sellerContext.close(), rivalContext.close()])
})

test('a buyer reports a problem and an admin refunds it from the Disputes page', async ({
  page,
  browser,
}) => {
  const { context: sellerContext, product } = await listLaptop(browser, 'dispute')
  await sellerContext.close()
  const price = formatMoney(product.resale_price_cents)
  const buyer = await signUpByApi(page.request, 'buyer', 'Dana Disputer')
  const bookingId = await bookByApi(page.request, product)
  await payByApi(page.request, bookingId)
  const asked = await page.request.post(`/api/bookings/${bookingId}/messages`, {
    data: { body: 'Hello! Did you send it yet? It has been a week since I paid.' },
  })
  expect(asked.status(), await asked.text()).toBe(201)

  // The buyer reports a problem: a reason is required.
  await page.goto('/dashboard/myorders')
  const row = orderRow(page, product)
  await expect(row).toContainText('Waiting for handover')
  await row.getByRole('button', { name: /^Report a problem/ }).click()
  const dialog = page.getByRole('dialog', { name: 'Report a problem' })
  await dialog.getByRole('button', { name: 'Report the problem' }).click()
  await expect(dialog.getByText('Tell us what went wrong in at least 10 characters')).toBeVisible()
  const reason = 'The seller stopped answering and the laptop never came.'
  await dialog.getByLabel('What went wrong?').fill(reason)
  await dialog.getByRole('button', { name: 'Report the problem' }).click()
  await expect(page.getByText('Problem reported. An admin will look at it.')).toBeVisible()
  await expect(row).toContainText('Problem reported')
  await expect(row.getByRole('button', { name: /^Report a problem/ })).toHaveCount(0)

  // A new admin: the demo admin promotes a new account, which signs in on its own.
  const adminContext = await browser.newContext()
  try {
    const newcomer = await browser.newContext()
    const made = await signUpByApi(newcomer.request, 'buyer', 'Ada Admin')
    await newcomer.close()
    const promoter = await browser.newContext()
    const signIn = await promoter.request.post('/api/auth/sign-in/email', { data: DEMO_ADMIN })
    expect(signIn.ok(), `demo admin sign-in: ${signIn.status()}`).toBe(true)
    expect((await promoter.request.put(`/api/buyers/admin/${made.id}`)).status()).toBe(200)
    await promoter.close()
    const adminSignIn = await adminContext.request.post('/api/auth/sign-in/email', {
      data: { email: made.email, password: PASSWORD },
    })
    expect(adminSignIn.ok()).toBe(true)

    const adminPage = await adminContext.newPage()
    await adminPage.goto('/dashboard')
    await adminPage
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Disputes' })
      .click()
    await expect(mainHeading(adminPage, 'Disputes')).toBeVisible()
    const dispute = adminPage.getByTestId('dispute').filter({ hasText: product.name })
    await expect(dispute).toContainText(price)
    await expect(dispute).toContainText(buyer.name)
    await expect(dispute).toContainText('Sam Seller')
    await expect(dispute).toContainText(reason)
    await expect(dispute).toContainText('Paid · Dana Disputer')
    await expect(dispute).toContainText('Reported a problem · Dana Disputer')
    // The admin reads what the two sides wrote to each other.
    await dispute.getByText(/^Conversation between/).click()
    await expect(dispute.getByTestId('transcript-message')).toContainText('Did you send it yet?')
    await expectNoSeriousAxeViolations(adminPage)

    // Refund asks first; Cancel changes nothing.
    await dispute.getByRole('button', { name: `Refund the buyer of ${product.name}` }).click()
    const confirm = adminPage.getByRole('dialog', { name: 'Refund the buyer?' })
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await expect(confirm).toBeHidden()
    await expect(dispute).toBeVisible()
    await dispute.getByRole('button', { name: `Refund the buyer of ${product.name}` }).click()
    // A reason is required: both sides read it. The dialog says the laptop does not come back through us.
    await expect(confirm).toContainText('The refund does not include a return of the laptop')
    await confirm.getByRole('button', { name: 'Refund' }).click()
    await expect(
      confirm.getByText('Say why the buyer is refunded in at least 10 characters: both sides see it'),
    ).toBeVisible()
    await confirm.getByLabel('Why is the buyer refunded?').fill('The seller never handed the laptop over')
    await saveScreenshots(adminPage, 'dispute-refund-reason', { part: 'viewport' })
    await confirm.getByRole('button', { name: 'Refund' }).click()
    await expect(adminPage.getByText(`${buyer.name} was refunded ${price}`)).toBeVisible()
    await expect(dispute).toHaveCount(0)
  } finally {
    await adminContext.close()
  }

  await page.reload()
  await expect(orderRow(page, product)).toContainText('Refunded')
  await expect(orderRow(page, product)).toContainText(
    'An admin refunded your money in full. Their reason: “The seller never handed the laptop over”. The laptop',
  )
  await expect(orderRow(page, product)).toContainText(
    'The laptop was never handed over to you, so there is nothing to send back.',
  )
  await saveScreenshots(page, 'deal-refund-reason')
})
