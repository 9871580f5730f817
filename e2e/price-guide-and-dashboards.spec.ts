import { expect, type Page, test } from '@playwright/test'
import type { PriceGuide } from '#contract/price-guide'
import { priceVerdict } from '#contract/price-verdict'
import type { Product } from '#contract/products'
import { DEMO_ACCOUNTS } from '#server/demo/accounts'
import { expectNoHorizontalScroll, expectNoSeriousAxeViolations, signInByApi } from './helpers'

// The price guide as a seller lists and as a buyer browses (from the demo's past sales), and each role's
// dashboard drawing its charts with their figures for screen readers.

const demo = (role: 'admin' | 'buyer' | 'seller') =>
  DEMO_ACCOUNTS.find((a) => a.role === role) as (typeof DEMO_ACCOUNTS)[number]

function uniqueEmail(): string {
  return `guide-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`
}

async function demoListingWithGuide(
  page: Page,
): Promise<Product & { price_guide: NonNullable<Product['price_guide']> }> {
  const res = await page.request.get('/api/search?page_size=100')
  const items = ((await res.json()) as { items: Product[] }).items
  const guided = items.find((p) => p.price_guide)
  expect(guided, 'the demo data gives some listing a price guide').toBeTruthy()
  return guided as Product & { price_guide: NonNullable<Product['price_guide']> }
}

const wholeDollars = (n: number) => `$${Math.round(n).toLocaleString('en-US')}`

test('a seller sees what similar laptops sold for while listing', async ({ page }, testInfo) => {
  const res = await page.request.post('/api/auth/sign-up/email', {
    data: { name: 'Guide Seller', email: uniqueEmail(), password: 'laptop-market-e2e-1', role: 'seller' },
  })
  expect(res.ok()).toBe(true)
  const like = await demoListingWithGuide(page)
  const guideRes = await page.request.get(
    `/api/price-guide?${new URLSearchParams({
      brand: like.category_id,
      processor: like.processor,
      ram_gb: String(like.ram_gb),
      storage_gb: String(like.storage_gb),
    })}`,
  )
  const guide = (await guideRes.json()) as PriceGuide
  expect(guide.count).toBeGreaterThanOrEqual(5)

  await page.goto('/dashboard/addproduct')
  const hint = page.getByTestId('price-guide-hint')
  await expect(hint).toContainText('Fill in the brand, processor, RAM and storage')
  await page.getByLabel('Brand').selectOption(like.category_id)
  await page.getByLabel('Processor').fill(like.processor)
  await page.getByLabel('RAM (GB)').fill(String(like.ram_gb))
  await page.getByLabel('Storage (GB)').fill(String(like.storage_gb))
  await expect(hint).toHaveText(
    `Similar laptops sold for ${wholeDollars(guide.p25 ?? 0)}–${wholeDollars(guide.p75 ?? 0)}, median ${wholeDollars(guide.median ?? 0)}, ${guide.count} sales.`,
  )
  await expect(hint).toHaveAttribute('role', 'status')
  // Another storage size with no sales of its own says so.
  await page.getByLabel('Storage (GB)').fill('16384')
  await expect(hint).toContainText('Not enough similar sales yet for a price guide')
  await page.getByLabel('Storage (GB)').fill(String(like.storage_gb))
  await expect(hint).toContainText('Similar laptops sold for')
  await hint.scrollIntoViewIfNeeded()
  await page.screenshot({ path: testInfo.outputPath('price-guide-form.png') })
})

test('a buyer sees Great or Fair price on cards and the listing page, with the range on hover', async ({
  page,
}) => {
  // Other journeys add listings as they run, so the newest page may hold none with a badge: search for a
  // demo listing whose price earns one.
  const res = await page.request.get('/api/search?page_size=100')
  const items = ((await res.json()) as { items: Product[] }).items
  const badged = items.find((p) => priceVerdict(p.resale_price, p.price_guide) !== null)
  expect(badged, 'the demo data gives some listing a Great or Fair price').toBeTruthy()
  await page.goto(`/productcard?q=${encodeURIComponent((badged as Product).name)}`)
  const badge = page.getByTestId('price-badge').first()
  await expect(badge).toBeVisible()
  await expect(badge).toHaveText(/^(Great|Fair) price$/)
  const tip = page.getByRole('tooltip').first()
  await expect(tip).toBeHidden()
  await badge.hover()
  await expect(tip).toBeVisible()
  await expect(tip).toContainText(/Similar laptops sold for \$[\d,]+–\$[\d,]+, median \$[\d,]+, \d+ sales/)

  const like = await demoListingWithGuide(page)
  await page.goto(`/products/${like._id}`)
  await expect(page.getByTestId('price-guide-line')).toContainText(`${like.price_guide.count} sales`)
})

const dashboards = [
  {
    role: 'seller',
    charts: ['Views of your listings', 'Bookings and favourites'],
    extra: 'On its way to the bank',
  },
  {
    role: 'admin',
    charts: ['Listings, bookings and payments', 'Reports and disputes', 'From listing to payment'],
    extra: 'Open reports',
  },
  { role: 'buyer', charts: ['Your orders'], extra: 'Orders in progress' },
] as const

for (const { role, charts, extra } of dashboards) {
  test(`the ${role}'s dashboard draws its charts, each with its figures in a table @both`, async ({
    page,
  }, testInfo) => {
    await signInByApi(page.request, demo(role))
    await page.goto('/dashboard')
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible()
    await expect(page.getByText(extra).first()).toBeVisible()
    for (const title of charts) {
      const chart = page.getByRole('region', { name: title, exact: true })
      await expect(chart).toBeVisible()
      // Drawn: an SVG with bars in it. Counts are bars (side by side for several series), never curves.
      await expect(chart.locator('svg.recharts-surface').first()).toBeVisible()
      await expect(chart.locator('.recharts-bar').first()).toBeAttached()
      await expect(chart.locator('.recharts-line-curve')).toHaveCount(0)
      // The text alternative, and the figures behind a disclosure.
      await expect(chart.locator('p.sr-only')).toContainText(title)
      await chart.getByText('Show the figures').click()
      await expect(chart.getByRole('table')).toBeVisible()
      expect(await chart.getByRole('row').count()).toBeGreaterThan(1)
    }
    if (role === 'buyer') {
      await expect(page.getByTestId('orders-in-progress').getByRole('link', { name: /^Pay/ })).toBeVisible()
    }
    await expectNoSeriousAxeViolations(page)
    await expectNoHorizontalScroll(page)
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: testInfo.outputPath(`dashboard-${role}.png`), fullPage: true })
  })
}
