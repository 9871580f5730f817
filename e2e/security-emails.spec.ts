import fs from 'node:fs'
import path from 'node:path'
import { expect, type Page, request as playwrightRequest, test } from '@playwright/test'
import { simpleParser } from 'mailparser'
import { confirmItsYou, emailTo, saveScreenshots, signInWithForm, signUpByApi } from './helpers'

// Someone with a copied session cookie adds a passkey. The owner is emailed at once; the email's "I did not do
// this" link signs out every device and removes the passkey, and a password reset offers to remove it too.
// Passkeys belong to a domain name, so the journey opens the site at localhost (see passkeys.spec.ts).

const PASSWORD = 'laptop-market-e2e-se'

/** The security email to `address` whose subject matches, from the files the e2e server saves. */
async function securityEmail(address: string, subject: RegExp) {
  const dir = path.join(process.env.E2E_DATA_DIR as string, 'mail')
  let found: Awaited<ReturnType<typeof simpleParser>> | undefined
  await expect
    .poll(
      async () => {
        for (const file of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
          if (!file.includes('-security-change-')) continue
          const mail = await simpleParser(fs.readFileSync(path.join(dir, file)))
          const to = Array.isArray(mail.to) ? mail.to : [mail.to]
          if (
            to.some((t) => t?.value.some((v) => v.address === address)) &&
            subject.test(mail.subject ?? '')
          ) {
            found = mail
            return true
          }
        }
        return false
      },
      { message: `a security email to ${address}`, timeout: 15_000 },
    )
    .toBe(true)
  return found as NonNullable<typeof found>
}

async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
}

test('a passkey added by someone else is emailed; the reset offers its removal and "I did not do this" removes it', async ({
  page,
  browser,
  baseURL,
}) => {
  const site = (baseURL ?? '').replace('127.0.0.1', 'localhost')
  const person = await signUpByApi(site, { name: 'Sam Secure', emailPrefix: 'secure', password: PASSWORD })

  // The attacker's browser, holding the session.
  await addVirtualAuthenticator(page)
  await page.goto(`${site}/login?from=/dashboard/security`)
  await signInWithForm(page, person)
  await expect(page).toHaveURL(`${site}/dashboard/security`)
  const section = page.locator('section', { has: page.getByRole('heading', { name: 'Passkeys' }) })
  // The list loaded in the browser: the page is live, so the form's name and click reach its handler.
  await expect(section.getByText('You have no passkeys yet.')).toBeVisible()
  await section.getByLabel(/^Name/).fill('Not mine')
  await section.getByRole('button', { name: 'Add a passkey' }).click()
  // The attacker holds the password too here (the step-up stops a cookie alone); the owner is still emailed.
  await confirmItsYou(page, PASSWORD)
  await expect(page.getByText('Passkey added')).toBeVisible()

  // The owner's inbox.
  const mail = await securityEmail(person.email, /passkey was added/)
  const notMe = mail.text?.match(/https?:\/\/\S+\/account\/not-me#\S+/)?.[0]
  expect(notMe, 'the email holds an "I did not do this" link').toBeTruthy()
  const owner = await browser.newContext()
  const inbox = await owner.newPage()
  await inbox.setContent(mail.html || '')
  await expect(inbox.getByRole('link', { name: 'I did not do this' })).toBeVisible()
  await saveScreenshots(inbox, 'security-email-passkey-added')

  // A password reset offers to remove it, ticked.
  const api = await playwrightRequest.newContext({ baseURL: site })
  expect((await api.post('/api/auth/request-password-reset', { data: { email: person.email } })).ok()).toBe(
    true,
  )
  await api.dispose()
  const reset = await emailTo(person.email, 'password-reset')
  const resetLink = (reset.text?.match(/https?:\/\/\S+\/reset-password\?token=\S+/)?.[0] ?? '').replace(
    '127.0.0.1',
    'localhost',
  )
  const resetPage = await owner.newPage()
  await resetPage.goto(resetLink)
  const offered = resetPage.getByRole('checkbox', { name: /Remove “Not mine”, added/ })
  await expect(offered).toBeChecked()
  await saveScreenshots(resetPage, 'reset-offers-passkey-removal')

  // "I did not do this": asked first, then every device is signed out and the passkey removed.
  const notMePage = await owner.newPage()
  await notMePage.goto((notMe as string).replace('127.0.0.1', 'localhost'))
  await expect(notMePage.getByText(/A passkey was added on/)).toBeVisible()
  await notMePage.getByRole('button', { name: 'Secure my account' }).click()
  await expect(notMePage.getByRole('heading', { name: 'Your account is secured' })).toBeVisible()
  await expect(notMePage.getByText('The passkey added in the last 7 days was removed.')).toBeVisible()
  await saveScreenshots(notMePage, 'not-me-result')
  expect((await page.request.get(`${site}/api/me`)).status()).toBe(401)

  // A new password, and the account holds no passkey any more.
  await notMePage.getByRole('link', { name: 'Choose a new password' }).click()
  await expect(notMePage.getByRole('checkbox')).toHaveCount(0)
  await notMePage.getByLabel('New password', { exact: true }).fill('sam-is-back-2026')
  await notMePage.getByLabel('New password again').fill('sam-is-back-2026')
  await notMePage.getByRole('button', { name: 'Save new password' }).click()
  await expect(notMePage).toHaveURL(/\/login$/)
  await signInWithForm(notMePage, { email: person.email, password: 'sam-is-back-2026' })
  await expect(notMePage).not.toHaveURL(/\/login/)
  const passkeys = await notMePage.request.get(`${site}/api/auth/passkey/list-user-passkeys`)
  expect(await passkeys.json()).toEqual([])
  await owner.close()
})
