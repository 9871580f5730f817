import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test'
import sharp from 'sharp'
import type { Brand } from '#contract/brands'
import { formatMoney } from '#contract/money'
import type { Product, Upload } from '#contract/products'
import { expectNoHorizontalScroll, expectNoSeriousAxeViolations, mainHeading, productCards } from './helpers'

// A seller lists a laptop with a real photo, advertises it and finds it on the home page; edits a
// listing and its photos; marks one sold and deletes another; and the form says what is wrong, field by field.
// Every test signs up its own seller, so none depends on another or on the demo data.

const PASSWORD = 'laptop-market-e2e-1'

function uniqueEmail(): string {
  return `seller-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`
}

function laptopName(tag: string): string {
  return `E2E ${tag} ${Math.random().toString(36).slice(2, 8)} Latitude`
}

/** A real JPEG with enough detail (noise) to weigh about a megabyte, so its upload takes a moment. */
async function makeJpeg(rgb: { r: number; g: number; b: number }): Promise<Buffer> {
  const noise = await sharp({
    create: {
      width: 1200,
      height: 900,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer()
  return sharp({ create: { width: 1200, height: 900, channels: 3, background: rgb } })
    .composite([{ input: noise, blend: 'overlay' }])
    .jpeg({ quality: 92 })
    .toBuffer()
}

/** Signs up a seller through the API in the page's cookie jar, which signs the page in. */
async function signUpSeller(page: Page) {
  const seller = { name: 'Sky Seller', email: uniqueEmail() }
  const res = await page.request.post('/api/auth/sign-up/email', {
    data: { ...seller, password: PASSWORD, role: 'seller' },
  })
  expect(res.ok(), `sign-up: ${res.status()} ${await res.text()}`).toBe(true)
  return seller
}

async function firstBrand(request: APIRequestContext): Promise<Brand> {
  const brands = (await (await request.get('/api/brands')).json()) as Brand[]
  return [...brands].sort((a, b) => a.brand_name.localeCompare(b.brand_name))[0] as Brand
}

/** Lists a laptop through the API with one uploaded photo, as the signed-in seller. */
async function listByApi(request: APIRequestContext, name: string): Promise<Product> {
  const brand = await firstBrand(request)
  const upload = await request.post('/api/uploads', {
    multipart: {
      file: { name: 'front.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg({ r: 30, g: 90, b: 140 }) },
    },
  })
  expect(upload.status(), await upload.text()).toBe(201)
  const photo = (await upload.json()) as Upload
  const res = await request.post('/api/products', {
    data: {
      name,
      category_id: brand._id,
      seller_phone: '+1 555 010 3000',
      resale_price: 540,
      original_price: 1100,
      description: 'Fully working, a light scratch on the lid, battery at 86% of design capacity.',
      condition: 'Excellent',
      location: 'Denver, CO',
      uses: 1,
      processor: 'Intel Core i7-1185G7',
      ram_gb: 16,
      storage_gb: 512,
      screen_inches: 14,
      images: [photo._id],
    },
  })
  expect(res.status(), await res.text()).toBe(201)
  const { insertedId } = (await res.json()) as { insertedId: string }
  return (await (await request.get(`/api/products/${insertedId}`)).json()) as Product
}

function myProductRow(page: Page, name: string): Locator {
  return page.getByTestId('my-product').filter({ hasText: name })
}

/** The message shown under a field: the last element its aria-describedby names. */
async function fieldMessage(field: Locator): Promise<string> {
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ')
  return (
    (await field
      .page()
      .locator(`[id="${ids.at(-1)}"]`)
      .textContent()) ?? ''
  )
}

async function fillListingForm(page: Page, name: string) {
  await page.getByLabel('Product name').fill(name)
  await page.getByLabel('Brand').selectOption({ index: 1 })
  await page.getByLabel('Years of use').fill('2')
  await page.getByRole('radio', { name: /^Good/ }).check()
  await page.getByLabel('Processor').fill('Intel Core i5-1145G7')
  await page.getByLabel('RAM (GB)').fill('16')
  await page.getByLabel('Storage (GB)').fill('512')
  await page.getByLabel('Screen (inches)').fill('14')
  await page.getByLabel('Resale price').fill('612.50')
  await page.getByLabel('Original price').fill('1199')
  await page.getByLabel('Phone number').fill('+1 555 010 2000')
  await page.getByLabel('Location', { exact: true }).fill('Austin, TX')
  await page
    .getByLabel('Description', { exact: true })
    .fill('Fully working, light marks on the palm rest, battery at 81% of design capacity.')
}

test('a seller lists a laptop with a photo, advertises it and finds it on the home page', async ({
  page,
}) => {
  const seller = await signUpSeller(page)
  const name = laptopName('Advertised')
  const photo = await makeJpeg({ r: 20, g: 110, b: 100 })

  await page.goto('/dashboard/addproduct')
  await expect(mainHeading(page, 'Add a Product')).toBeVisible()
  await expect(page.getByLabel('Seller name')).toHaveValue(seller.name)
  await expect(page.getByLabel('Seller email')).toHaveValue(seller.email)
  await expect(page.getByLabel('Seller email')).not.toBeEditable()
  await fillListingForm(page, name)

  // A slow uplink, so the photo's progress can be watched as it goes.
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 256 * 1024,
  })
  await page
    .getByLabel('Add photos')
    .setInputFiles({ name: 'laptop.jpg', mimeType: 'image/jpeg', buffer: photo })
  const bar = page.getByRole('progressbar', { name: 'Uploading laptop.jpg' })
  await expect(bar).toBeVisible()
  await expect
    .poll(async () => Number(await bar.getAttribute('aria-valuenow', { timeout: 1000 }).catch(() => '0')))
    .toBeGreaterThan(0)
  await expect(page.getByRole('img', { name: 'Your laptop, 1 of 1 (cover)' })).toBeVisible({
    timeout: 20_000,
  })
  await expect(bar).toHaveCount(0)
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  })

  await page.getByRole('button', { name: 'Add Product' }).click()
  await expect(page.getByText('Product added Successfully')).toBeVisible()
  await expect(page).toHaveURL(/\/dashboard\/myproduct$/)
  const row = myProductRow(page, name)
  await expect(row).toBeVisible()
  await expect(row.getByRole('img', { name })).toHaveAttribute('src', /^\/media\/.+-card\.webp$/)
  await expect(row).toContainText('$612.50')
  await expect(row).toContainText('Available')

  await row.getByRole('button', { name: /^Advertise/ }).click()
  await expect(page.getByText('Product Advertise Success')).toBeVisible()
  await expect(row.getByRole('button', { name: /^Advertised/ })).toBeDisabled()
  await page.reload()
  await expect(myProductRow(page, name).getByRole('button', { name: /^Advertised/ })).toBeDisabled()

  await page.goto('/')
  const advertised = page.locator('section').filter({
    has: page.getByRole('heading', { level: 2, name: 'Advertised Laptops' }),
  })
  const card = productCards(advertised).filter({ hasText: name })
  await expect(card).toBeVisible()
  await expect(card).toContainText('Intel Core i5-1145G7 · 16 GB RAM · 512 GB · 14-inch')
  await expect(card).toContainText(formatMoney(61_250))
  await expect(card.getByRole('img', { name })).toHaveAttribute('src', /^\/media\/.+-card\.webp$/)
})

test('a seller edits a listing: a new price and a new cover photo', async ({ page }) => {
  await signUpSeller(page)
  const product = await listByApi(page.request, laptopName('Edited'))

  await page.goto('/dashboard/myproduct')
  await myProductRow(page, product.name).getByRole('link', { name: /^Edit/ }).click()
  await expect(mainHeading(page, 'Edit product')).toBeVisible()
  await expect(page.getByLabel('Product name')).toHaveValue(product.name)
  await expect(page.getByLabel('Brand')).toHaveValue(product.category_id)
  await expect(page.getByLabel('Resale price')).toHaveValue('540')
  await expect(page.getByLabel('Phone number')).toHaveValue('+1 555 010 3000')
  await expect(page.getByRole('radio', { name: /^Excellent/ })).toBeChecked()

  await page.getByLabel('Resale price').fill('499.99')
  await page.getByLabel('Add more photos').setInputFiles({
    name: 'side.png',
    mimeType: 'image/png',
    buffer: await sharp(await makeJpeg({ r: 200, g: 60, b: 40 }))
      .png()
      .toBuffer(),
  })
  await expect(page.getByRole('img', { name: 'Your laptop, 2 of 2' })).toBeVisible({ timeout: 20_000 })
  await page.getByRole('button', { name: 'Move photo 2 earlier' }).click()
  await expect(page.getByRole('button', { name: 'Move photo 1 later' })).toBeFocused()
  const newCover = await page.getByRole('img', { name: 'Your laptop, 1 of 2 (cover)' }).getAttribute('src')

  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Product updated Successfully')).toBeVisible()
  await expect(page).toHaveURL(/\/dashboard\/myproduct$/)
  await expect(myProductRow(page, product.name)).toContainText('$499.99')

  const saved = (await (await page.request.get(`/api/products/${product._id}`)).json()) as Product
  expect(saved.resale_price_cents).toBe(49_999)
  expect(saved.images).toHaveLength(2)
  expect(saved.images[0]?.card).toBe(newCover)
  // The photo kept from before is still there, after the new cover.
  expect(saved.images[1]?.card).toMatch(/^\/media\/.+-card\.webp$/)
})

test('a seller marks a listing sold and deletes another after confirming', async ({ page }) => {
  await signUpSeller(page)
  const sold = await listByApi(page.request, laptopName('Sold'))
  const deleted = await listByApi(page.request, laptopName('Deleted'))

  await page.goto('/dashboard/myproduct')
  const soldRow = myProductRow(page, sold.name)
  await expect(soldRow).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await soldRow.getByRole('button', { name: /^Mark sold/ }).click()
  const soldDialog = page.getByRole('dialog', { name: 'Mark this laptop as sold?' })
  await soldDialog.getByRole('button', { name: 'Mark sold' }).click()
  await expect(soldDialog).toHaveCount(0)
  await expect(soldRow).toContainText('Sold')
  await expect(soldRow.getByRole('button', { name: /^Advertise/ })).toHaveCount(0)
  await expect(soldRow.getByRole('link', { name: /^Edit/ })).toHaveCount(0)

  const row = myProductRow(page, deleted.name)
  await row.getByRole('button', { name: /^Delete/ }).click()
  const dialog = page.getByRole('dialog', { name: 'Are you sure you want to delete?' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await expectNoSeriousAxeViolations(page)
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(row).toBeVisible()

  await row.getByRole('button', { name: /^Delete/ }).click()
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Product deleted Successfully')).toBeVisible()
  await expect(row).toHaveCount(0)
  expect((await page.request.get(`/api/products/${deleted._id}`)).status()).toBe(404)
  await expect(myProductRow(page, sold.name)).toBeVisible()
})

test('the add form puts each message under its field, and a photo the server refuses says why @both', async ({
  page,
}) => {
  await signUpSeller(page)
  await page.goto('/dashboard/addproduct')
  await page.getByRole('button', { name: 'Add Product' }).click()

  expect(await fieldMessage(page.getByLabel('Product name'))).toBe('Name must be at least 3 characters')
  expect(await fieldMessage(page.getByLabel('Brand'))).toBe('Please select a category')
  expect(await fieldMessage(page.getByLabel('Resale price'))).toBe('Resale price is required')
  expect(await fieldMessage(page.getByLabel('Screen (inches)'))).toBe('Screen size is required')
  expect(await fieldMessage(page.getByLabel('Description', { exact: true }))).toBe(
    'Describe the laptop in at least 20 characters',
  )
  await expect(page.getByText('Choose Excellent, Good or Fair')).toBeVisible()
  await expect(page.getByText('Add at least one photo')).toBeVisible()
  await expect(page.getByLabel('Product name')).toBeFocused()

  await page.getByLabel('Screen (inches)').fill('9')
  await page.getByLabel('Image URL').fill('http://example.test/laptop.jpg')
  await page.getByRole('button', { name: 'Add Product' }).click()
  expect(await fieldMessage(page.getByLabel('Screen (inches)'))).toBe('Screen must be at least 10 inches')
  expect(await fieldMessage(page.getByLabel('Image URL'))).toBe('Image URL must start with https://')

  // Named .jpg but not an image: the browser lets it through, the server reads the bytes and refuses it.
  await page
    .getByLabel('Add photos')
    .setInputFiles({ name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a photo at all') })
  await expect(page.getByTestId('photo-tile')).toContainText('This file is not a JPEG, PNG or WebP image')
  await expectNoHorizontalScroll(page)
  await expectNoSeriousAxeViolations(page)
})
