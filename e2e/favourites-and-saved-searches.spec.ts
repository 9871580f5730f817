import { type APIRequestContext, expect, request as playwrightRequest, test } from '@playwright/test'
import type { Brand } from '#contract/brands'
import { emailTo, expectNoSeriousAxeViolations, mainHeading, productCards, saveScreenshots } from './helpers'

// A buyer keeps a laptop and a search; a seller lists a new laptop that matches; the buyer gets it by email (the
// e2e server saves each email as an .eml file), finds it marked New from Saved searches, and unsubscribes from
// that alert through the email's link without signing in.

const PASSWORD = 'laptop-market-e2e-1'
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

async function signUp(request: APIRequestContext, role: 'buyer' | 'seller', label: string) {
  const email = `${label.toLowerCase().replace(/[^a-z]+/g, '-')}-${unique()}@example.test`
  const res = await request.post('/api/auth/sign-up/email', {
    data: { name: `${label} ${unique()}`, email, password: PASSWORD, role },
  })
  expect(res.ok(), await res.text()).toBe(true)
  return email
}

async function list(seller: APIRequestContext, brand: Brand, name: string, price: number) {
  const res = await seller.post('/api/products', {
    data: {
      name,
      category_id: brand._id,
      seller_phone: '+1 555 010 7000',
      resale_price: price,
      original_price: 1500,
      description: 'Works like new, charger included, no marks on the lid.',
      condition: 'Good',
      location: 'Denver, CO',
      uses: 2,
      processor: 'Intel Core i7-1165G7',
      ram_gb: 16,
      storage_gb: 512,
      screen_inches: 14,
      img: '/images/laptop-placeholder.svg',
    },
  })
  expect(res.status(), await res.text()).toBe(201)
  return ((await res.json()) as { insertedId: string }).insertedId
}

test('a buyer saves a laptop and a search, hears of a new match by email, sees it marked New, and unsubscribes', async ({
  page,
  browser,
}) => {
  const baseURL = test.info().project.use.baseURL
  const seller = await playwrightRequest.newContext({ baseURL })
  await signUp(seller, 'seller', 'Sam Seller')
  const brands = (await (await seller.get('/api/brands')).json()) as Brand[]
  const brand = brands[0] as Brand
  const model = `Quokkabook${unique()}`
  await list(seller, brand, `${model} 14 Alpha`, 700)

  const buyerEmail = await signUp(page.request, 'buyer', 'Bo Buyer')
  await page.goto(`/productcard?q=${model.toLowerCase()}`)
  await expect(productCards(page)).toHaveCount(1)
  await page.getByRole('button', { name: `Save ${model} 14 Alpha to favourites` }).click()
  await expect(page.getByText('Saved to your favourites')).toBeVisible()
  await expect(
    page.getByRole('button', { name: `Remove ${model} 14 Alpha from favourites` }),
  ).toHaveAttribute('aria-pressed', 'true')

  await page.getByRole('button', { name: 'Save this search' }).click()
  await page.getByText('Email me at once').click()
  await page.getByRole('button', { name: 'Save search' }).click()
  await expect(page.getByText('Search saved. We will email you when new laptops match.')).toBeVisible()

  await page.goto('/dashboard/favourites')
  await expect(mainHeading(page, 'Favourites')).toBeVisible()
  await expect(page.getByTestId('favourite')).toHaveCount(1)
  await expect(page.getByTestId('favourite')).toContainText(`${model} 14 Alpha`)
  await saveScreenshots(page, 'favourites', { asIs: true })
  await expectNoSeriousAxeViolations(page)

  // A new matching laptop is listed: the matcher job emails the buyer.
  const newId = await list(seller, brand, `${model} 16 Beta`, 650)
  const mail = await emailTo(buyerEmail, 'alert-search-matches')
  expect(mail.subject).toContain(`${model} 16 Beta`)
  expect(mail.text).toContain(`/products/${newId}`)
  const oneClick = mail.headerLines.find((h) => h.key === 'list-unsubscribe')?.line ?? ''
  expect(oneClick).toMatch(/\/api\/unsubscribe\//)
  expect(mail.headerLines.find((h) => h.key === 'list-unsubscribe-post')?.line).toContain(
    'List-Unsubscribe=One-Click',
  )

  await page.goto('/dashboard/saved-searches')
  await expect(mainHeading(page, 'Saved searches')).toBeVisible()
  const saved = page.getByTestId('saved-search')
  await expect(saved).toHaveCount(1)
  await expect(saved).toContainText('1 new')
  await saveScreenshots(page, 'saved-searches', { asIs: true })
  await expectNoSeriousAxeViolations(page)
  await saved.getByRole('link', { name: `“${model.toLowerCase()}”` }).click()
  await expect(page.getByTestId('new-since')).toBeVisible()
  const beta = productCards(page).filter({ hasText: `${model} 16 Beta` })
  const alpha = productCards(page).filter({ hasText: `${model} 14 Alpha` })
  await expect(beta.getByText('New', { exact: true })).toBeVisible()
  await expect(alpha.getByText('New', { exact: true })).toHaveCount(0)
  await saveScreenshots(page, 'saved-search-opened', { asIs: true })

  // The email's link, opened where nobody is signed in: it asks first, then turns that alert off.
  const link = mail.text?.match(/https?:\/\/\S+\/unsubscribe\/\S+/)?.[0]
  expect(link, 'the email has an unsubscribe link').toBeTruthy()
  const visitor = await browser.newContext()
  const visitorPage = await visitor.newPage()
  await visitorPage.goto(new URL(link as string).pathname)
  await expect(mainHeading(visitorPage, 'Unsubscribe')).toBeVisible()
  await expect(
    visitorPage.getByText(`Emails about new laptops matching your saved search: “${model.toLowerCase()}”`),
  ).toBeVisible()
  await saveScreenshots(visitorPage, 'unsubscribe', { asIs: true })
  await visitorPage.getByRole('button', { name: 'Unsubscribe' }).click()
  await expect(visitorPage.getByText('You are unsubscribed')).toBeVisible()
  await visitor.close()

  await page.goto('/dashboard/saved-searches')
  await expect(page.getByTestId('saved-search').getByRole('combobox')).toHaveValue('off')
  await seller.dispose()
})

test('a signed-out visitor who taps the heart signs in and comes back with the laptop saved', async ({
  page,
}) => {
  const baseURL = test.info().project.use.baseURL
  const seller = await playwrightRequest.newContext({ baseURL })
  await signUp(seller, 'seller', 'Sky Seller')
  const brands = (await (await seller.get('/api/brands')).json()) as Brand[]
  const model = `Wombatbook${unique()}`
  await list(seller, brands[0] as Brand, `${model} 13`, 480)
  await seller.dispose()

  const accounts = await playwrightRequest.newContext({ baseURL })
  const email = await signUp(accounts, 'buyer', 'Vi Visitor')
  await accounts.dispose()

  await page.goto(`/productcard?q=${model.toLowerCase()}`)
  await expect(productCards(page)).toHaveCount(1)
  await page.getByRole('button', { name: `Save ${model} 13 to favourites` }).click()
  await expect(page).toHaveURL(/\/login\?from=/)
  await page.getByLabel('Email Address').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await expect(page).toHaveURL(/\/productcard\?q=/)
  await expect(page.getByRole('button', { name: `Remove ${model} 13 from favourites` })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await page.goto('/dashboard/favourites')
  await expect(page.getByTestId('favourite')).toContainText(`${model} 13`)
})
