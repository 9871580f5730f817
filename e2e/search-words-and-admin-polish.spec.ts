import { expect, test } from '@playwright/test'
import { DEMO_ACCOUNTS } from '#server/demo/accounts'
import { productCards, saveScreenshots, signInByApi } from './helpers'

// What a person sees: "mac book" finds the MacBooks "macbook" finds; a page number past the last page says so and
// leads to the last page; the admin's pages load directly and read as people write (names in the audit log, counts
// with their noun in the right number); the seller's earnings name months with their year. With
// E2E_SCREENSHOTS_DIR set, each is saved at 1366 and 390 px.

const demo = (role: 'admin' | 'buyer' | 'seller') =>
  DEMO_ACCOUNTS.find((a) => a.role === role) as (typeof DEMO_ACCOUNTS)[number]

test('"mac book" finds the same laptops as "macbook" @both', async ({ page }) => {
  await page.goto('/productcard?q=macbook')
  const together = page.getByRole('status').filter({ hasText: 'found' })
  await expect(together).toHaveText(/^[1-9][\d,]* laptops? found$/)
  const count = await together.textContent()
  const names = await productCards(page).getByRole('heading').allTextContents()
  expect(names.length).toBeGreaterThan(0)
  expect(names.every((n) => /macbook/i.test(n))).toBe(true)

  await page.goto('/productcard?q=mac+book')
  await expect(page.getByRole('status').filter({ hasText: 'found' })).toHaveText(count ?? '')
  expect(await productCards(page).getByRole('heading').allTextContents()).toEqual(names)
  await saveScreenshots(page, 'search-mac-book', { scroll: 'top' })
})

test('a page number past the last page says so and leads to the last page @both', async ({ page }) => {
  const res = await page.goto('/productcard?page=99')
  expect(res?.status()).toBe(200)
  await expect(page.getByText('Page 99 is past the last page')).toBeVisible()
  await expect(page.getByText('No laptops for sale yet')).toHaveCount(0)
  await saveScreenshots(page, 'browse-past-last-page', { scroll: 'top' })
  await page.getByRole('link', { name: /^Go to the last page/ }).click()
  await expect(productCards(page).first()).toBeVisible()
})

test('the admin loads Listing reviews directly and reads names, not ids, in the audit log', async ({
  page,
}) => {
  await signInByApi(page.request, demo('admin'))
  const direct = await page.goto('/dashboard/listing-reviews')
  expect(direct?.status()).toBe(200)
  const again = await page.reload()
  expect(again?.status()).toBe(200)

  // Make an audited change on a person, then read it in the log by name and address, the id on hover.
  const sellers = (await (await page.request.get('/api/sellers?page_size=5')).json()) as {
    _id: string
    name: string
    email: string
  }[]
  const person = sellers[0]
  expect(person).toBeTruthy()
  if (!person) return
  expect((await page.request.put(`/api/sellers/verify/${person._id}`)).status()).toBeLessThan(500)
  await page.goto('/dashboard/audit-log')
  const entry = page.getByText(`${person.name} (${person.email})`).first()
  await expect(entry).toBeVisible()
  await expect(entry).toHaveAttribute('title', `user:${person._id}`)
  await saveScreenshots(page, 'audit-log-names', { scroll: 'top' })

  await page.goto('/dashboard/allbuyers?role=admin')
  await expect(page.getByText(/^Showing \d+ admins?$|^Showing \d+–\d+ of [\d,]+ admins?$/)).toBeVisible()
  await expect(page.getByText(/\S\(you\)/)).toHaveCount(0)
  await saveScreenshots(page, 'admins-list', { scroll: 'top' })

  await page.goto('/dashboard')
  await expect(
    page.getByRole('region', { name: 'Listings, bookings and payments', exact: true }),
  ).toBeVisible()
  await saveScreenshots(page, 'admin-dashboard-charts', { scroll: 'top', settle: 300 })
})

test('the seller’s earnings name each month with its year', async ({ page }) => {
  await signInByApi(page.request, demo('seller'))
  await page.goto('/dashboard/earnings')
  const ticks = page.locator('.recharts-cartesian-axis-tick-value')
  await expect(ticks.first()).toBeVisible()
  const labels = await ticks.allTextContents()
  expect(labels.some((l) => /^[A-Z][a-z]{2} \d{4}$/.test(l))).toBe(true)
  expect(labels.some((l) => /^[A-Z][a-z]{2} \d{2}$/.test(l))).toBe(false)
  await saveScreenshots(page, 'earnings-months', { scroll: 'top', settle: 300 })
})
