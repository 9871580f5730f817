import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PARCEL_SIZES } from '#contract/delivery'
import { ErrorBody } from '#contract/errors'
import { Product, ProductList } from '#contract/products'
import { ProductPage } from '#contract/search'
import type { Db } from '#server/db/client'
import { createBrand, createProduct, createUser, type NewProduct } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

// Listings made with the shared factories: each test below reads the ones set up here.
let sellers = 0
async function insertSeller(db: Db, values: { name: string; verifiedAt?: Date; disabledAt?: Date }) {
  const seller = await createUser(db, {
    id: `seller-${++sellers}`,
    role: 'seller',
    name: values.name,
    verified: values.verifiedAt,
    disabled: values.disabledAt,
  })
  return seller.id
}
async function insertBrand(db: Db, name: string) {
  return (await createBrand(db, { name, imageUrl: `/media/brands/${name}.svg` })).id
}
async function insertProduct(
  db: Db,
  {
    brandId,
    sellerId,
    ...values
  }: Omit<NewProduct, 'seller' | 'brand'> & { brandId: string; sellerId: string },
  images: { card: string; detail: string }[] = [],
) {
  const row = await createProduct(db, {
    resalePriceCents: 50_000,
    originalPriceCents: 100_000,
    description: 'Works well.',
    location: 'Dhaka',
    processor: 'Intel Core i5-1135G7',
    ramGb: 8,
    storageGb: 256,
    postedOn: new Date('2026-01-01T00:00:00Z'),
    ...values,
    seller: { id: sellerId },
    brand: { id: brandId },
    images: images.map((img) => ({ cardUrl: img.card, detailUrl: img.detail })),
  })
  return row.id
}

let t: TestApp
const ids = {} as Record<
  | 'dell'
  | 'apple'
  | 'lenovo'
  | 'xps'
  | 'soldDell'
  | 'removedDell'
  | 'hiddenDell'
  | 'latitude'
  | 'macbook'
  | 'macbookAir'
  | 'macbookOld',
  string
>

beforeAll(async () => {
  t = await createTestApp()
  const { db } = t
  const seller = await insertSeller(db, { name: 'Rahim Uddin', verifiedAt: new Date('2025-12-01T00:00:00Z') })
  const other = await insertSeller(db, { name: 'Karim Ahmed' })
  const disabled = await insertSeller(db, {
    name: 'Gone Seller',
    disabledAt: new Date('2026-01-05T00:00:00Z'),
  })
  ids.dell = await insertBrand(db, 'Dell')
  ids.apple = await insertBrand(db, 'Apple')
  ids.lenovo = await insertBrand(db, 'Lenovo')

  ids.xps = await insertProduct(
    db,
    {
      brandId: ids.dell,
      sellerId: seller,
      name: 'Dell XPS 13 9310',
      resalePriceCents: 129_950,
      originalPriceCents: 180_000,
      description: 'Bought in 2024, battery at 91%.',
      condition: 'Excellent',
      location: 'Chattogram',
      usesYears: 1,
      processor: 'Intel Core i7-1185G7',
      ramGb: 16,
      storageGb: 512,
      screenInches: 13.4,
      isAdvertised: true,
      postedOn: new Date('2026-01-03T10:00:00Z'),
    },
    [
      { card: '/media/products/xps-1-card.webp', detail: '/media/products/xps-1.webp' },
      { card: '/media/products/xps-2-card.webp', detail: '/media/products/xps-2.webp' },
    ],
  )
  ids.soldDell = await insertProduct(db, {
    brandId: ids.dell,
    sellerId: seller,
    name: 'Dell Inspiron sold',
    isAdvertised: true,
    isSold: true,
    soldAt: new Date('2026-01-04T00:00:00Z'),
    postedOn: new Date('2026-01-04T00:00:00Z'),
  })
  ids.removedDell = await insertProduct(db, {
    brandId: ids.dell,
    sellerId: seller,
    name: 'Dell Vostro removed',
    isAdvertised: true,
    removedAt: new Date('2026-01-04T00:00:00Z'),
    postedOn: new Date('2026-01-04T00:00:00Z'),
  })
  ids.hiddenDell = await insertProduct(db, {
    brandId: ids.dell,
    sellerId: disabled,
    name: 'Dell G15 of a disabled seller',
    isAdvertised: true,
    postedOn: new Date('2026-01-04T00:00:00Z'),
  })
  ids.latitude = await insertProduct(db, {
    brandId: ids.dell,
    sellerId: other,
    name: 'Dell Latitude 5420',
    resalePriceCents: 45_000,
    condition: 'Good',
    ramGb: 8,
    storageGb: 256,
    postedOn: new Date('2026-01-02T00:00:00Z'),
  })
  ids.macbook = await insertProduct(db, {
    brandId: ids.apple,
    sellerId: other,
    name: 'MacBook Pro 14 M1 Pro',
    resalePriceCents: 210_000,
    originalPriceCents: 250_000,
    condition: 'Fair',
    processor: 'Apple M1 Pro',
    ramGb: 32,
    storageGb: 1024,
    isAdvertised: true,
    postedOn: new Date('2026-01-04T12:00:00Z'),
  })
  ids.macbookAir = await insertProduct(db, {
    brandId: ids.apple,
    sellerId: seller,
    name: 'MacBook Air 100% fine_print',
    resalePriceCents: 80_000,
    condition: 'Excellent',
    processor: 'Apple M2',
    ramGb: 16,
    storageGb: 256,
    postedOn: new Date('2026-01-01T00:00:00Z'),
  })
  ids.macbookOld = await insertProduct(db, {
    brandId: ids.apple,
    sellerId: other,
    name: 'MacBook Air 2017',
    resalePriceCents: 20_000,
    condition: 'Fair',
    processor: 'Intel Core i5-5350U',
    ramGb: 8,
    storageGb: 128,
    postedOn: new Date('2025-12-01T00:00:00Z'),
  })
})

afterAll(async () => {
  await t?.close()
})

async function get(url: string) {
  const res = await t.app.inject({ method: 'GET', url })
  return { status: res.statusCode, type: String(res.headers['content-type']), body: res.json() }
}

/** A 4xx in the one error shape, with the code that goes with its status. */
function expectError(res: { status: number; type: string; body: unknown }, status: number) {
  expect(res.status).toBe(status)
  expect(res.type).toMatch(/^application\/json/)
  const body = ErrorBody.parse(res.body)
  expect(body.error.code).toBe({ 400: 'VALIDATION', 404: 'NOT_FOUND' }[status])
  expect(body.error.message.length).toBeGreaterThan(0)
  return body.error
}

const namesOf = (list: Product[]) => list.map((p) => p.name)

describe('GET /api/advertised_product', () => {
  it('lists advertised, available listings only, newest first', async () => {
    const res = await get('/api/advertised_product')
    expect(res.status).toBe(200)
    const list = ProductList.parse(res.body)
    // Sold, removed, not advertised, and a disabled seller's listings never appear.
    expect(namesOf(list)).toEqual(['MacBook Pro 14 M1 Pro', 'Dell XPS 13 9310'])
    for (const p of list) expect(p).toMatchObject({ advertise: true, sellStatus: false })
  })
})

describe('GET /api/category/{id}', () => {
  it("lists only that brand's available listings, newest first", async () => {
    const res = await get(`/api/category/${ids.dell}`)
    expect(res.status).toBe(200)
    const list = ProductList.parse(res.body)
    expect(namesOf(list)).toEqual(['Dell XPS 13 9310', 'Dell Latitude 5420'])
    for (const p of list) expect(p.category_id).toBe(ids.dell)
  })

  it('gives an empty list for a brand with nothing for sale', async () => {
    const res = await get(`/api/category/${ids.lenovo}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual([])
  })

  it('gives a JSON 404 for an unknown brand', async () => {
    const error = expectError(await get(`/api/category/${randomUUID()}`), 404)
    expect(error.message).toBe('Brand not found')
  })

  it.each(['abc', '123', `${randomUUID()}x`, 'null', '%20'])(
    'gives a JSON 400 for the malformed id %s',
    async (id) => {
      const error = expectError(await get(`/api/category/${id}`), 400)
      expect(error.fields).toEqual({ id: 'Must be a valid id' })
    },
  )
})

describe('GET /api/products/{id}', () => {
  it('returns every field of the contract, money in cents and dollars, postedOn in ISO', async () => {
    const res = await get(`/api/products/${ids.xps}`)
    expect(res.status).toBe(200)
    const product = Product.strict().parse(res.body)
    expect(product.renewedOn).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(product).toEqual({
      renewedOn: product.renewedOn,
      price_guide: null,
      expired: false,
      offers_enabled: true,
      _id: ids.xps,
      name: 'Dell XPS 13 9310',
      category_id: ids.dell,
      brand_name: 'Dell',
      seller_name: 'Rahim Uddin',
      seller_verified: true,
      resale_price: 1299.5,
      resale_price_cents: 129_950,
      original_price: 1800,
      original_price_cents: 180_000,
      img: '/media/products/xps-1-card.webp',
      images: [
        { card: '/media/products/xps-1-card.webp', detail: '/media/products/xps-1.webp' },
        { card: '/media/products/xps-2-card.webp', detail: '/media/products/xps-2.webp' },
      ],
      description: 'Bought in 2024, battery at 91%.',
      condition: 'Excellent',
      location: 'Chattogram',
      uses: 1,
      processor: 'Intel Core i7-1185G7',
      ram_gb: 16,
      storage_gb: 512,
      screen_inches: 13.4,
      advertise: true,
      sellStatus: false,
      postedOn: '2026-01-03T10:00:00.000Z',
      on_sale_since: '2026-01-03T10:00:00.000Z',
      seller_id: 'seller-1',
      seller_rating: { average: null, count: 0 },
      reservedUntil: null,
      battery_health_pct: null,
      battery_cycles: null,
      battery_verified: false,
      battery_source: null,
      battery_report_date: null,
      battery_report_is_old: false,
      delivery: 'meet',
      parcel: {
        size: 'small',
        weight_oz: PARCEL_SIZES.small.weightOz,
        size_is_default: true,
        weight_is_default: true,
      },
    })
  })

  it('shows a placeholder image for a listing without images, and an unverified seller as such', async () => {
    const product = Product.parse((await get(`/api/products/${ids.latitude}`)).body)
    expect(product.images).toEqual([])
    expect(product.img).toMatch(/^\/images\//)
    expect(product.seller_verified).toBe(false)
  })

  it('still shows a sold listing, marked sold', async () => {
    const res = await get(`/api/products/${ids.soldDell}`)
    expect(res.status).toBe(200)
    expect(Product.parse(res.body).sellStatus).toBe(true)
  })

  it('gives a JSON 404 for an unknown, removed, or disabled seller listing', async () => {
    for (const id of [randomUUID(), ids.removedDell, ids.hiddenDell]) {
      const error = expectError(await get(`/api/products/${id}`), 404)
      expect(error.message).toBe('Product not found')
    }
  })

  it.each(['abc', '1', "1' or '1'='1", `${randomUUID()}/`.repeat(2)])(
    'gives a JSON 400 for the malformed id %s',
    async (id) => {
      const res = await get(`/api/products/${encodeURIComponent(id)}`)
      expect(expectError(res, 400).fields).toEqual({ id: 'Must be a valid id' })
    },
  )
})

describe('GET /api/search', () => {
  async function search(query: string) {
    const res = await get(`/api/search${query ? `?${query}` : ''}`)
    expect(res.status).toBe(200)
    return ProductPage.parse(res.body)
  }

  it('lists every available listing, newest first, with defaults', async () => {
    const page = await search('')
    expect(namesOf(page.items)).toEqual([
      'MacBook Pro 14 M1 Pro',
      'Dell XPS 13 9310',
      'Dell Latitude 5420',
      'MacBook Air 100% fine_print',
      'MacBook Air 2017',
    ])
    expect(page).toMatchObject({ total: 5, page: 1, page_size: 24 })
  })

  it('matches q against name, processor and brand, case-insensitively', async () => {
    expect(namesOf((await search('q=latitude')).items)).toEqual(['Dell Latitude 5420'])
    expect(namesOf((await search('q=M1%20PRO')).items)).toEqual(['MacBook Pro 14 M1 Pro'])
    expect((await search('q=apple')).total).toBe(3)
    expect((await search('q=%20%20dell%20%20')).total).toBe(2)
  })

  it('searches the words of q and ignores %, _ and \\ around them', async () => {
    expect(namesOf((await search('q=100%25')).items)).toEqual(['MacBook Air 100% fine_print'])
    expect(namesOf((await search('q=fine_print')).items)).toEqual(['MacBook Air 100% fine_print'])
    expect((await search('q=%25')).total).toBe(0)
    expect((await search('q=_')).total).toBe(0)
    expect((await search('q=%5C')).total).toBe(0)
  })

  it('filters by brand, condition, RAM, storage and price', async () => {
    expect((await search(`brand=${ids.apple}`)).total).toBe(3)
    expect((await search(`brand=${ids.lenovo}`)).total).toBe(0)
    expect((await search(`brand=${randomUUID()}`)).total).toBe(0)
    expect(namesOf((await search('condition=Excellent')).items)).toEqual([
      'Dell XPS 13 9310',
      'MacBook Air 100% fine_print',
    ])
    expect(namesOf((await search('min_ram_gb=16')).items)).toEqual([
      'MacBook Pro 14 M1 Pro',
      'Dell XPS 13 9310',
      'MacBook Air 100% fine_print',
    ])
    expect(namesOf((await search('min_storage_gb=512')).items)).toEqual([
      'MacBook Pro 14 M1 Pro',
      'Dell XPS 13 9310',
    ])
    // max_price is in dollars and inclusive.
    expect(namesOf((await search('max_price=450')).items)).toEqual(['Dell Latitude 5420', 'MacBook Air 2017'])
    expect(namesOf((await search('max_price=1299.49')).items)).not.toContain('Dell XPS 13 9310')
    expect(namesOf((await search('max_price=1299.5')).items)).toContain('Dell XPS 13 9310')
  })

  it('combines filters', async () => {
    const page = await search(`brand=${ids.apple}&condition=Fair&min_ram_gb=16&max_price=5000&q=macbook`)
    expect(namesOf(page.items)).toEqual(['MacBook Pro 14 M1 Pro'])
    expect(page.total).toBe(1)
  })

  it('sorts by price both ways', async () => {
    const asc = await search('sort=price_asc')
    expect(asc.items.map((p) => p.resale_price_cents)).toEqual([20_000, 45_000, 80_000, 129_950, 210_000])
    const desc = await search('sort=price_desc')
    expect(desc.items.map((p) => p.resale_price_cents)).toEqual([210_000, 129_950, 80_000, 45_000, 20_000])
    expect(namesOf((await search('sort=newest')).items)[0]).toBe('MacBook Pro 14 M1 Pro')
  })

  it('pages through the results with the same total on every page, and no listing twice', async () => {
    const pages = await Promise.all([1, 2, 3, 4].map((p) => search(`page=${p}&page_size=2&sort=price_asc`)))
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1, 0])
    for (const [i, p] of pages.entries()) expect(p).toMatchObject({ total: 5, page: i + 1, page_size: 2 })
    const seen = pages.flatMap((p) => p.items.map((item) => item._id))
    expect(new Set(seen).size).toBe(5)
    expect((await search('page=416&page_size=24')).items).toEqual([])
    // Deeper than 10,000 listings by page number: the cursor goes there.
    expect(
      Object.keys(expectError(await get('/api/search?page=417&page_size=24'), 400).fields ?? {}),
    ).toEqual(['page'])
  })

  it('refuses an unknown parameter, naming it', async () => {
    const error = expectError(await get('/api/search?colour=red'), 400)
    expect(error.fields).toEqual({ colour: 'Unknown field' })
    expect(error.message).toContain('colour')
  })

  it.each([
    ['brand=dell', 'brand'],
    ['condition=Mint', 'condition'],
    ['condition=excellent', 'condition'],
    ['min_ram_gb=lots', 'min_ram_gb'],
    ['min_ram_gb=-1', 'min_ram_gb'],
    ['min_ram_gb=8.5', 'min_ram_gb'],
    ['min_storage_gb=1e9', 'min_storage_gb'],
    ['max_price=cheap', 'max_price'],
    ['max_price=-5', 'max_price'],
    ['max_price=1e999', 'max_price'],
    ['max_price=NaN', 'max_price'],
    ['sort=cheapest', 'sort'],
    ['page=0', 'page'],
    ['page=1.5', 'page'],
    ['page=1&page=2', 'page'],
    ['page_size=101', 'page_size'],
    ['limit=0', 'limit'],
    ['ram=8,lots', 'ram'],
    ['processor=intel-core-i4', 'processor'],
    ['screen=9', 'screen'],
    ['posted_within=0', 'posted_within'],
    ['min_price=-1', 'min_price'],
    ['page_size=0', 'page_size'],
    [`q=${'a'.repeat(201)}`, 'q'],
    ['q=a&q=b', 'q'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const error = expectError(await get(`/api/search?${query}`), 400)
    expect(Object.keys(error.fields ?? {})).toEqual([field])
  })

  it('reads an empty filter value as no filter', async () => {
    const all = await get('/api/search')
    const empty = await get('/api/search?brand=&condition=&min_ram_gb=&min_storage_gb=&max_price=')
    expect(empty.status).toBe(200)
    expect(ProductPage.parse(empty.body).total).toBe(ProductPage.parse(all.body).total)
  })

  it('names every bad parameter at once', async () => {
    const error = expectError(await get('/api/search?page=0&sort=up&colour=red'), 400)
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(['colour', 'page', 'sort'])
  })

  it('reads a NUL byte in q as a space between words, not a database error', async () => {
    expect((await search('q=macbook%00air')).total).toBe(2)
    expect((await get('/api/search?q=%00')).status).toBe(200)
  })

  it('reports a parameter named __proto__ like any unknown one', async () => {
    const res = await get('/api/search?__proto__=1')
    expect(expectError(res, 400).message).toBe('Invalid query: __proto__')
    // Read from the raw body: copying into a plain object would drop the key.
    expect(Object.keys((res.body as ErrorBody).error.fields ?? {})).toEqual(['__proto__'])
  })
})
