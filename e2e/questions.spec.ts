import { expect, test } from '@playwright/test'
import type { Brand } from '#contract/brands'
import { newSignedIn, saveScreenshots } from './helpers'

// Ask before buying: a buyer asks the seller from the listing, the seller sees it waiting on their questions page,
// answers it publicly, and the listing shows the Q&A with the buyer's first name only. With E2E_SCREENSHOTS_DIR set
// the listing's Q&A and the seller's questions page are saved there at 1366 and 390 px.

test('a buyer asks the seller, the seller answers in public, and the listing shows it with a first name only', async ({
  browser,
}) => {
  test.setTimeout(180_000)
  const seller = await newSignedIn(browser, 'seller', 'Sam Seller')
  const buyer = await newSignedIn(browser, 'buyer', 'Quentin Asker-Jones')
  const brands = (await (await seller.context.request.get('/api/brands')).json()) as Brand[]
  const brand = brands[0] as Brand
  const listed = await seller.context.request.post('/api/products', {
    data: {
      name: 'ThinkPad T14 Gen 3',
      category_id: brand._id,
      seller_phone: '+1 555 010 2000',
      resale_price: 640,
      original_price: 1299,
      description: 'Fully working, light marks on the lid, battery at 86% of design capacity.',
      condition: 'Good',
      location: 'Austin, TX',
      uses: 2,
      processor: 'Intel Core i5-1245U',
      ram_gb: 16,
      storage_gb: 512,
      screen_inches: 14,
      img: '/images/laptop-placeholder.svg',
    },
  })
  expect(listed.status(), await listed.text()).toBe(201)
  const productId = ((await listed.json()) as { insertedId: string }).insertedId

  // The buyer asks from the listing; a request to pay outside is refused with the reason.
  const b = buyer.page
  await b.goto(`/products/${productId}`)
  const qa = b.getByRole('region', { name: 'Questions and answers' })
  await expect(qa.getByText('No questions answered here yet.')).toBeVisible()
  await qa.getByRole('button', { name: 'Ask the seller' }).click()
  const dialog = b.getByRole('dialog', { name: /Ask the seller about ThinkPad T14 Gen 3/ })
  await dialog.getByLabel('Your question').fill('Can I pay you by bank transfer?')
  await dialog.getByRole('button', { name: 'Send question' }).click()
  await expect(dialog.getByText(/Keep payment on Laptop Market/)).toBeVisible()
  await dialog.getByLabel('Your question').fill('Does it come with the original 65 W charger?')
  await dialog.getByRole('button', { name: 'Send question' }).click()
  await expect(dialog.getByText('Your question is on its way.')).toBeVisible()
  await dialog.getByRole('button', { name: 'Done' }).click()

  // The seller sees it waiting (the menu counts it) and answers it for everyone.
  const s = seller.page
  await s.goto('/dashboard/questions')
  await expect(s.getByRole('heading', { level: 1, name: 'Questions' })).toBeVisible()
  await expect(s.getByTestId('unanswered-count')).toHaveText('1 question waits for your answer.')
  await expect(s.getByTestId('unanswered-questions').first()).toContainText('1')
  const question = s.getByTestId('seller-question').filter({ hasText: 'original 65 W charger' })
  await expect(question.getByText('Quentin asked')).toBeVisible()
  await expect(question).not.toContainText('Asker-Jones')
  await saveScreenshots(s, 'questions-seller', { scroll: 'top' })
  await question.getByLabel('Your answer').fill('Yes, the original Lenovo 65 W USB-C charger is included.')
  await expect(question.getByRole('checkbox')).toBeChecked()
  await question.getByRole('button', { name: 'Send answer' }).click()
  await expect(s.getByTestId('unanswered-count')).toHaveText('Every question is answered.')
  await expect(question.getByText('Shown on the listing')).toBeVisible()

  // Everyone sees the Q&A on the listing, as the server renders it, with the asker's first name only.
  const visitor = await browser.newContext()
  const v = await visitor.newPage()
  await v.goto(`/products/${productId}`)
  const shown = v.getByRole('region', { name: 'Questions and answers' })
  await expect(shown.getByText('Does it come with the original 65 W charger?')).toBeVisible()
  await expect(shown.getByText('Yes, the original Lenovo 65 W USB-C charger is included.')).toBeVisible()
  await expect(shown.getByText(/Asked by Quentin/)).toBeVisible()
  await expect(shown).not.toContainText('Asker-Jones')
  await saveScreenshots(v, 'questions-listing', { scroll: 'top' })

  // The asker finds the answer on their own questions page.
  await b.goto('/dashboard/questions?tab=asked')
  await expect(b.getByText('Yes, the original Lenovo 65 W USB-C charger is included.')).toBeVisible()
  await visitor.close()
  await seller.context.close()
  await buyer.context.close()
})
