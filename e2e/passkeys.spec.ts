import { expect, type Page, test } from '@playwright/test'
import { confirmItsYou, saveScreenshots, signInWithForm, signUpByApi } from './helpers'

// Passkeys in Chromium, with the DevTools protocol's virtual authenticator standing in for a laptop's
// fingerprint reader: add one in Security settings, sign out, sign in with it alone, then remove it.
// Passkeys belong to a domain name, never an IP address, so this journey opens the site at localhost (the
// server's PUBLIC_URL is 127.0.0.1, whose passkey domain is localhost: see WEBAUTHN_RP_ID in the README).

const PASSWORD = 'laptop-market-e2e-pk'

/** A platform authenticator that keeps discoverable credentials and always checks the person. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return { cdp, authenticatorId }
}

test('add a passkey, sign out, sign in with the passkey alone, then confirm it is you with it and remove it', async ({
  page,
  baseURL,
}) => {
  const site = (baseURL ?? '').replace('127.0.0.1', 'localhost')
  expect(new URL(site).hostname).toBe('localhost')
  const person = await signUpByApi(site, { name: 'Pat Passkey', emailPrefix: 'passkey', password: PASSWORD })

  const { cdp, authenticatorId } = await addVirtualAuthenticator(page)

  await page.goto(`${site}/login?from=/dashboard/security`)
  await signInWithForm(page, person)
  await expect(page).toHaveURL(`${site}/dashboard/security`)
  const section = page.locator('section', { has: page.getByRole('heading', { name: 'Passkeys' }) })
  await expect(section.getByText('You have no passkeys yet.')).toBeVisible()

  await section.getByLabel(/^Name/).fill('Work laptop')
  await section.getByRole('button', { name: 'Add a passkey' }).click()
  // Adding a passkey needs the password again first (a copied session cookie alone cannot add one).
  await confirmItsYou(page, PASSWORD)
  await expect(page.getByText('Passkey added')).toBeVisible()
  await expect(section.getByRole('list', { name: 'Your passkeys' }).getByText('Work laptop')).toBeVisible()
  await expect(page.getByText('Added a passkey').first()).toBeVisible()
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
  expect(credentials).toHaveLength(1)
  expect(credentials[0]?.rpId).toBe('localhost')
  expect(credentials[0]?.isResidentCredential).toBe(true)
  await saveScreenshots(page, 'security-passkeys')

  // Signed out, the passkey alone signs back in: no email, no password, no code.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign Out' }).click()
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }),
  ).toBeVisible()
  expect((await page.request.get(`${site}/api/me`)).status()).toBe(401)

  await page.goto(`${site}/login?from=/dashboard/security`)
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible()
  await saveScreenshots(page, 'login-passkey')
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await expect(page).toHaveURL(`${site}/dashboard/security`)
  const me = await page.request.get(`${site}/api/me`)
  expect(me.status()).toBe(200)
  expect(await me.json()).toMatchObject({ email: person.email })
  await expect(page.getByText('Signed in with a passkey').first()).toBeVisible()

  // Removed, it is gone from the list and written to the activity.
  await section.getByRole('button', { name: 'Remove Work laptop' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click()
  // The passkey's own session proved nothing yet: removing one asks "Confirm it's you", which the passkey
  // itself answers (the password stays on offer beside it).
  const confirm = page.getByRole('dialog', { name: "Confirm it's you" })
  await expect(confirm.getByRole('button', { name: 'Use a passkey' })).toBeVisible()
  await expect(confirm.getByLabel('Your password')).toBeFocused()
  await saveScreenshots(page, 'confirm-its-you-passkey', { part: 'viewport' })
  await confirm.getByRole('button', { name: 'Use a passkey' }).click()
  await expect(confirm).toBeHidden()
  await expect(page.getByText('Passkey removed')).toBeVisible()
  await expect(section.getByText('You have no passkeys yet.')).toBeVisible()
  await expect(page.getByText('Removed a passkey').first()).toBeVisible()
})
