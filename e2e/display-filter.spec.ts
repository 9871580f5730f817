import path from 'node:path'
import { expect, test } from '@playwright/test'
import type { ProductPage } from '#contract/search'
import { expectLoaded } from './helpers'

// The display's size bucket, a facet added by one declaration (contract/filters.ts), in the search page's filter
// panel: its choices with their counts, picked into the address, narrowing the list as the API does. The panel is
// saved at 1366 and 390 px wide in docs/screenshots/.

test('the filter panel offers the display size, and picking one narrows the list as the API does', async ({
  page,
  request,
}) => {
  const all = (await (await request.get('/api/search?facets=1')).json()) as ProductPage
  const large = all.facets?.display.find((c) => c.value === 'large')
  expect(large?.label).toBe('Large (16″ and up)')

  await page.goto('/productcard')
  await expectLoaded(page)
  await expect(
    page
      .getByRole('main')
      .getByRole('status')
      .filter({ hasText: /laptops? found/ }),
  ).toBeVisible()
  const display = page.getByRole('main').getByRole('group', { name: 'Display' })
  await expect(display.getByRole('radio', { name: 'Any display' })).toBeChecked()
  const large16 = display.getByRole('radio', { name: /^Large \(16″ and up\)/ })
  await expect(async () => {
    await large16.click()
    await expect(page).toHaveURL(/[?&]display=large\b/, { timeout: 2_000 })
  }).toPass()
  await expectLoaded(page)
  const narrowed = (await (await request.get('/api/search?display=large')).json()) as ProductPage
  expect(narrowed.total).toBe(large?.count)
  await expect(
    page
      .getByRole('main')
      .getByRole('status')
      .filter({ hasText: /laptops? found/ }),
  ).toContainText(narrowed.total.toLocaleString('en-US'))

  // The panel at both widths (saved when E2E_SCREENSHOTS_DIR is set): beside the list, and in the phone's drawer.
  const dir = process.env.E2E_SCREENSHOTS_DIR
  if (!dir) return
  await page.setViewportSize({ width: 1366, height: 900 })
  await display.evaluate((el) => el.scrollIntoView({ block: 'center' }))
  await page.waitForTimeout(300)
  await page.screenshot({ path: path.join(dir, 'search-display-filter-1366.png') })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.getByRole('button', { name: 'Filters (1)' }).click()
  const drawer = page.getByRole('dialog')
  const inDrawer = drawer.getByRole('group', { name: 'Display' })
  await expect(inDrawer.getByRole('radio', { name: /^Large \(16″ and up\)/ })).toBeChecked()
  await inDrawer.evaluate((el) => el.scrollIntoView({ block: 'center' }))
  await page.waitForTimeout(300)
  await page.screenshot({ path: path.join(dir, 'search-display-filter-390.png') })
})
