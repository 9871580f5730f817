import { expect, test } from '@playwright/test'
import { DEMO_ACCOUNTS } from '#server/demo/accounts'
import { authenticatorCode } from '#server/test/totp'
import { saveScreenshots, signInWithForm, signUpByApi } from './helpers'
import { type OwnServer, startOwnServer } from './support/own-server'

// Two-step sign-in: turning it on in Security settings with the typed key, making new backup codes, then
// signing in with a code; and an admin without it, on a server that requires it, stopped with a message on how
// to turn it on. With E2E_SCREENSHOTS_DIR set, the Security page is saved off, while turning on (the code step)
// and on (the new backup codes form), at 1366 and 390 px wide.

const PASSWORD = 'laptop-market-e2e-2'

test('turn on two-step sign-in, then sign in with a code', async ({ page, baseURL }) => {
  const person = await signUpByApi(baseURL, { name: 'Two Step', emailPrefix: 'two-step', password: PASSWORD })

  await page.goto('/login')
  await signInWithForm(page, person)
  await expect(page).toHaveURL(/\/$/)

  await page.goto('/dashboard/security')
  await expect(page.getByRole('heading', { name: 'Where you are signed in' })).toBeVisible()
  await saveScreenshots(page, 'security-two-step-off')
  await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click()
  await page.getByRole('form', { name: 'Confirm your password' }).getByLabel('Your password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible()
  const typedKey = (await page.getByTestId('totp-secret').textContent()) ?? ''
  await saveScreenshots(page, 'security')
  await page.getByLabel('Code from the app').fill(await authenticatorCode(typedKey))
  await page.getByRole('button', { name: 'Turn on', exact: true }).click()
  await expect(page.getByText('Two-step sign-in is on')).toBeVisible()
  const backupCodes = page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem')
  await expect(backupCodes).toHaveCount(10)
  const firstCodes = await backupCodes.allTextContents()
  // On a phone each code stays whole on one line, inside its own column: one typed across a break is easy to get wrong.
  for (const width of [390, 360]) {
    await page.setViewportSize({ width, height: 844 })
    const layout = await backupCodes.evaluateAll((items) =>
      items.map((li) => {
        const text = document.createRange()
        text.selectNodeContents(li)
        const lines = new Set([...text.getClientRects()].map((r) => Math.round(r.top))).size
        return { lines, fits: text.getBoundingClientRect().right <= li.getBoundingClientRect().right + 0.5 }
      }),
    )
    expect(layout, `backup codes at ${width} px`).toEqual(Array(10).fill({ lines: 1, fits: true }))
  }
  await page.setViewportSize({ width: 1280, height: 800 })

  // Lost them? New ones, with the password; the old ones are replaced on the page.
  await page.getByRole('button', { name: 'Make new backup codes' }).click()
  const newCodesForm = page.getByRole('form', { name: 'Make new backup codes' })
  await expect(page.getByText('Two-step sign-in is on')).toBeHidden()
  await saveScreenshots(page, 'security-backup-codes')
  await newCodesForm.getByLabel('Your password').fill(PASSWORD)
  await newCodesForm.getByRole('button', { name: 'Make new codes' }).click()
  await expect(page.getByText('New backup codes made; the old ones no longer work')).toBeVisible()
  await expect(newCodesForm).toBeHidden()
  await expect(backupCodes).toHaveCount(10)
  expect(await backupCodes.allTextContents()).not.toEqual(firstCodes)

  // A new browser session: the password alone is not enough any more.
  await page.context().clearCookies()
  await page.goto('/login?from=/dashboard/security')
  await signInWithForm(page, person)
  await expect(page.getByRole('form', { name: 'Sign-in code' })).toBeVisible()
  await page.getByLabel('Code', { exact: true }).fill('000000')
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByText(/invalid|not right/i)).toBeVisible()
  // The next code: the one that turned two-step on is taken (each code is taken once).
  await page.getByLabel('Code', { exact: true }).fill(await authenticatorCode(typedKey, 1))
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page).toHaveURL(/\/dashboard\/security$/)
  await expect(page.getByRole('heading', { name: 'Where you are signed in' })).toBeVisible()
  await expect(page.getByText('Entered a sign-in code').first()).toBeVisible()

  // Erasing the account now asks for a code too, worded as the server takes it: the app's or a backup code.
  const erase = page.getByRole('form', { name: 'Erase my account' })
  await expect(erase.getByLabel('Code from the app (or a backup code)')).toBeVisible()
  await saveScreenshots(page, 'security-erase-with-code', { part: erase, scroll: erase })
})

test.describe('on a server that requires two-step sign-in of admins', () => {
  let server: OwnServer | undefined
  let base = ''

  test.beforeAll(async () => {
    test.setTimeout(180_000)
    const port = Number(process.env.E2E_PORT ?? 4173) + 100
    base = `http://127.0.0.1:${port}`
    server = await startOwnServer({
      name: 'the two-step server',
      args: ['scripts/e2e-server.mjs'],
      baseURL: base,
      timeoutMs: 150_000,
      env: {
        ...process.env,
        E2E_PORT: String(port),
        E2E_DATA_DIR: '',
        PUBLIC_URL: base,
        REQUIRE_ADMIN_TWO_FACTOR: 'true',
      },
    })
  })

  test.afterAll(async () => {
    await server?.stop()
  })

  test('an admin without two-step sign-in is stopped, with how to turn it on', async ({ page }) => {
    const admin = DEMO_ACCOUNTS.find((a) => a.role === 'admin')
    if (!admin) throw new Error('no demo admin')
    await page.goto(`${base}/login?from=/dashboard/reportedItems`)
    await signInWithForm(page, admin)
    await expect(page).toHaveURL(/\/dashboard\/reportedItems$/)
    await expect(page.getByText(/Admin tools need two-step sign-in/).first()).toBeVisible()
    const answer = await page.request.get(`${base}/api/reports`)
    expect(answer.status()).toBe(403)
    expect((await answer.json()).error.message).toMatch(/Turn it on under Dashboard → Security/)
    // Their own Security page still works, so they can turn it on.
    await page.goto(`${base}/dashboard/security`)
    await expect(page.getByRole('button', { name: 'Turn on two-step sign-in' })).toBeVisible()
  })
})
