// Favourites, saved searches and their alerts, end to end on the server: the calls, the matcher job, the emails
// as a real SMTP server receives them, and unsubscribing from an email without signing in.
import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import type { ParsedMail } from 'mailparser'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FavouriteList } from '#contract/favourites'
import { SavedSearchList } from '#contract/saved-searches'
import {
  alertEvents,
  alertItems,
  emailPreferences,
  favourites,
  productHolds,
  products,
  savedSearches,
  uploads,
} from '#server/db/schema'
import { bearerFor } from '#server/test/auth-helpers'
import {
  type BrandRow,
  createBooking,
  createBrand,
  createProduct,
  createUser,
  type UserRow,
} from '#server/test/factories'
import { type LocalSmtp, startLocalSmtp } from '#server/test/local-smtp'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { runAlertMatching } from './alerts.jobs'
import { unsubscribeToken } from './unsubscribe-token'

let t: TestApp
let smtp: LocalSmtp
let dell: BrandRow
let lenovo: BrandRow
let seller: UserRow
let buyer: UserRow
let other: UserRow

beforeAll(async () => {
  smtp = await startLocalSmtp()
  t = await createTestApp({ SMTP_URL: smtp.url })
  dell = await createBrand(t.db, { name: `Dell ${randomUUID().slice(0, 6)}` })
  lenovo = await createBrand(t.db, { name: `Lenovo ${randomUUID().slice(0, 6)}` })
  seller = await createUser(t.db, { role: 'seller' })
  buyer = await createUser(t.db, { role: 'buyer' })
  other = await createUser(t.db, { role: 'buyer' })
})

afterAll(async () => {
  await t?.close()
  await smtp?.stop()
})

beforeEach(async () => {
  // Each test starts with nothing waiting: no events, no alerts, no jobs, no emails.
  await t.db.delete(alertEvents)
  await t.db.delete(alertItems)
  await t.db.delete(savedSearches)
  await t.db.delete(favourites)
  await t.db.delete(emailPreferences)
  await t.db.execute(sql`delete from pgboss.job where name like 'alerts.%' or name = 'email'`)
  smtp.received.length = 0
})

/** A header as it was sent (mailparser folds the List-* headers into an object of its own). */
const header = (mail: ParsedMail | undefined, name: string) =>
  mail?.headerLines
    .find((h) => h.key === name)
    ?.line.slice(name.length + 1)
    .trim()

const sentTo = (mail: ParsedMail, who: UserRow) => JSON.stringify(mail.to).includes(who.email)

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
async function call(method: Method, url: string, who?: UserRow, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: who ? await bearerFor(t.app, who) : {},
    ...(payload ? { payload } : {}),
  })
}

/** A listing posted through the API, as a seller would (so it is an event for the matcher). */
async function list(overrides: Record<string, unknown> = {}): Promise<string> {
  const [photo] = await t.db
    .insert(uploads)
    .values({
      uploaderId: seller.id,
      cardUrl: `/media/products/${randomUUID()}-card.webp`,
      detailUrl: `/media/products/${randomUUID()}-detail.webp`,
      width: 1600,
      height: 1200,
      bytes: 1000,
    })
    .returning({ id: uploads.id })
  const res = await call('POST', '/api/products', seller, {
    name: 'ThinkPad X1 Carbon Gen 9',
    category_id: lenovo.id,
    seller_phone: '(512) 555-0142',
    resale_price: 550,
    original_price: 1400,
    description: 'Works perfectly, battery holds most of a day.',
    condition: 'Good',
    location: 'Austin, TX',
    uses: 2,
    processor: 'Intel Core i7-1165G7',
    ram_gb: 16,
    storage_gb: 512,
    screen_inches: 14,
    images: [photo?.id],
    ...overrides,
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().insertedId
}

const saveSearch = (query: string, alert = 'instant', who: UserRow = buyer) =>
  call('POST', '/api/saved-searches', who, { query, alert })

/** What the scheduler and the workers do: match, then send the grouped alert emails and the emails. */
async function runAlerts({ due = false } = {}) {
  await runAlertMatching(t.app.ctx)
  if (due) {
    await t.db.execute(sql`update pgboss.job set start_after = now() - interval '1 second'
      where state in ('created', 'retry') and name like 'alerts.%'`)
  }
  await t.app.ctx.jobs.drain('alerts.search-email')
  await t.app.ctx.jobs.drain('alerts.favourites-email')
  await t.app.ctx.jobs.drain('email')
}

describe('favourites: saved by their owner, seen by nobody else', () => {
  it('saves, lists with the price then and now, and removes; a repeat changes nothing', async () => {
    const p = await createProduct(t.db, { seller, brand: dell, resalePriceCents: 50000 })
    expect((await call('PUT', `/api/favourites/${p.id}`, buyer)).json()).toEqual({ acknowledged: true })
    expect((await call('PUT', `/api/favourites/${p.id}`, buyer)).statusCode).toBe(200)
    await t.db.update(products).set({ resalePriceCents: 45000 }).where(eq(products.id, p.id))

    const mine = FavouriteList.parse((await call('GET', '/api/favourites', buyer)).json())
    expect(mine).toHaveLength(1)
    expect(mine[0]).toMatchObject({ productId: p.id, savedPrice: 500, price: 450, status: 'available' })
    expect((await call('GET', '/api/favourites/ids', buyer)).json()).toEqual({ ids: [p.id] })
    // Another user sees none of it.
    expect((await call('GET', '/api/favourites', other)).json()).toEqual([])
    expect((await call('GET', '/api/favourites/ids', other)).json()).toEqual({ ids: [] })
    expect((await call('DELETE', `/api/favourites/${p.id}`, other)).json()).toEqual({
      acknowledged: true,
      deletedCount: 0,
    })
    expect((await call('GET', '/api/favourites', buyer)).json()).toHaveLength(1)

    expect((await call('DELETE', `/api/favourites/${p.id}`, buyer)).json()).toEqual({
      acknowledged: true,
      deletedCount: 1,
    })
    expect((await call('GET', '/api/favourites', buyer)).json()).toEqual([])
  })

  it('tells Sold, Reserved, Expired and removed apart', async () => {
    const sold = await createProduct(t.db, { seller, brand: dell, isSold: true })
    const expired = await createProduct(t.db, { seller, brand: dell, expiredAt: new Date() })
    const removed = await createProduct(t.db, { seller, brand: dell })
    const reserved = await createProduct(t.db, { seller, brand: dell })
    for (const p of [sold, expired, removed, reserved]) {
      expect((await call('PUT', `/api/favourites/${p.id}`, buyer)).statusCode).toBe(200)
    }
    await t.db.update(products).set({ removedAt: new Date() }).where(eq(products.id, removed.id))
    const booking = await createBooking(t.db, { buyer: other, product: reserved })
    await t.db
      .insert(productHolds)
      .values({ productId: reserved.id, bookingId: booking.id, holdUntil: new Date(Date.now() + 600_000) })
    const status = Object.fromEntries(
      FavouriteList.parse((await call('GET', '/api/favourites', buyer)).json()).map((f) => [
        f.productId,
        f.status,
      ]),
    )
    expect(status).toEqual({
      [sold.id]: 'sold',
      [expired.id]: 'expired',
      [removed.id]: 'removed',
      [reserved.id]: 'reserved',
    })
  })

  it('refuses bad input, a missing or removed listing, one’s own listing, and signed-out callers', async () => {
    const own = await createProduct(t.db, { seller, brand: dell })
    const gone = await createProduct(t.db, { seller, brand: dell, removedAt: new Date() })
    const bad = await call('PUT', '/api/favourites/not-an-id', buyer)
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.fields).toHaveProperty('productId')
    expect((await call('PUT', `/api/favourites/${randomUUID()}`, buyer)).statusCode).toBe(404)
    expect((await call('PUT', `/api/favourites/${gone.id}`, buyer)).statusCode).toBe(404)
    expect((await call('PUT', `/api/favourites/${own.id}`, seller)).statusCode).toBe(403)
    expect((await call('PUT', `/api/favourites/${own.id}`)).statusCode).toBe(401)
    expect((await call('GET', '/api/favourites')).statusCode).toBe(401)
    const badAlert = await call('PUT', '/api/favourites/alerts', buyer, { alert: 'hourly' })
    expect(badAlert.statusCode).toBe(400)
    expect(badAlert.json().error.fields).toHaveProperty('alert')
    expect(await t.db.select().from(favourites)).toEqual([])
  })

  it('shows a seller how many people saved each of their listings', async () => {
    const p = await createProduct(t.db, { seller, brand: dell })
    await call('PUT', `/api/favourites/${p.id}`, buyer)
    await call('PUT', `/api/favourites/${p.id}`, other)
    const mine = (await call('GET', `/api/products?email=${encodeURIComponent(seller.email)}`, seller)).json()
    expect(mine.find((x: { _id: string }) => x._id === p.id)?.saved_count).toBe(2)
  })
})

describe('saved searches: kept by their owner, with new matches since the last visit', () => {
  it('saves a search in one spelling, lists it with its new matches, and opens it', async () => {
    const first = await saveSearch(`?max_price=600&brand=${lenovo.id}&q=thinkpad&page=3`)
    expect(first.statusCode).toBe(201)
    const id = first.json().insertedId
    // The same filters in another order are the same search: its alert changes, no second search.
    const again = await saveSearch(`q=thinkpad&brand=${lenovo.id}&max_price=600`, 'daily')
    expect(again.json().insertedId).toBe(id)

    await t.db.update(savedSearches).set({ lastVisitedAt: new Date(Date.now() - 60_000) })
    await createProduct(t.db, { seller, brand: lenovo, name: 'ThinkPad T14', resalePriceCents: 50000 })
    await createProduct(t.db, { seller, brand: lenovo, name: 'ThinkPad P1', resalePriceCents: 90000 })
    await createProduct(t.db, { seller, brand: dell, name: 'Latitude 7420', resalePriceCents: 50000 })

    const [search] = SavedSearchList.parse((await call('GET', '/api/saved-searches', buyer)).json())
    expect(search).toMatchObject({
      _id: id,
      query: `q=thinkpad&brand=${lenovo.id}&max_price=600`,
      alert: 'daily',
      newCount: 1,
    })
    expect(search?.label).toBe(`“thinkpad” · ${lenovo.name} · up to $600`)

    const visit = await call('POST', `/api/saved-searches/${id}/visit`, buyer)
    expect(visit.json()).toEqual({ since: search?.lastVisitedAt, query: search?.query })
    const [after] = SavedSearchList.parse((await call('GET', '/api/saved-searches', buyer)).json())
    expect(after?.newCount).toBe(0)
  })

  it('refuses a query that does not parse, naming the query, and saves nothing', async () => {
    for (const query of ['min_price=cheap', 'colour=red', 'brand=not-a-uuid', 'min_battery_pct=140']) {
      const res = await saveSearch(query)
      expect(res.statusCode, query).toBe(400)
      expect(res.json().error.fields, query).toHaveProperty('query')
    }
    const badAlert = await saveSearch('q=dell', 'hourly')
    expect(badAlert.statusCode).toBe(400)
    expect(badAlert.json().error.fields).toHaveProperty('alert')
    expect(await t.db.select().from(savedSearches)).toEqual([])
  })

  it('is invisible to everyone but its owner', async () => {
    const id = (await saveSearch('q=xps')).json().insertedId
    expect((await call('GET', '/api/saved-searches', other)).json()).toEqual([])
    expect((await call('DELETE', `/api/saved-searches/${id}`, other)).statusCode).toBe(404)
    expect((await call('POST', `/api/saved-searches/${id}/visit`, other)).statusCode).toBe(404)
    expect((await call('PUT', `/api/saved-searches/${id}/alert`, other, { alert: 'off' })).statusCode).toBe(
      404,
    )
    expect((await call('GET', '/api/saved-searches')).statusCode).toBe(401)
    const [kept] = await t.db.select().from(savedSearches)
    expect(kept?.alert).toBe('instant')
    expect((await call('DELETE', `/api/saved-searches/${id}`, buyer)).json()).toEqual({
      acknowledged: true,
      deletedCount: 1,
    })
  })
})

describe('alerts, by the matcher job and the email worker', () => {
  it('emails an instant alert for a new matching listing, at most once an hour per search, with one-click unsubscribe', async () => {
    const id = (await saveSearch(`q=thinkpad&brand=${lenovo.id}&max_price=600`)).json().insertedId
    await list({ resale_price: 900 }) // too dear
    await list({ category_id: dell.id, name: 'Dell Latitude 7420' }) // another brand
    await runAlerts()
    expect(smtp.received).toHaveLength(0)

    const match = await list({ resale_price: 549 })
    // Nothing is matched in the request itself.
    expect(await t.db.select().from(alertItems)).toEqual([])
    await runAlerts()
    const [mail] = await smtp.waitFor(1)
    expect(mail?.subject).toBe('ThinkPad X1 Carbon Gen 9 matches your saved search')
    expect(mail?.text).toContain(
      `Your saved search (“thinkpad” · ${lenovo.name} · up to $600) has 1 new match.`,
    )
    expect(mail?.text).toContain(`/products/${match}`)
    const unsubscribe = header(mail, 'list-unsubscribe')
    const token = unsubscribeToken(t.app.ctx.config, { kind: 'search', searchId: id })
    expect(String(unsubscribe)).toContain(`/api/unsubscribe/${token}`)
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    expect(mail?.text).toContain(`/unsubscribe/${token}`)

    // A second match within the hour waits for the hour; then one email tells it.
    await list({ name: 'ThinkPad T14s', resale_price: 500 })
    await runAlerts()
    expect(smtp.received).toHaveLength(1)
    await t.db.update(savedSearches).set({ lastEmailedAt: new Date(Date.now() - 61 * 60_000) })
    await runAlerts({ due: true })
    const [, later] = await smtp.waitFor(2)
    expect(later?.subject).toContain('ThinkPad T14s')

    // One click, as a mail provider sends it: no cookie, a form body; the search's alert is off.
    const click = await t.app.inject({
      method: 'POST',
      url: `/api/unsubscribe/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    })
    expect(click.json()).toEqual({ acknowledged: true, modifiedCount: 1 })
    const [search] = await t.db.select().from(savedSearches).where(eq(savedSearches.id, id))
    expect(search?.alert).toBe('off')
    await list({ name: 'ThinkPad E14', resale_price: 450 })
    await runAlerts({ due: true })
    expect(smtp.received).toHaveLength(2)
  })

  it('alerts a search for a word no listing has yet when the first listing with it is posted', async () => {
    // "book4" is in no listing yet; search corrects it to the nearest word listed ("book3"), but the saved search
    // keeps it as typed, beside that correction.
    const older = await list({ name: 'Galaxy Book3 Pro', category_id: dell.id, resale_price: 700 })
    const id = (await saveSearch('q=galaxy book4', 'daily')).json().insertedId
    const [saved] = await t.db.select().from(savedSearches).where(eq(savedSearches.id, id))
    expect(saved?.textQuery).toBe('galaxy & book3|book4')
    const first = await list({ name: 'Galaxy Book4 Pro', category_id: dell.id, resale_price: 900 })
    await runAlerts()
    const items = await t.db.select().from(alertItems).where(eq(alertItems.savedSearchId, id))
    expect(items.map((i) => i.productId)).toEqual([first])
    expect(items.map((i) => i.productId)).not.toContain(older)
  })

  it('puts daily matches and favourite news in one digest', async () => {
    await saveSearch(`brand=${lenovo.id}&ram=16`, 'daily')
    const fav = await createProduct(t.db, { seller, brand: dell, resalePriceCents: 80000, name: 'XPS 15' })
    await call('PUT', `/api/favourites/${fav.id}`, buyer)
    await call('PUT', '/api/favourites/alerts', buyer, { alert: 'daily' })
    await list({ name: 'ThinkPad T14 Gen 2' })
    expect((await call('PATCH', `/api/products/${fav.id}`, seller, { resale_price: 700 })).statusCode).toBe(
      200,
    )
    await runAlerts({ due: true })
    expect(smtp.received).toHaveLength(0)

    await t.app.ctx.jobs.send('alerts.digest', {})
    expect(await t.app.ctx.jobs.drain('alerts.digest')).toBe(1)
    await t.app.ctx.jobs.drain('email')
    const [digest] = await smtp.waitFor(1)
    expect(digest?.subject).toBe('Your daily laptop alerts: 1 new match and 1 change on your favourites')
    expect(digest?.text).toContain('ThinkPad T14 Gen 2')
    expect(digest?.text).toContain('XPS 15: Now $700, was $800')
    expect(header(digest, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    // Sent once: a second digest run finds nothing.
    await t.app.ctx.jobs.send('alerts.digest', {})
    await t.app.ctx.jobs.drain('alerts.digest')
    await t.app.ctx.jobs.drain('email')
    expect(smtp.received).toHaveLength(1)
  })

  it('emails a favourite’s price drop of 5% or more within minutes, and not a smaller one', async () => {
    const fav = await createProduct(t.db, {
      seller,
      brand: dell,
      resalePriceCents: 50000,
      name: 'XPS 13 9310',
    })
    await call('PUT', `/api/favourites/${fav.id}`, buyer)
    await call('PATCH', `/api/products/${fav.id}`, seller, { resale_price: 480 }) // 4% off
    await runAlerts({ due: true })
    expect(smtp.received).toHaveLength(0)
    await call('PATCH', `/api/products/${fav.id}`, seller, { resale_price: 470 }) // 6% off the saved $500
    await runAlerts({ due: true })
    const [mail] = await smtp.waitFor(1)
    expect(mail?.subject).toBe('Price drop: “XPS 13 9310” is now $470 (was $500)')
    expect(String(header(mail, 'list-unsubscribe'))).toContain(
      unsubscribeToken(t.app.ctx.config, { kind: 'favourites', userId: buyer.id }),
    )
  })

  it('announces a drop only below the lowest price already announced, and once a day per favourite', async () => {
    const fav = await createProduct(t.db, {
      seller,
      brand: dell,
      resalePriceCents: 50000,
      name: 'XPS 13 Plus',
    })
    await call('PUT', `/api/favourites/${fav.id}`, buyer)
    const price = (dollars: number) =>
      call('PATCH', `/api/products/${fav.id}`, seller, { resale_price: dollars })
    await price(470)
    await runAlerts({ due: true })
    const [first] = await smtp.waitFor(1)
    expect(first?.subject).toBe('Price drop: “XPS 13 Plus” is now $470 (was $500)')

    // Raising the price and lowering it again, to send the same "price drop" again: nothing is sent.
    await price(520)
    await runAlerts({ due: true })
    await price(470)
    await runAlerts({ due: true })
    // A real drop below $470, but on the same day: still nothing.
    await price(440)
    await runAlerts({ due: true })
    await t.app.ctx.jobs.drain('email')
    expect(smtp.received).toHaveLength(1)

    // A day later the next drop below the lowest announced price is told, measured from it.
    await t.db
      .update(favourites)
      .set({ priceAlertedAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(favourites.productId, fav.id))
    await price(410)
    await runAlerts({ due: true })
    const [, second] = await smtp.waitFor(2)
    expect(second?.subject).toBe('Price drop: “XPS 13 Plus” is now $410 (was $470)')
  })

  it('emails the people who saved a laptop when a hold ends unpaid and it is available again', async () => {
    const fav = await createProduct(t.db, { seller, brand: dell, name: 'Surface Laptop 4' })
    await call('PUT', `/api/favourites/${fav.id}`, buyer)
    const booking = await createBooking(t.db, { buyer: other, product: fav })
    const held = await call('POST', `/api/bookings/${booking.id}/hold`, other)
    expect(held.statusCode).toBe(200)
    await runAlerts({ due: true })
    expect(smtp.received).toHaveLength(0) // still held: the event is not due

    // The hold runs out unpaid.
    await t.db.update(productHolds).set({ holdUntil: new Date(Date.now() - 5000) })
    await t.db.update(alertEvents).set({ dueAt: new Date(Date.now() - 1000) })
    await runAlerts({ due: true })
    const [mail] = await smtp.waitFor(1)
    expect(mail?.subject).toBe('Available again: “Surface Laptop 4”')
  })

  it('takes a listing approved after the search was saved as new: an email and the new count, once', async () => {
    const admin = await createUser(t.db, { role: 'admin' })
    // A Latitude waits for review, posted an hour before the search is saved.
    const posted = new Date(Date.now() - 3_600_000)
    const waiting = await createProduct(t.db, {
      seller,
      brand: dell,
      name: 'Dell Latitude 7420',
      reviewState: 'pending',
      postedOn: posted,
    })
    const id = (await saveSearch('q=latitude')).json().insertedId
    await runAlerts()
    expect(smtp.received).toHaveLength(0)
    const before = SavedSearchList.parse((await call('GET', '/api/saved-searches', buyer)).json())
    expect(before[0]?.newCount).toBe(0)

    const approved = await call('PUT', `/api/listing-reviews/${waiting.id}/approve`, admin)
    expect(approved.statusCode, approved.body).toBe(200)
    await runAlerts()
    const items = await t.db.select().from(alertItems).where(eq(alertItems.savedSearchId, id))
    expect(items.map((i) => i.productId)).toEqual([waiting.id])
    await smtp.waitFor(2) // the buyer's alert, and the seller's "is live"
    const alert = smtp.received.find((m) => sentTo(m, buyer))
    expect(alert?.subject).toBe('Dell Latitude 7420 matches your saved search')
    expect(alert?.text).toContain(`/products/${waiting.id}`)
    const [search] = SavedSearchList.parse((await call('GET', '/api/saved-searches', buyer)).json())
    expect(search?.newCount).toBe(1)
    // The listing says when it came on sale, which the browse page marks new by.
    const product = (await call('GET', `/api/products/${waiting.id}`, buyer)).json()
    expect(product.postedOn).toBe(posted.toISOString())
    expect(Date.parse(product.on_sale_since)).toBeGreaterThan(Date.parse(search?.createdAt ?? ''))

    // Sent back to review and approved again: on sale again (new since the last visit), never emailed twice.
    await t.db.update(savedSearches).set({ lastEmailedAt: new Date(Date.now() - 61 * 60_000) })
    await call('POST', `/api/saved-searches/${id}/visit`, buyer)
    await t.db.update(products).set({ reviewState: 'pending' }).where(eq(products.id, waiting.id))
    expect((await call('PUT', `/api/listing-reviews/${waiting.id}/approve`, admin)).statusCode).toBe(200)
    const sent = smtp.received.length
    await runAlerts({ due: true })
    expect(smtp.received.filter((m) => sentTo(m, buyer))).toHaveLength(1)
    await smtp.waitFor(sent + 1) // the seller's second "is live"
    const [later] = SavedSearchList.parse((await call('GET', '/api/saved-searches', buyer)).json())
    expect(later?.newCount).toBe(1)
  })

  it('takes an expired listing renewed after the search was saved as new', async () => {
    const expired = await createProduct(t.db, {
      seller,
      brand: dell,
      name: 'Dell Latitude 5430',
      postedOn: new Date(Date.now() - 40 * 86_400_000),
      expiredAt: new Date(Date.now() - 86_400_000),
    })
    const id = (await saveSearch('q=latitude', 'daily')).json().insertedId
    const renewed = await call('PUT', `/api/products/${expired.id}/renew`, seller)
    expect(renewed.json()).toMatchObject({ modifiedCount: 1 })
    await runAlerts()
    const items = await t.db.select().from(alertItems).where(eq(alertItems.savedSearchId, id))
    expect(items.map((i) => i.productId)).toEqual([expired.id])
    const [search] = SavedSearchList.parse((await call('GET', '/api/saved-searches', buyer)).json())
    expect(search?.newCount).toBe(1)
    // Renewing a listing still on sale is no news.
    await call('POST', `/api/saved-searches/${id}/visit`, buyer)
    expect((await call('PUT', `/api/products/${expired.id}/renew`, seller)).statusCode).toBe(200)
    await runAlerts()
    const [after] = SavedSearchList.parse((await call('GET', '/api/saved-searches', buyer)).json())
    expect(after?.newCount).toBe(0)
  })

  it('unsubscribes from the confirmation page without signing in, and refuses a forged link', async () => {
    await call('PUT', '/api/favourites/alerts', buyer, { alert: 'instant' })
    const token = unsubscribeToken(t.app.ctx.config, { kind: 'favourites', userId: buyer.id })
    // Reading the link (as a mail scanner does) changes nothing.
    const info = await call('GET', `/api/unsubscribe/${token}`)
    expect(info.json()).toMatchObject({ kind: 'favourites', alreadyOff: false })
    expect((await call('GET', '/api/favourites/alerts', buyer)).json()).toEqual({ alert: 'instant' })

    const forged = `${token.slice(0, -2)}xx`
    const refused = await call('POST', `/api/unsubscribe/${forged}`)
    expect(refused.statusCode).toBe(400)
    expect(refused.json().error.fields).toHaveProperty('token')
    const otherUser = token.replace(buyer.id, other.id)
    expect((await call('POST', `/api/unsubscribe/${otherUser}`)).statusCode).toBe(400)
    expect((await call('GET', '/api/favourites/alerts', buyer)).json()).toEqual({ alert: 'instant' })

    expect((await call('POST', `/api/unsubscribe/${token}`)).json()).toEqual({
      acknowledged: true,
      modifiedCount: 1,
    })
    expect((await call('GET', '/api/favourites/alerts', buyer)).json()).toEqual({ alert: 'off' })
    expect((await call('POST', `/api/unsubscribe/${token}`)).json()).toEqual({
      acknowledged: true,
      modifiedCount: 0,
    })
    expect((await call('GET', `/api/unsubscribe/${token}`)).json()).toMatchObject({ alreadyOff: true })
  })
})
