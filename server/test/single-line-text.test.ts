// Single-line text that others see (a listing's name and location, a processor, a booking's location, a
// person's name) took control and invisible characters: a name stored as "\r\nBcc: …", a user name made only of
// U+200B, a right-to-left override. Each attempt is repeated here and must fail or be cleaned.

import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bookings, products, users } from '#server/db/schema'
import { bearerFor, originOf, postSignUp, signUp, uniqueEmail } from './auth-helpers'
import { createBrand, createProduct, createUser } from './factories'
import { createTestApp, type TestApp } from './test-app'

let t: TestApp
let sellerAuth: Record<string, string>
let brandId: string

beforeAll(async () => {
  t = await createTestApp()
  const seller = await createUser(t.db, { role: 'seller' })
  sellerAuth = await bearerFor(t.app, seller)
  brandId = (await createBrand(t.db)).id
})
afterAll(async () => {
  await t?.close()
})

const listing = (extra: Record<string, unknown>) => ({
  name: 'Plain Laptop 14',
  category_id: brandId,
  seller_phone: '(512) 555-0100',
  resale_price: 499,
  original_price: 999,
  description: 'Fully working, light marks on the lid, battery at 82%.',
  condition: 'Good',
  location: 'Austin, TX',
  uses: 2,
  processor: 'Intel Core i5-1235U',
  ram_gb: 16,
  storage_gb: 512,
  screen_inches: 14,
  img: '/images/laptop-placeholder.svg',
  ...extra,
})

const postListing = (body: object) =>
  t.app.inject({ method: 'POST', url: '/api/products', headers: sellerAuth, payload: body })

describe('a listing', () => {
  it.each([
    ['name', 'ThinkPad\r\nBcc: everyone@example.test', /Name must be one line/],
    ['name', 'ThinkPad\u0085X1', /Name must be one line/],
    ['name', 'ThinkPad\u2028X1', /Name must be one line/],
    ['name', '\u200b\u200b\u200b\u200b', /Name must have a visible character/],
    ['location', 'Austin\tTX', /Location must be one line/],
    ['location', '\u3164\u3164\u3164', /Location must have a visible character/],
    ['processor', 'Intel\nCore', /Processor must be one line/],
  ])('refuses a %s of %j, storing nothing', async (field, value, message) => {
    const before = await t.db.select({ id: products.id }).from(products)
    const res = await postListing(listing({ [field]: value }))
    expect(res.statusCode).toBe(400)
    expect(JSON.stringify(res.json().error)).toMatch(message)
    expect(await t.db.select({ id: products.id }).from(products)).toHaveLength(before.length)
  })

  it('strips a right-to-left override from the name and location', async () => {
    const res = await postListing(listing({ name: 'Mac\u202EkooB orP', location: '\u2067Austin\u2069, TX' }))
    expect(res.statusCode, res.body).toBe(201)
    const [row] = await t.db
      .select({ name: products.name, location: products.location })
      .from(products)
      .where(eq(products.id, res.json().insertedId))
    expect(row).toEqual({ name: 'MackooB orP', location: 'Austin, TX' })
  })
})

describe('a booking', () => {
  it('refuses a location with a line break, and strips a bidi override', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const brand = await createBrand(t.db)
    const buyer = await createUser(t.db, { role: 'buyer' })
    const headers = await bearerFor(t.app, buyer)
    const product = await createProduct(t.db, { seller, brand })
    const book = (location: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/bookings',
        headers,
        payload: { productId: product.id, phoneNumber: '+1 555 010 0000', location },
      })
    expect((await book('Austin\r\nBcc: x@example.test')).statusCode).toBe(400)
    const ok = await book('\u202EAustin, TX')
    expect(ok.statusCode).toBe(201)
    const [row] = await t.db
      .select({ location: bookings.location })
      .from(bookings)
      .where(eq(bookings.id, ok.json().insertedId))
    expect(row?.location).toBe('Austin, TX')
  })
})

describe("a person's name", () => {
  it('refuses a name made only of zero-width spaces at sign-up', async () => {
    const res = await postSignUp(t.app, {
      name: '\u200b\u200b\u200b',
      email: uniqueEmail('invisible'),
      password: 'a-good-password',
      role: 'buyer',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toMatch(/visible character/)
  })

  it('strips a right-to-left override from a name, at sign-up and when changed', async () => {
    const person = await signUp(t.app, { role: 'buyer', name: 'Eve \u202Elive' })
    const [row] = await t.db.select({ name: users.name }).from(users).where(eq(users.id, person.user.id))
    expect(row?.name).toBe('Eve live')
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/update-user',
      headers: { cookie: person.cookie, origin: originOf(t.app) },
      payload: { name: '\u2066Mallory\u2069' },
    })
    expect(res.statusCode).toBe(200)
    const [after] = await t.db.select({ name: users.name }).from(users).where(eq(users.id, person.user.id))
    expect(after?.name).toBe('Mallory')
  })
})
