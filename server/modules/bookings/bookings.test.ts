import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Booking, BookingList } from '#contract/bookings'
import { ErrorBody } from '#contract/errors'
import { bookings, products, users } from '#server/db/schema'
import { bearerFor, makeAdmin, signUp } from '#server/test/auth-helpers'
import {
  type BrandRow,
  createBooking,
  createBrand,
  createProduct,
  createUser,
  type UserRow,
} from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp
let brand: BrandRow
let buyer: UserRow
let otherBuyer: UserRow
let seller: UserRow
let otherSeller: UserRow
let admin: UserRow

beforeAll(async () => {
  t = await createTestApp({ LIVE_HOLDS_PER_BUYER: '100' })
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer', name: 'Bea Buyer' })
  otherBuyer = await createUser(t.db, { role: 'buyer', name: 'Otto Buyer' })
  seller = await createUser(t.db, { role: 'seller', name: 'Sam Seller' })
  otherSeller = await createUser(t.db, { role: 'seller', name: 'Sue Seller' })
  admin = await createUser(t.db, { role: 'admin', name: 'Ada Admin' })
})

afterAll(async () => {
  await t?.close()
})

type Who = UserRow | null
type Method = 'GET' | 'POST'

async function call(method: Method, url: string, who: Who, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: who ? await bearerFor(t.app, who) : {},
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

function errorOf(res: { json(): unknown }) {
  return ErrorBody.parse(res.json()).error
}

const good = { phoneNumber: '+1 (312) 555-0199', location: 'Chicago, IL' }

function listing(values: Parameters<typeof createProduct>[1] extends infer P ? Partial<P> : never = {}) {
  return createProduct(t.db, { seller, brand, isAdvertised: true, ...values })
}

async function book(productId: string, who: Who = buyer, extra: Record<string, unknown> = {}) {
  return call('POST', '/api/bookings', who, { productId, ...good, ...extra })
}

async function bookingRow(id: string) {
  const [row] = await t.db.select().from(bookings).where(eq(bookings.id, id))
  if (!row) throw new Error(`no booking ${id}`)
  return row
}

describe('POST /api/bookings', () => {
  it('takes price, name and image from the listing and the buyer from the session, whatever the body says', async () => {
    const product = await listing({
      name: 'ThinkPad X1 Carbon Gen 11',
      resalePriceCents: 123_450,
      images: [
        { cardUrl: '/media/products/x1-card-1.webp', detailUrl: '/media/products/x1-detail-1.webp' },
        { cardUrl: '/media/products/x1-card-2.webp', detailUrl: '/media/products/x1-detail-2.webp' },
      ],
    })
    const res = await book(product.id, buyer, {
      productName: 'Free laptop',
      userName: 'Somebody Else',
      email: otherBuyer.email,
      price: 1,
      productImage: 'https://evil.example/pic.png',
    })
    expect(res.statusCode).toBe(201)
    const answer = res.json() as { acknowledged: boolean; insertedId: string }
    expect(answer.acknowledged).toBe(true)

    const row = await bookingRow(answer.insertedId)
    expect(row).toMatchObject({
      productId: product.id,
      buyerId: buyer.id,
      productName: 'ThinkPad X1 Carbon Gen 11',
      productImage: '/media/products/x1-card-1.webp',
      priceCents: 123_450,
      userName: 'Bea Buyer',
      email: buyer.email,
      phoneNumber: '+1 (312) 555-0199',
      location: 'Chicago, IL',
      isPaid: false,
      paidAt: null,
    })

    const read = await call('GET', `/api/bookings/${answer.insertedId}`, buyer)
    expect(read.statusCode).toBe(200)
    expect(Booking.parse(read.json())).toMatchObject({
      _id: answer.insertedId,
      productName: 'ThinkPad X1 Carbon Gen 11',
      price: 1234.5,
      price_cents: 123_450,
      email: buyer.email,
      paid: false,
      status: 'unpaid',
    })
  })

  it('uses the placeholder picture for a listing without photos, and trims phone and location', async () => {
    const product = await listing({ images: [] })
    const res = await book(product.id, buyer, { phoneNumber: '  3125550100 ', location: '  Dhaka  ' })
    expect(res.statusCode).toBe(201)
    const row = await bookingRow(res.json().insertedId)
    expect(row.productImage).toMatch(/^\/images\/.+/)
    expect(row.phoneNumber).toBe('3125550100')
    expect(row.location).toBe('Dhaka')
  })

  it.each([
    ['missing', { location: 'Chicago' }, 'Phone number is required'],
    ['empty', { phoneNumber: '', location: 'Chicago' }, 'Phone number is required'],
    ['blank', { phoneNumber: '   ', location: 'Chicago' }, 'Phone number is required'],
    ['letters', { phoneNumber: 'call me maybe', location: 'Chicago' }, 'Enter a valid phone number'],
    ['too short', { phoneNumber: '12345', location: 'Chicago' }, 'Enter a valid phone number'],
    ['too long', { phoneNumber: '1'.repeat(31), location: 'Chicago' }, 'Phone number is too long'],
    ['not a string', { phoneNumber: 3125550100, location: 'Chicago' }, 'Phone number is required'],
  ])('refuses a phone number that is %s with its own message', async (_case, body, message) => {
    const product = await listing()
    const res = await call('POST', '/api/bookings', buyer, { productId: product.id, ...body })
    expect(res.statusCode).toBe(400)
    const error = errorOf(res)
    expect(error.code).toBe('VALIDATION')
    expect(error.fields).toEqual({ phoneNumber: message })
  })

  it.each([
    ['missing', {}, 'Location is required'],
    ['empty', { location: '' }, 'Location is required'],
    ['one letter', { location: ' a ' }, 'Location is required'],
    ['too long', { location: 'x'.repeat(121) }, 'Location is too long'],
  ])('refuses a location that is %s with its own message', async (_case, body, message) => {
    const product = await listing()
    const res = await call('POST', '/api/bookings', buyer, {
      productId: product.id,
      phoneNumber: good.phoneNumber,
      ...body,
    })
    expect(res.statusCode).toBe(400)
    expect(errorOf(res).fields).toEqual({ location: message })
  })

  it('names both fields when both are wrong, and refuses unknown fields and a bad product id', async () => {
    const product = await listing()
    const both = await call('POST', '/api/bookings', buyer, { productId: product.id })
    expect(both.statusCode).toBe(400)
    expect(errorOf(both).fields).toEqual({
      phoneNumber: 'Phone number is required',
      location: 'Location is required',
    })

    const extra = await book(product.id, buyer, { isPaid: true })
    expect(extra.statusCode).toBe(400)
    expect(errorOf(extra).fields).toEqual({ isPaid: 'Unknown field' })

    const badId = await book('not-a-uuid')
    expect(badId.statusCode).toBe(400)
    expect(errorOf(badId).fields).toEqual({ productId: 'Choose a laptop to book' })
    expect(await t.db.select().from(bookings).where(eq(bookings.productId, product.id))).toEqual([])
  })

  it('needs a signed-in caller (401), before looking at the listing', async () => {
    const product = await listing()
    const res = await book(product.id, null)
    expect(res.statusCode).toBe(401)
    expect(errorOf(res).code).toBe('UNAUTHENTICATED')
  })

  it('refuses your own listing with 403', async () => {
    const product = await listing()
    const res = await book(product.id, seller)
    expect(res.statusCode).toBe(403)
    expect(errorOf(res)).toMatchObject({ code: 'FORBIDDEN', message: 'You cannot book your own listing' })
  })

  it('refuses a sold listing with 409', async () => {
    const product = await listing({ isSold: true })
    const res = await book(product.id)
    expect(res.statusCode).toBe(409)
    expect(errorOf(res)).toMatchObject({ code: 'CONFLICT', message: 'This laptop has already been sold' })
  })

  it('refuses the same listing twice with 409, also when both arrive at once', async () => {
    const product = await listing()
    expect((await book(product.id)).statusCode).toBe(201)
    const again = await book(product.id, buyer, { phoneNumber: '3125550111' })
    expect(again.statusCode).toBe(409)
    expect(errorOf(again).message).toBe('You have already booked this laptop')

    const other = await listing()
    const statuses = await Promise.all(
      Array.from({ length: 5 }, async () => (await book(other.id, otherBuyer)).statusCode),
    )
    expect(statuses.sort()).toEqual([201, 409, 409, 409, 409])
    expect(await t.db.select().from(bookings).where(eq(bookings.productId, other.id))).toHaveLength(1)
  })

  it('lets another buyer, a seller and an admin book the same listing', async () => {
    const product = await listing()
    for (const who of [buyer, otherBuyer, otherSeller, admin]) {
      expect((await book(product.id, who)).statusCode).toBe(201)
    }
  })

  it('answers 404 for an unknown, removed, or hidden (seller deleted) listing', async () => {
    expect((await book(randomUUID())).statusCode).toBe(404)

    const removed = await listing({ removedAt: new Date() })
    const res = await book(removed.id)
    expect(res.statusCode).toBe(404)
    expect(errorOf(res)).toMatchObject({ code: 'NOT_FOUND', message: 'Product not found' })

    const goneSeller = await createUser(t.db, { role: 'seller', disabled: true })
    const hidden = await createProduct(t.db, { seller: goneSeller, brand })
    expect((await book(hidden.id)).statusCode).toBe(404)
  })

  it('works with the session cookie as the web app sends it', async () => {
    const person = await signUp(t.app, { role: 'buyer', name: 'Cookie Buyer' })
    const product = await listing()
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: { cookie: person.cookie },
      payload: { productId: product.id, ...good, userName: 'Not Me', email: 'not-me@example.test' },
    })
    expect(res.statusCode).toBe(201)
    const row = await bookingRow(res.json().insertedId)
    expect(row).toMatchObject({ buyerId: person.user.id, userName: 'Cookie Buyer', email: person.user.email })
  })
})

describe('GET /api/bookings?email=', () => {
  let mine: UserRow
  let ids: string[]

  beforeAll(async () => {
    mine = await createUser(t.db, { role: 'buyer', email: 'Orders.Owner@Example.test' })
    const older = await listing({ name: 'Older laptop' })
    const newer = await listing({ name: 'Newer laptop' })
    const a = await createBooking(t.db, { buyer: mine, product: older, createdAt: new Date('2026-01-01') })
    const b = await createBooking(t.db, { buyer: mine, product: newer, createdAt: new Date('2026-02-01') })
    await createBooking(t.db, { buyer: otherBuyer, product: newer })
    ids = [b.id, a.id]
  })

  it("gives the buyer their own bookings, newest first, and nobody else's", async () => {
    const res = await call('GET', `/api/bookings?email=${encodeURIComponent(mine.email)}`, mine)
    expect(res.statusCode).toBe(200)
    const list = BookingList.parse(res.json())
    expect(list.map((b) => b._id)).toEqual(ids)
    expect(list.map((b) => b.productName)).toEqual(['Newer laptop', 'Older laptop'])
    expect(list.every((b) => b.email === mine.email && b.status === 'unpaid')).toBe(true)
  })

  it('with product_id, gives only the booking of that listing (none when not booked), and refuses a bad id', async () => {
    const url = (productId: string) =>
      `/api/bookings?email=${encodeURIComponent(mine.email)}&product_id=${productId}`
    const [older] = await t.db
      .select()
      .from(bookings)
      .where(eq(bookings.id, ids[1] as string))
    const one = await call('GET', url(older?.productId ?? ''), mine)
    expect(BookingList.parse(one.json()).map((b) => b._id)).toEqual([ids[1]])
    const other = await listing({ name: 'Not booked' })
    expect(BookingList.parse((await call('GET', url(other.id), mine)).json())).toEqual([])
    const bad = await call('GET', url('not-a-uuid'), mine)
    expect(bad.statusCode).toBe(400)
  })

  it('matches the email without regard to case', async () => {
    const res = await call('GET', '/api/bookings?email=ORDERS.owner%40example.TEST', mine)
    expect(res.statusCode).toBe(200)
    expect(BookingList.parse(res.json())).toHaveLength(2)
  })

  it("gives an admin anyone's bookings", async () => {
    const res = await call('GET', `/api/bookings?email=${encodeURIComponent(mine.email)}`, admin)
    expect(res.statusCode).toBe(200)
    expect(BookingList.parse(res.json()).map((b) => b._id)).toEqual(ids)
  })

  it("refuses someone else's email with 403, a signed-out caller with 401, a bad email with 400", async () => {
    const url = `/api/bookings?email=${encodeURIComponent(mine.email)}`
    for (const who of [otherBuyer, seller, otherSeller]) {
      const res = await call('GET', url, who)
      expect(res.statusCode).toBe(403)
      expect(errorOf(res).message).toBe('You can only see your own bookings')
    }
    expect((await call('GET', url, null)).statusCode).toBe(401)
    expect((await call('GET', '/api/bookings?email=nope', mine)).statusCode).toBe(400)
    expect((await call('GET', '/api/bookings', mine)).statusCode).toBe(400)
  })

  it('gives an empty list for an account with no bookings', async () => {
    const fresh = await createUser(t.db)
    const res = await call('GET', `/api/bookings?email=${encodeURIComponent(fresh.email)}`, fresh)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual([])
  })
})

describe('GET /api/bookings/{id}', () => {
  it("is readable by its buyer, the listing's seller and an admin; 403 for anyone else", async () => {
    const product = await listing()
    const booking = await createBooking(t.db, { buyer, product })
    const url = `/api/bookings/${booking.id}`
    for (const who of [buyer, seller, admin]) {
      const res = await call('GET', url, who)
      expect(res.statusCode).toBe(200)
      expect(Booking.parse(res.json())._id).toBe(booking.id)
    }
    for (const who of [otherBuyer, otherSeller]) {
      const res = await call('GET', url, who)
      expect(res.statusCode).toBe(403)
      expect(errorOf(res)).toMatchObject({ code: 'FORBIDDEN', message: 'This booking is not yours' })
    }
    expect((await call('GET', url, null)).statusCode).toBe(401)
  })

  it('answers 404 for an unknown booking and 400 for a malformed id', async () => {
    expect((await call('GET', `/api/bookings/${randomUUID()}`, admin)).statusCode).toBe(404)
    expect((await call('GET', '/api/bookings/12345', buyer)).statusCode).toBe(400)
  })

  it('a promoted admin reads any booking', async () => {
    const promoted = await createUser(t.db, { role: 'buyer' })
    await makeAdmin(t.db, promoted.id)
    const product = await listing()
    const booking = await createBooking(t.db, { buyer, product })
    const res = await call('GET', `/api/bookings/${booking.id}`, { ...promoted, role: 'admin' })
    expect(res.statusCode).toBe(200)
  })
})

describe('booking status', () => {
  async function statusOf(id: string, who: Who = buyer) {
    const res = await call('GET', `/api/bookings/${id}`, who)
    expect(res.statusCode).toBe(200)
    return Booking.parse(res.json())
  }

  it('is unpaid, then paid for the buyer who paid and sold for the other who booked it', async () => {
    const product = await listing()
    const winner = (await book(product.id, buyer)).json().insertedId as string
    const loser = (await book(product.id, otherBuyer)).json().insertedId as string
    expect((await statusOf(winner)).status).toBe('unpaid')
    expect((await statusOf(loser, otherBuyer)).status).toBe('unpaid')

    await call('POST', `/api/bookings/${winner}/hold`, buyer)
    const pay = await call('POST', '/api/payments/test', buyer, {
      bookingId: winner,
      card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' },
    })
    expect(pay.statusCode).toBe(200)

    expect(await statusOf(winner)).toMatchObject({ status: 'paid', paid: true })
    expect(await statusOf(loser, otherBuyer)).toMatchObject({ status: 'sold', paid: false })
    // The seller sees the same two bookings the same way.
    expect((await statusOf(winner, seller)).status).toBe('paid')
    expect((await statusOf(loser, seller)).status).toBe('sold')

    const orders = await call(
      'GET',
      `/api/bookings?email=${encodeURIComponent(otherBuyer.email)}`,
      otherBuyer,
    )
    expect(BookingList.parse(orders.json()).find((b) => b._id === loser)?.status).toBe('sold')
  })

  it('is unavailable when the listing was taken down before it was paid for', async () => {
    const product = await listing()
    const id = (await book(product.id)).json().insertedId as string
    await t.db.update(products).set({ removedAt: new Date() }).where(eq(products.id, product.id))
    expect((await statusOf(id)).status).toBe('unavailable')
  })

  it('is unavailable when the seller was deleted before it was paid for (paying would be refused)', async () => {
    const goneSeller = await createUser(t.db, { role: 'seller' })
    const product = await createProduct(t.db, { seller: goneSeller, brand })
    const id = (await book(product.id)).json().insertedId as string
    await t.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, goneSeller.id))
    expect((await statusOf(id)).status).toBe('unavailable')
    const orders = await call('GET', `/api/bookings?email=${encodeURIComponent(buyer.email)}`, buyer)
    expect(BookingList.parse(orders.json()).find((b) => b._id === id)?.status).toBe('unavailable')
    await call('POST', `/api/bookings/${id}/hold`, buyer)
    const pay = await call('POST', '/api/payments/test', buyer, {
      bookingId: id,
      card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' },
    })
    expect(pay.statusCode).toBe(409)
  })

  it('shows the price it will be charged: the booked price or a lower one until paid, then the amount paid', async () => {
    const product = await listing({ resalePriceCents: 80_000 })
    const id = (await book(product.id)).json().insertedId as string
    const other = (await book(product.id, otherBuyer)).json().insertedId as string
    // A raise never reaches an open booking; a drop does.
    await t.db.update(products).set({ resalePriceCents: 90_000 }).where(eq(products.id, product.id))
    expect(await statusOf(id)).toMatchObject({ price_cents: 80_000, price: 800, booked_price_cents: 80_000 })
    await t.db.update(products).set({ resalePriceCents: 70_000 }).where(eq(products.id, product.id))
    expect(await statusOf(id)).toMatchObject({ price_cents: 70_000, booked_price_cents: 80_000 })

    await call('POST', `/api/bookings/${id}/hold`, buyer)
    const pay = await call('POST', '/api/payments/test', buyer, {
      bookingId: id,
      card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' },
    })
    expect(pay.json()).toMatchObject({ amount_cents: 70_000 })
    // The seller cannot change what was paid by editing the sold listing.
    await t.db.update(products).set({ resalePriceCents: 95_000 }).where(eq(products.id, product.id))
    expect(await statusOf(id)).toMatchObject({ status: 'paid', price_cents: 70_000 })
    expect((await statusOf(other, otherBuyer)).status).toBe('sold')
  })
})
