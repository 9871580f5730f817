// First listings reviewed, serial numbers, the review queue: who sees a listing waiting for review (its seller and
// admins only), where it never appears (search, brand pages, the home page, the in-memory copy of the listings), and
// what an admin decides.

import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ListingReviewQueue } from '#contract/listing-reviews'
import { Product } from '#contract/products'
import { SearchResult } from '#contract/search'
import { products } from '#server/db/schema'
import { loadFacts } from '#server/modules/search'
import { bearerFor } from '#server/test/auth-helpers'
import { type BrandRow, createBrand, createProduct, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { serialKey } from './listing-reviews.service'

/** Whether the in-memory copy holds the listing (its ids are one-byte characters, one after the other). */
const inCopy = (facts: { ids: Uint8Array } | undefined | null, id: string) =>
  Buffer.from(facts?.ids ?? new Uint8Array())
    .toString('latin1')
    .includes(id)

let t: TestApp
let brand: BrandRow
let admin: UserRow
let buyer: UserRow
let verified: UserRow

beforeAll(async () => {
  t = await createTestApp({ LISTING_REVIEW_FIRST: '2' })
  brand = await createBrand(t.db, { name: 'Reviewbrand' })
  admin = await createUser(t.db, { role: 'admin', name: 'Ada Admin' })
  buyer = await createUser(t.db, { role: 'buyer', name: 'Bea Buyer' })
  verified = await createUser(t.db, { role: 'seller', name: 'Vera Verified', verified: true })
})

afterAll(async () => {
  await t?.close()
})

type Who = UserRow | null
async function call(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  who: Who,
  body?: unknown,
) {
  return t.app.inject({
    method,
    url,
    headers: who ? await bearerFor(t.app, who) : {},
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

let counter = 0
const listing = (extra: Record<string, unknown> = {}) => ({
  name: `Reviewbrand Book ${++counter}`,
  category_id: brand.id,
  seller_phone: '(512) 555-0100',
  resale_price: 499,
  original_price: 999,
  description: 'Fully working, light marks on the lid, charger included.',
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

async function list(seller: UserRow, extra: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/products', seller, listing(extra))
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as { insertedId: string; review_state: string }
}

const newSeller = (name = 'Nia New') => createUser(t.db, { role: 'seller', name })

async function searchIds(q = '') {
  const res = await call('GET', `/api/search?brand=${brand.id}${q}`, null)
  return SearchResult.parse(res.json()).items.map((p) => p._id)
}

describe("a seller's first listings wait for review", () => {
  it('holds an unverified seller’s listings until two are approved; a verified seller skips the queue', async () => {
    const seller = await newSeller()
    const first = await list(seller)
    const second = await list(seller)
    expect([first.review_state, second.review_state]).toEqual(['pending', 'pending'])
    // Two waiting are not two approved: the third waits as well.
    expect((await list(seller)).review_state).toBe('pending')
    for (const { insertedId } of [first, second]) {
      expect((await call('PUT', `/api/listing-reviews/${insertedId}/approve`, admin)).statusCode).toBe(200)
    }
    expect((await list(seller)).review_state).toBe('approved')
    expect((await list(verified)).review_state).toBe('approved')
  })

  it('shows a pending listing to its seller and admins only, with review_state; others get 404', async () => {
    const seller = await newSeller()
    const { insertedId: id } = await list(seller)
    for (const who of [null, buyer, await newSeller('Other Seller')]) {
      expect((await call('GET', `/api/products/${id}`, who)).statusCode).toBe(404)
    }
    const own = Product.parse((await call('GET', `/api/products/${id}`, seller)).json())
    expect(own.review_state).toBe('pending')
    const asAdmin = Product.parse((await call('GET', `/api/products/${id}`, admin)).json())
    expect(asAdmin.review_state).toBe('pending')
    // An approved listing's public answer does not carry the review state.
    const { insertedId: open } = await list(verified)
    expect(
      Product.parse((await call('GET', `/api/products/${open}`, null)).json()).review_state,
    ).toBeUndefined()
    // My Product shows it, with its state.
    const mine = (await call('GET', `/api/products?email=${encodeURIComponent(seller.email)}`, seller)).json()
    expect(mine.find((p: Product) => p._id === id).review_state).toBe('pending')
  })

  it('keeps a pending listing out of search, brand pages, counts and the in-memory copy, and unbookable', async () => {
    const seller = await newSeller()
    const { insertedId: id } = await list(seller, { name: 'Reviewbrand Hidden Pending' })
    const facts = await loadFacts(t.db)
    expect(inCopy(facts, id)).toBe(false)
    expect(await searchIds()).not.toContain(id)
    expect(await searchIds('&q=Hidden%20Pending')).not.toContain(id)
    const category = (await call('GET', `/api/category/${brand.id}`, null)).json() as Product[]
    expect(category.map((p) => p._id)).not.toContain(id)
    const before = SearchResult.parse((await call('GET', `/api/search?brand=${brand.id}`, null)).json()).total
    const booking = await call('POST', '/api/bookings', buyer, {
      productId: id,
      phoneNumber: '(312) 555-0100',
      location: 'Chicago, IL',
    })
    // Refused by the one on-sale rule, like an offer, a hold or a payment would be.
    expect(booking.statusCode).toBe(409)

    // Approved: in search, counted, in the copy, bookable.
    expect((await call('PUT', `/api/listing-reviews/${id}/approve`, admin)).statusCode).toBe(200)
    expect(await searchIds()).toContain(id)
    expect(SearchResult.parse((await call('GET', `/api/search?brand=${brand.id}`, null)).json()).total).toBe(
      before + 1,
    )
    expect(inCopy(await loadFacts(t.db), id)).toBe(true)
    const booked = await call('POST', '/api/bookings', buyer, {
      productId: id,
      phoneNumber: '(312) 555-0100',
      location: 'Chicago, IL',
    })
    expect(booked.statusCode).toBe(201)
  })
})

describe('what counts towards the first listings', () => {
  const approve = async (id: string) =>
    expect((await call('PUT', `/api/listing-reviews/${id}/approve`, admin)).statusCode).toBe(200)
  const remove = async (who: UserRow, id: string) =>
    expect((await call('DELETE', `/api/products/${id}`, who)).statusCode).toBe(200)

  it('listings deleted before an admin saw them do not count: the next one still waits', async () => {
    const seller = await newSeller('Tom Throwaway')
    for (const { insertedId } of [await list(seller), await list(seller)]) await remove(seller, insertedId)
    expect((await list(seller)).review_state).toBe('pending')
    expect((await list(seller)).review_state).toBe('pending')
  })

  it('listings rejected do not count; approved ones do, and deleting them later lowers nothing', async () => {
    const seller = await newSeller('Ann Approved')
    const first = await list(seller)
    const reason = 'The photos are stock pictures: upload photos of this laptop.'
    expect(
      (await call('PUT', `/api/listing-reviews/${first.insertedId}/reject`, admin, { reason })).statusCode,
    ).toBe(200)
    const second = await list(seller)
    const third = await list(seller)
    expect([second.review_state, third.review_state]).toEqual(['pending', 'pending'])
    await approve(second.insertedId)
    // One approved of two: the next still waits.
    expect((await list(seller)).review_state).toBe('pending')
    await approve(third.insertedId)
    await remove(seller, second.insertedId)
    await remove(seller, third.insertedId)
    expect((await list(seller)).review_state).toBe('approved')
  })
})

describe('an approved listing changed by a seller still inside the first listings', () => {
  /** A new seller's listing, approved by an admin: the seller has one approved listing of the two reviewed. */
  async function approvedListing(extra: Record<string, unknown> = {}) {
    const seller = await newSeller('Eddie Editor')
    const { insertedId: id } = await list(seller, extra)
    expect((await call('PUT', `/api/listing-reviews/${id}/approve`, admin)).statusCode).toBe(200)
    return { seller, id }
  }
  const stateOf = async (id: string) => {
    const [row] = await t.db.select().from(products).where(eq(products.id, id))
    return row
  }

  it('goes back to review when rewritten (name, description, photo, price): off sale, in the queue with what changed', async () => {
    const { seller, id } = await approvedListing({ name: 'Reviewbrand Honest 13' })
    expect(await searchIds()).toContain(id)
    const sentBack = new Date().toISOString()
    const res = await call('PATCH', `/api/products/${id}`, seller, {
      name: 'Reviewbrand Something Else Entirely',
      description: 'A different laptop altogether, described anew for buyers.',
      img: '/images/not-found.svg',
      resale_price: 199,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().notices?.join(' ')).toMatch(/back for review/)
    expect((await stateOf(id))?.reviewState).toBe('pending')
    expect(await searchIds()).not.toContain(id)
    expect((await call('GET', `/api/products/${id}`, null)).statusCode).toBe(404)
    const booking = await call('POST', '/api/bookings', buyer, {
      productId: id,
      phoneNumber: '(312) 555-0100',
      location: 'Chicago, IL',
    })
    // Refused by the one on-sale rule, with its reason.
    expect(booking.statusCode).toBe(409)
    expect(booking.json().error.message).toMatch(/waiting for review/)
    const queue = ListingReviewQueue.parse((await call('GET', '/api/listing-reviews', admin)).json())
    const item = queue.items.find((i) => i._id === id)
    expect(item?.review_flags).toContain('changed_after_approval')
    expect(item?.changed).toEqual(['name', 'description', 'photos'])
    // Sent now, so queued behind the listings that were already waiting (the queue is oldest first).
    expect((item?.submitted_at ?? '') >= sentBack).toBe(true)
    // Approved again: on sale, and what changed is cleared for the next time.
    expect((await call('PUT', `/api/listing-reviews/${id}/approve`, admin)).statusCode).toBe(200)
    const after = await stateOf(id)
    expect(after?.reviewState).toBe('approved')
    expect(after?.reviewChanges).toEqual([])
    expect(after?.reviewFlags).not.toContain('changed_after_approval')
    expect(await searchIds()).toContain(id)
  })

  it('a brand or a serial alone sends it back too', async () => {
    const other = await createBrand(t.db, { name: 'Otherbrand' })
    const a = await approvedListing()
    expect(
      (await call('PATCH', `/api/products/${a.id}`, a.seller, { category_id: other.id })).statusCode,
    ).toBe(200)
    expect((await stateOf(a.id))?.reviewChanges).toEqual(['brand'])
    const b = await approvedListing({ serial_number: 'EDIT-SER-0001' })
    expect(
      (await call('PATCH', `/api/products/${b.id}`, b.seller, { serial_number: 'EDIT-SER-0002' })).statusCode,
    ).toBe(200)
    expect(await stateOf(b.id)).toMatchObject({ reviewState: 'pending', reviewChanges: ['serial'] })
  })

  it('stays approved for a price, spec or location change, and for the same values sent again', async () => {
    const { seller, id } = await approvedListing()
    const [row] = await t.db.select().from(products).where(eq(products.id, id))
    const res = await call('PATCH', `/api/products/${id}`, seller, {
      name: row?.name,
      description: row?.description,
      category_id: brand.id,
      img: '/images/laptop-placeholder.svg',
      resale_price: 450,
      location: 'Dallas, TX',
      ram_gb: 32,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().notices).toBeUndefined()
    expect((await stateOf(id))?.reviewState).toBe('approved')
    expect(await searchIds()).toContain(id)
  })

  it('stays approved for a seller past the first listings, and for a verified seller', async () => {
    const seller = await newSeller('Pat Past')
    for (const { insertedId } of [await list(seller), await list(seller)]) {
      expect((await call('PUT', `/api/listing-reviews/${insertedId}/approve`, admin)).statusCode).toBe(200)
    }
    const { insertedId: id } = await list(seller)
    const own = await call('PATCH', `/api/products/${id}`, seller, { name: 'Reviewbrand Renamed Freely' })
    expect(own.statusCode).toBe(200)
    expect((await stateOf(id))?.reviewState).toBe('approved')
    const { insertedId: vid } = await list(verified)
    expect(
      (await call('PATCH', `/api/products/${vid}`, verified, { name: 'Reviewbrand Verified New' }))
        .statusCode,
    ).toBe(200)
    expect((await stateOf(vid))?.reviewState).toBe('approved')
  })
})

describe('a serial changed on an approved listing is checked again, for any seller', () => {
  it("sends a verified seller's listing back for review when the new serial is another seller's", async () => {
    const other = await createUser(t.db, { role: 'seller', verified: true })
    await list(other, { serial_number: 'THEIRS-4242' })
    const { insertedId: id } = await list(verified, { serial_number: 'MINE-4242' })
    const res = await call('PATCH', `/api/products/${id}`, verified, { serial_number: 'theirs 4242' })
    expect(res.statusCode).toBe(200)
    const [row] = await t.db.select().from(products).where(eq(products.id, id))
    expect(row).toMatchObject({ reviewState: 'pending', reviewChanges: [] })
    expect(row?.reviewFlags).toContain('duplicate_serial')
    expect(await searchIds()).not.toContain(id)
  })
})

describe('the review queue and decisions', () => {
  it('lists the queue with counts; admins only', async () => {
    const seller = await newSeller('Queue Seller')
    const { insertedId: id } = await list(seller)
    const res = await call('GET', '/api/listing-reviews', admin)
    const queue = ListingReviewQueue.parse(res.json())
    const item = queue.items.find((i) => i._id === id)
    expect(item).toMatchObject({ review_flags: ['first_listing'], seller_name: 'Queue Seller' })
    expect(queue.counts.pending).toBeGreaterThanOrEqual(1)
    expect((await call('GET', '/api/listing-reviews', buyer)).statusCode).toBe(403)
    expect((await call('GET', '/api/listing-reviews', seller)).statusCode).toBe(403)
    expect((await call('GET', '/api/listing-reviews', null)).statusCode).toBe(401)
  })

  it('rejects with a reason emailed as a statement of reasons; the seller edits and it comes back', async () => {
    const seller = await newSeller('Rita Rejected')
    const { insertedId: id } = await list(seller)
    const short = await call('PUT', `/api/listing-reviews/${id}/reject`, admin, { reason: 'no' })
    expect(short.statusCode).toBe(400)
    const reason = 'The photos are stock pictures: upload photos of this laptop, showing its marks.'
    expect((await call('PUT', `/api/listing-reviews/${id}/reject`, admin, { reason })).statusCode).toBe(200)
    t.outbox.length = 0
    await t.app.ctx.jobs.drain('email')
    const email = t.outbox.find((e) => e.to.includes(seller.email))
    expect(email?.subject).toMatch(/was not approved/)
    expect(email?.text).toContain(reason)
    expect(email?.text).toContain(`/dashboard/products/${id}/edit`)
    const own = Product.parse((await call('GET', `/api/products/${id}`, seller)).json())
    expect(own).toMatchObject({ review_state: 'rejected', review_reason: reason })
    // Deciding twice is a conflict.
    expect((await call('PUT', `/api/listing-reviews/${id}/approve`, admin)).statusCode).toBe(409)
    // The seller edits: back in the queue.
    expect(
      (
        await call('PATCH', `/api/products/${id}`, seller, {
          description: 'Real photos now, a small dent on the lid.',
        })
      ).statusCode,
    ).toBe(200)
    const back = Product.parse((await call('GET', `/api/products/${id}`, seller)).json())
    expect(back.review_state).toBe('pending')
    expect((await call('PUT', `/api/listing-reviews/${id}/approve`, admin)).statusCode).toBe(200)
  })

  it('emails the seller that an approved listing is live, once per approval', async () => {
    const seller = await newSeller('Lia Live')
    const { insertedId: id } = await list(seller, { name: 'Reviewbrand Live 14' })
    await t.app.ctx.jobs.drain('email')
    t.outbox.length = 0
    expect((await call('PUT', `/api/listing-reviews/${id}/approve`, admin)).statusCode).toBe(200)
    await t.app.ctx.jobs.drain('email')
    const mails = t.outbox.filter((e) => e.to.includes(seller.email))
    expect(mails.map((m) => m.subject)).toEqual(['Your listing “Reviewbrand Live 14” is live'])
    expect(mails[0]?.text).toContain('approved it. It is now in search')
    expect(mails[0]?.text).toContain(`/products/${id}`)
    // A refused decision sends nothing.
    expect((await call('PUT', `/api/listing-reviews/${id}/approve`, admin)).statusCode).toBe(409)
    await t.app.ctx.jobs.drain('email')
    expect(t.outbox.filter((e) => e.to.includes(seller.email))).toHaveLength(1)
  })

  it('refuses decisions by non-admins and on unknown listings', async () => {
    const seller = await newSeller()
    const { insertedId: id } = await list(seller)
    expect((await call('PUT', `/api/listing-reviews/${id}/approve`, seller)).statusCode).toBe(403)
    expect((await call('PUT', `/api/listing-reviews/${id}/approve`, buyer)).statusCode).toBe(403)
    expect(
      (await call('PUT', '/api/listing-reviews/00000000-0000-4000-8000-000000000000/approve', admin))
        .statusCode,
    ).toBe(404)
    const [row] = await t.db.select().from(products).where(eq(products.id, id))
    expect(row?.reviewState).toBe('pending')
  })
})

describe('serial numbers', () => {
  it('keeps the serial private: stored as a hash, its last four shown only to the seller', async () => {
    const { insertedId: id } = await list(verified, { serial_number: 'pf-3k9 x2a7' })
    const [row] = await t.db.select().from(products).where(eq(products.id, id))
    expect(row?.serialHash).toBe(serialKey('PF3K9X2A7').hash)
    expect(row?.serialLast4).toBe('X2A7')
    // The last four go to the listing's seller (and admins); a buyer sees them on the deal once paid, nobody else.
    const res = await call('GET', `/api/products/${id}`, null)
    expect(res.json().serial_last4 ?? null).toBeNull()
    expect(res.body).not.toMatch(/PF3K9|X2A7/i)
    const own = await call('GET', `/api/products/${id}`, verified)
    expect(own.json().serial_last4).toBe('X2A7')
    expect(own.body).not.toMatch(/PF3K9/i)
    const bad = await call('POST', '/api/products', verified, listing({ serial_number: 'ab' }))
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.fields.serial_number).toMatch(/4 to 40 letters and digits/)
  })

  it('flags a serial a second seller lists while the first listing exists; the same seller relisting is fine', async () => {
    const first = await createUser(t.db, { role: 'seller', verified: true })
    const second = await createUser(t.db, { role: 'seller', verified: true })
    await list(first, { serial_number: 'DUP-0001-AAAA' })
    expect((await list(first, { serial_number: 'DUP-0001-AAAA' })).review_state).toBe('approved')
    const flagged = await list(second, { serial_number: 'dup 0001 aaaa' })
    expect(flagged.review_state).toBe('pending')
    const queue = ListingReviewQueue.parse((await call('GET', '/api/listing-reviews', admin)).json())
    const item = queue.items.find((i) => i._id === flagged.insertedId)
    expect(item?.review_flags).toEqual(['duplicate_serial'])
    expect(item?.same_serial.map((m) => m.state)).toEqual(['listed', 'listed'])
    expect(queue.counts.flagged).toBeGreaterThanOrEqual(1)
  })

  it('flags a serial sold recently by another seller, not one sold long ago', async () => {
    const first = await createUser(t.db, { role: 'seller', verified: true })
    const second = await createUser(t.db, { role: 'seller', verified: true })
    const recent = serialKey('RECENT123')
    await createProduct(t.db, {
      seller: first,
      brand,
      isSold: true,
      soldAt: new Date(Date.now() - 30 * 86_400_000),
      serialHash: recent.hash,
      serialLast4: recent.last4,
    })
    expect((await list(second, { serial_number: 'RECENT123' })).review_state).toBe('pending')
    const old = serialKey('LONGAGO123')
    await createProduct(t.db, {
      seller: first,
      brand,
      isSold: true,
      soldAt: new Date(Date.now() - 400 * 86_400_000),
      serialHash: old.hash,
      serialLast4: old.last4,
    })
    expect((await list(second, { serial_number: 'LONGAGO123' })).review_state).toBe('approved')
  })

  it('a serial marked reported stolen cannot be listed again, and its unsold listings leave the market', async () => {
    const owner = await createUser(t.db, { role: 'seller', verified: true })
    const { insertedId: id } = await list(owner, { serial_number: 'STOLEN-777' })
    expect((await call('POST', '/api/stolen-serials', owner, { product_id: id })).statusCode).toBe(403)
    const res = await call('POST', '/api/stolen-serials', admin, {
      product_id: id,
      note: 'Police report 2026-114',
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ serial_last4: 'N777', listings_taken_down: 1 })
    expect((await call('GET', `/api/products/${id}`, null)).statusCode).toBe(404)
    const again = await call('POST', '/api/products', verified, listing({ serial_number: 'stolen 777' }))
    expect(again.statusCode).toBe(400)
    expect(again.json().error.fields.serial_number).toMatch(/reported stolen/)
    const typed = await call('POST', '/api/stolen-serials', admin, { serial_number: 'TYPED-9999' })
    expect(typed.statusCode).toBe(201)
    const edit = await call('PATCH', `/api/products/${(await list(verified)).insertedId}`, verified, {
      serial_number: 'typed9999',
    })
    expect(edit.statusCode).toBe(400)
    expect((await call('POST', '/api/stolen-serials', admin, {})).statusCode).toBe(400)
  })
})
