// Every endpoint against every identity. One row per call; each row names the status each identity
// gets, and every signed-in identity is tried with its session cookie and with its bearer token.
// A new endpoint gets a row here: the last test fails while the API documents a call the table lacks.

import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HANDOVER_CHECK_KEYS } from '#contract/handover'
import { messages, offers, products, questions, savedSearches, uploads } from '#server/db/schema'
import type { GuardExtension } from '#server/lib/guard'
import { unsubscribeToken } from '../modules/alerts/unsubscribe-token'
import {
  buildIdentities,
  type Credential,
  type CredentialForm,
  type Fixtures,
  type IdentityName,
  injectAs,
  insertBooking,
} from './auth-helpers'
import { WINDOWS_REPORT } from './battery-samples'
import { createProduct } from './factories'
import { shippedDealAt } from './shipped-deals'
import { createTestApp, type TestApp } from './test-app'

/** A status for every form, or separate ones where only the session cookie is accepted. */
type Status = number | { cookie: number; bearer: number }
type Expected = Record<IdentityName, Status>
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

type Row = {
  method: Method
  /** The route as the OpenAPI document names it; also the request URL when `url` is absent. */
  route: string
  url?: string | ((f: Fixtures) => string | Promise<string>)
  body?: unknown | ((f: Fixtures) => unknown)
  headers?: Record<string, string>
  expected: Expected
}

const everyone = (status: number): Expected => ({
  anonymous: status,
  buyer: status,
  otherBuyer: status,
  seller: status,
  otherSeller: status,
  admin: status,
  deletedUser: status,
  expiredToken: status,
})

/** Nobody signed in: no credentials, a deleted account's old ones, or an expired token. */
const SIGNED_OUT = { anonymous: 401, deletedUser: 401, expiredToken: 401 } as const
const ADMIN_ONLY: Expected = {
  ...SIGNED_OUT,
  buyer: 403,
  otherBuyer: 403,
  seller: 403,
  otherSeller: 403,
  admin: 200,
}
const ANY_SIGNED_IN: Expected = {
  ...SIGNED_OUT,
  buyer: 200,
  otherBuyer: 200,
  seller: 200,
  otherSeller: 200,
  admin: 200,
}
/** Better Auth's own account calls take the session cookie only. */
const cookieOnly = (status: number) => ({ cookie: status, bearer: 401 })
/** Calls only the owning seller may make (`seller` owns the fixture listings). */
const SELLER_OWN = (status: number): Expected => ({
  ...SIGNED_OUT,
  buyer: 403,
  otherBuyer: 403,
  seller: status,
  otherSeller: 403,
  admin: 403,
})
/** Calls every seller may make on their own account. */
const SELLERS = (status: number): Expected => ({
  ...SIGNED_OUT,
  buyer: 403,
  otherBuyer: 403,
  seller: status,
  otherSeller: status,
  admin: 403,
})
const q = encodeURIComponent
/** Calls on `buyer`'s own saved search: others get 404 (it does not exist for them). */
const BUYER_OWN: Expected = {
  ...SIGNED_OUT,
  buyer: 200,
  otherBuyer: 404,
  seller: 404,
  otherSeller: 404,
  admin: 404,
}

/** A new saved search of `buyer`'s (one per call, so a delete by one identity leaves the next its own). */
async function buyersSearch(f: Fixtures): Promise<string> {
  const [row] = await t.db
    .insert(savedSearches)
    .values({
      userId: f.buyer.id,
      query: `q=matrix${randomUUID().slice(0, 8)}`,
      filters: {},
      alert: 'instant',
    })
    .returning({ id: savedSearches.id })
  if (!row) throw new Error('no saved search')
  return row.id
}

const newListing = (f: Fixtures) => ({
  name: 'Matrix Laptop 14',
  category_id: f.brand.id,
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
})

const BOUNDARY = 'matrix-photo-boundary'
/** A small PNG as the web app's upload form sends it. */
async function photoUpload(): Promise<Buffer> {
  const png = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#3366aa' } })
    .png()
    .toBuffer()
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="laptop.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    png,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ])
}

/** A new listing of `seller`'s waiting for an admin's review. */
async function pendingListing(f: Fixtures): Promise<string> {
  const row = await createProduct(t.db, {
    seller: { id: f.seller.id },
    brand: f.brand,
    reviewState: 'pending',
    reviewFlags: ['first_listing'],
    reviewSubmittedAt: new Date(),
  })
  return row.id
}

/** The Windows battery report sample as the listing form sends it. */
function batteryReportUpload(): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="battery-report.html"\r\n` +
        'Content-Type: text/html\r\n\r\n',
    ),
    Buffer.from(WINDOWS_REPORT),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ])
}

/** A new listing of `seller`'s that its seller has marked sold or deleted through the API. */
async function changedListing(f: Fixtures, change: 'sold' | 'deleted') {
  const listing = await f.freshListing()
  const res = await t.app.inject({
    method: change === 'sold' ? 'PUT' : 'DELETE',
    url: change === 'sold' ? `/api/products/${listing.id}/sold` : `/api/products/${listing.id}`,
    headers: { cookie: f.seller.cookie },
  })
  if (res.statusCode !== 200) throw new Error(`listing not ${change}: ${res.statusCode} ${res.body}`)
  return listing
}

/** The handover checklist all ticked, as "Received, as described" needs it. */
const ALL_TICKED = {
  checklist: Object.fromEntries(HANDOVER_CHECK_KEYS.map((key) => [key, true])),
}
const GOOD_CARD = { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' }
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000'

/** The payment page's hold on a booking, taken as its buyer (paying needs it). */
async function holdAs(who: { token: string }, bookingId: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/bookings/${bookingId}/hold`,
    headers: { authorization: `Bearer ${who.token}` },
  })
  if (res.statusCode !== 200) throw new Error(`no hold on ${bookingId}: ${res.statusCode} ${res.body}`)
}

/** A new unpaid booking by `buyer`, whose laptop `otherBuyer` holds while paying. */
async function bookingHeldByOther(f: Fixtures) {
  const listing = await f.freshListing()
  const mine = await insertBooking(t.db, { buyer: f.buyer, listing })
  const theirs = await insertBooking(t.db, { buyer: f.otherBuyer, listing })
  await holdAs(f.otherBuyer, theirs.id)
  return mine
}

const SHIP_TO = {
  name: 'Bea Buyer',
  street1: '179 N Harbor Dr',
  city: 'Redondo Beach',
  state: 'CA',
  zip: '90277',
}

/** A new unpaid booking by `buyer` of a new listing of `seller`'s that ships (and only ships). */
async function shippedBooking(f: Fixtures) {
  const listing = await f.freshListing()
  await t.db
    .update(products)
    .set({
      delivery: 'ship',
      shipFrom: {
        name: 'Sam Seller',
        street1: '417 Montgomery St',
        city: 'San Francisco',
        state: 'CA',
        zip: '94104',
        country: 'US',
      },
    })
    .where(eq(products.id, listing.id))
  return insertBooking(t.db, { buyer: f.buyer, listing })
}

/** A booking by `buyer` of a new listing, paid for through the API, or whose laptop `otherBuyer` bought. */
async function settledBooking(f: Fixtures, state: 'paid' | 'sold') {
  const listing = await f.freshListing()
  const mine = await insertBooking(t.db, { buyer: f.buyer, listing })
  const payer = state === 'paid' ? f.buyer : f.otherBuyer
  const paid = state === 'paid' ? mine : await insertBooking(t.db, { buyer: f.otherBuyer, listing })
  await holdAs(payer, paid.id)
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/payments/test',
    headers: { authorization: `Bearer ${payer.token}` },
    payload: { bookingId: paid.id, card: GOOD_CARD },
  })
  if (res.statusCode !== 200) throw new Error(`booking not ${state}: ${res.statusCode} ${res.body}`)
  return mine
}

/**
 * A booking by `buyer` of a new listing of `seller`'s, paid through the API and moved on to a stage of
 * the deal by the calls its parties would make.
 */
async function dealAt(f: Fixtures, stage: 'paid' | 'handed_over' | 'disputed' | 'completed') {
  const booking = await settledBooking(f, 'paid')
  const step = async (method: 'PUT' | 'POST', url: string, who: { cookie: string }, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: { cookie: who.cookie }, payload })
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
    return res
  }
  if (stage === 'handed_over' || stage === 'completed') {
    await step('PUT', `/api/bookings/${booking.id}/handed-over`, f.seller, { note: 'Met at the library' })
  }
  if (stage === 'completed') await step('PUT', `/api/bookings/${booking.id}/received`, f.buyer, ALL_TICKED)
  if (stage === 'disputed') {
    const res = await step('POST', `/api/bookings/${booking.id}/problem`, f.buyer, {
      reason: 'The battery does not hold a charge.',
    })
    return { ...booking, disputeId: (res.json() as { insertedId: string }).insertedId }
  }
  return { ...booking, disputeId: '' }
}

/** The parties of a `dealAt` booking: others may not see it (404), a party without the step 403. */
const DEAL_SELLER = (status: number): Expected => ({
  ...SIGNED_OUT,
  buyer: 403,
  otherBuyer: 404,
  seller: status,
  otherSeller: 404,
  admin: 403,
})
const DEAL_BUYER = (status: number): Expected => ({
  ...SIGNED_OUT,
  buyer: status,
  otherBuyer: 404,
  seller: 403,
  otherSeller: 404,
  admin: 403,
})
const PROBLEM = { reason: 'The laptop does not turn on.' }

/** A return's body with a photo the buyer uploaded (the pipeline itself is tested in returns.test.ts). */
async function returnBody(f: Fixtures) {
  const [photo] = await t.db
    .insert(uploads)
    .values({
      uploaderId: f.buyer.id,
      cardUrl: '/media/return-card.webp',
      detailUrl: '/media/return-detail.webp',
      width: 640,
      height: 480,
      bytes: 1000,
    })
    .returning({ id: uploads.id })
  return {
    reason: 'The battery does not hold a charge.',
    failed_check: 'battery_as_described',
    photos: [photo?.id],
  }
}

/** A handed-over deal whose buyer returned it, moved on to `status` (accepted: met in person, so handed back). */
async function returnAt(f: Fixtures, status: 'requested' | 'declined' | 'accepted') {
  const booking = await dealAt(f, 'handed_over')
  const step = async (method: 'PUT' | 'POST', url: string, who: { cookie: string }, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: { cookie: who.cookie }, payload })
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
    return res
  }
  const opened = await step('POST', `/api/bookings/${booking.id}/return`, f.buyer, await returnBody(f))
  if (status === 'accepted') await step('PUT', `/api/bookings/${booking.id}/return/accept`, f.seller)
  if (status === 'declined') {
    await step('PUT', `/api/bookings/${booking.id}/return/decline`, f.seller, {
      reason: 'The battery was at 90% when it left.',
    })
  }
  return { id: booking.id, returnId: (opened.json() as { insertedId: string }).insertedId }
}

/** Offers: the offer's buyer and the listing's seller get a status each; everyone else 404. */
const OFFER_PARTIES = (buyer: number, seller: number): Expected => ({
  ...SIGNED_OUT,
  buyer,
  otherBuyer: 404,
  seller,
  otherSeller: 404,
  admin: 404,
})

/** A new open offer of `buyer`'s on a new listing of `seller`'s, waiting for the seller, written straight to the table. */
async function buyersOffer(f: Fixtures): Promise<string> {
  const listing = await f.freshListing()
  const [row] = await t.db
    .insert(offers)
    .values({
      productId: listing.id,
      buyerId: f.buyer.id,
      sellerId: f.seller.id,
      amountCents: 50_000,
      buyerAmountCents: 50_000,
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    .returning({ id: offers.id })
  if (!row) throw new Error('no offer')
  return row.id
}

/** Questions: only the question's seller acts on it; everyone else gets 404 (it does not exist for them). */
const QUESTION_SELLER = (status: number): Expected => ({
  ...SIGNED_OUT,
  buyer: 404,
  otherBuyer: 404,
  seller: status,
  otherSeller: 404,
  admin: 404,
})

/** A new question of `buyer`'s about a new listing of `seller`'s, written straight to the table. */
async function buyersQuestion(f: Fixtures): Promise<string> {
  const listing = await f.freshListing()
  const [row] = await t.db
    .insert(questions)
    .values({
      productId: listing.id,
      askerId: f.buyer.id,
      sellerId: f.seller.id,
      body: 'Is the battery original?',
    })
    .returning({ id: questions.id })
  if (!row) throw new Error('no question')
  return row.id
}

/** Messages: the booking's two parties get `party`, an admin `admin`, everyone else 404. */
const CONVERSATION = (party: number, admin: number): Expected => ({
  ...SIGNED_OUT,
  buyer: party,
  otherBuyer: 404,
  seller: party,
  otherSeller: 404,
  admin,
})

/** A message from `seller` to `buyer` on a new booking (none of its messages reported), written straight to the table. */
async function sellerMessage(f: Fixtures): Promise<string> {
  const booking = await f.freshBooking()
  const [row] = await t.db
    .insert(messages)
    .values({ bookingId: booking.id, senderId: f.seller.id, body: 'Call me on my number instead' })
    .returning({ id: messages.id })
  if (!row) throw new Error('no message')
  return row.id
}

/** A completed sale both sides reviewed; the buyer's review (of `seller`) is published. */
async function reviewedDeal(f: Fixtures) {
  const booking = await dealAt(f, 'completed')
  let buyerReviewId = ''
  for (const who of [f.buyer, f.seller]) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${booking.id}/review`,
      headers: { cookie: who.cookie },
      payload: { rating: 5, text: 'Smooth sale, as described.' },
    })
    if (res.statusCode !== 201) throw new Error(`review: ${res.statusCode} ${res.body}`)
    if (who === f.buyer) buyerReviewId = res.json().insertedId
  }
  return { id: booking.id, buyerReviewId }
}

/** A published review with an open report by `otherBuyer`, for the admin's rows. */
async function reportedReview(f: Fixtures) {
  const { buyerReviewId } = await reviewedDeal(f)
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/reviews/${buyerReviewId}/report`,
    headers: { cookie: f.otherBuyer.cookie },
    payload: { reason: 'This review is not about the sale.' },
  })
  if (res.statusCode !== 201) throw new Error(`report: ${res.statusCode} ${res.body}`)
  return buyerReviewId
}

/** Reviewing a sale: its two sides only; others get 404 and an admin who is neither 403. */
const REVIEWER = (status: number): Expected => ({
  ...SIGNED_OUT,
  buyer: status,
  otherBuyer: 404,
  seller: status,
  otherSeller: 404,
  admin: 403,
})
const REVIEW = { rating: 4, text: 'Friendly and on time.' }

const ROWS: Row[] = [
  // Public reads
  { method: 'GET', route: '/api/health', expected: everyone(200) },
  { method: 'GET', route: '/api/brands', expected: everyone(200) },
  { method: 'GET', route: '/api/advertised_product', expected: everyone(200) },
  {
    method: 'GET',
    route: '/api/category/{id}',
    url: (f) => `/api/category/${f.brand.id}`,
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/products/{id}',
    url: (f) => `/api/products/${f.product.id}`,
    expected: everyone(200),
  },
  { method: 'GET', route: '/api/search', url: '/api/search?q=laptop&sort=newest', expected: everyone(200) },
  { method: 'GET', route: '/api/search/suggest', url: '/api/search/suggest?q=lap', expected: everyone(200) },
  { method: 'GET', route: '/api/auth-options', expected: everyone(200) },
  // Who is asking: a visitor, or a cookie whose session is gone, gets `{ user: null }`, not a 401 (auth.test.ts
  // checks the body); a bearer token that no longer holds (expired, or its account deleted) is still refused.
  {
    method: 'GET',
    route: '/api/session',
    expected: { ...everyone(200), deletedUser: { cookie: 200, bearer: 401 }, expiredToken: 401 },
  },
  { method: 'GET', route: '/api/openapi.json', expected: everyone(200) },
  { method: 'GET', route: '/api/docs', expected: everyone(200) },
  { method: 'GET', route: '/api/payments/config', expected: everyone(200) },
  { method: 'GET', route: '/api/no-such-endpoint', expected: everyone(404) },

  // Better Auth (sign-up, sign-in and sign-out change sessions; auth.test.ts covers them in full)
  { method: 'GET', route: '/api/auth/get-session', expected: everyone(200) },
  {
    method: 'POST',
    route: '/api/auth/sign-up/email',
    body: { name: 'Short', email: 'short@example.test', password: '12345', role: 'buyer' },
    expected: everyone(400),
  },
  {
    method: 'POST',
    route: '/api/auth/sign-in/email',
    body: { email: 'nobody@example.test' },
    expected: everyone(400),
  },
  {
    method: 'GET',
    route: '/api/auth/list-sessions',
    expected: {
      ...SIGNED_OUT,
      buyer: cookieOnly(200),
      otherBuyer: cookieOnly(200),
      seller: cookieOnly(200),
      otherSeller: cookieOnly(200),
      admin: cookieOnly(200),
    },
  },
  {
    method: 'POST',
    route: '/api/auth/update-user',
    body: { role: 'admin' },
    expected: {
      ...SIGNED_OUT,
      buyer: cookieOnly(400),
      otherBuyer: cookieOnly(400),
      seller: cookieOnly(400),
      otherSeller: cookieOnly(400),
      admin: cookieOnly(400),
    },
  },

  // The signed-in person
  { method: 'GET', route: '/api/me', expected: ANY_SIGNED_IN },
  { method: 'GET', route: '/api/dashboard/overview', expected: ANY_SIGNED_IN },
  { method: 'GET', route: '/api/me/security-events', expected: ANY_SIGNED_IN },
  { method: 'GET', route: '/api/me/sessions', expected: ANY_SIGNED_IN },
  { method: 'GET', route: '/api/me/export', expected: ANY_SIGNED_IN },
  { method: 'GET', route: '/api/me/export/summary', expected: ANY_SIGNED_IN },
  { method: 'GET', route: '/api/me/erasure', expected: ANY_SIGNED_IN },
  { method: 'GET', route: '/api/me/step-up', expected: ANY_SIGNED_IN },
  {
    method: 'POST',
    route: '/api/me/step-up',
    body: { password: 'not-the-password' },
    expected: { ...SIGNED_OUT, buyer: 400, otherBuyer: 400, seller: 400, otherSeller: 400, admin: 400 },
  },
  {
    // A passkey's challenge for the proof: these accounts have no passkey, so it is refused.
    method: 'POST',
    route: '/api/me/step-up/passkey-options',
    expected: { ...SIGNED_OUT, buyer: 400, otherBuyer: 400, seller: 400, otherSeller: 400, admin: 400 },
  },
  {
    // A phone that is no phone: refused before anything changes (the journey itself is in users.test.ts).
    method: 'POST',
    route: '/api/me/start-selling',
    body: { phone: 'call me', accept_terms: true },
    expected: { ...SIGNED_OUT, buyer: 400, otherBuyer: 400, seller: 400, otherSeller: 400, admin: 400 },
  },
  {
    method: 'DELETE',
    route: '/api/me',
    body: { password: 'not-the-password' },
    expected: { ...SIGNED_OUT, buyer: 400, otherBuyer: 400, seller: 400, otherSeller: 400, admin: 400 },
  },
  {
    method: 'DELETE',
    route: '/api/me/sessions/{id}',
    url: '/api/me/sessions/no-such-session',
    expected: { ...SIGNED_OUT, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },
  // Each identity holds one session (its cookie and its token share it), so there is no other to end.
  { method: 'DELETE', route: '/api/me/sessions', expected: ANY_SIGNED_IN },
  {
    method: 'GET',
    route: '/api/audit-log',
    url: '/api/audit-log?kind=sign_in&page_size=5',
    expected: ADMIN_ONLY,
  },
  {
    method: 'GET',
    route: '/api/jwt',
    url: (f) => `/api/jwt?email=${q(f.buyer.email)}`,
    // A token is issued to the session cookie only: a bearer token cannot renew itself.
    expected: {
      ...SIGNED_OUT,
      buyer: { cookie: 200, bearer: 403 },
      otherBuyer: 403,
      seller: 403,
      otherSeller: 403,
      admin: 403,
    },
  },
  {
    method: 'GET',
    route: '/api/jwt',
    url: (f) => `/api/jwt?email=${q(f.admin.email)}`,
    expected: { ...ADMIN_ONLY, admin: { cookie: 200, bearer: 403 } },
  },
  {
    method: 'GET',
    route: '/api/jwt',
    url: '/api/jwt?email=not-an-email',
    expected: { ...everyone(400), ...SIGNED_OUT },
  },

  // Role lookups: your own email, or any email for an admin
  {
    method: 'GET',
    route: '/api/buyers/{email}',
    url: (f) => `/api/buyers/${q(f.buyer.email)}`,
    expected: { ...SIGNED_OUT, buyer: 200, otherBuyer: 403, seller: 403, otherSeller: 403, admin: 200 },
  },
  {
    method: 'GET',
    route: '/api/sellers/{email}',
    url: (f) => `/api/sellers/${q(f.seller.email)}`,
    expected: { ...SIGNED_OUT, buyer: 403, otherBuyer: 403, seller: 200, otherSeller: 403, admin: 200 },
  },
  {
    method: 'GET',
    route: '/api/admin/{email}',
    url: (f) => `/api/admin/${q(f.buyer.email)}`,
    expected: { ...SIGNED_OUT, buyer: 200, otherBuyer: 403, seller: 403, otherSeller: 403, admin: 200 },
  },
  {
    method: 'GET',
    route: '/api/admin/{email}',
    url: (f) => `/api/admin/${q(f.admin.email)}`,
    expected: ADMIN_ONLY,
  },

  // Your own buyer or seller record (the body names whose; only that person may)
  {
    method: 'POST',
    route: '/api/buyers',
    body: (f: Fixtures) => ({ name: f.buyer.name, email: f.buyer.email }),
    expected: { ...SIGNED_OUT, buyer: 200, otherBuyer: 403, seller: 403, otherSeller: 403, admin: 403 },
  },
  {
    method: 'POST',
    route: '/api/sellers',
    body: (f: Fixtures) => ({ name: f.seller.name, email: f.seller.email }),
    expected: { ...SIGNED_OUT, buyer: 403, otherBuyer: 403, seller: 200, otherSeller: 403, admin: 403 },
  },

  // The admin's tools (each call that changes its target gets a new one)
  {
    method: 'GET',
    route: '/api/buyers',
    url: '/api/buyers?q=test&page=1&page_size=10',
    expected: ADMIN_ONLY,
  },
  { method: 'GET', route: '/api/sellers', url: '/api/sellers?page=1&page_size=10', expected: ADMIN_ONLY },
  {
    method: 'PUT',
    route: '/api/buyers/admin/{id}',
    url: async (f) => `/api/buyers/admin/${(await f.freshUser('buyer')).id}`,
    expected: ADMIN_ONLY,
  },
  {
    method: 'DELETE',
    route: '/api/buyers/admin/{id}',
    url: async (f) => `/api/buyers/admin/${(await f.freshUser('admin')).id}`,
    expected: ADMIN_ONLY,
  },
  {
    method: 'PUT',
    route: '/api/sellers/verify/{id}',
    url: async (f) => `/api/sellers/verify/${(await f.freshUser('seller')).id}`,
    expected: ADMIN_ONLY,
  },
  {
    method: 'DELETE',
    route: '/api/buyers/{id}',
    url: async (f) => `/api/buyers/${(await f.freshUser('buyer')).id}`,
    expected: ADMIN_ONLY,
  },
  {
    method: 'DELETE',
    route: '/api/sellers/{id}',
    url: async (f) => `/api/sellers/${(await f.freshUser('seller')).id}`,
    expected: ADMIN_ONLY,
  },
  {
    method: 'DELETE',
    route: '/api/buyers/{id}',
    url: (f) => `/api/buyers/${f.admin.id}`,
    expected: { ...ADMIN_ONLY, admin: 403 },
  },

  // Listings (seller's own; the admin may take one down)
  {
    method: 'POST',
    route: '/api/products',
    body: newListing,
    expected: { ...SELLER_OWN(201), otherSeller: 201 },
  },
  {
    method: 'POST',
    route: '/api/products/{id}/battery-report',
    url: async (f) => `/api/products/${(await f.freshListing()).id}/battery-report`,
    body: () => batteryReportUpload(),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    expected: SELLER_OWN(200),
  },
  {
    method: 'POST',
    route: '/api/products/{id}/battery-report',
    url: async (f) => `/api/products/${(await changedListing(f, 'sold')).id}/battery-report`,
    body: () => batteryReportUpload(),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    expected: SELLER_OWN(409),
  },
  {
    method: 'GET',
    route: '/api/products/{id}/battery-report',
    url: async (f) => `/api/products/${(await f.freshListing()).id}/battery-report`,
    // Admins only; a listing whose battery was typed has no report file.
    expected: { ...ADMIN_ONLY, admin: 404 },
  },
  {
    method: 'GET',
    route: '/api/products',
    url: (f) => `/api/products?email=${q(f.seller.email)}`,
    expected: { ...SELLER_OWN(200), admin: 200 },
  },
  {
    method: 'GET',
    route: '/api/products/states',
    url: (f) => `/api/products/states?email=${q(f.seller.email)}`,
    expected: { ...SELLER_OWN(200), admin: 200 },
  },
  {
    method: 'PATCH',
    route: '/api/products/{id}',
    url: async (f) => `/api/products/${(await f.freshListing()).id}`,
    body: { name: 'Matrix Laptop 14, renamed' },
    expected: SELLER_OWN(200),
  },
  {
    method: 'DELETE',
    route: '/api/products/{id}',
    url: async (f) => `/api/products/${(await f.freshListing()).id}`,
    expected: { ...SELLER_OWN(200), admin: 200 },
  },
  {
    method: 'PUT',
    route: '/api/advertise/product/{id}',
    url: async (f) => `/api/advertise/product/${(await f.freshListing()).id}`,
    expected: SELLER_OWN(200),
  },
  {
    method: 'PUT',
    route: '/api/products/{id}/sold',
    url: async (f) => `/api/products/${(await f.freshListing()).id}/sold`,
    expected: SELLER_OWN(200),
  },
  {
    method: 'POST',
    route: '/api/uploads',
    body: photoUpload,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    expected: { ...SELLER_OWN(201), otherSeller: 201 },
  },

  // Listing reviews (admins): the queue, approve, reject with a reason, serials reported stolen
  { method: 'GET', route: '/api/listing-reviews', expected: ADMIN_ONLY },
  {
    method: 'PUT',
    route: '/api/listing-reviews/{id}/approve',
    url: async (f) => `/api/listing-reviews/${await pendingListing(f)}/approve`,
    expected: ADMIN_ONLY,
  },
  {
    method: 'PUT',
    route: '/api/listing-reviews/{id}/approve',
    url: `/api/listing-reviews/${NO_SUCH_ID}/approve`,
    expected: { ...ADMIN_ONLY, admin: 404 },
  },
  {
    method: 'PUT',
    route: '/api/listing-reviews/{id}/reject',
    url: async (f) => `/api/listing-reviews/${await pendingListing(f)}/reject`,
    body: { reason: 'The photos are not of this laptop: upload your own.' },
    expected: ADMIN_ONLY,
  },
  {
    method: 'PUT',
    route: '/api/listing-reviews/{id}/reject',
    url: async (f) => `/api/listing-reviews/${await pendingListing(f)}/reject`,
    body: {},
    expected: { ...ADMIN_ONLY, admin: 400 },
  },
  {
    method: 'POST',
    route: '/api/stolen-serials',
    body: () => ({ serial_number: `MATRIX${randomUUID().slice(0, 8)}` }),
    expected: { ...ADMIN_ONLY, admin: 201 },
  },

  // Listings, continued: bad input after the guard, whose list it is, sold and deleted listings
  { method: 'POST', route: '/api/products', body: {}, expected: { ...SELLER_OWN(400), otherSeller: 400 } },
  {
    method: 'GET',
    route: '/api/products',
    url: '/api/products?email=not-an-email',
    expected: { ...everyone(400), ...SIGNED_OUT },
  },
  {
    method: 'GET',
    route: '/api/products',
    url: (f) => `/api/products?email=${q(f.buyer.email)}`,
    expected: { ...SIGNED_OUT, buyer: 200, otherBuyer: 403, seller: 403, otherSeller: 403, admin: 200 },
  },
  {
    method: 'PATCH',
    route: '/api/products/{id}',
    url: async (f) => `/api/products/${(await changedListing(f, 'sold')).id}`,
    body: { name: 'Matrix Laptop 14, sold' },
    expected: SELLER_OWN(409),
  },
  {
    method: 'PUT',
    route: '/api/advertise/product/{id}',
    url: async (f) => `/api/advertise/product/${(await changedListing(f, 'sold')).id}`,
    expected: SELLER_OWN(409),
  },
  {
    method: 'PATCH',
    route: '/api/products/{id}',
    url: async (f) => `/api/products/${(await changedListing(f, 'deleted')).id}`,
    body: { name: 'Matrix Laptop 14, deleted' },
    expected: { ...SELLER_OWN(404), otherSeller: 404 },
  },
  {
    method: 'DELETE',
    route: '/api/products/{id}',
    url: async (f) => `/api/products/${(await changedListing(f, 'deleted')).id}`,
    expected: { ...SELLER_OWN(404), otherSeller: 404, admin: 404 },
  },

  // Bookings (anyone signed in may book, but not their own listing)
  {
    method: 'POST',
    route: '/api/bookings',
    body: async (f: Fixtures) => ({
      productId: (await f.freshListing()).id,
      phoneNumber: '(312) 555-0100',
      location: 'Chicago, IL',
    }),
    expected: { ...ANY_SIGNED_IN, buyer: 201, otherBuyer: 201, seller: 403, otherSeller: 201, admin: 201 },
  },
  {
    method: 'GET',
    route: '/api/bookings',
    url: (f) => `/api/bookings?email=${q(f.buyer.email)}`,
    expected: { ...SIGNED_OUT, buyer: 200, otherBuyer: 403, seller: 403, otherSeller: 403, admin: 200 },
  },
  {
    method: 'GET',
    route: '/api/bookings/{id}',
    url: (f) => `/api/bookings/${f.booking.id}`,
    expected: { ...SIGNED_OUT, buyer: 200, otherBuyer: 403, seller: 200, otherSeller: 403, admin: 200 },
  },

  // Reports (anyone signed in may report, but not their own listing; admins resolve them)
  {
    method: 'POST',
    route: '/api/reports',
    body: async (f: Fixtures) => ({
      productId: (await f.freshListing()).id,
      reason: 'The photos show another model.',
    }),
    expected: { ...ANY_SIGNED_IN, buyer: 201, otherBuyer: 201, seller: 403, otherSeller: 201, admin: 201 },
  },
  { method: 'GET', route: '/api/reports', expected: ADMIN_ONLY },
  {
    method: 'PUT',
    route: '/api/reports/{id}/dismiss',
    url: async (f) => `/api/reports/${(await f.freshReport()).id}/dismiss`,
    expected: ADMIN_ONLY,
  },
  {
    method: 'PUT',
    route: '/api/reports/{id}/remove',
    url: async (f) => `/api/reports/${(await f.freshReport()).id}/remove`,
    expected: ADMIN_ONLY,
  },

  // Payments (test mode here: no Stripe keys, so the Stripe calls answer 404)
  {
    method: 'POST',
    route: '/api/payments/test',
    body: async (f: Fixtures) => {
      const booking = await f.freshBooking()
      await holdAs(f.buyer, booking.id)
      return { bookingId: booking.id, card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' } }
    },
    expected: { ...SIGNED_OUT, buyer: 200, otherBuyer: 403, seller: 403, otherSeller: 403, admin: 403 },
  },
  {
    method: 'POST',
    route: '/api/payments/intent',
    body: (f: Fixtures) => ({ bookingId: f.booking.id }),
    expected: { ...ANY_SIGNED_IN, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },
  {
    method: 'POST',
    route: '/api/payments/webhook',
    body: '{}',
    headers: { 'content-type': 'application/json' },
    expected: everyone(404),
  },
  {
    // The carrier's webhook answers no one by who they are: without EasyPost's signature it is refused alike.
    method: 'POST',
    route: '/api/webhooks/easypost',
    body: '{}',
    headers: { 'content-type': 'application/json' },
    expected: everyone(400),
  },

  // Bookings and payments in their other states. Someone else's booking is 403 whatever its state, so a
  // refusal says nothing about it; its own buyer gets the state's answer.
  {
    method: 'POST',
    route: '/api/bookings',
    body: async (f: Fixtures) => ({
      productId: (await changedListing(f, 'sold')).id,
      phoneNumber: '(312) 555-0100',
      location: 'Chicago, IL',
    }),
    expected: { ...SIGNED_OUT, buyer: 409, otherBuyer: 409, seller: 403, otherSeller: 409, admin: 409 },
  },
  {
    method: 'POST',
    route: '/api/bookings',
    body: async (f: Fixtures) => ({
      productId: (await changedListing(f, 'deleted')).id,
      phoneNumber: '(312) 555-0100',
      location: 'Chicago, IL',
    }),
    expected: { ...SIGNED_OUT, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },
  {
    method: 'GET',
    route: '/api/bookings',
    url: (f) => `/api/bookings?email=${q(f.seller.email)}`,
    expected: { ...SIGNED_OUT, buyer: 403, otherBuyer: 403, seller: 200, otherSeller: 403, admin: 200 },
  },
  {
    method: 'GET',
    route: '/api/bookings/{id}',
    url: async (f) => `/api/bookings/${(await settledBooking(f, 'paid')).id}`,
    expected: { ...SIGNED_OUT, buyer: 200, otherBuyer: 403, seller: 200, otherSeller: 403, admin: 200 },
  },
  {
    method: 'GET',
    route: '/api/bookings/{id}',
    url: `/api/bookings/${NO_SUCH_ID}`,
    expected: { ...SIGNED_OUT, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },
  {
    method: 'POST',
    route: '/api/payments/test',
    body: async (f: Fixtures) => {
      await holdAs(f.buyer, f.booking.id)
      return { bookingId: f.booking.id, card: { ...GOOD_CARD, number: '4000 0000 0000 0002' } }
    },
    expected: { ...SIGNED_OUT, buyer: 402, otherBuyer: 403, seller: 403, otherSeller: 403, admin: 403 },
  },
  {
    method: 'POST',
    route: '/api/payments/test',
    body: async (f: Fixtures) => ({ bookingId: (await settledBooking(f, 'paid')).id, card: GOOD_CARD }),
    expected: { ...SIGNED_OUT, buyer: 409, otherBuyer: 403, seller: 403, otherSeller: 403, admin: 403 },
  },
  {
    method: 'POST',
    route: '/api/payments/test',
    body: async (f: Fixtures) => ({ bookingId: (await settledBooking(f, 'sold')).id, card: GOOD_CARD }),
    expected: { ...SIGNED_OUT, buyer: 409, otherBuyer: 403, seller: 403, otherSeller: 403, admin: 403 },
  },
  {
    method: 'POST',
    route: '/api/payments/test',
    body: { bookingId: NO_SUCH_ID, card: GOOD_CARD },
    expected: { ...SIGNED_OUT, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },

  // The hold while paying: only the booking's buyer takes it; another buyer's hold is 409 RESERVED.
  {
    method: 'POST',
    route: '/api/bookings/{id}/hold',
    url: async (f) => `/api/bookings/${(await f.freshBooking()).id}/hold`,
    expected: DEAL_BUYER(200),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/hold',
    url: async (f) => `/api/bookings/${(await bookingHeldByOther(f)).id}/hold`,
    expected: DEAL_BUYER(409),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/hold',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'paid')).id}/hold`,
    expected: DEAL_BUYER(409),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/hold',
    url: `/api/bookings/${NO_SUCH_ID}/hold`,
    expected: { ...SIGNED_OUT, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },

  // The buyer's delivery before paying: rates to their address, then meet in person or a quoted rate.
  {
    method: 'POST',
    route: '/api/bookings/{id}/shipping-rates',
    url: async (f) => `/api/bookings/${(await shippedBooking(f)).id}/shipping-rates`,
    body: { address: SHIP_TO },
    expected: DEAL_BUYER(200),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/shipping-rates',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'paid')).id}/shipping-rates`,
    body: { address: SHIP_TO },
    expected: DEAL_BUYER(409),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/shipping-rates',
    url: `/api/bookings/${NO_SUCH_ID}/shipping-rates`,
    body: { address: SHIP_TO },
    expected: { ...SIGNED_OUT, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/delivery',
    url: async (f) => `/api/bookings/${(await f.freshBooking()).id}/delivery`,
    body: { method: 'meet' },
    expected: DEAL_BUYER(200),
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/delivery',
    url: async (f) => `/api/bookings/${(await shippedBooking(f)).id}/delivery`,
    body: { method: 'meet' },
    expected: DEAL_BUYER(409),
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/delivery',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'paid')).id}/delivery`,
    body: { method: 'meet' },
    expected: DEAL_BUYER(409),
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/delivery',
    url: `/api/bookings/${NO_SUCH_ID}/delivery`,
    body: { method: 'meet' },
    expected: { ...SIGNED_OUT, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },

  // The buyer cancels their own booking before paying; once paid it is the seller's "cancel the sale" instead.
  {
    method: 'PUT',
    route: '/api/bookings/{id}/cancel-booking',
    url: async (f) => `/api/bookings/${(await f.freshBooking()).id}/cancel-booking`,
    expected: DEAL_BUYER(200),
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/cancel-booking',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'paid')).id}/cancel-booking`,
    expected: DEAL_BUYER(409),
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/cancel-booking',
    url: `/api/bookings/${NO_SUCH_ID}/cancel-booking`,
    expected: { ...SIGNED_OUT, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },
  {
    method: 'POST',
    route: '/api/payments/test',
    body: async (f: Fixtures) => ({ bookingId: (await bookingHeldByOther(f)).id, card: GOOD_CARD }),
    expected: { ...SIGNED_OUT, buyer: 409, otherBuyer: 403, seller: 403, otherSeller: 403, admin: 403 },
  },
  {
    method: 'POST',
    route: '/api/payments/test',
    body: async (f: Fixtures) => ({ bookingId: (await f.freshBooking()).id, card: GOOD_CARD }),
    expected: { ...SIGNED_OUT, buyer: 409, otherBuyer: 403, seller: 403, otherSeller: 403, admin: 403 },
  },

  // The deal after payment: the seller hands over, the buyer confirms or reports a problem, admins
  // resolve disputes. Each row's booking is new; a step in the wrong stage is 409 for its own party.
  {
    method: 'PUT',
    route: '/api/bookings/{id}/handed-over',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'paid')).id}/handed-over`,
    body: { note: 'Tracking 1Z999AA10123456784' },
    expected: DEAL_SELLER(200),
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/handed-over',
    url: async (f) => `/api/bookings/${(await f.freshBooking()).id}/handed-over`,
    expected: DEAL_SELLER(409),
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/handed-over',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'handed_over')).id}/handed-over`,
    expected: DEAL_SELLER(409),
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/handed-over',
    url: `/api/bookings/${NO_SUCH_ID}/handed-over`,
    expected: { ...SIGNED_OUT, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/cancel',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'paid')).id}/cancel`,
    body: { reason: 'The screen cracked while packing it.' },
    expected: DEAL_SELLER(200),
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/cancel',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'handed_over')).id}/cancel`,
    body: { reason: 'The screen cracked while packing it.' },
    expected: DEAL_SELLER(409),
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/cancel',
    url: `/api/bookings/${NO_SUCH_ID}/cancel`,
    body: { reason: 'The screen cracked while packing it.' },
    expected: { ...SIGNED_OUT, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },
  // The seller's shipping label: a paid sale the buyer chose to have shipped; a met one has none (409).
  {
    method: 'POST',
    route: '/api/bookings/{id}/label',
    url: async (f) =>
      `/api/bookings/${(await shippedDealAt(t, 'paid', { buyer: f.buyer, seller: f.seller, brand: f.brand })).booking.id}/label`,
    expected: DEAL_SELLER(200),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/label',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'paid')).id}/label`,
    expected: DEAL_SELLER(409),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/label',
    url: `/api/bookings/${NO_SUCH_ID}/label`,
    expected: { ...SIGNED_OUT, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/received',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'handed_over')).id}/received`,
    body: ALL_TICKED,
    expected: DEAL_BUYER(200),
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/received',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'paid')).id}/received`,
    body: ALL_TICKED,
    expected: DEAL_BUYER(409),
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/received',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'completed')).id}/received`,
    body: ALL_TICKED,
    expected: DEAL_BUYER(409),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/problem',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'paid')).id}/problem`,
    body: PROBLEM,
    expected: DEAL_BUYER(201),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/problem',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'handed_over')).id}/problem`,
    body: PROBLEM,
    expected: DEAL_BUYER(201),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/problem',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'completed')).id}/problem`,
    body: PROBLEM,
    expected: DEAL_BUYER(409),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/problem',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'disputed')).id}/problem`,
    body: PROBLEM,
    expected: DEAL_BUYER(409),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/problem',
    url: (f) => `/api/bookings/${f.booking.id}/problem`,
    body: PROBLEM,
    expected: DEAL_BUYER(409),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/problem',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'paid')).id}/problem`,
    body: {},
    expected: { ...DEAL_BUYER(400), seller: 400, admin: 400, otherBuyer: 400, otherSeller: 400 },
  },
  // Returns: the buyer opens one within the inspection window, the seller answers, admins decide.
  {
    method: 'GET',
    route: '/api/bookings/{id}/return',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'handed_over')).id}/return`,
    expected: { ...SIGNED_OUT, buyer: 200, otherBuyer: 404, seller: 200, otherSeller: 404, admin: 200 },
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/return-photos',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'handed_over')).id}/return-photos`,
    body: photoUpload,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    expected: DEAL_BUYER(201),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/return',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'handed_over')).id}/return`,
    body: returnBody,
    expected: DEAL_BUYER(201),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/return',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'paid')).id}/return`,
    body: returnBody,
    expected: DEAL_BUYER(409),
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/return/accept',
    url: async (f) => `/api/bookings/${(await returnAt(f, 'requested')).id}/return/accept`,
    expected: DEAL_SELLER(200),
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/return/decline',
    url: async (f) => `/api/bookings/${(await returnAt(f, 'requested')).id}/return/decline`,
    body: { reason: 'The battery was at 90% when it left.' },
    expected: DEAL_SELLER(200),
  },
  {
    method: 'PUT',
    route: '/api/bookings/{id}/return/back',
    url: async (f) => `/api/bookings/${(await returnAt(f, 'accepted')).id}/return/back`,
    body: { as_sent: true },
    expected: DEAL_SELLER(200),
  },
  { method: 'GET', route: '/api/returns', expected: ADMIN_ONLY },
  { method: 'GET', route: '/api/returns', url: '/api/returns?status=all', expected: ADMIN_ONLY },
  {
    method: 'PUT',
    route: '/api/returns/{id}/decide',
    url: async (f) => `/api/returns/${(await returnAt(f, 'declined')).returnId}/decide`,
    body: { decision: 'refuse', reason: 'The photos show the battery as described.' },
    expected: ADMIN_ONLY,
  },
  {
    method: 'PUT',
    route: '/api/returns/{id}/decide',
    url: `/api/returns/${NO_SUCH_ID}/decide`,
    body: { decision: 'refuse', reason: 'The photos show the battery as described.' },
    expected: { ...ADMIN_ONLY, admin: 404 },
  },
  {
    method: 'PUT',
    route: '/api/disputes/{id}/return-first',
    url: async (f) => {
      // A laptop the buyer has: handed over, then a problem reported.
      const booking = await dealAt(f, 'handed_over')
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/bookings/${booking.id}/problem`,
        headers: { cookie: f.buyer.cookie },
        payload: PROBLEM,
      })
      return `/api/disputes/${(res.json() as { insertedId: string }).insertedId}/return-first`
    },
    body: { reason: 'The laptop comes back before the refund.' },
    expected: { ...ADMIN_ONLY, admin: 201 },
  },
  { method: 'GET', route: '/api/disputes', expected: ADMIN_ONLY },
  { method: 'GET', route: '/api/disputes', url: '/api/disputes?status=all', expected: ADMIN_ONLY },
  {
    method: 'PUT',
    route: '/api/disputes/{id}/refund',
    url: async (f) => `/api/disputes/${(await dealAt(f, 'disputed')).disputeId}/refund`,
    body: { reason: 'Not as described: the screen is cracked' },
    expected: ADMIN_ONLY,
  },
  {
    method: 'PUT',
    route: '/api/disputes/{id}/release',
    url: async (f) => `/api/disputes/${(await dealAt(f, 'disputed')).disputeId}/release`,
    expected: ADMIN_ONLY,
  },
  {
    method: 'PUT',
    route: '/api/disputes/{id}/refund',
    url: `/api/disputes/${NO_SUCH_ID}/refund`,
    body: { reason: 'Not as described: the screen is cracked' },
    expected: { ...ADMIN_ONLY, admin: 404 },
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/refund',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'completed')).id}/refund`,
    body: { reason: 'Not as described: the screen is cracked' },
    expected: ADMIN_ONLY,
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/refund',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'paid')).id}/refund`,
    body: { reason: 'Not as described: the screen is cracked' },
    expected: { ...ADMIN_ONLY, admin: 409 },
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/refund',
    url: `/api/bookings/${NO_SUCH_ID}/refund`,
    body: { reason: 'Not as described: the screen is cracked' },
    expected: { ...ADMIN_ONLY, admin: 404 },
  },

  // Reviews after a completed sale: its two sides review each other once; anyone reads a seller's
  // published reviews; anyone signed in reports one (not their own); admins remove or dismiss.
  {
    method: 'POST',
    route: '/api/bookings/{id}/review',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'completed')).id}/review`,
    body: REVIEW,
    expected: REVIEWER(201),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/review',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'handed_over')).id}/review`,
    body: REVIEW,
    expected: REVIEWER(409),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/review',
    url: async (f) => `/api/bookings/${(await reviewedDeal(f)).id}/review`,
    body: REVIEW,
    expected: REVIEWER(409),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/review',
    url: `/api/bookings/${NO_SUCH_ID}/review`,
    body: REVIEW,
    expected: { ...ANY_SIGNED_IN, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/review',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'completed')).id}/review`,
    body: { rating: 6, text: 'Too good.' },
    expected: { ...ANY_SIGNED_IN, buyer: 400, otherBuyer: 400, seller: 400, otherSeller: 400, admin: 400 },
  },
  {
    method: 'GET',
    route: '/api/sellers/{id}/reviews',
    url: (f) => `/api/sellers/${f.seller.id}/reviews`,
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/sellers/{id}/reviews',
    url: (f) => `/api/sellers/${f.deletedUser.id}/reviews`,
    expected: everyone(404),
  },
  {
    method: 'GET',
    route: '/api/sellers/{id}/page',
    url: (f) => `/api/sellers/${f.seller.id}/page`,
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/sellers/{id}/page',
    url: '/api/sellers/nobody/page',
    expected: everyone(404),
  },
  { method: 'GET', route: '/api/reviews/mine', expected: ANY_SIGNED_IN },
  {
    method: 'POST',
    route: '/api/reviews/{id}/report',
    url: async (f) => `/api/reviews/${(await reviewedDeal(f)).buyerReviewId}/report`,
    body: { reason: 'This review is not about the sale.' },
    expected: { ...SIGNED_OUT, buyer: 403, otherBuyer: 201, seller: 201, otherSeller: 201, admin: 201 },
  },
  { method: 'GET', route: '/api/reviews/reported', expected: ADMIN_ONLY },
  {
    method: 'PUT',
    route: '/api/reviews/{id}/remove',
    url: async (f) => `/api/reviews/${await reportedReview(f)}/remove`,
    expected: ADMIN_ONLY,
  },
  {
    method: 'PUT',
    route: '/api/reviews/{id}/dismiss',
    url: async (f) => `/api/reviews/${await reportedReview(f)}/dismiss`,
    expected: ADMIN_ONLY,
  },

  // Messages: a booking's conversation is its buyer's and the listing's seller's; an admin reads (never
  // writes) one with a dispute or a reported message; everyone else gets 404 for the booking.
  {
    method: 'GET',
    route: '/api/bookings/{id}/messages',
    url: (f) => `/api/bookings/${f.booking.id}/messages`,
    expected: CONVERSATION(200, 404),
  },
  {
    method: 'GET',
    route: '/api/bookings/{id}/messages',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'disputed')).id}/messages`,
    expected: CONVERSATION(200, 200),
  },
  {
    method: 'GET',
    route: '/api/bookings/{id}/messages',
    url: `/api/bookings/${NO_SUCH_ID}/messages`,
    expected: CONVERSATION(404, 404),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/messages',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'paid')).id}/messages`,
    body: { body: 'Is the charger included?' },
    expected: CONVERSATION(201, 404),
  },
  // An unpaid booking: its buyer does not write first (booking is free); its seller may.
  {
    method: 'POST',
    route: '/api/bookings/{id}/messages',
    url: async (f) => `/api/bookings/${(await f.freshBooking()).id}/messages`,
    body: { body: 'Is the charger included?' },
    expected: { ...CONVERSATION(201, 404), buyer: 403 },
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/messages',
    url: async (f) => `/api/bookings/${(await dealAt(f, 'disputed')).id}/messages`,
    body: { body: 'About the problem you reported' },
    expected: CONVERSATION(201, 403),
  },
  {
    method: 'POST',
    route: '/api/bookings/{id}/messages',
    url: (f) => `/api/bookings/${f.booking.id}/messages`,
    body: { body: '' },
    expected: { ...ANY_SIGNED_IN, buyer: 400, otherBuyer: 400, seller: 400, otherSeller: 400, admin: 400 },
  },
  { method: 'GET', route: '/api/messages/unread', expected: ANY_SIGNED_IN },
  { method: 'GET', route: '/api/messages/conversations', expected: ANY_SIGNED_IN },
  {
    method: 'POST',
    route: '/api/messages/{id}/report',
    url: async (f) => `/api/messages/${await sellerMessage(f)}/report`,
    expected: { ...SIGNED_OUT, buyer: 200, otherBuyer: 404, seller: 403, otherSeller: 404, admin: 404 },
  },
  {
    method: 'POST',
    route: '/api/messages/{id}/report',
    url: `/api/messages/${NO_SUCH_ID}/report`,
    expected: { ...SIGNED_OUT, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },
  { method: 'GET', route: '/api/messages/reported', expected: ADMIN_ONLY },

  // Email: each signed-in person's own settings; the auth library's reset calls answer everyone alike
  { method: 'GET', route: '/api/email-settings', expected: ANY_SIGNED_IN },
  { method: 'PUT', route: '/api/email-settings', body: { messages: true }, expected: ANY_SIGNED_IN },
  {
    method: 'PUT',
    route: '/api/email-settings',
    body: { messages: 'no' },
    expected: { ...ANY_SIGNED_IN, buyer: 400, otherBuyer: 400, seller: 400, otherSeller: 400, admin: 400 },
  },
  {
    method: 'POST',
    route: '/api/auth/request-password-reset',
    body: { email: 'nobody@example.test' },
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/auth/reset-password',
    body: { token: 'made-up', newPassword: 'whatever-123' },
    expected: everyone(400),
  },

  // Price guide, listing expiry, listing views and the role dashboards
  {
    method: 'GET',
    route: '/api/price-guide',
    url: (f) =>
      `/api/price-guide?brand=${f.brand.id}&processor=${q('Intel Core i5-1235U')}&ram_gb=16&storage_gb=512`,
    expected: everyone(200),
  },
  { method: 'GET', route: '/api/price-guide', url: '/api/price-guide?brand=nope', expected: everyone(400) },
  {
    method: 'PUT',
    route: '/api/products/{id}/renew',
    url: async (f) => `/api/products/${(await f.freshListing()).id}/renew`,
    expected: SELLER_OWN(200),
  },
  {
    method: 'PUT',
    route: '/api/products/{id}/renew',
    url: async (f) => `/api/products/${(await changedListing(f, 'sold')).id}/renew`,
    expected: SELLER_OWN(409),
  },
  {
    method: 'POST',
    route: '/api/products/{id}/views',
    url: (f) => `/api/products/${f.product.id}/views`,
    expected: everyone(202),
  },
  {
    method: 'GET',
    route: '/api/dashboard/seller',
    expected: { ...SIGNED_OUT, buyer: 403, otherBuyer: 403, seller: 200, otherSeller: 200, admin: 403 },
  },
  { method: 'GET', route: '/api/dashboard/admin', expected: ADMIN_ONLY },
  // Money to sellers: payout accounts and earnings are each seller's own; finance is for admins.
  { method: 'GET', route: '/api/payouts/account', expected: SELLERS(200) },
  // Changing payout details needs a step-up ("Confirm it's you"), which no identity here has given: refused
  // before the body is looked at (server/lib/step-up.test.ts covers the changes with one).
  {
    method: 'POST',
    route: '/api/payouts/account',
    body: { account_holder: 'Matrix Seller', routing_number: '110000000', account_number: '000123456789' },
    expected: SELLERS(403),
  },
  {
    method: 'POST',
    route: '/api/payouts/account',
    body: { account_holder: 'Matrix Seller', routing_number: '123456789', account_number: '000123456789' },
    expected: SELLERS(403),
  },
  {
    method: 'POST',
    route: '/api/payouts/account/changes/{id}/undo',
    url: '/api/payouts/account/changes/00000000-0000-4000-8000-000000000000/undo',
    expected: SELLERS(403),
  },
  { method: 'GET', route: '/api/earnings', expected: SELLERS(200) },
  { method: 'GET', route: '/api/finance', expected: ADMIN_ONLY },
  // Favourites and saved searches: each user's own, invisible to everyone else.
  { method: 'GET', route: '/api/favourites', expected: ANY_SIGNED_IN },
  { method: 'GET', route: '/api/favourites/ids', expected: ANY_SIGNED_IN },
  { method: 'GET', route: '/api/favourites/alerts', expected: ANY_SIGNED_IN },
  { method: 'PUT', route: '/api/favourites/alerts', body: { alert: 'daily' }, expected: ANY_SIGNED_IN },
  {
    method: 'PUT',
    route: '/api/favourites/{productId}',
    url: (f) => `/api/favourites/${f.product.id}`,
    // Its seller cannot save their own listing.
    expected: { ...ANY_SIGNED_IN, seller: 403 },
  },
  {
    method: 'DELETE',
    route: '/api/favourites/{productId}',
    url: (f) => `/api/favourites/${f.product.id}`,
    expected: ANY_SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/saved-searches',
    body: { query: 'q=thinkpad&max_price=600', alert: 'daily' },
    expected: { ...SIGNED_OUT, buyer: 201, otherBuyer: 201, seller: 201, otherSeller: 201, admin: 201 },
  },
  { method: 'GET', route: '/api/saved-searches', expected: ANY_SIGNED_IN },
  {
    method: 'DELETE',
    route: '/api/saved-searches/{id}',
    url: async (f) => `/api/saved-searches/${await buyersSearch(f)}`,
    expected: BUYER_OWN,
  },
  {
    method: 'PUT',
    route: '/api/saved-searches/{id}/alert',
    url: async (f) => `/api/saved-searches/${await buyersSearch(f)}/alert`,
    body: { alert: 'off' },
    expected: BUYER_OWN,
  },
  {
    method: 'POST',
    route: '/api/saved-searches/{id}/visit',
    url: async (f) => `/api/saved-searches/${await buyersSearch(f)}/visit`,
    expected: BUYER_OWN,
  },
  // An alert email's unsubscribe link works for whoever holds it, signed in or not; a forged one for nobody.
  {
    method: 'GET',
    route: '/api/unsubscribe/{token}',
    url: (f) =>
      `/api/unsubscribe/${unsubscribeToken(t.app.ctx.config, { kind: 'favourites', userId: f.buyer.id })}`,
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/unsubscribe/{token}',
    url: (f) =>
      `/api/unsubscribe/${unsubscribeToken(t.app.ctx.config, { kind: 'digest', userId: f.buyer.id })}`,
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/unsubscribe/{token}',
    url: (f) => `/api/unsubscribe/f.${f.buyer.id}.forgedforgedforgedforgedforged12`,
    expected: everyone(400),
  },
  // A security email's "I did not do this" link works for whoever holds it, signed in or not (tested with real
  // links in server/modules/account/security-change.test.ts); one not signed by us for nobody.
  {
    method: 'POST',
    route: '/api/account/not-me/check',
    body: { token: `${'a'.repeat(24)}.${'b'.repeat(32)}` },
    expected: everyone(400),
  },
  {
    method: 'POST',
    route: '/api/account/reset-passkeys',
    body: { token: 'no-such-reset-token' },
    expected: everyone(400),
  },
  {
    method: 'POST',
    route: '/api/account/not-me',
    body: { token: `${'a'.repeat(24)}.${'b'.repeat(32)}` },
    expected: everyone(400),
  },
  {
    method: 'GET',
    route: '/api/dashboard/buyer',
    expected: { ...SIGNED_OUT, buyer: 200, otherBuyer: 200, seller: 403, otherSeller: 403, admin: 403 },
  },
  // Offers: the buyer and the listing's seller see an offer (everyone else 404); each step is one party's (403),
  // in one state (409); a fresh listing or offer per call.
  {
    method: 'POST',
    route: '/api/products/{id}/offers',
    url: async (f) => `/api/products/${(await f.freshListing()).id}/offers`,
    body: { amount: 500, note: 'Would you take $500?' },
    expected: { ...ANY_SIGNED_IN, buyer: 201, otherBuyer: 201, seller: 403, otherSeller: 201, admin: 201 },
  },
  {
    method: 'POST',
    route: '/api/products/{id}/offers',
    url: `/api/products/${NO_SUCH_ID}/offers`,
    body: { amount: 500 },
    expected: { ...SIGNED_OUT, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },
  { method: 'GET', route: '/api/offers', url: '/api/offers?role=buyer', expected: ANY_SIGNED_IN },
  { method: 'GET', route: '/api/offers', url: '/api/offers?role=seller&open=true', expected: ANY_SIGNED_IN },
  {
    method: 'GET',
    route: '/api/offers/{id}',
    url: async (f) => `/api/offers/${await buyersOffer(f)}`,
    expected: OFFER_PARTIES(200, 200),
  },
  {
    method: 'GET',
    route: '/api/offers/{id}',
    url: `/api/offers/${NO_SUCH_ID}`,
    expected: { ...SIGNED_OUT, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },
  {
    method: 'PUT',
    route: '/api/offers/{id}/accept',
    url: async (f) => `/api/offers/${await buyersOffer(f)}/accept`,
    expected: OFFER_PARTIES(409, 200),
  },
  {
    method: 'PUT',
    route: '/api/offers/{id}/decline',
    url: async (f) => `/api/offers/${await buyersOffer(f)}/decline`,
    body: { reason: 'Too low for this one.' },
    expected: OFFER_PARTIES(403, 200),
  },
  {
    method: 'PUT',
    route: '/api/offers/{id}/counter',
    url: async (f) => `/api/offers/${await buyersOffer(f)}/counter`,
    body: { amount: 600 },
    expected: OFFER_PARTIES(409, 200),
  },
  {
    method: 'PUT',
    route: '/api/offers/{id}/withdraw',
    url: async (f) => `/api/offers/${await buyersOffer(f)}/withdraw`,
    expected: OFFER_PARTIES(200, 403),
  },
  // Questions: anyone signed in asks about another's listing (its seller 403); the public Q&A is everyone's; only a
  // question's seller answers or blocks its asker (everyone else 404).
  {
    method: 'POST',
    route: '/api/products/{id}/questions',
    url: async (f) => `/api/products/${(await f.freshListing()).id}/questions`,
    body: { body: 'Does it come with the original charger?' },
    expected: { ...ANY_SIGNED_IN, buyer: 201, otherBuyer: 201, seller: 403, otherSeller: 201, admin: 201 },
  },
  {
    method: 'POST',
    route: '/api/products/{id}/questions',
    url: `/api/products/${NO_SUCH_ID}/questions`,
    body: { body: 'Hello?' },
    expected: { ...SIGNED_OUT, buyer: 404, otherBuyer: 404, seller: 404, otherSeller: 404, admin: 404 },
  },
  {
    method: 'GET',
    route: '/api/products/{id}/questions',
    url: (f) => `/api/products/${f.product.id}/questions`,
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/products/{id}/questions',
    url: `/api/products/${NO_SUCH_ID}/questions`,
    expected: everyone(404),
  },
  { method: 'GET', route: '/api/questions', url: '/api/questions?role=seller', expected: ANY_SIGNED_IN },
  { method: 'GET', route: '/api/questions', url: '/api/questions?role=asker', expected: ANY_SIGNED_IN },
  { method: 'GET', route: '/api/questions/unanswered', expected: ANY_SIGNED_IN },
  {
    method: 'PUT',
    route: '/api/questions/{id}/answer',
    url: async (f) => `/api/questions/${await buyersQuestion(f)}/answer`,
    body: { answer: 'Yes, the original one.', public: true },
    expected: QUESTION_SELLER(200),
  },
  {
    method: 'POST',
    route: '/api/questions/{id}/block',
    url: async (f) => `/api/questions/${await buyersQuestion(f)}/block`,
    expected: QUESTION_SELLER(200),
  },
  {
    method: 'DELETE',
    route: '/api/questions/{id}/block',
    url: async (f) => `/api/questions/${await buyersQuestion(f)}/block`,
    expected: QUESTION_SELLER(200),
  },
]

let t: TestApp
let fixtures: Fixtures
let credentials: Credential[]

beforeAll(async () => {
  // The matrix writes a few messages per party a minute on purpose; the limit has its own test (messages.test.ts).
  t = await createTestApp({ LIVE_HOLDS_PER_BUYER: '100', MESSAGES_PER_MINUTE: '100' })
  ;({ fixtures, credentials } = await buildIdentities(t))
})

afterAll(async () => {
  await t?.close()
})

function expectedFor(expected: Expected, identity: IdentityName, form: CredentialForm): number {
  const status = expected[identity]
  return typeof status === 'number' ? status : form === 'cookie' ? status.cookie : status.bearer
}

async function resolve<T>(value: T | ((f: Fixtures) => T | Promise<T>)): Promise<T> {
  return typeof value === 'function' ? (value as (f: Fixtures) => T | Promise<T>)(fixtures) : value
}

describe('identity matrix', () => {
  it.each(
    ROWS.map((row) => [`${row.method} ${typeof row.url === 'string' ? row.url : row.route}`, row] as const),
  )('%s', async (_name, row) => {
    const actual: Record<string, number> = {}
    const wanted: Record<string, number> = {}
    // A row's target (its url and body, often a deal moved on through the API) is made again only after a call
    // that may have changed it: one that went through, or one that did not get the answer the row expects. A
    // refusal changes nothing, so the callers refused one after the other share a target (decision 0123).
    let request: { url: string; body: unknown } | undefined
    for (const credential of credentials) {
      const key = `${credential.identity} (${credential.form})`
      request ??= {
        url: await resolve(row.url ?? row.route),
        body: row.body === undefined ? undefined : await resolve(row.body),
      }
      const res = await injectAs(t.app, credential, { method: row.method, ...request, headers: row.headers })
      actual[key] = res.statusCode
      wanted[key] = expectedFor(row.expected, credential.identity, credential.form)
      if (res.statusCode < 400 || actual[key] !== wanted[key]) request = undefined
    }
    expect(actual).toEqual(wanted)
  })

  it('has a row for every call the API documents', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' })
    const doc = res.json() as { paths: Record<string, Record<string, unknown>> }
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    const covered = new Set(ROWS.map((row) => `${row.method} ${row.route}`))
    expect(documented.filter((call) => !covered.has(call))).toEqual([])
  })

  it('each row agrees with the guard its route declares', async () => {
    const guards = await declaredGuards()
    const disagreements: string[] = []
    for (const row of ROWS) {
      const guard = guards.get(`${row.method} ${row.route}`)
      if (!guard) continue
      for (const identity of Object.keys(row.expected) as IdentityName[]) {
        const byGuard = guardAnswer(guard, identity)
        if (byGuard === undefined) continue
        for (const form of ['cookie', 'bearer'] as const) {
          const status = expectedFor(row.expected, identity, form)
          if (status !== byGuard) disagreements.push(`${row.method} ${row.route}: ${identity} ${status}`)
        }
      }
    }
    expect(disagreements).toEqual([])
  })

  it('answers a malformed call to a guarded route with 401 or 403 before 400', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as OpenApiDoc
    const actual: Record<string, number> = {}
    const wanted: Record<string, number> = {}
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const guard = op['x-guard']
        if (!guard) continue
        const malformed = malformedRequest(method, path, op)
        if (!malformed) continue
        for (const credential of credentials) {
          const key = `${method.toUpperCase()} ${path} as ${credential.identity} (${credential.form})`
          const res = await injectAs(t.app, credential, {
            method: method.toUpperCase() as Method,
            url: malformed.url,
            body: malformed.body,
          })
          const byGuard = guardAnswer(guard, credential.identity)
          // A path-only call may name an id its schema takes; past the guard, the row tests cover it.
          if (byGuard === undefined && !malformed.alwaysInvalid) continue
          actual[key] = res.statusCode
          // Past the guard, a route that needs a step-up refuses (403) before it reads the body.
          wanted[key] = byGuard ?? (op['x-step-up'] ? 403 : 400)
        }
      }
    }
    expect(Object.keys(wanted).length).toBeGreaterThan(200)
    expect(actual).toEqual(wanted)
    // Every guarded route times every credential, one after the other: more than the default 30 s on a busy machine.
  }, 180_000)
})

type Operation = {
  'x-guard'?: GuardExtension
  'x-step-up'?: boolean
  security?: unknown[]
  requestBody?: unknown
  parameters?: { in: string; name: string }[]
}
type OpenApiDoc = { paths: Record<string, Record<string, Operation>> }

async function declaredGuards(): Promise<Map<string, GuardExtension>> {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as OpenApiDoc
  const guards = new Map<string, GuardExtension>()
  for (const [path, methods] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(methods))
      if (op['x-guard']) guards.set(`${method.toUpperCase()} ${path}`, op['x-guard'])
  return guards
}

const ROLE_OF: Partial<Record<IdentityName, 'buyer' | 'seller' | 'admin'>> = {
  buyer: 'buyer',
  otherBuyer: 'buyer',
  seller: 'seller',
  otherSeller: 'seller',
  admin: 'admin',
}

/** What the guard alone answers an identity: 401 signed out, 403 without the role, undefined when it lets them by. */
function guardAnswer(guard: GuardExtension, identity: IdentityName): number | undefined {
  const role = ROLE_OF[identity]
  if (!role) return 401
  return guard.roles && !guard.roles.includes(role) ? 403 : undefined
}

/** A request the route's schema refuses: a path id that is no id, an unknown query field, a body of nonsense. */
function malformedRequest(
  method: string,
  path: string,
  op: Operation,
): { url: string; body?: unknown; alwaysInvalid: boolean } | undefined {
  const params = op.parameters ?? []
  const hasPath = params.some((p) => p.in === 'path')
  const hasQuery = params.some((p) => p.in === 'query')
  // A POST without a declared body (the photo upload) still refuses one of nonsense.
  const hasBody = op.requestBody !== undefined || method === 'post'
  if (!hasPath && !hasQuery && !hasBody) return undefined
  // Ids are UUIDs or at most 64 characters; the router refuses path parameters past 100.
  const url = path.replace(/\{[^}]+\}/g, 'x'.repeat(99)) + (hasQuery ? '?unknown_field=1' : '')
  return { url, body: hasBody ? { unknown_field: 1 } : undefined, alwaysInvalid: hasQuery || hasBody }
}
