import { asc, count, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Brand } from '#contract/brands'
import { priceVerdict } from '#contract/price-guide'
import { batteryGradeProblem, batteryPctInText, type Product } from '#contract/products'
import type { Db } from '#server/db/client'
import { verifyPassword } from '#server/db/password-hash'
import {
  accounts,
  bookings,
  brands,
  CONDITIONS,
  disputes,
  messages,
  payments,
  productImages,
  products,
  users,
} from '#server/db/schema'
import { MEDIA_PREFIX, MemoryMediaStorage } from '#server/lib/storage'
import { bearerFor } from '#server/test/auth-helpers'
import { createTestApp, openTestDatabase, type TestApp } from '#server/test/test-app'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_SELLERS } from './accounts'
import { BRAND_LOGO_BOX, DEMO_BRANDS } from './brands'
import { stableUuid } from './ids'
import { DEMO_PAST_BUYERS } from './market-history'
import { CARD_SIZE, DETAIL_SIZE } from './product-photos'
import { DEMO_PRODUCTS } from './products'
import { DEMO_REFERENCE_DATE, seedDemoIfEmpty } from './seed'

// Rendering the pictures is the slow part of a seed; a busy machine needs room.
const SEED_TIMEOUT = 180_000
const DAY = 24 * 60 * 60 * 1000

let t: TestApp
let firstSeed: boolean
const warnings: { obj: object; msg: string }[] = []
const log = { info() {}, warn: (obj: object, msg: string) => void warnings.push({ obj, msg }) }

beforeAll(async () => {
  t = await createTestApp()
  firstSeed = await seedDemoIfEmpty(t.db, t.storage, log)
}, SEED_TIMEOUT)

afterAll(async () => {
  await t?.close()
})

async function tableCounts(db: Db) {
  const one = async (table: typeof brands | typeof products | typeof users | typeof productImages) =>
    (await db.select({ n: count() }).from(table))[0]?.n ?? 0
  return {
    brands: await one(brands),
    products: await one(products),
    users: await one(users),
    images: await one(productImages),
  }
}

function storageKey(url: string): string {
  expect(url.startsWith(MEDIA_PREFIX)).toBe(true)
  return url.slice(MEDIA_PREFIX.length)
}

describe('seedDemoIfEmpty', () => {
  it('fills an empty database and says so', async () => {
    expect(firstSeed).toBe(true)
    const counts = await tableCounts(t.db)
    expect(counts.brands).toBeGreaterThanOrEqual(6)
    expect(counts.products).toBeGreaterThanOrEqual(36)
    expect(counts.users).toBe(DEMO_ACCOUNTS.length + DEMO_SELLERS.length + DEMO_PAST_BUYERS.length)
  })

  it('warns that it made demo accounts, naming each of them', () => {
    expect(warnings).toHaveLength(1)
    const [warning] = warnings
    for (const account of DEMO_ACCOUNTS) expect(warning?.msg).toContain(account.email)
    expect((warning?.obj as { accounts?: string[] } | undefined)?.accounts).toHaveLength(
      DEMO_ACCOUNTS.length + DEMO_SELLERS.length + DEMO_PAST_BUYERS.length,
    )
  })

  it('lists every condition, across every brand', async () => {
    const rows = await t.db.select().from(products)
    expect(new Set(rows.map((p) => p.condition))).toEqual(new Set(CONDITIONS))
    const brandRows = await t.db.select().from(brands)
    for (const brand of brandRows) {
      expect(rows.filter((p) => p.brandId === brand.id).length, brand.name).toBeGreaterThanOrEqual(3)
    }
    for (const p of rows) {
      expect(p.resalePriceCents).toBeLessThan(p.originalPriceCents)
      expect(Number.isInteger(p.resalePriceCents)).toBe(true)
      expect(p.processor.length).toBeGreaterThan(3)
      expect(p.ramGb).toBeGreaterThanOrEqual(8)
      expect(p.storageGb).toBeGreaterThanOrEqual(256)
      expect(p.sellerPhone).toMatch(/^\(\d{3}\) 555-01\d\d$/)
    }
    // The listings (not the past sales of the market history) were posted over the 60 days before the reference.
    const listingIds = new Set(DEMO_PRODUCTS.map((p) => stableUuid(`product:${p.slug}`)))
    for (const p of rows.filter((r) => listingIds.has(r.id))) {
      const posted = new Date(p.postedOn).getTime()
      expect(posted).toBeLessThanOrEqual(DEMO_REFERENCE_DATE.getTime())
      expect(posted).toBeGreaterThanOrEqual(DEMO_REFERENCE_DATE.getTime() - 61 * DAY)
    }
    // Fair listings name their flaws.
    for (const p of rows.filter((r) => r.condition === 'Fair')) {
      expect(p.description, p.name).toMatch(/Flaws:|flaw/i)
    }
  })

  it('never contradicts itself on the battery: the field holds the figure the description names', async () => {
    const rows = await t.db.select().from(products)
    let named = 0
    for (const p of rows) {
      const inText = batteryPctInText(p.description)
      if (inText === null) continue
      named += 1
      expect(p.batteryHealthPct, p.name).toBe(inText)
      expect(batteryGradeProblem(p.condition, p.batteryHealthPct), p.name).toBeUndefined()
    }
    expect(named).toBeGreaterThanOrEqual(DEMO_PRODUCTS.length)
  })

  it('advertises about a third, and has a couple of sold listings', async () => {
    const rows = await t.db.select().from(products)
    const onSale = rows.filter((p) => !p.isSold)
    const advertisedAvailable = onSale.filter((p) => p.isAdvertised)
    expect(advertisedAvailable.length).toBeGreaterThanOrEqual(Math.floor(onSale.length / 4))
    expect(advertisedAvailable.length).toBeLessThanOrEqual(Math.ceil(onSale.length / 2))
    const sold = rows.filter((p) => p.isSold)
    expect(sold.length).toBeGreaterThanOrEqual(2)
    for (const p of sold) expect(p.soldAt).not.toBeNull()
    for (const p of rows.filter((r) => !r.isSold)) expect(p.soldAt).toBeNull()
  })

  it('gives every listing 1 to 3 WebP pictures, stored, 4:3, at card and detail size', async () => {
    const rows = await t.db.select().from(products)
    const images = await t.db.select().from(productImages).orderBy(asc(productImages.position))
    for (const product of rows) {
      const own = images.filter((i) => i.productId === product.id)
      expect(own.length, product.name).toBeGreaterThanOrEqual(1)
      expect(own.length, product.name).toBeLessThanOrEqual(3)
      expect(own.map((i) => i.position)).toEqual(own.map((_, n) => n + 1))
    }
    const sizes = await Promise.all(
      images.flatMap((image) =>
        [
          [image.cardUrl, CARD_SIZE],
          [image.detailUrl, DETAIL_SIZE],
        ].map(async ([url, size]) => {
          const bytes = await t.storage.read(storageKey(url as string))
          expect(bytes, url as string).toBeDefined()
          const meta = await sharp(bytes as Buffer).metadata()
          return { url, format: meta.format, width: meta.width, height: meta.height, expected: size }
        }),
      ),
    )
    for (const s of sizes) {
      expect(s.format, s.url as string).toBe('webp')
      expect({ width: s.width, height: s.height }).toEqual(s.expected)
    }
  })

  it("stores each brand logo as a WebP of its mark, in a brand tile's box at 2.5 device pixels, and links it", async () => {
    const rows = await t.db.select().from(brands)
    for (const brand of rows) {
      const bytes = await t.storage.read(storageKey(brand.imageUrl))
      expect(bytes, brand.name).toBeDefined()
      const image = sharp(bytes as Buffer)
      const meta = await image.metadata()
      expect(meta.format, brand.name).toBe('webp')
      // Fills the box one way at least, and overflows it neither way.
      expect(meta.width === BRAND_LOGO_BOX.width || meta.height === BRAND_LOGO_BOX.height, brand.name).toBe(
        true,
      )
      expect(meta.width ?? 0, brand.name).toBeLessThanOrEqual(BRAND_LOGO_BOX.width)
      expect(meta.height ?? 0, brand.name).toBeLessThanOrEqual(BRAND_LOGO_BOX.height)
      // The mark on nothing: its opaque pixels in the brand's colour, transparent around them.
      const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true })
      const demo = DEMO_BRANDS.find((b) => b.name === brand.name)
      if (!demo) throw new Error(`${brand.name} is not a demo brand`)
      const hex = demo.hex
      const colour = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16))
      let clear = 0
      let ink = 0
      let offColour = 0
      for (let i = 0; i < data.length; i += info.channels) {
        if (data[i + 3] === 0) clear++
        if (data[i + 3] !== 255) continue
        ink++
        if ([0, 1, 2].some((c) => Math.abs((data[i + c] ?? 0) - (colour[c] ?? 0)) > 8)) offColour++
      }
      expect(clear, brand.name).toBeGreaterThan(0)
      expect(ink, brand.name).toBeGreaterThan(0)
      expect(offColour, brand.name).toBe(0)
    }
  })

  it('creates one account per role that signs in with the demo password', async () => {
    for (const demo of [...DEMO_ACCOUNTS, ...DEMO_SELLERS]) {
      const [user] = await t.db.select().from(users).where(eq(users.email, demo.email))
      expect(user, demo.email).toMatchObject({ id: demo.id, role: demo.role, name: demo.name })
      expect(user?.verifiedAt !== null).toBe(demo.verified)
      const [credential] = await t.db.select().from(accounts).where(eq(accounts.userId, demo.id))
      expect(credential).toMatchObject({ providerId: 'credential', accountId: demo.id })
      expect(credential?.password).toBeTruthy()
      expect(credential?.password).not.toContain(DEMO_PASSWORD)
      expect(await verifyPassword({ hash: credential?.password as string, password: DEMO_PASSWORD })).toBe(
        true,
      )
    }
    const [first] = await t.db.select().from(accounts).limit(1)
    expect(await verifyPassword({ hash: first?.password as string, password: 'wrong-pass-123' })).toBe(false)
    expect(DEMO_ACCOUNTS.map((a) => a.role).sort()).toEqual(['admin', 'buyer', 'seller'])
    expect(DEMO_ACCOUNTS.map((a) => a.email)).toEqual([
      'admin@laptopmarket.test',
      'buyer@laptopmarket.test',
      'seller@laptopmarket.test',
    ])
  })

  it('gives the demo seller listings in every state and the demo buyer orders in every state', async () => {
    const mine = await t.db.select().from(products).where(eq(products.sellerId, 'demo-seller'))
    expect(mine.some((p) => p.isSold)).toBe(true)
    expect(mine.some((p) => !p.isSold && p.isAdvertised)).toBe(true)
    expect(mine.some((p) => !p.isSold && !p.isAdvertised)).toBe(true)

    const orders = await t.db.select().from(bookings).where(eq(bookings.buyerId, 'demo-buyer'))
    const productOf = async (id: string) => (await t.db.select().from(products).where(eq(products.id, id)))[0]
    const states = await Promise.all(
      orders.map(async (b) => {
        const p = await productOf(b.productId)
        return b.isPaid ? 'paid' : p?.isSold ? 'sold to someone else' : 'waiting for payment'
      }),
    )
    expect(states.filter((s) => s !== 'paid').sort()).toEqual(['sold to someone else', 'waiting for payment'])
    // Every stage of the deal after payment (server/demo/deals.ts), with one open dispute.
    const stages = orders.filter((b) => b.isPaid).map((b) => b.stage)
    expect(new Set(stages)).toEqual(new Set(['paid', 'handed_over', 'disputed', 'completed']))
    expect(stages.filter((s) => s === 'completed').length).toBeGreaterThanOrEqual(3)
    const open = await t.db.select().from(disputes).where(eq(disputes.status, 'open'))
    expect(open.map((d) => d.openedBy)).toEqual(['demo-buyer'])
    const paid = orders.find((b) => b.isPaid && b.stage === 'paid')
    const [payment] = await t.db
      .select()
      .from(payments)
      .where(eq(payments.bookingId, paid?.id as string))
    expect(payment).toMatchObject({ status: 'succeeded', amountCents: paid?.priceCents })
  })

  it('holds a conversation between the demo buyer and seller, with a warning and one unread message', async () => {
    const bookingId = stableUuid('booking:paid')
    const thread = await t.db
      .select()
      .from(messages)
      .where(eq(messages.bookingId, bookingId))
      .orderBy(asc(messages.createdAt))
    expect(thread.map((m) => m.senderId)).toEqual(['demo-buyer', 'demo-seller', 'demo-buyer', 'demo-seller'])
    expect(thread.map((m) => m.offPlatform)).toEqual([false, false, true, false])
    const asBuyer = await t.app.inject({
      method: 'GET',
      url: '/api/messages/unread',
      headers: await bearerFor(t.app, {
        id: 'demo-buyer',
        name: '',
        email: 'buyer@laptopmarket.test',
        role: 'buyer',
      }),
    })
    expect(asBuyer.json()).toMatchObject({ count: 1, bookings: { [bookingId]: 1 } })
  })

  it('gives the demo buyer favourites (one cheaper since saved, one sold) and two saved searches', async () => {
    const headers = await bearerFor(t.app, {
      id: 'demo-buyer',
      name: '',
      email: 'buyer@laptopmarket.test',
      role: 'buyer',
    })
    const saved = (await t.app.inject({ method: 'GET', url: '/api/favourites', headers })).json() as {
      status: string
      price: number
      savedPrice: number
    }[]
    expect(saved).toHaveLength(3)
    expect(saved.some((f) => f.price < f.savedPrice)).toBe(true)
    expect(saved.map((f) => f.status)).toContain('sold')
    const searches = (await t.app.inject({ method: 'GET', url: '/api/saved-searches', headers })).json() as {
      alert: string
      label: string
    }[]
    expect(searches.map((s) => s.alert).sort()).toEqual(['daily', 'instant'])
    expect(searches.map((s) => s.label)).toContain('“thinkpad” · Lenovo · up to $1,200')
  })

  it('serves the demo through the public API', async () => {
    const brandRes = await t.app.inject({ method: 'GET', url: '/api/brands' })
    expect(brandRes.statusCode).toBe(200)
    const brandList = brandRes.json() as Brand[]
    expect(brandList.length).toBeGreaterThanOrEqual(6)
    for (const b of brandList) {
      expect(b.brand_img).toMatch(/^\/media\/brands\/[a-z]+\.webp$/)
      expect(b.product_count).toBeGreaterThanOrEqual(2)
    }

    const adRes = await t.app.inject({ method: 'GET', url: '/api/advertised_product' })
    const advertised = adRes.json() as Product[]
    expect(advertised.length).toBeGreaterThanOrEqual(10)
    for (const p of advertised) {
      expect(p.sellStatus).toBe(false)
      expect(p.img).toMatch(/^\/media\/products\/.+\/1-card\.webp$/)
    }
    expect(advertised.some((p) => p.seller_verified)).toBe(true)
  })

  it('does nothing on a database that already has brands', async () => {
    const before = await tableCounts(t.db)
    const keys = t.storage.files.size
    expect(await seedDemoIfEmpty(t.db, t.storage, log)).toBe(false)
    expect(await tableCounts(t.db)).toEqual(before)
    expect(t.storage.files.size).toBe(keys)
  })

  it(
    'writes the same data every time',
    async () => {
      const { database, drop } = await openTestDatabase()
      try {
        const storage = new MemoryMediaStorage()
        expect(await seedDemoIfEmpty(database.db, storage, log)).toBe(true)
        const snapshot = (db: Db) =>
          db
            .select({
              id: products.id,
              name: products.name,
              resale: products.resalePriceCents,
              original: products.originalPriceCents,
              postedOn: products.postedOn,
              condition: products.condition,
              sellerId: products.sellerId,
              brandId: products.brandId,
              isAdvertised: products.isAdvertised,
              isSold: products.isSold,
            })
            .from(products)
            .orderBy(asc(products.id))
        expect(await snapshot(database.db)).toEqual(await snapshot(t.db))
        const imageRows = (db: Db) =>
          db
            .select({ cardUrl: productImages.cardUrl, detailUrl: productImages.detailUrl })
            .from(productImages)
            .orderBy(asc(productImages.cardUrl))
        expect(await imageRows(database.db)).toEqual(await imageRows(t.db))
        expect([...storage.files.keys()].sort()).toEqual([...t.storage.files.keys()].sort())
      } finally {
        await database.close()
        await drop()
      }
    },
    SEED_TIMEOUT,
  )
})

describe('the demo market history', () => {
  it('holds enough past sales that demo listings carry the price guide and its badges', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/search?page_size=60' })
    const items = (res.json() as { items: Product[] }).items
    const guided = items.filter((p) => p.price_guide)
    expect(guided.length).toBeGreaterThanOrEqual(items.length / 2)
    const verdicts = new Set(guided.map((p) => priceVerdict(p.resale_price, p.price_guide)))
    expect(verdicts).toEqual(new Set(['great', 'fair', null]))
    for (const p of guided) expect(p.price_guide?.count).toBeGreaterThanOrEqual(5)
  })
})
