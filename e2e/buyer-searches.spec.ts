import {
  type APIRequestContext,
  type APIResponse,
  type Browser,
  expect,
  type Page,
  test,
} from '@playwright/test'
import type { Brand } from '#contract/brands'
import type { ProductPage } from '#contract/search'
import {
  DEMO_BUYER,
  expectLoaded,
  expectNoSeriousAxeViolations,
  mainHeading,
  productCards,
  signInByApi,
} from './helpers'

// A buyer finds a laptop by searching: the navbar's search box (misspelt), facets, a sort, page 2, a
// listing and back with the filters kept; a brand page shown to its last listing; the phone's filter panel.

const PASSWORD = 'laptop-market-e2e-1'
/** More than one page (the default page size is 24) of laptops that only this journey lists. */
const LISTINGS = 26

type Setup = { brand: Brand; tag: string; names: string[] }

/**
 * A new seller lists LISTINGS Lenovo ThinkPads in Fair condition with `ramGb` of RAM, at different prices. Journeys
 * running side by side list different RAM sizes: the search journey pages by page number, and listings another
 * journey added between its pages would shift page 2 (a page number is an offset; only the cursor is stable).
 */
async function listThinkPads(browser: Browser, ramGb: 32 | 64): Promise<Setup> {
  const context = await browser.newContext()
  const tag = Math.random().toString(36).slice(2, 7)
  const email = `seller-search-${Date.now().toString(36)}-${tag}@example.test`
  const signUp = await context.request.post('/api/auth/sign-up/email', {
    data: { name: 'Sara Searchable', email, password: PASSWORD, role: 'seller' },
  })
  expect(signUp.ok(), `sign-up: ${await signUp.text()}`).toBe(true)
  const brands = (await (await context.request.get('/api/brands')).json()) as Brand[]
  const brand = brands.find((b) => b.brand_name === 'Lenovo') as Brand
  expect(brand, 'the demo data has Lenovo').toBeTruthy()
  const names: string[] = []
  for (let i = 0; i < LISTINGS; i++) {
    const name = `ThinkPad P16 Gen ${i + 1} ${tag}`
    names.push(name)
    const res = await context.request.post('/api/products', {
      data: {
        name,
        category_id: brand._id,
        seller_phone: '+1 555 010 3000',
        // Prices out of order, so sorting has something to do.
        resale_price: 900 + ((i * 37) % LISTINGS) * 10,
        original_price: 3200,
        description: 'Fully working workstation, visible wear on the palm rest, battery at 71%.',
        condition: 'Fair',
        location: 'Denver, CO',
        uses: 3,
        processor: 'Intel Core i9-12950HX',
        ram_gb: ramGb,
        storage_gb: 2048,
        screen_inches: 16,
        img: '/images/laptop-placeholder.svg',
      },
    })
    expect(res.status(), `listing ${name}: ${await res.text()}`).toBe(201)
  }
  await context.close()
  return { brand, tag, names }
}

/** The navbar's search box: typed slowly enough for suggestions, then Enter. */
async function searchFromNavbar(page: Page, text: string) {
  const box = page.getByRole('banner').getByRole('combobox', { name: 'Search laptops' })
  await box.pressSequentially(text, { delay: 30 })
  await box.press('Enter')
}

/** The prices on the cards shown, in order. */
async function cardPrices(page: Page): Promise<number[]> {
  const cards = productCards(page.getByRole('main'))
  const texts = await cards.evaluateAll((els) =>
    els.map((el) => (el.textContent ?? '').match(/\$([\d,]+(?:\.\d\d)?)/)?.[1] ?? ''),
  )
  return texts.map((t) => Number(t.replaceAll(',', '')))
}

async function apiSearch(request: APIRequestContext, query: Record<string, string>) {
  return (await (await request.get(`/api/search?${new URLSearchParams(query)}`)).json()) as ProductPage
}

test('a buyer searches from the navbar, narrows, sorts, pages, opens a listing and comes back', async ({
  page,
  browser,
  request,
}) => {
  await listThinkPads(browser, 64)
  // A misspelt model, as people type it; the search engine forgives the typo.
  const typo = 'thnkpad'
  const typoFinds = (await apiSearch(request, { q: typo })).total > 0
  test.info().annotations.push({
    type: 'search',
    description: typoFinds ? `typed "${typo}"` : `the engine found nothing for "${typo}": typed "thinkpad"`,
  })
  const typed = typoFinds ? typo : 'thinkpad'

  await page.goto('/')
  await searchFromNavbar(page, typed)
  await expect(page).toHaveURL(`/productcard?q=${typed}`)
  await expect(mainHeading(page, 'All Laptops')).toBeVisible()
  await expectLoaded(page)
  await expect(productCards(page.getByRole('main')).first()).toContainText(/ThinkPad/i)

  // Two facets: condition Fair and 64 GB of RAM.
  const main = page.getByRole('main')
  await main
    .getByRole('group', { name: 'Condition' })
    .getByRole('radio', { name: /^Fair\b/ })
    .check()
  await expect(page).toHaveURL(/[?&]condition=Fair\b/)
  await main
    .getByRole('group', { name: 'RAM' })
    .getByRole('radio', { name: /^64 GB\b/ })
    .check()
  await expect(page).toHaveURL(/[?&]ram=64\b/)
  await expectLoaded(page)
  const narrowed = await apiSearch(request, { q: typed, condition: 'Fair', ram: '64' })
  expect(narrowed.total).toBeGreaterThanOrEqual(LISTINGS)
  await expect(main.getByRole('status').filter({ hasText: /laptops found/ })).toContainText(
    narrowed.total.toLocaleString('en-US'),
  )

  // Sort by price, low to high.
  await main.getByLabel('Sort by').selectOption('price_asc')
  await expect(page).toHaveURL(/[?&]sort=price_asc\b/)
  await expectLoaded(page)
  await expect
    .poll(async () => {
      const prices = await cardPrices(page)
      return prices.length > 1 && prices.every((p, i) => i === 0 || (prices[i - 1] ?? 0) <= p)
    })
    .toBe(true)
  const page1Prices = await cardPrices(page)

  // Page 2 continues where page 1 stopped.
  await main.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Next' }).click()
  await expect(page).toHaveURL(/[?&](page=2|cursor=)/)
  await expectLoaded(page)
  await expect
    .poll(async () => (await cardPrices(page))[0] ?? 0)
    .toBeGreaterThanOrEqual(page1Prices.at(-1) ?? 0)
  const resultsUrl = page.url()

  // Open a listing and come back: the filters, the order and the page are kept.
  const card = productCards(main).first()
  const name = (await card.getByRole('heading').textContent())?.trim() ?? ''
  await card.getByRole('link', { name }).first().click()
  await expect(mainHeading(page, name)).toBeVisible()
  await page.goBack()
  await expect(page).toHaveURL(resultsUrl)
  await expectLoaded(page)
  await expect(main.getByRole('radio', { name: /^Fair\b/ })).toBeChecked()
  await expect(main.getByRole('radio', { name: /^64 GB\b/ })).toBeChecked()
  await expect(main.getByLabel('Sort by')).toHaveValue('price_asc')
  await expect(productCards(main).first()).toContainText(name)
})

test('the navbar suggests brands as you type; the keyboard picks one', async ({ page, request }) => {
  const brands = (await (await request.get('/api/brands')).json()) as Brand[]
  const lenovo = brands.find((b) => b.brand_name === 'Lenovo') as Brand
  await page.goto('/blog')
  const box = page.getByRole('banner').getByRole('combobox', { name: 'Search laptops' })
  await box.pressSequentially('Lenov', { delay: 40 })
  const option = page.getByRole('option', { name: /^Lenovo\s*Brand$/ })
  await expect(option).toBeVisible()
  await expect(box).toHaveAttribute('aria-expanded', 'true')
  await expectNoSeriousAxeViolations(page)
  await box.press('Escape')
  await expect(option).toBeHidden()
  await box.press('ArrowDown')
  await expect(option).toBeVisible()
  const options = page.getByRole('option')
  for (let i = 0; i < (await options.count()); i++) {
    await box.press('ArrowDown')
    if ((await box.getAttribute('aria-activedescendant')) === (await option.getAttribute('id'))) break
  }
  await expect(option).toHaveAttribute('aria-selected', 'true')
  await box.press('Enter')
  await expect(page).toHaveURL(`/productcard?brand=${lenovo._id}`)
  await expect(mainHeading(page, 'All Laptops')).toBeVisible()
  await expect(page.getByRole('main').getByLabel('Brand')).toHaveValue(lenovo._id)
})

test('the brand page shows every listing of the brand, to the last one', async ({ page, browser }) => {
  const setup = await listThinkPads(browser, 32)
  await signInByApi(page.request, DEMO_BUYER)
  // The brand's last listing (its oldest), found by following the API's next-page links to the end.
  let next: string | null = `/api/category/${setup.brand._id}`
  let last = ''
  let listed = 0
  while (next) {
    const res: APIResponse = await page.request.get(next)
    expect(res.status()).toBe(200)
    const items = (await res.json()) as { name: string }[]
    listed += items.length
    last = items.at(-1)?.name ?? last
    next = /<([^>]+)>;\s*rel="next"/.exec(res.headers().link ?? '')?.[1] ?? null
  }
  expect(listed).toBeGreaterThan(LISTINGS)

  await page.goto(`/category/${setup.brand._id}`)
  await expect(mainHeading(page, 'Select Your Favourite Laptop')).toBeVisible()
  await expectLoaded(page)
  const main = page.getByRole('main')
  const loadMore = main.getByRole('button', { name: 'Load more' })
  // Other journeys may list laptops meanwhile, so the pages are followed until the button goes.
  for (let i = 0; i < 20 && (await loadMore.isVisible()); i++) {
    const before = await productCards(main).count()
    await loadMore.click()
    await expect.poll(() => productCards(main).count()).toBeGreaterThan(before)
  }
  await expect(loadMore).toHaveCount(0)
  const shown = await productCards(main).count()
  expect(shown).toBeGreaterThanOrEqual(listed)
  await expect(productCards(main).last()).toContainText(last)
  await expect(main.getByText(new RegExp(`^Showing ${shown}( of [\\d,]+)? laptops$`))).toBeVisible()
})

test('phone: the filters open in a panel, keep focus inside and close with Escape', {
  tag: '@phone',
}, async ({ page }) => {
  await page.goto('/productcard')
  await expect(mainHeading(page, 'All Laptops')).toBeVisible()
  await expectLoaded(page)
  const opener = page.getByRole('button', { name: /^Filters/ })
  await opener.click()
  const panel = page.getByRole('dialog', { name: 'Filters' })
  await expect(panel).toBeVisible()
  await expect(panel.getByRole('button', { name: 'Close filters' })).toBeFocused()
  await expectNoSeriousAxeViolations(page)
  await panel.getByRole('radio', { name: /^Good\b/ }).check()
  await expect(page).toHaveURL(/[?&]condition=Good\b/)
  await expect(opener).toHaveText('Filters (1)')
  // Focus stays in the panel: tabbing on past its last control never reaches the page behind.
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab')
    const outside = await panel.evaluate(
      (el) => document.activeElement !== document.body && !el.contains(document.activeElement),
    )
    expect(outside, 'focus left the filter panel').toBe(false)
  }
  await page.keyboard.press('Escape')
  await expect(panel).toBeHidden()
  await expect(opener).toBeFocused()
  await expectLoaded(page)
  const shown = await productCards(page.getByRole('main')).count()
  expect(shown).toBeGreaterThan(0)
  for (const text of await productCards(page.getByRole('main')).allTextContents())
    expect(text).toContain('Good')
})
