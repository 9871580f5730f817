import { expect, type Page, test } from '@playwright/test'
import type { Brand } from '#contract/brands'
import { expectNoSeriousAxeViolations, mainHeading, productCards, saveScreenshots } from './helpers'

// Battery evidence: a seller reports health and cycles (the form explains where to read them, and refuses a
// reading that contradicts the grade); buyers see it on the card and the listing and filter by it.

async function signUpSeller(page: Page) {
  const email = `battery-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`
  const res = await page.request.post('/api/auth/sign-up/email', {
    data: { name: 'Bea Battery', email, password: 'laptop-market-e2e-1', role: 'seller' },
  })
  expect(res.ok(), await res.text()).toBe(true)
}

test('a seller reports the battery, which must agree with the grade, and buyers see and filter by it', async ({
  page,
}) => {
  await signUpSeller(page)
  const brands = (await (await page.request.get('/api/brands')).json()) as Brand[]
  const name = `E2E Battery ${Math.random().toString(36).slice(2, 8)} ThinkPad`

  await page.goto('/dashboard/addproduct')
  await page.getByLabel('Product name').fill(name)
  await page.getByLabel('Brand').selectOption(brands[0]?._id ?? '')
  await page.getByLabel('Years of use').fill('1')
  await page.getByText('Excellent', { exact: true }).click()
  await page.getByLabel('Processor').fill('Intel Core i7-1185G7')
  await page.getByLabel('RAM (GB)').fill('16')
  await page.getByLabel('Storage (GB)').fill('512')
  await page.getByLabel('Screen (inches)').fill('14')
  await page.getByLabel('Resale price').fill('640')
  await page.getByLabel('Original price').fill('1400')
  await page.getByLabel('Image URL').fill('/images/laptop-placeholder.svg')
  await page.getByLabel('Phone number').fill('+1 555 010 4000')
  await page.getByLabel('Location', { exact: true }).fill('Portland, OR')
  await page
    .getByLabel('Description', { exact: true })
    .fill('Fully working, no marks, charger and box included.')

  // The form says how to make each system's report, and how to read the figures by hand in place.
  await expect(page.getByText('How to make the report')).toBeVisible()
  await expect(page.getByText('powercfg /batteryreport', { exact: false }).first()).toBeVisible()
  await page.getByText('Reading the figures yourself').click()
  await expect(page.getByText('System Information → Power', { exact: false })).toBeVisible()
  await expect(page.getByText('upower -i', { exact: false }).first()).toBeVisible()

  // Excellent with a worn battery is refused under the field.
  await page.getByLabel('Battery health (%)').fill('80')
  await page.getByLabel('Charge cycles').fill('212')
  await page.getByRole('button', { name: 'Add Product' }).click()
  await expect(
    page.getByText('Excellent needs battery health of at least 85%', { exact: false }),
  ).toBeVisible()
  await page.getByLabel('Battery health (%)').scrollIntoViewIfNeeded()
  await saveScreenshots(page, 'add-product-battery', { asIs: true })

  await page.getByLabel('Battery health (%)').fill('91')
  await page.getByRole('button', { name: 'Add Product' }).click()
  await expect(page).toHaveURL(/\/dashboard\/myproduct/)

  // Buyers: the filter with its count, the card, the listing.
  await page.goto(`/productcard?q=${encodeURIComponent(name)}`)
  const battery = page.getByRole('group', { name: 'Battery' })
  await expect(battery.getByText(/Battery 80% or more \(\d+\)/)).toBeVisible()
  await battery.getByText(/Battery 80% or more/).click()
  await expect(page).toHaveURL(/min_battery_pct=80/)
  const card = productCards(page).filter({ hasText: name })
  await expect(card.getByText('Battery 91%')).toBeVisible()
  await saveScreenshots(page, 'productcard-battery-filter', { asIs: true })

  await card.getByRole('link', { name }).click()
  await expect(mainHeading(page, name)).toBeVisible()
  await expect(page.getByText('212 charge cycles', { exact: false })).toBeVisible()
  await expect(page.getByTestId('battery-health').first()).toHaveText(
    'Battery 91% — as typed by the seller, not checked',
  )
  await expectNoSeriousAxeViolations(page)
  await saveScreenshots(page, 'listing-battery', { asIs: true })

  // A listing without a reading says so.
  await page.goto('/productcard?sort=newest')
  await expect(productCards(page).first()).toBeVisible()
  const texts = await page.getByTestId('battery-health').allTextContents()
  expect(texts.every((t) => /^Battery (\d+%|not reported)$/.test(t))).toBe(true)
})
