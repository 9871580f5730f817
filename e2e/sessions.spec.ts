import { expect, request as playwrightRequest, test } from '@playwright/test'
import { saveScreenshots, signInWithForm, signUpByApi } from './helpers'

// Security → Where you are signed in: each session is named by its device, when it signed in and its address,
// and each Sign out button says which session it ends (a screen reader's list of buttons told them apart by
// nothing). With E2E_SCREENSHOTS_DIR set, the page is saved at 1366 and 390 px wide.

const PASSWORD = 'laptop-market-e2e-3'
const LINUX_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

test('sessions are named by device, time and address; each Sign out says which', async ({
  page,
  baseURL,
}) => {
  const person = await signUpByApi(baseURL, {
    name: 'Sam Sessions',
    emailPrefix: 'sessions',
    password: PASSWORD,
  })
  // Another device: Chrome on Linux, signed in through the API.
  const other = await playwrightRequest.newContext({ baseURL, userAgent: LINUX_CHROME })
  const signedIn = await other.post('/api/auth/sign-in/email', {
    data: { email: person.email, password: PASSWORD },
  })
  expect(signedIn.ok()).toBe(true)
  expect(await signedIn.text()).not.toMatch(/"token"/)

  await page.goto('/login?from=/dashboard/security')
  await signInWithForm(page, person)
  await expect(page).toHaveURL(/\/dashboard\/security$/)
  const list = page.getByRole('list', { name: 'Sessions' })
  await expect(list.getByRole('listitem')).toHaveCount(3)
  await expect(list).not.toContainText('Unknown place')
  await expect(list.getByText(/Signed in .* UTC from 127\.0\.0\.1/).first()).toBeVisible()

  const signOuts = list.getByRole('button', { name: /^Sign out / })
  await expect(signOuts).toHaveCount(2)
  const names = await signOuts.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')))
  expect(new Set(names).size).toBe(2)
  const linux = list.getByRole('button', {
    name: /^Sign out Chrome on Linux, signed in [A-Z][a-z]{2} \d+, \d{4}, \d\d:\d\d UTC$/,
  })
  await expect(linux).toHaveCount(1)
  await saveScreenshots(page, 'security-sessions')

  await linux.click()
  await expect(page.getByText('Signed out 1 session')).toBeVisible()
  await expect(list.getByRole('listitem')).toHaveCount(2)
  expect((await other.get('/api/me')).status()).toBe(401)
  await other.dispose()
})
