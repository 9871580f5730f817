import { expect, test } from '@playwright/test'
import type { Product } from '#contract/products'
import type { SellerReviews } from '#contract/reviews'
import {
  DEMO_BUYER,
  expectLoaded,
  expectNoHorizontalScroll,
  expectNoSeriousAxeViolations,
  mainHeading,
  productCards,
  signInByApi,
} from './helpers'

test("a card shows its seller's rating, which opens the public seller page with their laptops and reviews @both", async ({
  page,
}) => {
  // Other journeys add listings by sellers nobody has reviewed yet, so open a search that shows a demo
  // listing whose seller has reviews.
  const res = await page.request.get('/api/search?page_size=100')
  const items = ((await res.json()) as { items: Product[] }).items
  const rated = items.find((p) => (p.seller_rating?.count ?? 0) > 0)
  expect(rated, 'the demo data gives some seller reviews').toBeTruthy()
  await page.goto(`/productcard?q=${encodeURIComponent((rated as Product).name)}`)
  await expectLoaded(page)
  const rating = page.getByTestId('seller-rating').first()
  await expect(rating).toHaveText(/^Seller rated \d\.\d out of 5\(\d+ reviews?\)$/)
  const href = (await rating.getAttribute('href')) ?? ''
  expect(href).toMatch(/^\/sellers\//)
  await rating.click()
  await expect(page).toHaveURL(href)
  const sellerId = decodeURIComponent(href.split('/')[2] ?? '')
  const api = (await (await page.request.get(`/api/sellers/${sellerId}/reviews`)).json()) as SellerReviews
  await expect(mainHeading(page, api.seller.name)).toBeVisible()
  await expect(page.getByTestId('seller-average')).toContainText(`from ${api.count} review`)
  await expect(page.getByTestId('seller-review').first()).toContainText(api.reviews[0]?.text ?? '')
  await expect(productCards(page).first()).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await expectNoHorizontalScroll(page)
})

test('an unknown seller page answers 404 with "Seller not found"', async ({ page }) => {
  const res = await page.goto('/sellers/no-such-seller')
  expect(res?.status()).toBe(404)
  await expect(mainHeading(page, 'Seller not found')).toBeVisible()
})

test('the buyer reviews a completed sale on My Orders; the seller had written, so both are published at once', async ({
  page,
}) => {
  await signInByApi(page.request, DEMO_BUYER)
  await page.goto('/dashboard/myorders')
  const rows = page.getByTestId('order-row')
  await expect(rows.getByRole('button', { name: 'Leave a review' }).first()).toBeVisible()
  // The row stays the same element after its button gives way to the form: hold it by its position.
  const index = await rows.evaluateAll((all) =>
    all.findIndex((row) =>
      [...row.querySelectorAll('button')].some((b) => b.textContent === 'Leave a review'),
    ),
  )
  const form = rows.nth(index)
  await form.getByRole('button', { name: 'Leave a review' }).click()
  await form.getByRole('button', { name: 'Send review' }).click()
  await expect(form.getByText('Choose a rating from 1 to 5 stars')).toBeVisible()
  await form.getByRole('group', { name: 'Your rating of the seller' }).getByText('★').nth(3).click()
  const text = `Left by the e2e test at ${Date.now()}: as described.`
  await form.getByLabel('Your review').fill(text)
  await form.getByRole('button', { name: 'Send review' }).click()
  await expect(page.getByText(text)).toBeVisible()
  await expect(page.getByText('Your review').first()).toBeVisible()
  await expectNoSeriousAxeViolations(page)

  // The seller had already reviewed this buyer, so both reviews are published now.
  const mine = (await (await page.request.get('/api/reviews/mine')).json()) as {
    written: { text: string; published: boolean; bookingId: string }[]
  }
  const written = mine.written.find((r) => r.text === text)
  expect(written?.published).toBe(true)
})
