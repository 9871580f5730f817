import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test'
import type { Brand } from '#contract/brands'
import { feeCents } from '#contract/fees'
import { HANDOVER_CHECK_KEYS } from '#contract/handover'
import { formatMoney } from '#contract/money'
import {
  confirmEmail,
  confirmItsYou,
  expectNoSeriousAxeViolations,
  mainHeading,
  saveScreenshots,
} from './helpers'

// Money reaches the seller (docs/decisions/0035): a new seller sets up test payouts on Earnings and sees what
// they will receive after the fee while typing a price; a buyer pays and confirms; the payout job (every 5 s
// in the e2e server, landing 2 s later) pays the seller; Earnings and the admin's Finance page show it.
// With E2E_SCREENSHOTS_DIR set, the pages are saved there at 1366 and 390 px wide.

const PASSWORD = 'laptop-market-e2e-1'
const DEMO_ADMIN = { email: 'admin@laptopmarket.test', password: 'demo-pass-123' }
const EXPIRY = `12 / ${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0')}`
const PRICE_CENTS = 61_250
const FEE = { basisPoints: 500, minCents: 0 }
const NET = formatMoney(PRICE_CENTS - feeCents(PRICE_CENTS, FEE))

function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`
}

async function signUpByApi(request: APIRequestContext, role: 'buyer' | 'seller', name: string) {
  const email = uniqueEmail(role)
  const res = await request.post('/api/auth/sign-up/email', {
    data: { name, email, password: PASSWORD, role },
  })
  expect(res.ok(), `sign-up of a ${role}: ${res.status()} ${await res.text()}`).toBe(true)
  // A buyer holds a laptop to pay only with a confirmed address.
  if (role === 'buyer') await confirmEmail(request, email)
}

/**
 * The whole page, only `part` of it, or (`'viewport'`, for a dialog over the page) what the screen shows, at both
 * widths (the page scrolled to the top, so the sticky bar stays there).
 */
async function shoot(page: Page, name: string, part?: Locator | 'viewport') {
  await saveScreenshots(page, name, { part, scroll: 'top', settle: 300 })
}

test('a seller sets up test payouts, sells, the buyer confirms, the payout arrives; finance balances', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000)
  const sellerName = `Pat Payout ${Math.random().toString(36).slice(2, 6)}`
  await signUpByApi(page.request, 'seller', sellerName)

  // Payout setup on Earnings, with Stripe's documented test bank numbers.
  await page.goto('/dashboard/earnings')
  await expect(mainHeading(page, 'Earnings')).toBeVisible()
  await expect(page.getByText('Not set up')).toBeVisible()
  await page.getByLabel('Account holder').fill(sellerName)
  await page.getByLabel('Routing number').fill('110000001')
  await page.getByLabel('Account number').fill('000123456789')
  await page.getByRole('button', { name: 'Save bank account' }).click()
  await expect(page.getByText('This routing number is not valid')).toBeVisible()
  await page.getByLabel('Routing number').fill('110000000')
  await page.getByRole('button', { name: 'Save bank account' }).click()
  // Payout details change only after the password is given again (a step-up, good for 5 minutes).
  await confirmItsYou(page, PASSWORD, 'confirm-its-you')
  await expect(page.getByText('Payouts on')).toBeVisible()
  await expect(page.getByText(/account ending\s*6789/)).toBeVisible()
  // The e2e server pays out every 5 s: the next run is today (tomorrow just before midnight), to the second.
  await expect(page.getByText(/^Next payout: (today|tomorrow) at \d\d:\d\d(:\d\d)? UTC$/)).toBeVisible()

  // The listing form says what the seller receives after the fee, as the price is typed.
  await page.goto('/dashboard/addproduct')
  await page.getByLabel('Resale price', { exact: true }).fill('612.50')
  await expect(page.getByText(`You’ll receive ${NET} after the fee`)).toBeVisible()
  await shoot(page, 'listing-fee-hint', page.locator('section').filter({ hasText: 'Resale price' }).last())

  // The laptop is listed (through the API, as the form would), bought, handed over and confirmed.
  const brands = (await (await page.request.get('/api/brands')).json()) as Brand[]
  const brand = [...brands].sort((a, b) => b.product_count - a.product_count)[0] as Brand
  const productName = `E2E payout ${Math.random().toString(36).slice(2, 8)} ThinkPad`
  const listed = await page.request.post('/api/products', {
    data: {
      name: productName,
      category_id: brand._id,
      seller_phone: '+1 555 010 2000',
      resale_price: PRICE_CENTS / 100,
      original_price: 1199,
      description: 'Fully working, light marks on the lid, battery at 82% of design capacity.',
      condition: 'Good',
      location: 'Austin, TX',
      uses: 2,
      processor: 'Intel Core i5-1135G7',
      ram_gb: 16,
      storage_gb: 512,
      screen_inches: 14,
      img: '/images/laptop-placeholder.svg',
    },
  })
  expect(listed.status(), await listed.text()).toBe(201)
  const productId = ((await listed.json()) as { insertedId: string }).insertedId

  const buyerContext = await browser.newContext()
  await signUpByApi(buyerContext.request, 'buyer', 'Bailey Buyer')
  const booked = await buyerContext.request.post('/api/bookings', {
    data: { productId, phoneNumber: '+1 555 020 3000', location: 'Austin, TX' },
  })
  expect(booked.status(), await booked.text()).toBe(201)
  const bookingId = ((await booked.json()) as { insertedId: string }).insertedId
  expect((await buyerContext.request.post(`/api/bookings/${bookingId}/hold`)).status()).toBe(200)
  const paid = await buyerContext.request.post('/api/payments/test', {
    data: { bookingId, card: { number: '4242 4242 4242 4242', expiry: EXPIRY, cvc: '123' } },
  })
  expect(paid.status(), await paid.text()).toBe(200)

  // Paid, not completed: the money is held.
  await page.goto('/dashboard/earnings')
  await expect(page.getByRole('row').filter({ hasText: 'E2E payout' })).toContainText(/Held$/)
  expect((await page.request.put(`/api/bookings/${bookingId}/handed-over`, { data: {} })).status()).toBe(200)
  // The handover checklist, every item ticked, goes with "Received, as described".
  const checklist = Object.fromEntries(HANDOVER_CHECK_KEYS.map((key) => [key, true]))
  expect(
    (await buyerContext.request.put(`/api/bookings/${bookingId}/received`, { data: { checklist } })).status(),
  ).toBe(200)
  await buyerContext.close()

  // The payout job pays it out and the payout lands; the page refreshes itself.
  await expect(async () => {
    await page.reload()
    await expect(page.getByRole('listitem').filter({ hasText: NET })).toContainText('Paid', { timeout: 2000 })
  }).toPass({ timeout: 90_000, intervals: [2000] })
  await expect(page.getByRole('row').filter({ hasText: 'E2E payout' })).toContainText('Paid out')
  await expect(page.getByRole('definition').filter({ hasText: NET }).first()).toBeVisible()
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export CSV' }).click()
  expect((await download).suggestedFilename()).toMatch(/^laptop-market-earnings-.*\.csv$/)
  // Each payout says which account it went to.
  await expect(page.getByRole('listitem').filter({ hasText: NET })).toContainText('To account ending 6789')
  await expectNoSeriousAxeViolations(page)
  await shoot(page, 'earnings')

  // New bank details receive payouts only after a wait (PAYOUT_ACCOUNT_HOLD_HOURS); Earnings says when.
  await page.getByRole('button', { name: 'Change bank account' }).click()
  await page.getByLabel('Account holder').fill(sellerName)
  await page.getByLabel('Routing number').fill('110000000')
  await page.getByLabel('Account number').fill('000555554321')
  await page.getByRole('button', { name: 'Save bank account' }).click()
  // The password given at setup may still count (5 minutes); if not, "Confirm it's you" asks again.
  const confirm = page.getByRole('dialog', { name: "Confirm it's you" })
  await expect(confirm.or(page.getByText('Payouts are set up')).first()).toBeVisible()
  if (await confirm.isVisible()) await confirmItsYou(page, PASSWORD)
  await expect(
    page.getByText(/New bank details: for your safety, payouts to this account start/),
  ).toBeVisible()
  await expect(page.getByText(/account ending\s*4321/)).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await shoot(page, 'earnings-payout-hold')

  // The admin's Finance page: the ledger balances and the payout is there.
  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  const signedIn = await admin.request.post('/api/auth/sign-in/email', { data: DEMO_ADMIN })
  expect(signedIn.ok()).toBe(true)
  await admin.goto('/dashboard/finance')
  await expect(mainHeading(admin, 'Finance')).toBeVisible()
  await expect(admin.getByText('The ledger balances')).toBeVisible()
  await expect(
    admin
      .getByRole('region', { name: 'Recent payouts' })
      .getByRole('listitem')
      .filter({ hasText: sellerName }),
  ).toContainText(NET)
  await expectNoSeriousAxeViolations(admin)
  await shoot(admin, 'finance')

  // The admin refunds the completed sale: the dialog says what happens first (paid out in test mode, so the
  // seller's balance goes below zero until their next sales), then the buyer is refunded.
  const sale = admin.getByTestId('finance-sale').filter({ hasText: productName })
  await sale.getByRole('button', { name: `Refund the sale of ${productName}` }).click()
  const dialog = admin.getByRole('dialog', { name: 'Refund this sale?' })
  await expect(dialog).toContainText(`Bailey Buyer gets ${formatMoney(PRICE_CENTS)} back`)
  await expect(dialog).toContainText(`their balance goes to −${NET} until their next sales make it up`)
  await expectNoSeriousAxeViolations(admin)
  await dialog.getByLabel('Why is the buyer refunded?').fill('The laptop was reported stolen after the sale')
  await shoot(admin, 'finance-refund-dialog', 'viewport')
  await dialog.getByRole('button', { name: 'Refund' }).click()
  await expect(admin.getByText(`Bailey Buyer was refunded ${formatMoney(PRICE_CENTS)}`)).toBeVisible()
  await expect(sale).toContainText('Refunded')
  await expect(admin.getByText('The ledger balances')).toBeVisible()
  await adminContext.close()

  // The seller sees the refund and their balance below zero: this seller's own figure, which no other journey moves
  // (the admin's "Owed by sellers" is every seller's).
  await page.reload()
  await expect(page.getByRole('row').filter({ hasText: productName })).toContainText('Refunded')
  await expect(
    page
      .getByRole('term')
      .filter({ hasText: /^Available$/ })
      .locator('xpath=following-sibling::dd[1]'),
  ).toHaveText(`−${NET}`)
})
