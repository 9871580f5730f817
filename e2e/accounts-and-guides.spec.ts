import { expect, type Page, test } from '@playwright/test'
import { DEMO_ACCOUNTS } from '#server/demo/accounts'
import { E2E_PASSWORD, newSignedIn, saveScreenshots, signInByApi } from './helpers'

// A new person's first minutes and the account's last: the home page's hero read cleanly on a laptop screen, sign-up
// that says a confirmation link was sent, the dashboard greeting a new account as new. Pages are saved at 1366 and
// 390 px wide with E2E_SCREENSHOTS_DIR set.

async function shoot(page: Page, name: string) {
  await saveScreenshots(page, name, { part: 'viewport', scroll: 'top', settle: 150 })
}

test('the hero heading sits on a panel of its own, clear of the picture behind it, at 1366 px', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 900 })
  await page.goto('/')
  const caption = page.getByTestId('slide-caption').first()
  const heading = caption.getByText('Used laptops, graded honestly')
  await expect(heading).toBeVisible()
  // The panel is opaque white, and the heading lies wholly inside it: nothing of the illustration shows through.
  const background = await caption.evaluate((el) => getComputedStyle(el).backgroundColor)
  expect(background).toBe('rgb(255, 255, 255)')
  const [panel, text] = [await caption.boundingBox(), await heading.boundingBox()]
  expect(panel && text).toBeTruthy()
  if (panel && text) {
    expect(text.x).toBeGreaterThanOrEqual(panel.x)
    expect(text.x + text.width).toBeLessThanOrEqual(panel.x + panel.width)
    expect(text.y).toBeGreaterThanOrEqual(panel.y)
  }
  await shoot(page, 'home-hero')
})

test('sign-up says a confirmation link was sent, offers it again, and the dashboard welcomes a new account', async ({
  page,
}) => {
  const email = `new-${Date.now().toString(36)}@example.test`
  await page.goto('/signup')
  await page.getByLabel('Name').fill('Nia New')
  await page.getByLabel('Email Address').fill(email)
  await page.getByLabel('Password').fill(E2E_PASSWORD)
  await page.getByRole('button', { name: 'Sign Up' }).click()
  await expect(page).toHaveURL(/\/welcome$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Check your inbox' })).toBeVisible()
  await expect(page.getByText(email)).toBeVisible()
  await page.getByRole('button', { name: 'Send the link again' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Sent.' })).toBeVisible()
  await shoot(page, 'check-inbox')
  await page.goto('/dashboard')
  await expect(page.getByText('Welcome to Laptop Market, Nia New.')).toBeVisible()
  await expect(page.getByText(/Welcome back/)).toHaveCount(0)
})

test('erasing an account: an open sale is named before anything is asked; after erasure a confirmation page', async ({
  browser,
}) => {
  // Someone with a sale still open (the demo seller or buyer) is told at once, with no password asked.
  const blockedContext = await browser.newContext({ viewport: { width: 1366, height: 900 } })
  const blocked = await blockedContext.newPage()
  let reason: string | null = null
  for (const role of ['buyer', 'seller'] as const) {
    await blocked.request.post('/api/auth/sign-out', { data: {} })
    await signInByApi(
      blocked.request,
      DEMO_ACCOUNTS.find((a) => a.role === role) as (typeof DEMO_ACCOUNTS)[number],
    )
    const check = (await (await blocked.request.get('/api/me/erasure')).json()) as { reason: string | null }
    if (check.reason) {
      reason = check.reason
      break
    }
  }
  expect(reason, 'a demo account has a sale open or money held').toBeTruthy()
  await blocked.goto('/dashboard/security')
  const notYet = blocked.getByRole('status').filter({ hasText: 'You cannot erase your account yet' })
  await expect(notYet).toContainText(reason as string)
  await expect(blocked.getByRole('button', { name: 'Erase my account' })).toHaveCount(0)
  await saveScreenshots(blocked, 'erase-blocked', { part: 'viewport', scroll: notYet, settle: 150 })
  await blockedContext.close()

  // A person with nothing open erases with their password and lands on the confirmation page.
  const { context, page } = await newSignedIn(browser, 'buyer', 'Erin Erase')
  await page.setViewportSize({ width: 1366, height: 900 })
  await page.goto('/dashboard/security')
  const form = page.getByRole('form', { name: 'Erase my account' })
  await form.getByLabel('Your password').fill(E2E_PASSWORD)
  await form.getByRole('button', { name: 'Erase my account' }).click()
  await expect(page.getByRole('button', { name: 'Erase for good' })).toBeVisible()
  await saveScreenshots(page, 'erase-confirm', { part: 'viewport', settle: 150 })
  await page.getByRole('button', { name: 'Erase for good' }).click()
  await expect(page).toHaveURL(/\/account-erased$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Your account is erased' })).toBeVisible()
  await shoot(page, 'account-erased')
  expect((await page.request.get('/api/me')).status()).toBe(401)
  await context.close()
})

test('the data export downloads as readable JSON in named sections, with a summary page a person can read', async ({
  browser,
}) => {
  const { context, page } = await newSignedIn(browser, 'buyer', 'Dana Download')
  await page.goto('/dashboard/security')
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download my data (JSON)' }).click(),
  ])
  expect(json.suggestedFilename()).toMatch(/^laptop-market-data-\d{4}-\d{2}-\d{2}\.json$/)
  const [summary] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download a summary (HTML)' }).click(),
  ])
  expect(summary.suggestedFilename()).toMatch(/-summary\.html$/)
  const html = await (await page.request.get('/api/me/export/summary')).text()
  const reader = await context.newPage()
  await reader.setContent(html)
  await expect(reader.getByRole('heading', { level: 1, name: 'Your Laptop Market data' })).toBeVisible()
  await expect(reader.getByText('Dana Download')).toBeVisible()
  await saveScreenshots(reader, 'export-summary', { scroll: 'top' })
  await context.close()
})

test('a buyer starts selling from the same account and keeps My Orders', async ({ browser }) => {
  const { context, page } = await newSignedIn(browser, 'buyer', 'Bo Both')
  await page.setViewportSize({ width: 1366, height: 900 })
  await page.goto('/dashboard/addproduct')
  await expect(page.getByText(/This page is for seller accounts/)).toBeVisible()
  await shoot(page, 'add-product-as-buyer')
  await page.getByRole('link', { name: 'Start selling' }).last().click()
  await expect(page).toHaveURL(/\/dashboard\/start-selling$/)
  await page.getByLabel('Phone number').fill('(312) 555-0187')
  await page.getByRole('checkbox', { name: /I accept the seller terms/ }).check()
  await shoot(page, 'start-selling')
  await page.getByRole('button', { name: 'Start selling' }).click()
  await expect(page).toHaveURL(/\/dashboard\/addproduct$/)
  // The listing form points to the selling guides.
  await expect(page.getByTestId('selling-guides').getByRole('link')).toHaveCount(3)
  await shoot(page, 'add-product-guides')
  const menu = page.getByRole('navigation', { name: 'Dashboard' })
  await expect(menu.getByRole('link', { name: 'My Orders' })).toBeVisible()
  await expect(menu.getByRole('link', { name: 'Add a Product' })).toBeVisible()
  const email = ((await (await page.request.get('/api/me')).json()) as { email: string }).email
  const isBuyer = await (await page.request.get(`/api/buyers/${encodeURIComponent(email)}`)).json()
  const isSeller = await (await page.request.get(`/api/sellers/${encodeURIComponent(email)}`)).json()
  expect([isBuyer, isSeller]).toEqual([{ isBuyer: true }, { isSeller: true }])
  await context.close()
})

test('the guides: server-rendered pages of their own, reached from the footer', async ({ page }) => {
  // Rendered by the server: the guide's text is in the HTML before any script runs.
  const html = await (await page.request.get('/guides/battery-health')).text()
  expect(html).toContain('powercfg /batteryreport')
  await page.goto('/')
  await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Guides' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Guides' })).toBeVisible()
  await shoot(page, 'guides')
  for (const title of [
    'Reading battery health',
    'What to check at handover',
    'Pricing from the price guide',
    'Wiping a laptop before selling',
  ]) {
    await page.goto('/guides')
    await page.getByRole('main').getByRole('link', { name: title }).click()
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
    expect(await page.locator('.prose-page p, .prose-page li').count()).toBeGreaterThanOrEqual(8)
  }
  await page.goto('/guides/handover-checklist')
  await shoot(page, 'guide-handover')
  // The blog keeps the seed's four answers.
  await page.goto('/blog')
  await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveCount(4)
})
