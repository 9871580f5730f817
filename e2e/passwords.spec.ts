import { expect, test } from '@playwright/test'
import { PASSWORD_MESSAGES } from '#contract/passwords'
import { expectNoSeriousAxeViolations, saveScreenshots, signInWithForm, signUpByApi } from './helpers'

// Passwords: sign-up says while typing why a common password (or one built from the name) would be refused, and
// Security's Change your password form does the same, then changes it and signs out every other device. With
// E2E_SCREENSHOTS_DIR set, each page is saved at 1366 and 390 px wide.

const PASSWORD = 'laptop-market-e2e-7'

test('sign-up says why a weak password would be refused, while it is typed', async ({ page }) => {
  await page.goto('/signup')
  await page.getByLabel('Name').fill('Pat Parker')
  await page.getByLabel('Email Address').fill('pat.parker@example.test')
  await page.getByLabel('Password').fill('password')
  await expect(page.getByText(PASSWORD_MESSAGES.common)).toBeVisible()
  await page.getByLabel('Password').fill('PatParker2024')
  await expect(page.getByText(PASSWORD_MESSAGES.personal)).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await saveScreenshots(page, 'signup-weak-password', { scroll: 'top' })
  await page.getByLabel('Password').fill('quiet-heron-77')
  await expect(page.getByText(PASSWORD_MESSAGES.personal)).toHaveCount(0)
})

test('Security changes the password with the current one, refusing a weak new one', async ({
  page,
  baseURL,
}) => {
  const person = await signUpByApi(baseURL, { name: 'Cy Change', emailPrefix: 'change', password: PASSWORD })
  await page.goto('/login?from=/dashboard/security')
  await signInWithForm(page, person)
  await expect(page).toHaveURL(/\/dashboard\/security$/)
  const form = page.getByRole('form', { name: 'Change your password' })
  await form.getByLabel('Current password').fill(PASSWORD)
  await form.getByLabel('New password').fill('111111')
  await expect(form.getByText(PASSWORD_MESSAGES.common)).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await saveScreenshots(page, 'security-change-password', {
    part: page.locator('#password'),
    scroll: page.locator('#password'),
  })
  await form.getByLabel('New password').fill('amber-kettle-39')
  await form.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByText('Password changed. Every other device was signed out.')).toBeVisible()
})
