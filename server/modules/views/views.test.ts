import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { productViews } from '#server/db/schema'
import { dayOf, ViewCounter } from '#server/lib/view-counter'
import { bearerFor } from '#server/test/auth-helpers'
import { type BrandRow, createBrand, createProduct, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Version/18.1 Mobile Safari/604.1'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

let t: TestApp
let brand: BrandRow
let seller: UserRow

beforeAll(async () => {
  t = await createTestApp()
  brand = await createBrand(t.db)
  seller = await createUser(t.db, { role: 'seller' })
})

afterAll(async () => {
  await t?.close()
})

async function viewsOf(productId: string) {
  return t.db
    .select({ day: productViews.day, views: productViews.views })
    .from(productViews)
    .where(eq(productViews.productId, productId))
    .orderBy(productViews.day)
}

function visit(productId: string, userAgent?: string, address = '203.0.113.7', cookie?: string) {
  return t.app.inject({
    method: 'POST',
    url: `/api/products/${productId}/views`,
    headers: { ...(userAgent ? { 'user-agent': userAgent } : {}), ...(cookie ? { cookie } : {}) },
    remoteAddress: address,
  })
}

/** The visitor cookie a first visit was given, as the browser sends it back. */
function visitorCookieOf(res: Awaited<ReturnType<typeof visit>>): string {
  const raw = res.headers['set-cookie']
  const first = (Array.isArray(raw) ? raw[0] : raw) ?? ''
  return first.split(';')[0] as string
}

describe('POST /api/products/{id}/views', () => {
  it('counts a visitor once a day, ignores known bots and callers without a browser, and writes in batches', async () => {
    const product = await createProduct(t.db, { seller, brand })
    const counted = async (ua?: string, address?: string, cookie?: string) =>
      (await visit(product.id, ua, address, cookie)).json().counted

    const first = await visit(product.id, BROWSER)
    expect(first.json().counted).toBe(true)
    const cookie = visitorCookieOf(first)
    expect(await counted(BROWSER, undefined, cookie)).toBe(false) // the same visitor again today
    expect(await counted(PHONE)).toBe(true) // another browser on the same address
    expect(await counted(BROWSER, '198.51.100.20')).toBe(true) // another address
    expect(await counted(GOOGLEBOT)).toBe(false)
    expect(await counted(undefined)).toBe(false)

    await t.app.ctx.views.flush()
    expect(await viewsOf(product.id)).toEqual([{ day: dayOf(new Date()), views: 3 }])

    // The next batch adds to the day's row.
    expect(await counted(BROWSER, '192.0.2.44')).toBe(true)
    await t.app.ctx.views.flush()
    expect(await viewsOf(product.id)).toEqual([{ day: dayOf(new Date()), views: 4 }])
  })

  it('keeps one row per listing per day, and counts the same visitor again the next day', async () => {
    const product = await createProduct(t.db, { seller, brand })
    const counter = new ViewCounter(t.db, { flushEveryMs: 3_600_000 })
    const visitor = { address: '203.0.113.9', userAgent: BROWSER }
    const monday = new Date('2026-11-16T23:59:00Z')
    const tuesday = new Date('2026-11-17T00:01:00Z')
    expect(await counter.record(product.id, visitor, monday)).toBe(true)
    expect(await counter.record(product.id, visitor, monday)).toBe(false)
    expect(await counter.record(product.id, visitor, tuesday)).toBe(true)
    // Nothing is written per view: the counts wait for the next batch (or the close).
    expect(await viewsOf(product.id)).toEqual([])
    await counter.close()
    expect(await viewsOf(product.id)).toEqual([
      { day: '2026-11-16', views: 1 },
      { day: '2026-11-17', views: 1 },
    ])
  })

  it('drops views of listings that do not exist without losing the rest of the batch', async () => {
    const product = await createProduct(t.db, { seller, brand })
    expect((await visit(randomUUID(), BROWSER)).statusCode).toBe(202)
    expect((await visit(product.id, BROWSER)).statusCode).toBe(202)
    await t.app.ctx.views.flush()
    expect(await viewsOf(product.id)).toEqual([{ day: dayOf(new Date()), views: 1 }])
    const bad = await visit('not-an-id', BROWSER)
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json().error.fields)).toContain('id')
  })
})

describe('views cannot be inflated by rotating what a visitor sends', () => {
  const userAgents = Array.from({ length: 10 }, (_, i) => `${BROWSER} Build/${i}`)

  it('one visitor with a new user agent on every request is one view', async () => {
    const product = await createProduct(t.db, { seller, brand })
    const cookie = visitorCookieOf(await visit(product.id, BROWSER, '198.51.100.30'))
    for (const ua of userAgents)
      expect((await visit(product.id, ua, '198.51.100.30', cookie)).json().counted).toBe(false)
    await t.app.ctx.views.flush()
    expect(await viewsOf(product.id)).toEqual([{ day: dayOf(new Date()), views: 1 }])
  })

  it('a signed-in visitor is one view whatever user agent or cookie they send', async () => {
    const product = await createProduct(t.db, { seller, brand })
    const viewer = await createUser(t.db, { role: 'buyer' })
    const auth = await bearerFor(t.app, viewer)
    const answers: boolean[] = []
    for (const ua of userAgents) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/products/${product.id}/views`,
        headers: { ...auth, 'user-agent': ua },
        remoteAddress: '198.51.100.31',
      })
      answers.push(res.json().counted)
    }
    expect(answers.filter(Boolean)).toHaveLength(1)
  })

  it('an address dropping its cookie and rotating user agents adds at most VIEWS_PER_ADDRESS_PER_DAY views', async () => {
    const product = await createProduct(t.db, { seller, brand })
    let counted = 0
    for (const ua of userAgents) if ((await visit(product.id, ua, '198.51.100.32')).json().counted) counted++
    expect(counted).toBe(t.app.ctx.config.viewsPerAddressPerDay)
    await t.app.ctx.views.flush()
    expect(await viewsOf(product.id)).toEqual([{ day: dayOf(new Date()), views: 3 }])
  })
})
