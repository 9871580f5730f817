import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { PriceGuide } from '#contract/price-guide'
import { Product } from '#contract/products'
import { bearerFor } from '#server/test/auth-helpers'
import {
  type BrandRow,
  createBooking,
  createBrand,
  createPayment,
  createProduct,
  createUser,
  type UserRow,
} from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { refreshAllPriceGuides } from './price-guide.service'

const DAY = 24 * 60 * 60 * 1000

let t: TestApp
let brand: BrandRow
let otherBrand: BrandRow
let seller: UserRow
let buyer: UserRow

beforeAll(async () => {
  t = await createTestApp()
  brand = await createBrand(t.db)
  otherBrand = await createBrand(t.db)
  seller = await createUser(t.db, { role: 'seller' })
  buyer = await createUser(t.db, { role: 'buyer' })
})

afterAll(async () => {
  await t?.close()
})

type Kind = { processor: string; ramGb?: number; storageGb?: number; brand?: BrandRow }

/** A sale recorded as the payment flow records it, `daysAgo` days back; `status` of the payment. */
async function sold(
  priceCents: number,
  kind: Kind,
  opts: { daysAgo?: number; status?: 'succeeded' | 'refunded' | 'failed' } = {},
) {
  const at = new Date(Date.now() - (opts.daysAgo ?? 3) * DAY)
  const product = await createProduct(t.db, {
    seller,
    brand: kind.brand ?? brand,
    processor: kind.processor,
    ramGb: kind.ramGb ?? 16,
    storageGb: kind.storageGb ?? 512,
    resalePriceCents: priceCents,
    isSold: opts.status === 'succeeded' || opts.status === undefined,
    postedOn: new Date(at.getTime() - 5 * DAY),
  })
  const paid = opts.status === undefined || opts.status === 'succeeded'
  const booking = await createBooking(t.db, {
    buyer,
    product,
    isPaid: paid,
    paidAt: paid ? at : null,
    createdAt: at,
  })
  await createPayment(t.db, { booking, status: opts.status ?? 'succeeded', createdAt: at, updatedAt: at })
  return product
}

function guideQuery(kind: { brand?: string; processor: string; ram_gb?: number; storage_gb?: number }) {
  const params = new URLSearchParams({
    brand: kind.brand ?? brand.id,
    processor: kind.processor,
    ram_gb: String(kind.ram_gb ?? 16),
    storage_gb: String(kind.storage_gb ?? 512),
  })
  return `/api/price-guide?${params}`
}

async function guide(kind: Parameters<typeof guideQuery>[0]) {
  const res = await t.app.inject({ method: 'GET', url: guideQuery(kind) })
  expect(res.statusCode).toBe(200)
  return PriceGuide.parse(res.json())
}

/** PostgreSQL's percentile_cont: linear between the two nearest ranks. */
function percentile(values: number[], f: number) {
  const sorted = [...values].sort((a, b) => a - b)
  const pos = f * (sorted.length - 1)
  const lo = Math.floor(pos)
  const hi = Math.ceil(pos)
  const low = sorted[lo] ?? 0
  const high = sorted[hi] ?? 0
  return Math.round(low + (high - low) * (pos - lo)) / 100
}

describe('GET /api/price-guide', () => {
  const model = { processor: 'Intel Core i7-1165G7' }

  it('gives the count alone below five sales, and ignores refunded, failed and old ones', async () => {
    for (const cents of [41_000, 52_000, 46_500, 43_000]) await sold(cents, model)
    await sold(10_000, model, { status: 'refunded' })
    await sold(12_000, model, { status: 'failed' })
    await sold(15_000, model, { daysAgo: 200 })
    // Other kinds: another brand, other RAM, other storage.
    await sold(99_000, { ...model, brand: otherBrand })
    await sold(99_000, { ...model, ramGb: 8 })
    await sold(99_000, { ...model, storageGb: 256 })
    await refreshAllPriceGuides(t.db)
    expect(await guide(model)).toEqual({ count: 4, p25: null, median: null, p75: null })
  })

  it('shows the quartiles from the fifth sale on, refreshed by the sale itself', async () => {
    const product = await createProduct(t.db, {
      seller,
      brand,
      processor: 'i7 1165G7 (4 cores)',
      ramGb: 16,
      storageGb: 512,
      resalePriceCents: 48_000,
    })
    const booking = await createBooking(t.db, { buyer, product })
    // As the payment page does: the hold first, then the card.
    const held = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${booking.id}/hold`,
      headers: await bearerFor(t.app, buyer),
    })
    expect(held.statusCode, held.body).toBeLessThan(300)
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/payments/test',
      headers: await bearerFor(t.app, buyer),
      payload: {
        bookingId: booking.id,
        card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' },
      },
    })
    expect(paid.statusCode).toBe(200)

    const prices = [41_000, 52_000, 46_500, 43_000, 48_000]
    const expected = {
      count: 5,
      p25: percentile(prices, 0.25),
      median: percentile(prices, 0.5),
      p75: percentile(prices, 0.75),
    }
    expect(expected).toEqual({ count: 5, p25: 430, median: 465, p75: 480 })
    // The processor is matched by its model however it is written.
    expect(await guide(model)).toEqual(expected)
    expect(await guide({ processor: 'Core i7-1165G7' })).toEqual(expected)
    // The daily rebuild comes to the same figures.
    await refreshAllPriceGuides(t.db)
    expect(await guide(model)).toEqual(expected)
  })

  it('widens to the processor family when the model has too few sales', async () => {
    const sibling = { processor: 'Intel Core i7-1185G7' }
    await sold(60_000, sibling)
    await refreshAllPriceGuides(t.db)
    // Two of this model; seven in the Core i7 family with these specs.
    await sold(61_000, sibling)
    await refreshAllPriceGuides(t.db)
    const family = [41_000, 52_000, 46_500, 43_000, 48_000, 60_000, 61_000]
    expect(await guide(sibling)).toEqual({
      count: 7,
      p25: percentile(family, 0.25),
      median: percentile(family, 0.5),
      p75: percentile(family, 0.75),
    })
    // The model with five sales of its own keeps its own figures.
    expect((await guide(model)).count).toBe(5)
    // Another family has none.
    expect(await guide({ processor: 'AMD Ryzen 7 5800U' })).toEqual({
      count: 0,
      p25: null,
      median: null,
      p75: null,
    })
  })

  it('rides along on listings of that kind, and on none below five sales', async () => {
    const cheap = await createProduct(t.db, {
      seller,
      brand,
      processor: 'Intel Core i7-1165G7',
      resalePriceCents: 40_000,
    })
    const lonely = await createProduct(t.db, { seller, brand, processor: 'Intel Core i7-1165G7', ramGb: 8 })
    const one = Product.parse(
      (await t.app.inject({ method: 'GET', url: `/api/products/${cheap.id}` })).json(),
    )
    expect(one.price_guide).toEqual({ count: 5, p25: 430, median: 465, p75: 480 })
    const other = Product.parse(
      (await t.app.inject({ method: 'GET', url: `/api/products/${lonely.id}` })).json(),
    )
    expect(other.price_guide).toBeNull()
    const search = await t.app.inject({ method: 'GET', url: `/api/search?brand=${brand.id}` })
    const card = (search.json() as { items: Product[] }).items.find((p) => p._id === cheap.id)
    expect(card?.price_guide?.median).toBe(465)
  })

  it('refuses bad input with 400 naming the field', async () => {
    const cases: [string, string][] = [
      [guideQuery({ brand: 'not-an-id', processor: 'i7' }), 'brand'],
      [guideQuery({ processor: '' }), 'processor'],
      [guideQuery({ processor: 'i7', ram_gb: 0 }), 'ram_gb'],
      [`${guideQuery({ processor: 'i7' }).replace('ram_gb=16', 'ram_gb=lots')}`, 'ram_gb'],
      [guideQuery({ processor: 'i7', storage_gb: 1.5 }), 'storage_gb'],
      [`/api/price-guide?brand=${brand.id}&processor=i7&ram_gb=16`, 'storage_gb'],
      [`${guideQuery({ processor: 'i7' })}&extra=1`, 'extra'],
    ]
    for (const [url, field] of cases) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(400)
      expect(Object.keys(ErrorBody.parse(res.json()).error.fields ?? {}), url).toContain(field)
    }
  })
})
