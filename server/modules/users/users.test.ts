import { randomUUID } from 'node:crypto'
import { and, count, eq, inArray, isNull, ne, notInArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Overview, UserRecord } from '#contract/users'
import { bookings, payments, products, reports, sessions, users } from '#server/db/schema'
import { AppError } from '#server/lib/errors'
import { postUnpostedSales } from '#server/modules/ledger'
import {
  type Account,
  bearerFor,
  bearerTokenFor,
  insertBooking,
  insertListing,
  insertUser,
  makeAdmin,
  type SignedIn,
  signIn,
  signUp,
} from '#server/test/auth-helpers'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { deleteUser } from './users.service'

let t: TestApp
let buyer: SignedIn
let seller: SignedIn
let admin: SignedIn
let otherAdmin: SignedIn

beforeAll(async () => {
  t = await createTestApp()
  buyer = await signUp(t.app, { role: 'buyer', name: 'Bea Buyer' })
  seller = await signUp(t.app, { role: 'seller', name: 'Sam Seller' })
  admin = await signUp(t.app, { role: 'buyer', name: 'Ada Admin' })
  otherAdmin = await signUp(t.app, { role: 'buyer', name: 'Otto Admin' })
  await makeAdmin(t.db, admin.user.id)
  await makeAdmin(t.db, otherAdmin.user.id)
})

afterAll(async () => {
  await t?.close()
})

type Headers = Record<string, string>
const asAdmin = (): Headers => ({ cookie: admin.cookie })

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers = {}, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

async function rowOf(id: string) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id))
  if (!row) throw new Error(`no user ${id}`)
  return row
}

describe('a buyer starts selling', () => {
  it('keeps their purchases, can list at once, and answers isBuyer and isSeller; a pure seller or buyer answers as before', async () => {
    const shop = await insertUser(t.db, { role: 'seller' })
    const person = await signUp(t.app, { role: 'buyer', name: 'Bo Both' })
    const booked = await insertBooking(t.db, {
      buyer: person.user,
      listing: await insertListing(t.db, { sellerId: shop.id }),
      paid: true,
    })
    const asPerson = { cookie: person.cookie }
    const lookup = async (path: 'buyers' | 'sellers') =>
      (await call('GET', `/api/${path}/${person.user.email}`, asPerson)).json()
    // A buyer cannot list yet.
    expect((await call('POST', '/api/uploads', asPerson)).statusCode).toBe(403)

    // Bad input changes nothing.
    for (const body of [
      { phone: '(312) 555-0187' },
      { phone: 'no phone', accept_terms: true },
      { phone: '(312) 555-0187', accept_terms: false },
    ]) {
      expect((await call('POST', '/api/me/start-selling', asPerson, body)).statusCode).toBe(400)
    }
    expect(await lookup('sellers')).toEqual({ isSeller: false })

    const started = await call('POST', '/api/me/start-selling', asPerson, {
      phone: '(312) 555-0187',
      accept_terms: true,
    })
    expect(started.statusCode, started.body).toBe(200)
    expect(await lookup('buyers')).toEqual({ isBuyer: true })
    expect(await lookup('sellers')).toEqual({ isSeller: true })
    const me = (await call('GET', '/api/me', asPerson)).json()
    expect(me).toMatchObject({ role: 'seller', buys: true })
    expect((await rowOf(person.user.id)).phone).toBe('(312) 555-0187')
    // Their purchase is still theirs, and the overview shows both sides.
    const orders = await call('GET', `/api/bookings?email=${encodeURIComponent(person.user.email)}`, asPerson)
    expect((orders.json() as { _id: string }[]).map((b) => b._id)).toContain(booked.id)
    const overview = (await call('GET', '/api/dashboard/overview', asPerson)).json() as Overview
    expect(overview.counts.map((c) => c.label)).toEqual([
      'Available listings',
      'Sold',
      'Revenue',
      'Bookings',
      'Paid',
    ])
    // Seller routes open to them; asking again is a conflict; admins do not sell.
    expect((await call('GET', '/api/earnings', asPerson)).statusCode).toBe(200)
    expect(
      (await call('POST', '/api/me/start-selling', asPerson, { phone: '(312) 555-0187', accept_terms: true }))
        .statusCode,
    ).toBe(409)
    expect(
      (
        await call('POST', '/api/me/start-selling', asAdmin(), {
          phone: '(312) 555-0187',
          accept_terms: true,
        })
      ).statusCode,
    ).toBe(403)
    // A seller who signed up as one is no buyer.
    expect((await call('GET', `/api/buyers/${seller.user.email}`, { cookie: seller.cookie })).json()).toEqual(
      {
        isBuyer: false,
      },
    )
    expect((await call('GET', '/api/me', { cookie: seller.cookie })).json()).toMatchObject({ buys: false })
  })
})

describe('role lookups', () => {
  it('answer for your own email, in any letter case', async () => {
    const own = buyer.user.email
    expect((await call('GET', `/api/buyers/${own}`, { cookie: buyer.cookie })).json()).toEqual({
      isBuyer: true,
    })
    expect((await call('GET', `/api/sellers/${own}`, { cookie: buyer.cookie })).json()).toEqual({
      isSeller: false,
    })
    expect((await call('GET', `/api/admin/${own.toUpperCase()}`, { cookie: buyer.cookie })).json()).toEqual({
      isAdmin: false,
    })
    expect(
      (await call('GET', `/api/sellers/${seller.user.email}`, { cookie: seller.cookie })).json(),
    ).toEqual({
      isSeller: true,
    })
    expect((await call('GET', `/api/admin/${admin.user.email}`, asAdmin())).json()).toEqual({ isAdmin: true })
  })

  it("refuse another person's email (403) unless the caller is an admin", async () => {
    for (const path of ['admin', 'buyers', 'sellers']) {
      const res = await call('GET', `/api/${path}/${admin.user.email}`, { cookie: buyer.cookie })
      expect(res.statusCode).toBe(403)
      expect(res.body).not.toMatch(/isAdmin|isBuyer|isSeller/)
      expect(
        (await call('GET', `/api/${path}/${buyer.user.email}`, { cookie: seller.cookie })).statusCode,
      ).toBe(403)
    }
    expect((await call('GET', `/api/sellers/${seller.user.email}`, asAdmin())).json()).toEqual({
      isSeller: true,
    })
    expect((await call('GET', `/api/buyers/${seller.user.email}`, asAdmin())).json()).toEqual({
      isBuyer: false,
    })
    expect((await call('GET', `/api/admin/nobody@example.test`, asAdmin())).json()).toEqual({
      isAdmin: false,
    })
  })

  it('refuse anyone signed out (401), and a deleted account holds no role', async () => {
    expect((await call('GET', `/api/admin/${admin.user.email}`)).statusCode).toBe(401)
    const gone = await insertUser(t.db, { role: 'seller' })
    await t.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, gone.id))
    expect((await call('GET', `/api/sellers/${gone.email}`, asAdmin())).json()).toEqual({ isSeller: false })
  })
})

describe('POST /api/buyers and /api/sellers: your own record', () => {
  it('never makes anyone an admin, whatever role the body names', async () => {
    const person = await insertUser(t.db, { role: 'buyer' })
    const headers = await bearerFor(t.app, person)
    const asSeller = await call('POST', '/api/sellers', headers, {
      name: person.name,
      email: person.email,
      role: 'admin',
    })
    expect(asSeller.statusCode).toBe(200)
    expect(asSeller.json()).toEqual({ acknowledged: true, insertedId: person.id })
    expect((await rowOf(person.id)).role).toBe('seller')

    const asBuyer = await call('POST', '/api/buyers', headers, {
      name: person.name,
      email: person.email,
      role: 'admin',
    })
    expect(asBuyer.statusCode).toBe(200)
    expect((await rowOf(person.id)).role).toBe('buyer')
  })

  it('is idempotent, and leaves an admin an admin', async () => {
    const body = { name: seller.user.name, email: seller.user.email, role: 'seller' }
    for (let i = 0; i < 2; i++) {
      expect((await call('POST', '/api/sellers', { cookie: seller.cookie }, body)).statusCode).toBe(200)
    }
    expect((await rowOf(seller.user.id)).role).toBe('seller')
    const mine = { name: admin.user.name, email: admin.user.email, role: 'buyer' }
    expect((await call('POST', '/api/buyers', asAdmin(), mine)).statusCode).toBe(200)
    expect((await rowOf(admin.user.id)).role).toBe('admin')
  })

  it("refuses another person's record (403) and anyone signed out (401), changing nothing", async () => {
    const target = await insertUser(t.db, { role: 'buyer' })
    const body = { name: target.name, email: target.email, role: 'seller' }
    expect((await call('POST', '/api/sellers', { cookie: buyer.cookie }, body)).statusCode).toBe(403)
    expect((await call('POST', '/api/sellers', asAdmin(), body)).statusCode).toBe(403)
    expect((await call('POST', '/api/sellers', {}, body)).statusCode).toBe(401)
    expect((await rowOf(target.id)).role).toBe('buyer')
    expect((await rowOf(buyer.user.id)).role).toBe('buyer')
  })

  it('keeps a buyer with bookings a buyer and a seller with listings a seller (409)', async () => {
    const owner = await insertUser(t.db, { role: 'seller' })
    const customer = await insertUser(t.db, { role: 'buyer' })
    const listing = await insertListing(t.db, { sellerId: owner.id })
    await insertBooking(t.db, { buyer: customer, listing })
    const toSeller = await call('POST', '/api/sellers', await bearerFor(t.app, customer), {
      name: customer.name,
      email: customer.email,
    })
    expect(toSeller.statusCode).toBe(409)
    const toBuyer = await call('POST', '/api/buyers', await bearerFor(t.app, owner), {
      name: owner.name,
      email: owner.email,
    })
    expect(toBuyer.statusCode).toBe(409)
    expect((await rowOf(customer.id)).role).toBe('buyer')
    expect((await rowOf(owner.id)).role).toBe('seller')
  })

  it('refuses unknown fields', async () => {
    const res = await call(
      'POST',
      '/api/buyers',
      { cookie: buyer.cookie },
      {
        name: buyer.user.name,
        email: buyer.user.email,
        isAdmin: true,
      },
    )
    expect(res.statusCode).toBe(400)
    expect(res.json().error.fields).toHaveProperty('isAdmin')
  })
})

describe('admin lists', () => {
  let pagers: Account[]

  beforeAll(async () => {
    const start = Date.UTC(2026, 0, 1)
    pagers = []
    for (let i = 0; i < 25; i++) {
      const n = String(i + 1).padStart(2, '0')
      pagers.push(
        await insertUser(t.db, {
          role: 'seller',
          name: `Pager Seller ${n}`,
          email: `pager-${n}-${randomUUID().slice(0, 6)}@shop.example.test`,
          createdAt: new Date(start + i * 60_000),
        }),
      )
    }
  })

  it('pages through sellers matching a name, oldest first, with the total in x-total-count', async () => {
    const page = async (n: number) =>
      call('GET', `/api/sellers?q=pager%20SELLER&page=${n}&page_size=10`, asAdmin())
    const first = await page(1)
    expect(first.statusCode).toBe(200)
    expect(first.headers['x-total-count']).toBe('25')
    expect((first.json() as UserRecord[]).map((u) => u.name)).toEqual(pagers.slice(0, 10).map((u) => u.name))
    const third = await page(3)
    expect((third.json() as UserRecord[]).map((u) => u._id)).toEqual(pagers.slice(20).map((u) => u.id))
    expect((await page(4)).json()).toEqual([])
  })

  it('searches by email too, and takes % and _ literally', async () => {
    const target = pagers[6] as Account
    const byEmail = await call(
      'GET',
      `/api/sellers?q=${encodeURIComponent(target.email.slice(0, 16))}`,
      asAdmin(),
    )
    expect((byEmail.json() as UserRecord[]).map((u) => u._id)).toEqual([target.id])
    const literal = await call('GET', '/api/sellers?q=%25', asAdmin())
    expect(literal.headers['x-total-count']).toBe('0')
    const underscore = await call('GET', '/api/sellers?q=pager_seller', asAdmin())
    expect(underscore.headers['x-total-count']).toBe('0')
  })

  it('lists each record with its public fields only', async () => {
    const res = await call('GET', `/api/sellers?q=${encodeURIComponent(seller.user.email)}`, asAdmin())
    const [record] = res.json() as UserRecord[]
    expect(record).toEqual({
      _id: seller.user.id,
      name: seller.user.name,
      email: seller.user.email,
      role: 'seller',
      verified: false,
      createdAt: expect.any(String),
      cancelled_sales: 0,
    })
    expect(Object.keys(record ?? {}).sort()).toEqual([
      '_id',
      'cancelled_sales',
      'createdAt',
      'email',
      'name',
      'role',
      'verified',
    ])
  })

  it('lists buyers and admins as buyers, never sellers or deleted accounts', async () => {
    const gone = await insertUser(t.db, { role: 'buyer', name: 'Gone Buyer' })
    await t.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, gone.id))
    const res = await call('GET', '/api/buyers?page_size=100', asAdmin())
    const ids = (res.json() as UserRecord[]).map((u) => u._id)
    expect(ids).toContain(buyer.user.id)
    expect(ids).toContain(admin.user.id)
    expect(ids).not.toContain(seller.user.id)
    expect(ids).not.toContain(gone.id)
    const [expected] = await t.db
      .select({ n: count() })
      .from(users)
      .where(and(inArray(users.role, ['buyer', 'admin']), isNull(users.disabledAt)))
    expect(res.headers['x-total-count']).toBe(String(expected?.n))
  })

  it('refuses bad paging', async () => {
    for (const query of ['page=0', 'page_size=0', 'page_size=101', 'page=abc', 'sort=name']) {
      expect((await call('GET', `/api/buyers?${query}`, asAdmin())).statusCode, query).toBe(400)
    }
  })
})

describe('Make Admin', () => {
  it('makes a buyer an admin, once', async () => {
    const person = await insertUser(t.db, { role: 'buyer' })
    const first = await call('PUT', `/api/buyers/admin/${person.id}`, asAdmin())
    expect(first.statusCode).toBe(200)
    expect(first.json()).toEqual({ acknowledged: true, modifiedCount: 1 })
    expect((await rowOf(person.id)).role).toBe('admin')
    // The new admin's very next call is an admin's.
    expect((await call('GET', '/api/sellers', await bearerFor(t.app, person))).statusCode).toBe(200)

    const again = await call('PUT', `/api/buyers/admin/${person.id}`, asAdmin())
    expect(again.json()).toEqual({ acknowledged: true, modifiedCount: 0 })
    await t.db.update(users).set({ role: 'buyer' }).where(eq(users.id, person.id))
  })

  it('refuses a seller (409), an unknown or deleted account (404), and non-admins (403)', async () => {
    const sellerTarget = await insertUser(t.db, { role: 'seller' })
    expect((await call('PUT', `/api/buyers/admin/${sellerTarget.id}`, asAdmin())).statusCode).toBe(409)
    expect((await rowOf(sellerTarget.id)).role).toBe('seller')
    expect((await call('PUT', `/api/buyers/admin/${randomUUID()}`, asAdmin())).statusCode).toBe(404)
    const gone = await insertUser(t.db, { role: 'buyer' })
    await t.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, gone.id))
    expect((await call('PUT', `/api/buyers/admin/${gone.id}`, asAdmin())).statusCode).toBe(404)
    expect(
      (await call('PUT', `/api/buyers/admin/${buyer.user.id}`, { cookie: buyer.cookie })).statusCode,
    ).toBe(403)
    expect((await rowOf(buyer.user.id)).role).toBe('buyer')
  })
})

describe('Remove admin', () => {
  it('makes another admin a buyer again; never yourself, never someone who is not an admin', async () => {
    const person = await insertUser(t.db, { role: 'admin' })
    const res = await call('DELETE', `/api/buyers/admin/${person.id}`, asAdmin())
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ acknowledged: true, modifiedCount: 1 })
    expect((await rowOf(person.id)).role).toBe('buyer')
    const notAdmin = await call('DELETE', `/api/buyers/admin/${person.id}`, asAdmin())
    expect(notAdmin.statusCode).toBe(409)
    const self = await call('DELETE', `/api/buyers/admin/${admin.user.id}`, asAdmin())
    expect(self.statusCode).toBe(403)
    expect((await rowOf(admin.user.id)).role).toBe('admin')
  })

  it('keeps the last admin: two admins removing each other at once leave one admin', async () => {
    const admins = await t.db.select().from(users).where(eq(users.role, 'admin'))
    const others = admins.filter((a) => a.id !== admin.user.id && a.id !== otherAdmin.user.id)
    for (const other of others) await t.db.update(users).set({ role: 'buyer' }).where(eq(users.id, other.id))
    const answers = await Promise.all([
      call('DELETE', `/api/buyers/admin/${otherAdmin.user.id}`, asAdmin()),
      call('DELETE', `/api/buyers/admin/${admin.user.id}`, { cookie: otherAdmin.cookie }),
    ])
    // One goes through; the other is refused: the last admin (409), or no admin any more (403).
    const codes = answers.map((r) => r.statusCode).sort()
    expect(codes[0]).toBe(200)
    expect([403, 409]).toContain(codes[1])
    const left = await t.db.select().from(users).where(eq(users.role, 'admin'))
    expect(left).toHaveLength(1)
    // Put things back for the tests after this one.
    for (const id of [admin.user.id, otherAdmin.user.id, ...others.map((o) => o.id)]) {
      await t.db.update(users).set({ role: 'admin' }).where(eq(users.id, id))
    }
  })
})

describe('All Buyers by role', () => {
  it('lists only buyers, or only admins, when asked', async () => {
    const onlyBuyers = (
      await call('GET', '/api/buyers?role=buyer&page_size=100', asAdmin())
    ).json() as UserRecord[]
    expect(onlyBuyers.length).toBeGreaterThan(0)
    expect(onlyBuyers.every((u) => u.role === 'buyer')).toBe(true)
    const onlyAdmins = (
      await call('GET', '/api/buyers?role=admin&page_size=100', asAdmin())
    ).json() as UserRecord[]
    expect(onlyAdmins.map((u) => u._id)).toContain(admin.user.id)
    expect(onlyAdmins.every((u) => u.role === 'admin')).toBe(true)
    expect((await call('GET', '/api/buyers?role=seller', asAdmin())).statusCode).toBe(400)
  })
})

describe('Verify a seller', () => {
  it('puts the badge on their listings, and can take it off', async () => {
    const shop = await insertUser(t.db, { role: 'seller' })
    const listing = await insertListing(t.db, { sellerId: shop.id })
    const badge = async () => (await call('GET', `/api/products/${listing.id}`)).json().seller_verified
    expect(await badge()).toBe(false)

    const verified = await call('PUT', `/api/sellers/verify/${shop.id}`, asAdmin())
    expect(verified.json()).toEqual({ acknowledged: true, modifiedCount: 1 })
    expect(await badge()).toBe(true)
    expect((await call('GET', '/api/me', await bearerFor(t.app, shop))).json().verified).toBe(true)
    const listed = await call('GET', `/api/sellers?q=${encodeURIComponent(shop.email)}`, asAdmin())
    expect((listed.json() as UserRecord[])[0]?.verified).toBe(true)
    expect((await call('PUT', `/api/sellers/verify/${shop.id}`, asAdmin(), {})).json().modifiedCount).toBe(0)

    const undone = await call('PUT', `/api/sellers/verify/${shop.id}`, asAdmin(), { verified: false })
    expect(undone.json().modifiedCount).toBe(1)
    expect(await badge()).toBe(false)
  })

  it('refuses a buyer (409) and an unknown account (404)', async () => {
    expect((await call('PUT', `/api/sellers/verify/${buyer.user.id}`, asAdmin())).statusCode).toBe(409)
    expect((await rowOf(buyer.user.id)).verifiedAt).toBeNull()
    expect((await call('PUT', `/api/sellers/verify/${randomUUID()}`, asAdmin())).statusCode).toBe(404)
  })
})

describe('Delete a buyer or seller', () => {
  it('disables a seller, ends their sessions and hides their listings; bookings and payments stay', async () => {
    const doomed = await signUp(t.app, { role: 'seller', name: 'Dora Doomed' })
    const token = await bearerTokenFor(t.app, doomed)
    const customer = await insertUser(t.db, { role: 'buyer' })
    const listing = await insertListing(t.db, { sellerId: doomed.user.id, isAdvertised: true })
    const sold = await insertListing(t.db, { sellerId: doomed.user.id, brandId: listing.brandId })
    const booking = await insertBooking(t.db, { buyer: customer, listing })
    await insertBooking(t.db, { buyer: customer, listing: sold, paid: true })
    const ids = async (url: string) =>
      ((await call('GET', url)).json() as { _id: string }[]).map((p) => p._id)
    expect(await ids('/api/advertised_product')).toContain(listing.id)
    expect(await ids(`/api/category/${listing.brandId}`)).toContain(listing.id)

    const res = await call('DELETE', `/api/sellers/${doomed.user.id}`, asAdmin())
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ acknowledged: true, deletedCount: 1, name: 'Dora Doomed' })

    const row = await rowOf(doomed.user.id)
    expect(row.disabledAt).not.toBeNull()
    const [live] = await t.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, doomed.user.id))
    expect(live?.n).toBe(0)
    expect((await call('GET', '/api/me', { cookie: doomed.cookie })).statusCode).toBe(401)
    expect((await call('GET', '/api/me', { authorization: `Bearer ${token}` })).statusCode).toBe(401)

    expect(await ids('/api/advertised_product')).not.toContain(listing.id)
    expect(await ids(`/api/category/${listing.brandId}`)).not.toContain(listing.id)
    expect((await call('GET', `/api/products/${listing.id}`)).statusCode).toBe(404)
    const search = await call('GET', `/api/search?q=${encodeURIComponent(listing.name)}`)
    expect(search.json().total).toBe(0)

    const [kept] = await t.db.select({ n: count() }).from(bookings).where(eq(bookings.id, booking.id))
    expect(kept?.n).toBe(1)
    const [paid] = await t.db.select({ n: count() }).from(payments).where(eq(payments.productId, sold.id))
    expect(paid?.n).toBe(1)
    const [rows] = await t.db
      .select({ n: count() })
      .from(products)
      .where(eq(products.sellerId, doomed.user.id))
    expect(rows?.n).toBe(2)

    const listed = await call('GET', `/api/sellers?q=${encodeURIComponent(doomed.user.email)}`, asAdmin())
    expect(listed.headers['x-total-count']).toBe('0')
    expect((await call('DELETE', `/api/sellers/${doomed.user.id}`, asAdmin())).statusCode).toBe(404)
  })

  it('disables a buyer and keeps their bookings and payments', async () => {
    const shop = await insertUser(t.db, { role: 'seller' })
    const doomed = await insertUser(t.db, { role: 'buyer', name: 'Bert Doomed' })
    const listing = await insertListing(t.db, { sellerId: shop.id })
    const booking = await insertBooking(t.db, { buyer: doomed, listing, paid: true })
    const res = await call('DELETE', `/api/buyers/${doomed.id}`, asAdmin())
    expect(res.json()).toEqual({ acknowledged: true, deletedCount: 1, name: 'Bert Doomed' })
    expect((await rowOf(doomed.id)).disabledAt).not.toBeNull()
    const [kept] = await t.db.select({ n: count() }).from(bookings).where(eq(bookings.id, booking.id))
    const [paid] = await t.db.select({ n: count() }).from(payments).where(eq(payments.bookingId, booking.id))
    expect([kept?.n, paid?.n]).toEqual([1, 1])
  })

  it('changes nothing when signed out (401), not an admin (403) or aimed at the wrong list (404)', async () => {
    const target = await insertUser(t.db, { role: 'buyer' })
    expect((await call('DELETE', `/api/buyers/${target.id}`)).statusCode).toBe(401)
    expect((await call('DELETE', `/api/sellers/${seller.user.id}`)).statusCode).toBe(401)
    expect((await call('DELETE', `/api/buyers/${target.id}`, { cookie: buyer.cookie })).statusCode).toBe(403)
    expect((await call('DELETE', `/api/buyers/${target.id}`, { cookie: seller.cookie })).statusCode).toBe(403)
    expect((await call('DELETE', `/api/sellers/${target.id}`, asAdmin())).statusCode).toBe(404)
    expect((await call('DELETE', `/api/buyers/${seller.user.id}`, asAdmin())).statusCode).toBe(404)
    for (const id of [target.id, seller.user.id]) expect((await rowOf(id)).disabledAt).toBeNull()
    const [live] = await t.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, seller.user.id))
    expect(live?.n).toBeGreaterThan(0)
  })

  it('an admin cannot delete themselves', async () => {
    const res = await call('DELETE', `/api/buyers/${admin.user.id}`, asAdmin())
    expect(res.statusCode).toBe(403)
    expect(res.json().error.message).toBe('You cannot delete your own account')
    expect((await rowOf(admin.user.id)).disabledAt).toBeNull()
  })
})

describe('GET /api/dashboard/overview', () => {
  const overview = async (headers: Headers) => {
    const res = await call('GET', '/api/dashboard/overview', headers)
    expect(res.statusCode).toBe(200)
    const body = res.json() as Overview
    return { role: body.role, counts: Object.fromEntries(body.counts.map((c) => [c.label, c.value])) }
  }

  it("shows a buyer their bookings and what they've paid", async () => {
    const shop = await insertUser(t.db, { role: 'seller' })
    const person = await insertUser(t.db, { role: 'buyer' })
    await insertBooking(t.db, { buyer: person, listing: await insertListing(t.db, { sellerId: shop.id }) })
    await insertBooking(t.db, {
      buyer: person,
      listing: await insertListing(t.db, { sellerId: shop.id }),
      paid: true,
    })
    expect(await overview(await bearerFor(t.app, person))).toEqual({
      role: 'buyer',
      counts: { Bookings: '2', Paid: '1' },
    })
  })

  it('shows a seller their listings, what sold and the revenue', async () => {
    const shop = await insertUser(t.db, { role: 'seller' })
    const customer = await insertUser(t.db, { role: 'buyer' })
    await insertListing(t.db, { sellerId: shop.id })
    await insertBooking(t.db, {
      buyer: customer,
      listing: await insertListing(t.db, { sellerId: shop.id }),
      paid: true,
    })
    // The revenue is the ledger's (what buyers paid for sales not refunded): a sale written straight into the
    // database reaches it as at start.
    await postUnpostedSales(t.db, t.app.ctx.config.payouts.fee)
    expect(await overview(await bearerFor(t.app, shop))).toEqual({
      role: 'seller',
      counts: { 'Available listings': '1', Sold: '1', Revenue: '$649' },
    })
  })

  it('shows an admin the whole market', async () => {
    const { role, counts } = await overview(asAdmin())
    expect(role).toBe('admin')
    const active = (r: 'buyer' | 'seller' | 'admin') =>
      t.db
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.role, r), isNull(users.disabledAt)))
    const listed = (sold: boolean) =>
      t.db
        .select({ n: count() })
        .from(products)
        .where(and(eq(products.isSold, sold), isNull(products.removedAt)))
    const [[b], [s], [a], [avail], [soldCount], [booked], [open]] = await Promise.all([
      active('buyer'),
      active('seller'),
      active('admin'),
      listed(false),
      listed(true),
      t.db.select({ n: count() }).from(bookings),
      t.db.select({ n: count() }).from(reports).where(eq(reports.status, 'open')),
    ])
    expect(counts).toEqual({
      Buyers: String(b?.n),
      Sellers: String(s?.n),
      Admins: String(a?.n),
      'Available listings': String(avail?.n),
      'Sold listings': String(soldCount?.n),
      Bookings: String(booked?.n),
      'Open reports': String(open?.n),
    })
    expect(Number(counts.Bookings)).toBeGreaterThan(0)
  })

  it('refuses anyone signed out', async () => {
    expect((await call('GET', '/api/dashboard/overview')).statusCode).toBe(401)
  })

  it('greets a new account as new, and as back once it signs in again after signing up', async () => {
    const fresh = await signUp(t.app, { role: 'buyer' })
    const greeting = async (cookie: string) =>
      ((await call('GET', '/api/dashboard/overview', { cookie })).json() as Overview).greeting
    expect(await greeting(fresh.cookie)).toBe('new')
    // A sign-in right at sign-up (Google's first) is the sign-up's own; one later is a return.
    await signIn(t.app, { email: fresh.user.email })
    expect(await greeting(fresh.cookie)).toBe('new')
    await t.db
      .update(users)
      .set({ createdAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(users.id, fresh.user.id))
    const again = await signIn(t.app, { email: fresh.user.email })
    expect(await greeting(again.cookie)).toBe('back')
  })
})

// Last: these leave one admin standing.
describe('the last admin', () => {
  it('two admins deleting each other at once leave one admin', async () => {
    // Exactly two admins remain for the race.
    await t.db
      .update(users)
      .set({ role: 'buyer' })
      .where(and(eq(users.role, 'admin'), notInArray(users.id, [admin.user.id, otherAdmin.user.id])))
    const [first, second] = await Promise.all([
      call('DELETE', `/api/buyers/${otherAdmin.user.id}`, { cookie: admin.cookie }),
      call('DELETE', `/api/buyers/${admin.user.id}`, { cookie: otherAdmin.cookie }),
    ])
    const statuses = [first?.statusCode, second?.statusCode]
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 401 || s === 409)).toHaveLength(1)
    const left = await t.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'admin'), isNull(users.disabledAt)))
    expect(left).toHaveLength(1)
  })

  it('the last admin cannot be deleted, even by a request that started while another admin existed', async () => {
    const [survivor] = await t.db
      .select()
      .from(users)
      .where(and(eq(users.role, 'admin'), isNull(users.disabledAt)))
    if (!survivor) throw new Error('no admin left')
    const [gone] = await t.db
      .select()
      .from(users)
      .where(
        and(
          eq(users.role, 'admin'),
          ne(users.id, survivor.id),
          inArray(users.id, [admin.user.id, otherAdmin.user.id]),
        ),
      )
    if (!gone) throw new Error('no deleted admin')
    const staleCaller = {
      id: gone.id,
      name: gone.name,
      email: gone.email,
      role: 'admin' as const,
      isVerified: false,
    }
    const attempt = deleteUser(t.db, staleCaller, survivor.id, 'buyer', t.app.ctx.mail)
    await expect(attempt).rejects.toBeInstanceOf(AppError)
    await expect(attempt).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'The last admin cannot be deleted',
    })
    const [still] = await t.db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.id, survivor.id), isNull(users.disabledAt)))
    expect(still?.n).toBe(1)
  })
})
