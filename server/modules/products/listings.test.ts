// Selling: a seller lists, edits, advertises, marks sold and deletes laptops. Every refusal is checked
// against the database too: a 400, 403 or 409 must leave the rows exactly as they were.

import { randomUUID } from 'node:crypto'
import { count, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { Product, ProductList, Upload } from '#contract/products'
import { ProductPage } from '#contract/search'
import { productImages, products, uploads } from '#server/db/schema'
import { type Account, bearerFor, insertUser, type SignedIn, signUp } from '#server/test/auth-helpers'
import { createBrand } from '#server/test/factories'
import { fileBody } from '#server/test/multipart'
import { createTestApp, type TestApp } from '#server/test/test-app'

type Headers = Record<string, string>
type Body = Record<string, unknown>

let t: TestApp
let seller: SignedIn
let sellerAuth: Headers
let otherSeller: Account
let otherSellerAuth: Headers
let buyerAuth: Headers
let adminAuth: Headers
let brandId: string
let otherBrandId: string
/** Photos the seller uploaded through the API, and more of the seller's upload rows for the 6-photo limit. */
let photo1: Upload
let photo2: Upload
let morePhotoIds: string[]
/** An upload that belongs to another seller. */
let foreignPhotoId: string

beforeAll(async () => {
  t = await createTestApp()
  seller = await signUp(t.app, { role: 'seller', name: 'Sally Seller' })
  sellerAuth = { cookie: seller.cookie }
  otherSeller = await insertUser(t.db, { role: 'seller' })
  otherSellerAuth = await bearerFor(t.app, otherSeller)
  buyerAuth = await bearerFor(t.app, await insertUser(t.db, { role: 'buyer' }))
  adminAuth = await bearerFor(t.app, await insertUser(t.db, { role: 'admin' }))
  brandId = (await createBrand(t.db, { name: 'Dell' })).id
  otherBrandId = (await createBrand(t.db, { name: 'Lenovo' })).id

  const upload = async (color: string) => {
    const jpeg = await sharp({ create: { width: 200, height: 150, channels: 3, background: color } })
      .jpeg()
      .toBuffer()
    const body = fileBody(jpeg)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { ...sellerAuth, ...body.headers },
      payload: body.payload,
    })
    if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`)
    return Upload.parse(res.json())
  }
  photo1 = await upload('#336699')
  photo2 = await upload('#993366')
  const uploadRow = (uploaderId: string) => ({
    uploaderId,
    cardUrl: `/media/products/${randomUUID()}-card.webp`,
    detailUrl: `/media/products/${randomUUID()}-detail.webp`,
    width: 1600,
    height: 1200,
    bytes: 123_456,
  })
  const more = await t.db
    .insert(uploads)
    .values(Array.from({ length: 5 }, () => uploadRow(seller.user.id)))
    .returning({ id: uploads.id })
  morePhotoIds = more.map((r) => r.id)
  const [foreign] = await t.db.insert(uploads).values(uploadRow(otherSeller.id)).returning({ id: uploads.id })
  if (!foreign) throw new Error('no foreign upload')
  foreignPhotoId = foreign.id
})

afterAll(async () => {
  await t?.close()
})

function validBody(overrides: Body = {}): Body {
  return {
    name: `Dell XPS 13 ${randomUUID().slice(0, 8)}`,
    category_id: brandId,
    seller_phone: '(512) 555-0142',
    resale_price: 649.5,
    original_price: 1299,
    description: 'Fully working, light marks on the lid, battery at 88% of design capacity.',
    condition: 'Excellent',
    location: 'Austin, TX',
    uses: 2,
    processor: 'Intel Core i7-1185G7',
    ram_gb: 16,
    storage_gb: 512,
    screen_inches: 13.4,
    images: [photo1._id],
    ...overrides,
  }
}

function without(body: Body, key: string): Body {
  const { [key]: _dropped, ...rest } = body
  return rest
}

function send(
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  auth: Headers,
  body?: unknown,
) {
  return t.app.inject({
    method,
    url,
    headers: auth,
    ...(body === undefined ? {} : { payload: body as Body }),
  })
}

const postProduct = (body: unknown, auth: Headers = sellerAuth) => send('POST', '/api/products', auth, body)
const patchProduct = (id: string, body: unknown, auth: Headers = sellerAuth) =>
  send('PATCH', `/api/products/${id}`, auth, body)
const advertise = (id: string, auth: Headers = sellerAuth) =>
  send('PUT', `/api/advertise/product/${id}`, auth)
const markSold = (id: string, auth: Headers = sellerAuth) => send('PUT', `/api/products/${id}/sold`, auth)
const deleteProduct = (id: string, auth: Headers = sellerAuth) => send('DELETE', `/api/products/${id}`, auth)

async function createListing(overrides: Body = {}): Promise<string> {
  const res = await postProduct(validBody(overrides))
  expect(res.statusCode, res.body).toBe(201)
  const body = res.json() as { acknowledged: boolean; insertedId: string }
  expect(body.acknowledged).toBe(true)
  return body.insertedId
}

async function rowCounts() {
  const [p] = await t.db.select({ n: count() }).from(products)
  const [i] = await t.db.select({ n: count() }).from(productImages)
  return { products: p?.n ?? 0, images: i?.n ?? 0 }
}

/** The listing's row and its photos, as stored. */
async function stored(id: string) {
  const [row] = await t.db.select().from(products).where(eq(products.id, id))
  if (!row) throw new Error(`no row for ${id}`)
  const images = await t.db
    .select({
      position: productImages.position,
      card: productImages.cardUrl,
      detail: productImages.detailUrl,
    })
    .from(productImages)
    .where(eq(productImages.productId, id))
    .orderBy(productImages.position)
  return { row, images }
}

async function detail(id: string) {
  return t.app.inject({ method: 'GET', url: `/api/products/${id}` })
}

function errorOf(res: { json(): unknown }) {
  return ErrorBody.parse(res.json()).error
}

/** Marks a value to leave out of the body. */
const MISSING = Symbol('missing')

/** `reportedAs` is the name in the error's `fields` when it is not the field itself. */
type Case = { field: string; value: unknown; message: string; label?: string; reportedAs?: string }

const c = (field: string, value: unknown, message: string, label?: string, reportedAs?: string): Case => ({
  field,
  value,
  message,
  ...(label ? { label } : {}),
  ...(reportedAs ? { reportedAs } : {}),
})

/** Bad values for every field a seller writes, with the message the field must show. */
const FIELD_CASES: Case[] = [
  c('name', MISSING, 'Name is required'),
  c('name', 42, 'Name is required', 'a number'),
  c('name', '  ab  ', 'Name must be at least 3 characters', 'two letters padded with spaces'),
  c('name', 'x'.repeat(121), 'Name is too long'),
  c('category_id', MISSING, 'Please select a category'),
  c('category_id', '', 'Please select a category', 'the select left on its placeholder'),
  c('category_id', 'dell', 'Please select a category'),
  c('category_id', 7, 'Please select a category'),
  c('seller_phone', MISSING, 'Phone number is required'),
  c('seller_phone', 5125550142, 'Phone number is required', 'a number'),
  c('seller_phone', 'call me maybe', 'Enter a valid phone number'),
  c('seller_phone', '12345', 'Enter a valid phone number'),
  c('resale_price', MISSING, 'Resale price is required'),
  c('resale_price', 'cheap', 'Resale price is required'),
  c('resale_price', true, 'Resale price is required', 'a boolean'),
  c('resale_price', [649], 'Resale price is required', 'an array'),
  c('resale_price', null, 'Resale price is required'),
  c('resale_price', 0, 'Resale price must be more than $0'),
  c('resale_price', -5, 'Resale price must be more than $0'),
  c('resale_price', 0.000000001, 'Resale price must be more than $0', 'a fraction of a cent'),
  c('resale_price', 100_000.01, 'Resale price must be at most $100,000'),
  c('resale_price', 649.555, 'Resale price can have at most two decimals', 'three decimals'),
  c('original_price', MISSING, 'Original price is required'),
  c('original_price', 0, 'Original price must be more than $0'),
  c('original_price', -1299, 'Original price must be more than $0'),
  c('original_price', 100_001, 'Original price must be at most $100,000'),
  c('original_price', 1299.999, 'Original price can have at most two decimals'),
  c('description', MISSING, 'Description is required'),
  c('description', ['Fully working, light marks.'], 'Description is required', 'an array'),
  c('description', 'Works well.', 'Describe the laptop in at least 20 characters'),
  c('description', 'x'.repeat(2001), 'Description is too long'),
  c('condition', MISSING, 'Choose Excellent, Good or Fair'),
  c('condition', 'Mint', 'Choose Excellent, Good or Fair'),
  c('condition', 'excellent', 'Choose Excellent, Good or Fair', 'the wrong case'),
  c('condition', 1, 'Choose Excellent, Good or Fair'),
  c('location', MISSING, 'Location is required'),
  c('location', 'A', 'Location is required'),
  c('location', { city: 'Austin' }, 'Location is required', 'an object'),
  c('location', 'x'.repeat(121), 'Location is too long'),
  c('uses', MISSING, 'Years of use is required'),
  c('uses', 'two', 'Years of use is required'),
  c('uses', false, 'Years of use is required', 'a boolean'),
  c('uses', -1, 'Years of use cannot be negative'),
  c('uses', 31, 'Years of use must be at most 30'),
  c('uses', 2.5, 'Years of use must be a whole number'),
  c('processor', MISSING, 'Processor is required'),
  c('processor', 'x', 'Processor is required'),
  c('processor', 'x'.repeat(81), 'Processor is too long'),
  c('ram_gb', MISSING, 'RAM is required'),
  c('ram_gb', 'lots', 'RAM is required'),
  c('ram_gb', true, 'RAM is required', 'a boolean'),
  c('ram_gb', 0, 'RAM must be at least 1 GB'),
  c('ram_gb', 257, 'RAM must be at most 256 GB'),
  c('ram_gb', 8.5, 'RAM must be a whole number of GB'),
  c('storage_gb', MISSING, 'Storage is required'),
  c('storage_gb', 8, 'Storage must be at least 16 GB'),
  c('storage_gb', 16_385, 'Storage must be at most 16 TB'),
  c('storage_gb', 256.5, 'Storage must be a whole number of GB'),
  c('screen_inches', MISSING, 'Screen size is required'),
  c('screen_inches', 'big', 'Screen size is required'),
  c('screen_inches', [14], 'Screen size is required', 'an array'),
  c('screen_inches', 9.9, 'Screen must be at least 10 inches'),
  c('screen_inches', 21.1, 'Screen must be at most 21 inches'),
  c('images', 'not-a-list', 'Invalid input: expected array, received string'),
  // The bad entry is named by its place in the list.
  c('images', ['not-a-uuid'], 'Unknown photo', 'an id that is not a UUID', 'images.0'),
  c('images', [], 'Add at least one photo', 'an empty list and no image URL'),
  c('img', 'javascript:alert(1)', 'Image URL must start with https://'),
  c('img', 'data:image/png;base64,iVBORw0KGgo=', 'Image URL must start with https://'),
  c('img', 'ftp://example.com/laptop.jpg', 'Image URL must start with https://'),
  c('img', 'file:///etc/passwd', 'Image URL must start with https://'),
  c('img', 'not a url', 'Image URL must start with https://'),
  // Loaded by every viewer's browser from that host: plain http would be a tracking pixel on buyers and admins.
  c('img', 'http://images.example.com/laptop.jpg', 'Image URL must start with https://'),
  c(
    'img',
    `https://images.example.com/${'a'.repeat(2048)}.jpg`,
    'Image URL is too long',
    'over 2048 characters',
  ),
]

/** Cases that need ids known only once the photos exist. */
function photoCases(): Case[] {
  const six = [photo1._id, ...morePhotoIds]
  return [
    c('images', [...six, photo2._id], 'At most 6 photos', 'seven uploads'),
    c('images', [foreignPhotoId], 'Unknown photo', "another seller's upload"),
    c('images', [randomUUID()], 'Unknown photo', 'an upload that does not exist'),
    c('images', [photo1._id, photo2._id, photo1._id], 'Each photo can be used once', 'a duplicate'),
  ]
}

function caseName(x: Case) {
  return `${x.field}: ${x.label ?? (x.value === MISSING ? 'missing' : JSON.stringify(x.value).slice(0, 40))}`
}

function applyCase(body: Body, x: Case): Body {
  return x.value === MISSING ? without(body, x.field) : { ...body, [x.field]: x.value }
}

async function expectFieldError(res: Awaited<ReturnType<typeof send>>, field: string, message: string) {
  expect(res.statusCode, res.body).toBe(400)
  const error = errorOf(res)
  expect(error.code).toBe('VALIDATION')
  expect(error.fields?.[field], JSON.stringify(error)).toBe(message)
}

describe('POST /api/products: every field is validated and a refusal writes nothing', () => {
  it('accepts the valid body these cases start from', async () => {
    const res = await postProduct(validBody())
    expect(res.statusCode, res.body).toBe(201)
  })

  it.each(FIELD_CASES.map((x) => [caseName(x), x] as const))('%s', async (_name, x) => {
    const before = await rowCounts()
    const body = applyCase(validBody(), x)
    await expectFieldError(await postProduct(body), x.reportedAs ?? x.field, x.message)
    expect(await rowCounts()).toEqual(before)
  })

  it('refuses bad photo lists: too many, foreign, unknown, duplicated, none at all', async () => {
    for (const x of photoCases()) {
      const before = await rowCounts()
      await expectFieldError(await postProduct(applyCase(validBody(), x)), x.field, x.message)
      expect(await rowCounts(), caseName(x)).toEqual(before)
    }
    const before = await rowCounts()
    await expectFieldError(
      await postProduct(without(validBody(), 'images')),
      'images',
      'Add at least one photo',
    )
    await expectFieldError(
      await postProduct({ ...validBody(), images: [], img: '' }),
      'images',
      'Add at least one photo',
    )
    // Six uploads and an image URL make seven photos.
    await expectFieldError(
      await postProduct({
        ...validBody(),
        images: [photo1._id, ...morePhotoIds],
        img: 'https://images.example.com/x.jpg',
      }),
      'images',
      'At most 6 photos',
    )
    expect(await rowCounts()).toEqual(before)
  })

  it('refuses an unknown brand with the brand field named', async () => {
    const before = await rowCounts()
    await expectFieldError(
      await postProduct(validBody({ category_id: randomUUID() })),
      'category_id',
      'Please select a category',
    )
    expect(await rowCounts()).toEqual(before)
  })

  it('refuses fields it does not know, and lists each one', async () => {
    const before = await rowCounts()
    for (const extra of [
      'seller_id',
      'sellerId',
      'is_advertised',
      'is_sold',
      '_id',
      'removed_at',
      'verified',
    ]) {
      const res = await postProduct(validBody({ [extra]: 'x' }))
      await expectFieldError(res, extra, 'Unknown field')
    }
    const two = await postProduct(validBody({ brand: 'Dell', price: 1 }))
    expect(two.statusCode).toBe(400)
    expect(errorOf(two).fields).toEqual({ brand: 'Unknown field', price: 'Unknown field' })
    expect(await rowCounts()).toEqual(before)
  })

  it('refuses prototype keys and bodies that are not a JSON object', async () => {
    const before = await rowCounts()
    const raw = (payload: string, type = 'application/json') =>
      t.app.inject({
        method: 'POST',
        url: '/api/products',
        headers: { ...sellerAuth, 'content-type': type },
        payload,
      })
    const json = JSON.stringify(validBody())
    for (const res of [
      await raw(`${json.slice(0, -1)},"__proto__":{"isAdvertised":true}}`),
      await raw(`${json.slice(0, -1)},"constructor":{"prototype":{"isAdvertised":true}}}`),
      await raw('{"name": "Dell",'),
      await raw('[]'),
      await raw('"a string"'),
      await raw('null'),
      await raw('name=Dell', 'application/x-www-form-urlencoded'),
    ]) {
      expect([400, 415], res.body).toContain(res.statusCode)
      expect(ErrorBody.safeParse(res.json()).success, res.body).toBe(true)
    }
    expect(await rowCounts()).toEqual(before)
  })

  it('refuses text the database cannot store (a NUL byte) with a 400, writing nothing', async () => {
    const before = await rowCounts()
    for (const body of [
      validBody({ name: 'Dell\u0000XPS 13' }),
      validBody({ description: `${'Fully working, no marks. '.repeat(2)}\u0000` }),
      validBody({ images: undefined, img: 'https://images.example.com/a\u0000.jpg' }),
    ]) {
      const res = await postProduct(body)
      expect(res.statusCode, res.body).toBe(400)
      expect(errorOf(res).code).toBe('VALIDATION')
    }
    expect(await rowCounts()).toEqual(before)
  })

  it('accepts every boundary value, and numbers typed into a form as strings', async () => {
    const low = validBody({
      name: 'HP 1',
      resale_price: 0.01,
      original_price: '0.02',
      uses: 0,
      ram_gb: 1,
      storage_gb: 16,
      screen_inches: 10,
      description: 'x'.repeat(20),
      location: 'NY',
      processor: 'M1',
      seller_phone: '555123',
    })
    const high = validBody({
      name: 'n'.repeat(120),
      resale_price: 100_000,
      original_price: '100000.00',
      uses: '30',
      ram_gb: '256',
      storage_gb: 16_384,
      screen_inches: '21',
      description: 'd'.repeat(2000),
      location: 'l'.repeat(120),
      processor: 'p'.repeat(80),
      images: [photo1._id, ...morePhotoIds],
    })
    for (const body of [low, high]) {
      const res = await postProduct(body)
      expect(res.statusCode, res.body).toBe(201)
    }
    const lowRow = await t.db.select().from(products).where(eq(products.name, 'HP 1'))
    expect(lowRow[0]).toMatchObject({ resalePriceCents: 1, originalPriceCents: 2, usesYears: 0, ramGb: 1 })
  })

  // An outside https image is fetched and stored like an upload (listing-image-url.test.ts).
  it('takes a picture this server serves instead of an upload', async () => {
    for (const img of ['/images/laptop-placeholder.svg']) {
      const id = await createListing({ images: undefined, img })
      const { images } = await stored(id)
      expect(images).toEqual([{ position: 1, card: img, detail: img }])
    }
  })
})

describe('PATCH /api/products/{id}: the same rules, and a refusal changes nothing', () => {
  let id: string
  beforeAll(async () => {
    id = await createListing({ images: [photo1._id, photo2._id] })
  })

  const PATCH_CASES = FIELD_CASES.filter((x) => x.value !== MISSING)

  it.each(PATCH_CASES.map((x) => [caseName(x), x] as const))('%s', async (_name, x) => {
    const before = await stored(id)
    await expectFieldError(await patchProduct(id, applyCase({}, x)), x.reportedAs ?? x.field, x.message)
    expect(await stored(id)).toEqual(before)
  })

  it('refuses bad photo lists, an unknown brand, unknown fields, and null for a field', async () => {
    const before = await stored(id)
    for (const x of photoCases()) {
      await expectFieldError(await patchProduct(id, applyCase({}, x)), x.field, x.message)
    }
    await expectFieldError(
      await patchProduct(id, { images: [], img: '' }),
      'images',
      'Add at least one photo',
    )
    await expectFieldError(
      await patchProduct(id, { category_id: randomUUID() }),
      'category_id',
      'Please select a category',
    )
    await expectFieldError(
      await patchProduct(id, { seller_id: otherSeller.id }),
      'seller_id',
      'Unknown field',
    )
    await expectFieldError(await patchProduct(id, { is_sold: false }), 'is_sold', 'Unknown field')
    await expectFieldError(await patchProduct(id, { name: null }), 'name', 'Name is required')
    expect(await stored(id)).toEqual(before)
  })

  it('edits the fields it is given and keeps the rest', async () => {
    const before = await stored(id)
    const res = await patchProduct(id, {
      resale_price: '599.99',
      condition: 'Good',
      category_id: otherBrandId,
      ram_gb: 32,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ acknowledged: true, modifiedCount: 1 })
    const after = await stored(id)
    expect(after.row).toMatchObject({
      resalePriceCents: 59_999,
      condition: 'Good',
      brandId: otherBrandId,
      ramGb: 32,
      name: before.row.name,
      description: before.row.description,
      sellerId: seller.user.id,
      postedOn: before.row.postedOn,
    })
    expect(after.images).toEqual(before.images)
  })

  it('replaces the photos in the order given, with an image URL last', async () => {
    const url = '/images/laptop-placeholder.svg'
    const res = await patchProduct(id, { images: [photo2._id, photo1._id], img: url })
    expect(res.statusCode, res.body).toBe(200)
    const answer = Product.parse((await detail(id)).json())
    expect(answer.images).toEqual([
      { card: photo2.card, medium: photo2.medium, detail: photo2.detail },
      { card: photo1.card, medium: photo1.medium, detail: photo1.detail },
      { card: url, detail: url },
    ])
    expect(answer.img).toBe(photo2.card)
  })
})

describe('mass assignment: fields the server owns never come from the body', () => {
  const forged = () => ({
    advertise: true,
    sellStatus: true,
    seller_name: 'Mallory',
    seller_email: otherSeller.email,
    postedOn: '2001-01-01T00:00:00.000Z',
    post_date: '2001-01-01',
  })

  it('POST: the seller is the caller, the date is now, and it starts unadvertised and available', async () => {
    const started = Date.now()
    const id = await createListing(forged())
    const { row } = await stored(id)
    expect(row.sellerId).toBe(seller.user.id)
    expect(row.isAdvertised).toBe(false)
    expect(row.isSold).toBe(false)
    expect(row.soldAt).toBeNull()
    expect(row.removedAt).toBeNull()
    expect(Math.abs(row.postedOn.getTime() - started)).toBeLessThan(60_000)
    const answer = Product.parse((await detail(id)).json())
    expect(answer).toMatchObject({ seller_name: 'Sally Seller', advertise: false, sellStatus: false })
    expect(answer.seller_email).toBeUndefined()
    const advertised = ProductList.parse((await send('GET', '/api/advertised_product', {})).json())
    expect(advertised.map((p) => p._id)).not.toContain(id)
  })

  it('PATCH: the same fields change nothing on an available listing', async () => {
    const id = await createListing()
    const before = await stored(id)
    const res = await patchProduct(id, forged())
    expect(res.statusCode, res.body).toBe(200)
    const after = await stored(id)
    expect(after.row).toMatchObject({
      sellerId: seller.user.id,
      isAdvertised: false,
      isSold: false,
      soldAt: null,
      postedOn: before.row.postedOn,
    })
  })
})

describe('ownership on every call', () => {
  let id: string
  beforeAll(async () => {
    id = await createListing()
  })

  it('only sellers list laptops: signed out 401, buyer and admin 403, and nothing is written', async () => {
    const before = await rowCounts()
    expect((await postProduct(validBody(), {})).statusCode).toBe(401)
    expect((await postProduct(validBody(), buyerAuth)).statusCode).toBe(403)
    expect((await postProduct(validBody(), adminAuth)).statusCode).toBe(403)
    expect(await rowCounts()).toEqual(before)
  })

  it('another seller, a buyer or an admin cannot edit, advertise or mark sold', async () => {
    const before = await stored(id)
    for (const [auth, status] of [
      [{}, 401],
      [buyerAuth, 403],
      [otherSellerAuth, 403],
      [adminAuth, 403],
    ] as const) {
      expect((await patchProduct(id, { name: 'Stolen listing' }, auth)).statusCode).toBe(status)
      expect((await advertise(id, auth)).statusCode).toBe(status)
      expect((await markSold(id, auth)).statusCode).toBe(status)
    }
    const other = await patchProduct(id, { name: 'Stolen listing' }, otherSellerAuth)
    expect(errorOf(other).code).toBe('FORBIDDEN')
    expect(await stored(id)).toEqual(before)
  })

  it("a seller cannot put another seller's photo on their listing", async () => {
    const before = await stored(id)
    const res = await patchProduct(id, { images: [foreignPhotoId] })
    await expectFieldError(res, 'images', 'Unknown photo')
    expect(await stored(id)).toEqual(before)
  })

  it('only the owner or an admin deletes', async () => {
    const mine = await createListing()
    const before = await stored(mine)
    for (const [auth, status] of [
      [{}, 401],
      [buyerAuth, 403],
      [otherSellerAuth, 403],
    ] as const) {
      expect((await deleteProduct(mine, auth)).statusCode).toBe(status)
    }
    expect(await stored(mine)).toEqual(before)
    const byAdmin = await deleteProduct(mine, adminAuth)
    expect(byAdmin.statusCode, byAdmin.body).toBe(200)
    expect(byAdmin.json()).toEqual({ acknowledged: true, deletedCount: 1 })
    expect((await detail(mine)).statusCode).toBe(404)
  })

  it("GET /api/products?email= answers the seller's own list or an admin", async () => {
    const url = (email: string) => `/api/products?email=${encodeURIComponent(email)}`
    const own = await send('GET', url(seller.user.email), sellerAuth)
    expect(own.statusCode).toBe(200)
    const list = ProductList.parse(own.json())
    expect(list.map((p) => p._id)).toContain(id)
    expect(list.every((p) => p.seller_email === seller.user.email && p.seller_phone)).toBe(true)
    expect((await send('GET', url(seller.user.email.toUpperCase()), sellerAuth)).statusCode).toBe(200)
    const asAdmin = await send('GET', url(seller.user.email), adminAuth)
    expect(asAdmin.statusCode).toBe(200)
    expect(ProductList.parse(asAdmin.json()).map((p) => p._id)).toEqual(list.map((p) => p._id))
    expect((await send('GET', url(seller.user.email), {})).statusCode).toBe(401)
    expect((await send('GET', url(seller.user.email), buyerAuth)).statusCode).toBe(403)
    expect((await send('GET', url(seller.user.email), otherSellerAuth)).statusCode).toBe(403)
    expect((await send('GET', url(otherSeller.email), otherSellerAuth)).json()).toEqual([])
    expect((await send('GET', url('nobody@example.test'), adminAuth)).json()).toEqual([])
    expect((await send('GET', '/api/products?email=not-an-email', sellerAuth)).statusCode).toBe(400)
    expect((await send('GET', '/api/products', sellerAuth)).statusCode).toBe(400)
  })

  it('answers 400 for a malformed id and 404 for an unknown one, on every call', async () => {
    for (const bad of ['nope', '1', `${randomUUID()}x`]) {
      expect((await patchProduct(bad, { name: 'Renamed laptop' })).statusCode).toBe(400)
      expect((await advertise(bad)).statusCode).toBe(400)
      expect((await markSold(bad)).statusCode).toBe(400)
      expect((await deleteProduct(bad)).statusCode).toBe(400)
    }
    const unknown = randomUUID()
    expect((await patchProduct(unknown, { name: 'Renamed laptop' })).statusCode).toBe(404)
    expect((await advertise(unknown)).statusCode).toBe(404)
    expect((await markSold(unknown)).statusCode).toBe(404)
    expect((await deleteProduct(unknown)).statusCode).toBe(404)
  })
})

describe('a listing from available to sold to deleted', () => {
  const tag = randomUUID().slice(0, 8)
  let id: string

  const advertisedIds = async () =>
    ProductList.parse((await send('GET', '/api/advertised_product', {})).json()).map((p) => p._id)
  const categoryIds = async () =>
    ProductList.parse((await send('GET', `/api/category/${brandId}`, {})).json()).map((p) => p._id)
  const searchIds = async () =>
    ProductPage.parse((await send('GET', `/api/search?q=${tag}`, {})).json()).items.map((p) => p._id)

  beforeAll(async () => {
    id = await createListing({ name: `ThinkPad ${tag}` })
  })

  it('stores 649.5 dollars as 64950 cents and answers both', async () => {
    const { row } = await stored(id)
    expect(row.resalePriceCents).toBe(64_950)
    expect(row.originalPriceCents).toBe(129_900)
    const answer = Product.parse((await detail(id)).json())
    expect(answer).toMatchObject({
      resale_price: 649.5,
      resale_price_cents: 64_950,
      original_price: 1299,
      original_price_cents: 129_900,
    })
    // Binary fractions do not drift: 19.99 is 1999 cents, not 1998.
    const cheap = await createListing({ resale_price: 19.99, original_price: 1.1 })
    expect((await stored(cheap)).row).toMatchObject({ resalePriceCents: 1999, originalPriceCents: 110 })
  })

  it('is on the category page and in search, but not advertised until the seller asks', async () => {
    expect(await categoryIds()).toContain(id)
    expect(await searchIds()).toEqual([id])
    expect(await advertisedIds()).not.toContain(id)
  })

  it('advertising puts it on the home page once; a second time modifies nothing', async () => {
    const first = await advertise(id)
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json()).toEqual({ acknowledged: true, modifiedCount: 1 })
    expect(await advertisedIds()).toContain(id)
    expect((await stored(id)).row.isAdvertised).toBe(true)
    const second = await advertise(id)
    expect(second.statusCode).toBe(200)
    expect(second.json()).toEqual({ acknowledged: true, modifiedCount: 0 })
  })

  it('marking it sold takes it off the home page, the category page and search', async () => {
    const res = await markSold(id)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ acknowledged: true, modifiedCount: 1 })
    const { row } = await stored(id)
    expect(row.isSold).toBe(true)
    expect(row.soldAt).not.toBeNull()
    expect(await advertisedIds()).not.toContain(id)
    expect(await categoryIds()).not.toContain(id)
    expect(await searchIds()).toEqual([])
    const answer = Product.parse((await detail(id)).json())
    expect(answer.sellStatus).toBe(true)
    const again = await markSold(id)
    expect(again.json()).toEqual({ acknowledged: true, modifiedCount: 0 })
    const own = ProductList.parse(
      (await send('GET', `/api/products?email=${encodeURIComponent(seller.user.email)}`, sellerAuth)).json(),
    )
    expect(own.find((p) => p._id === id)?.sellStatus).toBe(true)
  })

  it('a sold listing cannot be advertised, edited, or edited back into available', async () => {
    const before = await stored(id)
    const ad = await advertise(id)
    expect(ad.statusCode).toBe(409)
    expect(errorOf(ad).message).toBe('Only an available laptop can be advertised')
    const edit = await patchProduct(id, { name: 'Renamed after sale' })
    expect(edit.statusCode).toBe(409)
    expect(errorOf(edit).message).toBe('A sold laptop cannot be edited')
    const revive = await patchProduct(id, { sellStatus: false, advertise: true })
    expect(revive.statusCode).toBe(409)
    expect(await stored(id)).toEqual(before)
    // Another seller still gets 403, not 409: whose it is comes first.
    expect((await advertise(id, otherSellerAuth)).statusCode).toBe(403)
  })

  it('deleting hides it everywhere but keeps the row', async () => {
    const res = await deleteProduct(id)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ acknowledged: true, deletedCount: 1 })
    expect((await detail(id)).statusCode).toBe(404)
    const { row, images } = await stored(id)
    expect(row.removedAt).not.toBeNull()
    expect(images.length).toBeGreaterThan(0)
    const own = ProductList.parse(
      (await send('GET', `/api/products?email=${encodeURIComponent(seller.user.email)}`, sellerAuth)).json(),
    )
    expect(own.map((p) => p._id)).not.toContain(id)
    expect((await deleteProduct(id)).statusCode).toBe(404)
    expect((await patchProduct(id, { name: 'Back from the dead' })).statusCode).toBe(404)
    expect((await advertise(id)).statusCode).toBe(404)
    expect((await markSold(id)).statusCode).toBe(404)
  })

  it('a deleted advertised listing leaves the home page', async () => {
    const other = await createListing()
    await advertise(other)
    expect(await advertisedIds()).toContain(other)
    expect((await deleteProduct(other)).statusCode).toBe(200)
    expect(await advertisedIds()).not.toContain(other)
  })
})
