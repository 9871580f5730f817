import { expect, type Page, test } from '@playwright/test'
import { E2E_PASSWORD, saveScreenshots } from './helpers'

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
