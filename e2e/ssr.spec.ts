import fs from 'node:fs'
import path from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { formatMoney } from '#contract/money'
import { gotoInteractive, loadDemoData, mainHeading, productCards, searchProducts } from './helpers'

// Public pages arrive rendered from the server: readable with scripts off, and taken over by the app
// without a hydration mismatch when scripts are on.

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false })

  test('a visitor reads a listing: name, price, condition, seller, specs @both', async ({
    page,
    request,
  }) => {
    const { product } = await loadDemoData(request)
    const res = await page.goto(`/products/${product._id}`)
    expect(res?.status()).toBe(200)
    await expect(mainHeading(page, product.name)).toBeVisible()
    await expect(page.getByText(formatMoney(product.resale_price_cents)).first()).toBeVisible()
    await expect(page.getByRole('heading', { name: `Condition: ${product.condition}` })).toBeVisible()
    await expect(page.getByText(product.seller_name).first()).toBeVisible()
    await expect(page.getByText(product.processor).first()).toBeVisible()
    await expect(page.getByRole('img', { name: product.name }).first()).toBeVisible()
  })

  test('a visitor pages through every laptop with plain links', async ({ page, request }) => {
    const first = await searchProducts(request, {})
    test.skip(first.total <= first.page_size, 'the demo data fits on one page')
    // Other journeys add laptops while this one runs, which moves the newest-first pages: each page is compared
    // with the API's answer fetched right after it, and looked at again until no listing arrived in between.
    const shownNames = () => productCards(page).getByRole('heading').allTextContents()
    await expect(async () => {
      await page.goto('/productcard')
      const shown = await shownNames()
      expect(shown).toEqual((await searchProducts(request, {})).items.map((p) => p.name))
    }).toPass({ timeout: 20_000 })
    await expect(mainHeading(page, 'All Laptops')).toBeVisible()
    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: /Next/ }).click()
    await expect(page).toHaveURL(/[?&]page=2/)
    await expect(async () => {
      await page.reload()
      const shown = await shownNames()
      expect(shown).toEqual((await searchProducts(request, { page: '2' })).items.map((p) => p.name))
    }).toPass({ timeout: 20_000 })
  })

  test('the home page shows the advertised laptops, the brands and About Us', async ({ page }) => {
    await page.goto('/')
    await expect(productCards(page).first()).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Shop by Brand' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'About Us' })).toBeVisible()
  })

  test('the blog reads without scripts', async ({ page }) => {
    await page.goto('/blog')
    await expect(mainHeading(page, 'Blog')).toBeVisible()
    await expect(page.getByRole('article').first()).toBeVisible()
  })
})

test.describe('with JavaScript on', () => {
  /**
   * Console errors and warnings, except a page that is itself a 404/410 and outside photos. A 401 counts: asking
   * who is signed in answers a visitor with `{ user: null }`, so a signed-out visit logs none.
   */
  function watchConsole(page: Page): string[] {
    const problems: string[] = []
    page.on('console', (message) => {
      if (message.type() !== 'error' && message.type() !== 'warning') return
      const text = message.text()
      if (/Failed to load resource: the server responded with a status of (404|410)/.test(text)) return
      // A listing another journey made with a photo on an outside host, which does not resolve here: the card
      // hides the broken picture, and the page itself is fine.
      if (/Failed to load resource: net::ERR_NAME_NOT_RESOLVED/.test(text)) return
      problems.push(text)
    })
    page.on('pageerror', (error) => problems.push(error.message))
    return problems
  }

  test('no console errors or hydration warnings on any public page @both', async ({ page, request }) => {
    const { product } = await loadDemoData(request)
    const paths = [
      '/',
      '/productcard',
      '/productcard?page=2&sort=price_asc',
      '/advertise',
      `/products/${product._id}`,
      '/products/00000000-0000-4000-8000-000000000000',
      '/blog',
      '/about',
      '/contact',
      '/terms',
      '/privacy',
      '/no-such-page',
    ]
    for (const path of paths) {
      const problems = watchConsole(page)
      // Hydrated (a mismatch would have been reported by now), and the network quiet.
      await gotoInteractive(page, path)
      await page.waitForLoadState('networkidle')
      await expect(page.locator('main')).toBeVisible()
      expect(problems, path).toEqual([])
      page.removeAllListeners('console')
      page.removeAllListeners('pageerror')
    }
  })

  test('a signed-out visit to the home page asks who is signed in without an error @both', async ({
    page,
  }) => {
    const problems = watchConsole(page)
    const failed: string[] = []
    page.on('response', (res) => {
      if (res.status() >= 400) failed.push(`${res.status()} ${new URL(res.url()).pathname}`)
    })
    const session = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/session')
    await page.goto('/', { waitUntil: 'networkidle' })
    const answer = await session
    expect(answer.status()).toBe(200)
    expect(await answer.json()).toEqual({ user: null })
    await expect(page.locator('main')).toBeVisible()
    expect(failed).toEqual([])
    expect(problems).toEqual([])
  })

  test('the home page loads at most 90 kB of JavaScript until the network goes quiet', async ({ page }) => {
    // As Lighthouse's "JS until idle" counts it (bench/lighthouse.ts): every script fetched before the network went
    // quiet, compressed as this server sends it to the browser, headers included. Bytes, not time: it does not
    // depend on the machine's load.
    const scripts: Promise<{ url: string; bytes: number }>[] = []
    page.on('requestfinished', (req) => {
      if (req.resourceType() !== 'script') return
      scripts.push(
        req.sizes().then((s) => ({
          url: new URL(req.url()).pathname,
          bytes: s.responseBodySize + s.responseHeadersSize,
        })),
      )
    })
    await page.goto('/', { waitUntil: 'networkidle' })
    const loaded = await Promise.all(scripts)
    const total = loaded.reduce((sum, s) => sum + s.bytes, 0)
    console.log(`JavaScript on / until idle: ${(total / 1000).toFixed(1)} kB (${loaded.length} scripts)`)
    expect(total, loaded.map((s) => `${s.url} ${s.bytes}`).join('\n')).toBeLessThanOrEqual(90_000)
  })

  test('a rendered page is styled from its own head: no stylesheet request, before or after its code loads', async ({
    page,
  }) => {
    const stylesheets: string[] = []
    page.on('request', (req) => {
      if (req.resourceType() === 'stylesheet') stylesheets.push(new URL(req.url()).pathname)
    })
    await page.goto('/productcard', { waitUntil: 'networkidle' })
    // Styled: the page's utility classes apply (the grid of cards is a CSS grid).
    expect(
      await page
        .locator('main ul.grid')
        .first()
        .evaluate((ul) => getComputedStyle(ul).display),
    ).toBe('grid')
    // A listing's page loads lazy code whose loader would ask for the stylesheet again were it not on the page.
    await productCards(page).first().getByRole('link').first().click()
    await page.waitForURL(/\/products\//)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(stylesheets).toEqual([])
  })

  test('a page draws its icons from symbols it carries, asking for no icon file', async ({ page }) => {
    // Every SVG asked for but a listing's photo (a listing without one shows /images/laptop-placeholder.svg).
    const svgRequests: string[] = []
    page.on('request', (req) => {
      const { pathname } = new URL(req.url())
      if (pathname.endsWith('.svg') && !/^\/(images|media)\//.test(pathname)) svgRequests.push(pathname)
    })
    await gotoInteractive(page, '/productcard')
    const icons = await page.evaluate(() =>
      [...document.querySelectorAll('use')].map((use) => {
        const href = use.getAttribute('href') ?? ''
        return {
          href,
          target: href.startsWith('#') ? document.getElementById(href.slice(1))?.tagName : undefined,
        }
      }),
    )
    // The symbols take no room: the page starts at the top.
    expect(await page.evaluate(() => document.getElementById('root')?.getBoundingClientRect().top)).toBe(0)
    // A card's pin, clock, calendar and heart at least, each a symbol of the page.
    expect(icons.length).toBeGreaterThan(24 * 4)
    expect(icons.filter((icon) => icon.target !== 'symbol')).toEqual([])
    // The heart over a card's photo is drawn: a box of its own size.
    const heart = page
      .getByRole('button', { name: /^Save .* to favourites$/ })
      .first()
      .locator('svg')
    expect((await heart.boundingBox())?.width).toBeGreaterThan(10)
    await page.waitForLoadState('networkidle')
    expect(svgRequests).toEqual([])
  })

  test('after hydration the app navigates in place, without a full page load', async ({ page }) => {
    await gotoInteractive(page, '/')
    await page.evaluate(() => {
      ;(window as unknown as { stayed: boolean }).stayed = true
    })
    await page.getByRole('link', { name: 'View all laptops' }).click()
    await expect(mainHeading(page, 'All Laptops')).toBeVisible()
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true)
  })
})

test('the page renderer carries its libraries, React in its production build, whatever NODE_ENV the server has', () => {
  // React's development build renders /productcard several times slower: a server run with the default NODE_ENV
  // (npm start, the demo) would answer every page later. Built in, nothing is left for the environment to choose.
  const dir = path.resolve(import.meta.dirname, '../dist/server')
  const files = [
    'entry-server.js',
    ...fs.readdirSync(path.join(dir, 'assets')).map((f) => path.join('assets', f)),
  ]
  for (const file of files) {
    const code = fs.readFileSync(path.join(dir, file), 'utf8')
    // Import statements of packages (not of its own files, nor of Node's own modules).
    const packages = [...code.matchAll(/^import\b[^;'"]*?["']([^"']+)["']/gm)]
      .map((m) => m[1])
      .filter((name) => !name?.startsWith('.') && !name?.startsWith('node:'))
    expect(packages, file).toEqual([])
  }
  const entry = fs.readFileSync(path.join(dir, 'entry-server.js'), 'utf8')
  expect(entry).not.toContain('process.env.NODE_ENV')
  expect(entry).not.toContain('should have a unique "key" prop')
})

test('on a phone, the brands and About Us are within about three screens of the top @phone', async ({
  page,
}) => {
  await page.goto('/')
  const screen = page.viewportSize()?.height ?? 740
  const top = async (id: string) =>
    page.evaluate(
      (el) => (document.getElementById(el)?.getBoundingClientRect().top ?? 0) + window.scrollY,
      id,
    )
  expect(await top('shop-by-brand')).toBeLessThan(2.5 * screen)
  expect(await top('about-us')).toBeLessThan(3 * screen)
  // Every advertised laptop is still there, in a row that swipes sideways.
  await expect(productCards(page.getByRole('list', { name: 'Advertised laptops' })).first()).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
})
