import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Product, ProductList } from '#contract/products'
import { SearchResult } from '#contract/search'
import { products } from '#server/db/schema'
import { bearerFor } from '#server/test/auth-helpers'
import { type BrandRow, createBrand, createProduct, createUser, type UserRow } from '#server/test/factories'
import { type LocalSmtp, startLocalSmtp } from '#server/test/local-smtp'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { claimExpiryReminders, expireListings } from './expiry'

const DAY = 24 * 60 * 60 * 1000
const EXPIRY_DAYS = 60

let t: TestApp
let brand: BrandRow
let seller: UserRow
let otherSeller: UserRow
let buyer: UserRow

let smtp: LocalSmtp

beforeAll(async () => {
  smtp = await startLocalSmtp()
  // A long public-cache lifetime: expiring and renewing must clear it.
  t = await createTestApp({
    PUBLIC_CACHE_TTL_MS: '60000',
    LISTING_EXPIRY_DAYS: String(EXPIRY_DAYS),
    SMTP_URL: smtp.url,
  })
  brand = await createBrand(t.db)
  seller = await createUser(t.db, { role: 'seller' })
  otherSeller = await createUser(t.db, { role: 'seller' })
  buyer = await createUser(t.db, { role: 'buyer' })
})

afterAll(async () => {
  await t?.close()
  await smtp?.stop()
})

/** What the scheduler does every hour: queue the sweep; then the worker runs it. */
async function runExpiryJob() {
  await t.app.ctx.jobs.send('listings.expire', {})
  expect(await t.app.ctx.jobs.drain('listings.expire')).toBe(1)
}

const daysAgo = (n: number) => new Date(Date.now() - n * DAY)

async function get(url: string, who?: UserRow) {
  return t.app.inject({ method: 'GET', url, headers: who ? await bearerFor(t.app, who) : {} })
}

async function renew(id: string, who: UserRow) {
  return t.app.inject({
    method: 'PUT',
    url: `/api/products/${id}/renew`,
    headers: await bearerFor(t.app, who),
  })
}

async function onMarket(id: string) {
  const advertised = ProductList.parse((await get('/api/advertised_product')).json())
  const search = SearchResult.parse((await get(`/api/search?brand=${brand.id}&page_size=100`)).json())
  const category = ProductList.parse((await get(`/api/category/${brand.id}`)).json())
  return {
    total: search.total,
    home: advertised.some((p) => p._id === id),
    search: search.items.some((p) => p._id === id),
    category: category.some((p) => p._id === id),
  }
}

describe('listing expiry', () => {
  it('takes a listing not renewed for the configured days off search and the home page, readable at its URL', async () => {
    const old = await createProduct(t.db, {
      seller,
      brand,
      isAdvertised: true,
      renewedAt: daysAgo(EXPIRY_DAYS + 1),
    })
    const fresh = await createProduct(t.db, {
      seller,
      brand,
      isAdvertised: true,
      renewedAt: daysAgo(EXPIRY_DAYS - 1),
    })
    const before = await onMarket(old.id)
    expect(before).toMatchObject({ home: true, search: true, category: true })

    await runExpiryJob()
    // A second sweep finds nothing more.
    expect(await expireListings(t.db, EXPIRY_DAYS)).toEqual([])
    const [oldRow] = await t.db.select().from(products).where(eq(products.id, old.id))
    expect(oldRow?.expiredAt).not.toBeNull()

    // Out of the lists and of the counts (search's total comes from the listing counts); the cached lists follow
    // the database within a poll of the job's commit.
    await vi.waitFor(
      async () =>
        expect(await onMarket(old.id)).toEqual({
          total: before.total - 1,
          home: false,
          search: false,
          category: false,
        }),
      { timeout: 1000, interval: 20 },
    )
    expect(await onMarket(fresh.id)).toMatchObject({ home: true, search: true, category: true })
    const page = await get(`/api/products/${old.id}`)
    expect(page.statusCode).toBe(200)
    expect(Product.parse(page.json()).expired).toBe(true)
    // My Products shows it, marked.
    const mine = ProductList.parse(
      (await get(`/api/products?email=${seller.email}&page_size=100`, seller)).json(),
    )
    expect(mine.find((p) => p._id === old.id)?.expired).toBe(true)
    // It cannot be booked.
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: await bearerFor(t.app, buyer),
      payload: { productId: old.id, phoneNumber: '(312) 555-0100', location: 'Chicago, IL' },
    })
    expect(booked.statusCode).toBe(409)

    // One click: back on the market, its clock restarted.
    const renewed = await renew(old.id, seller)
    expect(renewed.statusCode).toBe(200)
    expect(renewed.json()).toEqual({ acknowledged: true, modifiedCount: 1 })
    expect(await onMarket(old.id)).toEqual({ ...before, home: true, search: true, category: true })
    await runExpiryJob()
    expect(await onMarket(old.id)).toEqual(before)
    const [row] = await t.db.select().from(products).where(eq(products.id, old.id))
    expect(row?.expiredAt).toBeNull()
    expect(Date.now() - (row?.renewedAt.getTime() ?? 0)).toBeLessThan(60_000)
    expect(await expireListings(t.db, EXPIRY_DAYS)).toEqual([])
  })

  it('never expires sold or deleted listings; sold ones stay readable, marked sold', async () => {
    const sold = await createProduct(t.db, { seller, brand, isSold: true, renewedAt: daysAgo(90) })
    const gone = await createProduct(t.db, { seller, brand, removedAt: daysAgo(1), renewedAt: daysAgo(90) })
    expect(await expireListings(t.db, EXPIRY_DAYS)).toEqual([])
    const page = Product.parse((await get(`/api/products/${sold.id}`)).json())
    expect(page.sellStatus).toBe(true)
    expect(page.expired).toBe(false)
    expect((await renew(sold.id, seller)).statusCode).toBe(409)
    expect((await renew(gone.id, seller)).statusCode).toBe(404)
  })

  it('lets only the listing’s seller renew it', async () => {
    const listing = await createProduct(t.db, { seller, brand })
    expect((await renew(listing.id, otherSeller)).statusCode).toBe(403)
    expect((await renew(listing.id, buyer)).statusCode).toBe(403)
    const anonymous = await t.app.inject({ method: 'PUT', url: `/api/products/${listing.id}/renew` })
    expect(anonymous.statusCode).toBe(401)
    const bad = await renew('not-an-id', seller)
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json().error.fields)).toContain('id')
  })

  it('claims each reminder once, three days before, and again after a renewal', async () => {
    const soon = await createProduct(t.db, { seller, brand, renewedAt: daysAgo(EXPIRY_DAYS - 2) })
    const later = await createProduct(t.db, { seller, brand, renewedAt: daysAgo(EXPIRY_DAYS - 4) })
    const first = await claimExpiryReminders(t.db, EXPIRY_DAYS)
    const mine = first.filter((r) => r.productId === soon.id || r.productId === later.id)
    expect(mine.map((r) => r.productId)).toEqual([soon.id])
    expect(mine[0]).toMatchObject({ sellerEmail: seller.email, productName: soon.name })
    expect(
      Math.abs((mine[0]?.expiresAt.getTime() ?? 0) - (soon.renewedAt.getTime() + EXPIRY_DAYS * DAY)),
    ).toBe(0)
    expect(await claimExpiryReminders(t.db, EXPIRY_DAYS)).toEqual([])

    await t.db
      .update(products)
      .set({ renewedAt: daysAgo(EXPIRY_DAYS - 1) })
      .where(eq(products.id, soon.id))
    expect(await claimExpiryReminders(t.db, EXPIRY_DAYS)).toEqual([])
    await renew(soon.id, seller)
    await t.db
      .update(products)
      .set({ renewedAt: daysAgo(EXPIRY_DAYS - 1) })
      .where(eq(products.id, soon.id))
    expect((await claimExpiryReminders(t.db, EXPIRY_DAYS)).map((r) => r.productId)).toEqual([soon.id])
  })
})

describe('the expiry reminder', () => {
  it('emails the seller three days before, once, through the hourly job', async () => {
    const mailSeller = await createUser(t.db, { role: 'seller', name: 'Reminded Seller' })
    const soon = await createProduct(t.db, {
      seller: mailSeller,
      brand,
      name: 'ThinkPad T14 Reminder',
      renewedAt: daysAgo(EXPIRY_DAYS - 2.5),
    })
    // Reminders the earlier tests' listings earned go out first.
    smtp.received.length = 0
    const earlier = await t.app.ctx.jobs.drain('email')
    if (earlier > 0) await smtp.waitFor(earlier)
    smtp.received.length = 0
    await runExpiryJob()
    await runExpiryJob()
    expect(await t.app.ctx.jobs.drain('email')).toBe(1)
    const [mail] = await smtp.waitFor(1)
    const expiresOn = new Intl.DateTimeFormat('en-US', {
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(soon.renewedAt.getTime() + EXPIRY_DAYS * DAY))
    expect(mail?.subject).toBe(`Your listing “ThinkPad T14 Reminder” expires on ${expiresOn}`)
    expect(mail?.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined).toBe(mailSeller.email)
    expect(mail?.text).toContain('/dashboard/myproduct')
    // Still listed until its day comes.
    expect((await onMarket(soon.id)).search).toBe(true)
  })
})
