import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import { expect, request as playwrightRequest, test } from '@playwright/test'
import type { Me } from '#contract/users'
import { authenticatorCode } from '#server/test/totp'
import { SERVER_NODE_FLAGS, serverEnv } from '../scripts/server-runtime.mjs'
import { confirmEmail } from './helpers'
import { type LocalOidcProvider, startLocalOidcProvider } from './support/local-oidc-provider'
import { type OwnServer, startOwnServer } from './support/own-server'

// "Continue with Google" the whole way through a real OpenID provider on 127.0.0.1: the app runs for this
// spec alone with GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and GOOGLE_ISSUER pointing at the local provider.
// A person Google has never sent before comes back signed in, as a buyer, on the page they started from.

// One app and one provider for the file's journeys: in parallel each worker would start its own.
test.describe.configure({ mode: 'serial' })

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const googleUser = { login: `gale-${stamp}`, email: `gale-${stamp}@example.test`, name: 'Gale Google' }
// Has an account with a password and two-step sign-in on; Google knows the same address.
const twoStepUser = { login: `tess-${stamp}`, email: `tess-${stamp}@example.test`, name: 'Tess Two-Step' }

let provider: LocalOidcProvider | undefined
let app: OwnServer | undefined
let appURL = ''
let dataDir = ''

test.beforeAll(async () => {
  test.setTimeout(180_000)
  const port = await freePort()
  appURL = `http://127.0.0.1:${port}`
  provider = await startLocalOidcProvider({ appBaseURL: appURL, accounts: [googleUser, twoStepUser] })
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laptop-market-e2e-google-'))
  // The compiled server with the node flags every instance starts with, as the shared e2e server runs it.
  app = await startOwnServer({
    name: 'the app',
    args: [...SERVER_NODE_FLAGS, 'dist/app/main.js'],
    baseURL: appURL,
    timeoutMs: 150_000,
    env: {
      ...serverEnv(),
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: appURL,
      LOG_LEVEL: 'warn',
      // No demo data: this app is only signed in to.
      SEED_DEMO: 'never',
      GOOGLE_CLIENT_ID: provider.clientId,
      GOOGLE_CLIENT_SECRET: provider.clientSecret,
      GOOGLE_ISSUER: provider.issuer,
    },
  })
})

test.afterAll(async () => {
  await app?.stop()
  await provider?.close()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
})

test('Continue with Google signs a new person in as a buyer and returns them to the page they wanted', async ({
  page,
}) => {
  expect(new URL(provider?.issuer ?? '').hostname).toBe('127.0.0.1')
  const options = await page.request.get(`${appURL}/api/auth-options`)
  expect(await options.json()).toEqual({ google: true })

  await page.goto(`${appURL}/dashboard`)
  await expect(page).toHaveURL(`${appURL}/login?from=${encodeURIComponent('/dashboard')}`)
  const google = page.getByRole('button', { name: /Continue with Google/ })
  await expect(google).toBeEnabled()
  await expect(google).not.toContainText('not set up')
  await google.click()

  // The provider's own login page, then its consent page.
  await expect(page).toHaveURL(new RegExp(`^${provider?.issuer}/interaction/`))
  await page.locator('input[name="login"]').fill(googleUser.login)
  await page.locator('input[name="password"]').fill('any password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()

  await expect(page).toHaveURL(`${appURL}/dashboard`)
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible()
  await expect(nav.getByRole('button', { name: 'Sign Out' })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Login' })).toHaveCount(0)

  const me = await page.request.get(`${appURL}/api/me`)
  expect(me.status()).toBe(200)
  expect((await me.json()) as Me).toMatchObject({
    email: googleUser.email,
    name: googleUser.name,
    role: 'buyer',
  })
  await expect(
    page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Orders' }),
  ).toBeVisible()
})

test('a person with two-step sign-in on still gives a code after Google', async ({ page }) => {
  const password = 'laptop-market-e2e-g2'
  const api = await playwrightRequest.newContext({ baseURL: appURL, extraHTTPHeaders: { origin: appURL } })
  const signedUp = await api.post('/api/auth/sign-up/email', {
    data: { name: twoStepUser.name, email: twoStepUser.email, password, role: 'buyer' },
  })
  expect(signedUp.ok(), await signedUp.text()).toBe(true)
  // Google's word joins an existing account only when that account's address was confirmed.
  await confirmEmail(api, twoStepUser.email, dataDir)
  const started = await api.post('/api/auth/two-factor/enable', { data: { password } })
  expect(started.ok(), await started.text()).toBe(true)
  const { totpURI } = (await started.json()) as { totpURI: string }
  const secret = new TextDecoder().decode(base32.decode(new URL(totpURI).searchParams.get('secret') ?? ''))
  const code = () => createOTP(secret, { digits: 6, period: 30 }).totp()
  expect((await api.post('/api/auth/two-factor/verify-totp', { data: { code: await code() } })).ok()).toBe(
    true,
  )
  await api.dispose()

  await page.goto(`${appURL}/login?from=${encodeURIComponent('/dashboard/security')}`)
  await page.getByRole('button', { name: /Continue with Google/ }).click()
  await expect(page).toHaveURL(new RegExp(`^${provider?.issuer}/interaction/`))
  await page.locator('input[name="login"]').fill(twoStepUser.login)
  await page.locator('input[name="password"]').fill('any password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()

  // Back from Google, not signed in yet: the code step.
  await expect(page).toHaveURL(`${appURL}/login?step=code&from=${encodeURIComponent('/dashboard/security')}`)
  await expect(page.getByRole('form', { name: 'Sign-in code' })).toBeVisible()
  expect((await page.request.get(`${appURL}/api/me`)).status()).toBe(401)

  // The next period's code: the one that turned two-step on is taken (each code is taken once).
  await page
    .getByLabel('Code', { exact: true })
    .fill(await authenticatorCode(new URL(totpURI).searchParams.get('secret') ?? '', 1))
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page).toHaveURL(`${appURL}/dashboard/security`)
  const me = await page.request.get(`${appURL}/api/me`)
  expect(me.status()).toBe(200)
  expect(await me.json()).toMatchObject({ email: twoStepUser.email, two_factor: true })
  await expect(page.getByText('Entered a sign-in code').first()).toBeVisible()
})
