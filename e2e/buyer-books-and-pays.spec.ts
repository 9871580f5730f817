import { type APIRequestContext, type Browser, expect, type Locator, type Page, test } from '@playwright/test'
import type { Booking } from '#contract/bookings'
import type { Brand } from '#contract/brands'
import { formatMoney } from '#contract/money'
import type { Product } from '#contract/products'
import { confirmEmail, expectNoSeriousAxeViolations } from './helpers'

// A buyer books a laptop from a brand page and pays for it by card in test mode; the seller sees it
// sold; a second buyer of the same laptop sees it sold; a declined card changes nothing.
// Every test lists its own laptop from its own seller, so none depends on another or on the demo data.

const PASSWORD = 'laptop-market-e2e-1'
const EXPIRY = `12 / ${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0')}`

type Person = { name: string; email: string }
type Listing = { product: Product; brand: Brand }

function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`
}

/** Signs up through the API in this context's cookie jar, which signs the context in. */
async function signUpByApi(
  request: APIRequestContext,
  role: 'buyer' | 'seller',
  name: string,
): Promise<Person> {
  const person = { name, email: uniqueEmail(role) }
  const res = await request.post('/api/auth/sign-up/email', { data: { ...person, password: PASSWORD, role } })
  expect(res.ok(), `sign-up of a ${role}: ${res.status()} ${await res.text()}`).toBe(true)
  // A buyer holds a laptop to pay only with a confirmed address.
  if (role === 'buyer') await confirmEmail(request, person.email)
  return person
}

/** A new seller (signed in, in its own browser context) lists a new laptop of the biggest brand. */
async function listLaptop(browser: Browser, name: string) {
  const context = await browser.newContext()
  const seller = await signUpByApi(context.request, 'seller', 'Sam Seller')
  const brands = (await (await context.request.get('/api/brands')).json()) as Brand[]
  const brand = [...brands].sort((a, b) => b.product_count - a.product_count)[0] as Brand
  const res = await context.request.post('/api/products', {
    data: {
      name,
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
  return { context, seller, listing: { product, brand } satisfies Listing }
}

function laptopName(tag: string): string {
  return `E2E ${tag} ${Math.random().toString(36).slice(2, 8)} ThinkPad`
}

function cardOf(page: Page, product: Product): Locator {
  return page.locator('article[data-testid="product-card"]').filter({ hasText: product.name })
}

function orderRow(page: Page, product: Product): Locator {
  return page.getByRole('row').filter({ hasText: product.name })
}

/** Opens the booking modal from the laptop's card on its brand page. */
async function openBookingModal(page: Page, { product, brand }: Listing): Promise<Locator> {
  await page.goto(`/category/${brand._id}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Select Your Favourite Laptop' })).toBeVisible()
  await cardOf(page, product)
    .getByRole('button', { name: /Book Now/ })
    .click()
  const dialog = page.getByRole('dialog', { name: `Book ${product.name}` })
  await expect(dialog).toBeVisible()
  return dialog
}

async function bookByApi(request: APIRequestContext, product: Product): Promise<string> {
  const res = await request.post('/api/bookings', {
    data: { productId: product._id, phoneNumber: '+1 555 020 3000', location: 'Austin, TX' },
  })
  expect(res.status(), `booking: ${await res.text()}`).toBe(201)
  return ((await res.json()) as { insertedId: string }).insertedId
}

async function payWithCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number)
  await page.getByLabel('Expiry (MM / YY)').fill(EXPIRY)
  await page.getByLabel('CVC').fill('123')
  await page.getByRole('button', { name: /^Pay \$/ }).click()
}

test('a buyer signs up, books from a brand page, pays with 4242… and sees Paid; the seller and a second buyer see Sold', async ({
  page,
  browser,
}) => {
  const { context: sellerContext, seller, listing } = await listLaptop(browser, laptopName('sale'))
  const { product } = listing
  const price = formatMoney(product.resale_price_cents)

  // A second buyer books the same laptop first, and does not pay.
  const rivalContext = await browser.newContext()
  await signUpByApi(rivalContext.request, 'buyer', 'Riley Rival')
  await bookByApi(rivalContext.request, product)

  // The buyer signs up through the form.
  const buyer = { name: 'Bailey Buyer', email: uniqueEmail('buyer') }
  await page.goto('/signup')
  await page.getByLabel('Name').fill(buyer.name)
  await page.getByLabel('Email Address').fill(buyer.email)
  await page.getByLabel('Password').fill(PASSWORD)
  await expect(page.getByLabel('Role')).toHaveValue('buyer')
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click()
  await expect(page.getByText('User Created Successfully')).toBeVisible()
  await expect(page).toHaveURL(/\/welcome$/)
  await page.getByRole('link', { name: 'Start browsing' }).click()
  await expect(page).toHaveURL('/')
  // Confirms the address from the email sent at sign-up: paying needs it.
  await confirmEmail(page.request, buyer.email)

  // Opens the brand from the home page and books: name and email come from the session, the price
  // from the listing.
  await page.getByRole('main').locator(`a[href="/category/${listing.brand._id}"]`).first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'Select Your Favourite Laptop' })).toBeVisible()
  await cardOf(page, product)
    .getByRole('button', { name: /Book Now/ })
    .click()
  const dialog = page.getByRole('dialog', { name: `Book ${product.name}` })
  await expect(dialog.getByLabel('Name')).toHaveValue(buyer.name)
  await expect(dialog.getByLabel('Email')).toHaveValue(buyer.email)
  await expect(dialog.getByLabel('Price')).toHaveValue(price)
  await expectNoSeriousAxeViolations(page)
  await dialog.getByLabel('Phone number').fill('+1 555 030 4000')
  await dialog.getByLabel('Location').fill('Austin, TX')
  await dialog.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByText('Product booked Successfully')).toBeVisible()
  await expect(dialog).toBeHidden()

  // My Orders lists it with Pay, which leads to the payment page in test mode.
  await page.goto('/dashboard')
  await page.getByRole('link', { name: 'My Orders' }).first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'My Orders' })).toBeVisible()
  const row = orderRow(page, product)
  await expect(row).toContainText(price)
  await expectNoSeriousAxeViolations(page)
  await row.getByRole('link', { name: /^Pay/ }).click()
  await expect(page.getByRole('heading', { level: 1, name: `Payment for ${product.name}` })).toBeVisible()
  await expect(page.getByText(`Please Pay ${price}`)).toBeVisible()
  await expect(page.getByText('Test mode', { exact: true })).toBeVisible()
  await expectNoSeriousAxeViolations(page)

  await payWithCard(page, '4242 4242 4242 4242')
  const confirmation = page.getByRole('region', { name: 'Payment successful' })
  await expect(confirmation).toBeVisible()
  await expect(confirmation).toContainText(/Transaction id\s*\S+/)
  await expect(page.getByText('Payment successful').first()).toBeVisible()

  await confirmation.getByRole('link', { name: 'Back to My Orders' }).click()
  await expect(orderRow(page, product)).toContainText('Paid')
  await expect(orderRow(page, product).getByRole('link', { name: /^Pay/ })).toHaveCount(0)

  // The seller sees the laptop sold.
  const sellerPage = await sellerContext.newPage()
  await sellerPage.goto('/dashboard/myproduct')
  const ownListing = sellerPage.getByTestId('my-product').filter({ hasText: product.name })
  await expect(ownListing).toContainText('Sold')
  await expect(ownListing).not.toContainText('Available')
  const own = (await (
    await sellerContext.request.get(`/api/products?email=${encodeURIComponent(seller.email)}`)
  ).json()) as Product[]
  expect(own.find((p) => p._id === product._id)?.sellStatus).toBe(true)

  // The second buyer's booking of the same laptop now reads Sold, with nothing to pay.
  const rivalPage = await rivalContext.newPage()
  await rivalPage.goto('/dashboard/myorders')
  const rivalRow = orderRow(rivalPage, product)
  await expect(rivalRow).toContainText('Sold')
  await expect(rivalRow.getByRole('link', { name: /^Pay/ })).toHaveCount(0)

  // And the laptop is no longer bookable on its own page.
  await page.goto(`/products/${product._id}`)
  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible()
  await expect(page.getByRole('button', { name: /Book Now/ })).toHaveCount(0)

  await Promise.all([sellerContext.close(), rivalContext.close()])
})

test('a declined card shows its reason and leaves the booking unpaid', async ({ page, browser }) => {
  const { context: sellerContext, listing } = await listLaptop(browser, laptopName('decline'))
  await sellerContext.close()
  await signUpByApi(page.request, 'buyer', 'Dana Declined')
  const bookingId = await bookByApi(page.request, listing.product)

  await page.goto(`/dashboard/payment/${bookingId}`)
  await expect(page.getByText('Test mode', { exact: true })).toBeVisible()
  await payWithCard(page, '4000 0000 0000 0002')

  await expect(page.getByRole('alert')).toContainText('Your card was declined.')
  await expect(page.getByRole('button', { name: /^Pay \$/ })).toBeEnabled()
  const booking = (await (await page.request.get(`/api/bookings/${bookingId}`)).json()) as Booking
  expect(booking).toMatchObject({ paid: false, status: 'unpaid' })

  await page.goto('/dashboard/myorders')
  await expect(orderRow(page, listing.product).getByRole('link', { name: /^Pay/ })).toBeVisible()
})

test('the booking modal checks phone number and location, each with its own message', async ({
  page,
  browser,
}) => {
  const { context: sellerContext, listing } = await listLaptop(browser, laptopName('form'))
  await sellerContext.close()

  // Brand pages need an account: a signed-out visitor is sent to sign in, and back afterwards.
  await page.goto(`/category/${listing.brand._id}`)
  await expect(page).toHaveURL(`/login?from=${encodeURIComponent(`/category/${listing.brand._id}`)}`)

  await signUpByApi(page.request, 'buyer', 'Val Validator')
  // Escape closes the modal and returns focus to Book Now.
  const closed = await openBookingModal(page, listing)
  await page.keyboard.press('Escape')
  await expect(closed).toBeHidden()
  await expect(cardOf(page, listing.product).getByRole('button', { name: /Book Now/ })).toBeFocused()
  await cardOf(page, listing.product)
    .getByRole('button', { name: /Book Now/ })
    .click()
  const dialog = page.getByRole('dialog', { name: `Book ${listing.product.name}` })
  const phone = dialog.getByLabel('Phone number')
  const location = dialog.getByLabel('Location')
  const submit = dialog.getByRole('button', { name: 'Submit' })

  const cases: [phone: string, location: string, phoneMessage: string, locationMessage: string][] = [
    ['', '', 'Phone number is required', 'Location is required'],
    ['call me maybe', 'A', 'Enter a valid phone number', 'Location is required'],
    ['1'.repeat(31), 'x'.repeat(121), 'Phone number is too long', 'Location is too long'],
  ]
  for (const [phoneValue, locationValue, phoneMessage, locationMessage] of cases) {
    await phone.fill(phoneValue)
    await location.fill(locationValue)
    await submit.click()
    await expect(dialog.getByText(phoneMessage, { exact: true })).toBeVisible()
    await expect(dialog.getByText(locationMessage, { exact: true })).toBeVisible()
    await expect(phone).toHaveAttribute('aria-invalid', 'true')
  }

  await phone.fill('+1 555 040 5000')
  await location.fill('Round Rock, TX')
  await submit.click()
  await expect(page.getByText('Product booked Successfully')).toBeVisible()
  await expect(dialog).toBeHidden()

  // Booked: the card no longer offers Book Now (the server would refuse a second booking) but the way to pay.
  const card = cardOf(page, listing.product)
  await expect(card.getByRole('button', { name: /Book Now/ })).toHaveCount(0)
  await card.getByRole('link', { name: /Booked — Pay now/ }).click()
  await expect(page).toHaveURL(/\/dashboard\/payment\//)
  await expect(page.getByRole('heading', { name: `Payment for ${listing.product.name}` })).toBeVisible()
})
