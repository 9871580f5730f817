import fs from 'node:fs'
import path from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import {
  type APIRequestContext,
  type Browser,
  expect,
  type Locator,
  type Page,
  request as playwrightRequest,
} from '@playwright/test'
import { simpleParser } from 'mailparser'
import type { Brand } from '#contract/brands'
import type { Product } from '#contract/products'
import type { ProductPage } from '#contract/search'
import { DEMO_ACCOUNTS } from '#server/demo/accounts'

/** The demo buyer the seed creates (see the README's demo accounts). */
export const DEMO_BUYER = DEMO_ACCOUNTS.find((a) => a.role === 'buyer') as (typeof DEMO_ACCOUNTS)[number]

/** Signs in through the API; `request` is a page's or context's, so the session cookie lands in its jar. */
export async function signInByApi(request: APIRequestContext, account: { email: string; password: string }) {
  const res = await request.post('/api/auth/sign-in/email', {
    data: { email: account.email, password: account.password },
  })
  expect(res.ok(), `sign-in of ${account.email}: ${res.status()} ${await res.text()}`).toBe(true)
}

/**
 * A new account made through the API (in a request context of its own, so no page is signed in by it), named
 * `${name} ${id}` with the address `${emailPrefix}-${id}@example.test` for a fresh id.
 */
export async function signUpByApi(
  baseURL: string | undefined,
  input: { name: string; emailPrefix: string; password: string; role?: 'buyer' | 'seller' },
) {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
  const person = {
    name: `${input.name} ${id}`,
    email: `${input.emailPrefix}-${id}@example.test`,
    password: input.password,
  }
  const api = await playwrightRequest.newContext({ baseURL })
  const res = await api.post('/api/auth/sign-up/email', { data: { ...person, role: input.role ?? 'buyer' } })
  expect(res.ok(), `sign-up of ${person.email}: ${res.status()} ${await res.text()}`).toBe(true)
  await api.dispose()
  return person
}

/** The password of the accounts the journeys sign up. */
export const E2E_PASSWORD = 'laptop-market-e2e-1'

/**
 * A new account signed up through `request` (its session cookie lands in that jar) with its email address confirmed
 * (a buyer needs that to hold a laptop and pay), at a fresh address `${role}-<id>@example.test`.
 */
export async function signUpConfirmed(request: APIRequestContext, role: 'buyer' | 'seller', name: string) {
  const email = `${role}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`
  const res = await request.post('/api/auth/sign-up/email', {
    data: { name, email, password: E2E_PASSWORD, role },
  })
  expect(res.ok(), `sign-up of a ${role}: ${res.status()} ${await res.text()}`).toBe(true)
  await confirmEmail(request, email)
  return { name, email }
}

/** A browser context of its own, signed in as a new confirmed account, with a page open in it. */
export async function newSignedIn(browser: Browser, role: 'buyer' | 'seller', name: string) {
  const context = await browser.newContext()
  const person = await signUpConfirmed(context.request, role, name)
  return { context, person, page: await context.newPage() }
}

/** Signs in on the login page that is open: the email and password typed, then Login. */
export async function signInWithForm(page: Page, account: { email: string; password: string }) {
  await page.getByLabel('Email Address').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  await page.getByRole('button', { name: 'Login' }).click()
}

/**
 * With E2E_SCREENSHOTS_DIR set, the page saved there at 1366 and 390 px wide, as `<name>-1366.png` and
 * `<name>-390.png` (the viewport is its own size again afterwards); without it, nothing. Saved is the whole page,
 * or with `part` only what the window shows (`'viewport'`: a dialog over the page, which a whole-page capture
 * would close) or one element. At each width the page is first scrolled (`scroll`: to the top, or an element
 * into the middle of the window), then left `settle` ms to lay itself out. With `asIs`, one screenshot of the
 * page as it is now instead, `<name>.png`.
 */
export async function saveScreenshots(
  page: Page,
  name: string,
  options: { part?: 'viewport' | Locator; scroll?: 'top' | Locator; settle?: number; asIs?: boolean } = {},
) {
  const dir = process.env.E2E_SCREENSHOTS_DIR
  if (!dir) return
  const { part, scroll, settle = 0 } = options
  const save = async (file: string) => {
    if (scroll === 'top') await page.evaluate(() => window.scrollTo(0, 0))
    else if (scroll) await scroll.evaluate((el) => el.scrollIntoView({ block: 'center' }))
    if (settle) await page.waitForTimeout(settle)
    const filePath = path.join(dir, file)
    if (part === 'viewport') await page.screenshot({ path: filePath })
    else if (part) await part.screenshot({ path: filePath })
    else await page.screenshot({ path: filePath, fullPage: true })
  }
  if (options.asIs) return save(`${name}.png`)
  const size = page.viewportSize() ?? { width: 1280, height: 800 }
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 844 })
    await save(`${name}-${width}.png`)
  }
  await page.setViewportSize(size)
}

/** What the demo data holds right now, read from the API so no test depends on ids or order. */
export type DemoData = {
  brands: Brand[]
  advertised: Product[]
  /** The brand with the most laptops for sale. */
  brand: Brand
  /** An advertised laptop (so it is also on the home page). */
  product: Product
}

async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url)
  expect(res.status(), `GET ${url}`).toBe(200)
  return (await res.json()) as T
}

export async function loadDemoData(request: APIRequestContext): Promise<DemoData> {
  const [brands, advertised] = await Promise.all([
    getJson<Brand[]>(request, '/api/brands'),
    getJson<Product[]>(request, '/api/advertised_product'),
  ])
  const brand = [...brands].sort((a, b) => b.product_count - a.product_count)[0]
  const product = advertised[0]
  expect(brand, 'the demo data has brands').toBeTruthy()
  expect(brand?.product_count, 'some brand has laptops for sale').toBeGreaterThan(0)
  expect(product, 'the demo data has an advertised laptop').toBeTruthy()
  return { brands, advertised, brand: brand as Brand, product: product as Product }
}

export async function searchProducts(request: APIRequestContext, query: Record<string, string>) {
  return getJson<ProductPage>(request, `/api/search?${new URLSearchParams(query)}`)
}

export function productCards(scope: Page | Locator): Locator {
  return scope.locator('article[data-testid="product-card"]')
}

/** Waits until the page's lists have loaded: none of its skeletons is left. */
export async function expectLoaded(page: Page) {
  await expect(page.getByTestId('skeleton')).toHaveCount(0)
}

/**
 * Opens `path` and waits until its scripts have taken over the server's HTML (the app marks `<html data-interactive>`),
 * so that a click is the app's: on a busy machine the network can be quiet well before the scripts have run.
 */
export async function gotoInteractive(page: Page, path: string) {
  await page.goto(path)
  await page.locator('html[data-interactive]').waitFor({ state: 'attached' })
}

export function mainHeading(page: Page, name: string | RegExp): Locator {
  return page.getByRole('heading', { level: 1, name, exact: typeof name === 'string' })
}

/** Every <img> has a non-empty alt: lists the ones that don't. */
export async function expectImagesHaveAlt(page: Page) {
  const missing = await page
    .locator('img')
    .evaluateAll((imgs) =>
      imgs.filter((img) => !(img.getAttribute('alt') ?? '').trim()).map((img) => img.outerHTML.slice(0, 160)),
    )
  expect(missing, 'images without alt text').toEqual([])
}

/**
 * An axe scan of the whole page; serious and critical violations fail, printed one per line. Run in the page itself
 * (legacy mode: our pages have no frames, so nothing is missed) rather than finished in a blank page the builder
 * opens per scan, and with the nodes of violations alone: the passes' thousand-odd nodes, serialised and sent to the
 * runner, were most of a scan's 4–6 s on the home page; it takes 1.8–2.9 s now.
 */
export async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  const report = serious.flatMap((v) => [
    `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`,
    ...v.nodes
      .slice(0, 5)
      .map((n) => `    at ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`),
    ...(v.nodes.length > 5 ? [`    ... and ${v.nodes.length - 5} more`] : []),
  ])
  expect(
    serious.length,
    `serious or critical accessibility violations on ${page.url()}:\n${report.join('\n')}`,
  ).toBe(0)
}

/** No horizontal scrolling at the viewport's width (the configured one: a phone may zoom out to fit). */
export async function expectNoHorizontalScroll(page: Page) {
  const width = page.viewportSize()?.width ?? 0
  const scrollWidth = await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0)
  expect(scrollWidth, `page is ${scrollWidth}px wide in a ${width}px viewport`).toBeLessThanOrEqual(width)
}

/** The newest email of `kind` to `address` in the server's mail folder, parsed (waits for the worker). */
export async function emailTo(address: string, kind: string, dataDir = process.env.E2E_DATA_DIR as string) {
  const dir = path.join(dataDir, 'mail')
  let found: Awaited<ReturnType<typeof simpleParser>> | undefined
  await expect
    .poll(
      async () => {
        const files = fs.existsSync(dir)
          ? fs
              .readdirSync(dir)
              .filter((f) => f.includes(`-${kind}-`))
              .sort()
          : []
        for (const file of files.reverse()) {
          const mail = await simpleParser(fs.readFileSync(path.join(dir, file)))
          const to = Array.isArray(mail.to) ? mail.to : [mail.to]
          if (to.some((t) => t?.value.some((v) => v.address === address))) {
            found = mail
            return true
          }
        }
        return false
      },
      { message: `a ${kind} email to ${address} in ${dir}`, timeout: 15_000 },
    )
    .toBe(true)
  return found as NonNullable<typeof found>
}

/**
 * Confirms a new account's email address as its owner would: opens the link from the email sent at sign-up
 * (a buyer needs a confirmed address to hold a laptop and pay).
 */
export async function confirmEmail(request: APIRequestContext, address: string, dataDir?: string) {
  const mail = await emailTo(address, 'verify-email', dataDir)
  const link = mail.text?.match(/https?:\/\/\S+\/api\/auth\/verify-email\?token=\S+/)?.[0]
  expect(link, 'the email holds a confirmation link').toBeTruthy()
  const res = await request.get(link as string, { maxRedirects: 0 })
  expect(res.status(), `confirming ${address}: ${res.status()}`).toBeLessThan(400)
}

/**
 * Answers "Confirm it's you" (the step-up a change of a sign-in factor or payout details asks for) with the
 * password; `screenshots` saves the dialog first (at both widths, when E2E_SCREENSHOTS_DIR is set).
 */
export async function confirmItsYou(page: Page, password: string, screenshots?: string) {
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" })
  await expect(dialog).toBeVisible()
  const field = dialog.getByLabel('Your password')
  await expect(field).toBeFocused()
  if (screenshots) await saveScreenshots(page, screenshots, { part: 'viewport' })
  await field.fill(password)
  await dialog.getByRole('button', { name: 'Confirm' }).click()
  await expect(dialog).toBeHidden()
}
