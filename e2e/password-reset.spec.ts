import { expect, request as playwrightRequest, test } from '@playwright/test'
import { emailTo, expectNoSeriousAxeViolations, mainHeading } from './helpers'

// A user who forgot the password asks for a link on the login page, opens it from the email (the e2e
// server has no SMTP_URL, so it saves each email as an .eml file in its data folder), chooses a new
// password and signs in with it; the old one no longer works.

const OLD_PASSWORD = 'forgotten-pass-1'
const NEW_PASSWORD = 'remembered-pass-2'

test('a user who forgot the password resets it from the emailed link and signs in', async ({ page }) => {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
  const email = `forgetful-${id}@example.test`
  const api = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL })
  const signedUp = await api.post('/api/auth/sign-up/email', {
    data: { name: `Forgetful ${id}`, email, password: OLD_PASSWORD, role: 'buyer' },
  })
  expect(signedUp.ok()).toBe(true)
  await api.dispose()

  await page.goto('/login')
  await page.getByRole('link', { name: 'Forgot password?' }).click()
  await expect(mainHeading(page, 'Forgot password?')).toBeVisible()
  await page.getByRole('button', { name: 'Send me a reset link' }).click()
  await expect(page.getByText('Email Address is required')).toBeVisible()
  await page.getByLabel('Email Address').fill(email)
  await page.getByRole('button', { name: 'Send me a reset link' }).click()
  await expect(page.getByRole('status')).toContainText(`If an account uses ${email}`)
  await expectNoSeriousAxeViolations(page)

  const mail = await emailTo(email, 'password-reset')
  expect(mail.subject).toBe('Reset your Laptop Market password')
  const link = mail.text?.match(/https?:\/\/\S+\/reset-password\?token=\S+/)?.[0]
  expect(link, 'the email holds a reset link').toBeTruthy()
  expect(mail.html).toContain(`href="${link}"`)

  await page.goto(link as string)
  await expect(mainHeading(page, 'Choose a new password')).toBeVisible()
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD)
  await page.getByLabel('New password again').fill('something-else')
  await page.getByRole('button', { name: 'Save new password' }).click()
  await expect(page.getByText('The two passwords do not match')).toBeVisible()
  await page.getByLabel('New password again').fill(NEW_PASSWORD)
  await expectNoSeriousAxeViolations(page)
  await page.getByRole('button', { name: 'Save new password' }).click()
  await expect(page.getByText('Password changed. Sign in with your new password.')).toBeVisible()
  await expect(page).toHaveURL(/\/login$/)

  // The old password is refused; the new one signs in.
  await page.getByLabel('Email Address').fill(email)
  await page.getByLabel('Password').fill(OLD_PASSWORD)
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await expect(page.getByRole('alert').filter({ hasText: /invalid|password/i })).toBeVisible()
  await page.getByLabel('Password').fill(NEW_PASSWORD)
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await expect(page).toHaveURL(/\/$/)
  const me = await page.request.get('/api/me')
  expect((await me.json()).email).toBe(email)

  // The link worked once.
  await page.goto(link as string)
  await page.getByLabel('New password', { exact: true }).fill('a-third-password')
  await page.getByLabel('New password again').fill('a-third-password')
  await page.getByRole('button', { name: 'Save new password' }).click()
  await expect(page.getByText(/This reset link has expired or was already used/)).toBeVisible()
})

test('a new user confirms the address from the emailed link and turns off message emails', async ({
  page,
}) => {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
  const email = `newcomer-${id}@example.test`
  // Signing up in the page's own context leaves it signed in.
  const signedUp = await page.request.post('/api/auth/sign-up/email', {
    data: { name: `Newcomer ${id}`, email, password: OLD_PASSWORD, role: 'seller' },
  })
  expect(signedUp.ok()).toBe(true)

  await page.goto('/dashboard')
  await page.getByRole('link', { name: 'Email settings' }).click()
  await expect(mainHeading(page, 'Email settings')).toBeVisible()
  await expect(page.getByText('Not confirmed yet')).toBeVisible()
  await page.getByLabel('Messages').uncheck()
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible()
  await expectNoSeriousAxeViolations(page)

  const mail = await emailTo(email, 'verify-email')
  expect(mail.subject).toBe('Confirm your email address for Laptop Market')
  const link = mail.text?.match(/https?:\/\/\S+\/api\/auth\/verify-email\?\S+/)?.[0]
  await page.goto(link as string)
  await expect(page).toHaveURL(/\/dashboard\/settings$/)
  await expect(page.getByText('Verified', { exact: true })).toBeVisible()
  await expect(page.getByLabel('Messages')).not.toBeChecked()
  await expect(page.getByLabel('Bookings and sales')).toBeChecked()
})
