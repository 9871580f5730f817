import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { productViews, reports, users } from '#server/db/schema'
import { bearerFor } from '#server/test/auth-helpers'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, openTestDatabase, type TestApp } from '#server/test/test-app'
import { markProductSold } from '../modules/products/products.service'
import { resolveReport } from '../modules/reports/reports.service'
import { verifySeller } from '../modules/users/users.service'
import { PublicCache, PublicDataWatch } from './public-cache'

/**
 * Nothing tells the public cache that data changed: the database does (public_data_version, moved on by triggers at
 * commit). A change made through this instance's API is gone from the cached lists before its answer arrives; one
 * made anywhere else (a service or job, another instance, plain SQL) within a poll.
 */
describe('public lists follow the database, whoever changes it', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_CACHE_TTL_MS: '60000' })
  })
  afterAll(() => t.close())

  const advertised = async () =>
    (await t.app.inject({ url: '/api/advertised_product' })).json() as {
      _id: string
      seller_verified?: boolean
    }[]
  const advertisedIds = async () => (await advertised()).map((p) => p._id)
  const soon = { timeout: 1000, interval: 10 }

  async function listed() {
    const seller = await createUser(t.db, { role: 'seller' })
    const brand = await createBrand(t.db)
    const product = await createProduct(t.db, { seller, brand, isAdvertised: true })
    await vi.waitFor(async () => expect(await advertisedIds()).toContain(product.id), soon)
    return { seller, brand, product }
  }
  const actorOf = (u: { id: string; name: string; email: string }, role: 'seller' | 'admin') => ({
    id: u.id,
    name: u.name,
    email: u.email,
    role,
    isVerified: false,
  })

  it('a listing marked sold through the API is off the cached home page list when the answer arrives', async () => {
    const { seller, product } = await listed()
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/products/${product.id}/sold`,
      headers: await bearerFor(t.app, seller),
    })
    expect(res.statusCode).toBe(200)
    expect(await advertisedIds()).not.toContain(product.id)
  })

  it('a listing marked sold by the service alone leaves it within a poll', async () => {
    const { seller, product } = await listed()
    await markProductSold(t.db, actorOf(seller, 'seller'), product.id)
    await vi.waitFor(async () => expect(await advertisedIds()).not.toContain(product.id), soon)
  })

  it('a listing removed on a report leaves it too', async () => {
    const { seller, product } = await listed()
    const admin = await createUser(t.db, { role: 'admin' })
    const [report] = await t.db
      .insert(reports)
      .values({ productId: product.id, reporterId: seller.id, reason: 'Not a laptop' })
      .returning({ id: reports.id })
    const { payments, mail, config } = t.app.ctx
    await resolveReport(
      t.db,
      payments,
      actorOf(admin, 'admin'),
      report?.id ?? '',
      'remove',
      mail,
      config.payouts.fee,
    )
    await vi.waitFor(async () => expect(await advertisedIds()).not.toContain(product.id), soon)
  })

  it('a seller verified by an admin shows the badge on the cached list', async () => {
    const { seller, product } = await listed()
    const admin = await createUser(t.db, { role: 'admin' })
    const badge = async () => (await advertised()).find((p) => p._id === product.id)?.seller_verified
    expect(await badge()).toBe(false)
    await verifySeller(t.db, actorOf(admin, 'admin'), seller.id, true)
    await vi.waitFor(async () => expect(await badge()).toBe(true), soon)
  })

  it('a change written by hand in plain SQL reaches the cached list as well', async () => {
    const { product } = await listed()
    await t.db.execute(sql`update products set is_advertised = false where id = ${product.id}`)
    await vi.waitFor(async () => expect(await advertisedIds()).not.toContain(product.id), soon)
  })
})

describe('public_data_version', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t.close())

  const version = async () =>
    BigInt(
      (
        (await t.db.execute(sql`select version::text as v from public_data_version where id`)) as unknown as {
          rows: { v: string }[]
        }
      ).rows[0]?.v ?? '0',
    )
  async function moves(change: () => Promise<unknown>): Promise<bigint> {
    const before = await version()
    await change()
    return (await version()) - before
  }

  it('moves on once per transaction that changes what visitors see, whatever the table', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const brand = await createBrand(t.db)
    const product = await createProduct(t.db, { seller, brand })
    expect(await moves(() => createBrand(t.db))).toBe(1n)
    expect(
      await moves(() => t.db.update(users).set({ verifiedAt: new Date() }).where(sql`id = ${seller.id}`)),
    ).toBe(1n)
    expect(
      await moves(() =>
        t.db.execute(
          sql`update products set description = 'Now with a new battery' where id = ${product.id}`,
        ),
      ),
    ).toBe(1n)
    expect(
      await moves(() =>
        t.db.execute(sql`insert into product_images (product_id, position, card_url, detail_url)
          values (${product.id}, 9, '/media/x-card.webp', '/media/x.webp')`),
      ),
    ).toBe(1n)
    // Many rows in one transaction: one step.
    expect(
      await moves(() =>
        t.db.transaction(async (tx) => {
          await createProduct(tx, { seller, brand })
          await createProduct(tx, { seller, brand })
          await tx.execute(sql`update products set is_advertised = true where seller_id = ${seller.id}`)
        }),
      ),
    ).toBe(1n)
  })

  it('stays where it is for what visitors do not see', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const brand = await createBrand(t.db)
    const product = await createProduct(t.db, { seller, brand })
    expect(await moves(() => createUser(t.db, { role: 'buyer' }))).toBe(0n)
    expect(
      await moves(() => t.db.update(users).set({ emailVerified: true }).where(sql`id = ${seller.id}`)),
    ).toBe(0n)
    expect(
      await moves(() =>
        t.db.insert(productViews).values({ productId: product.id, day: '2026-01-01', views: 3 }),
      ),
    ).toBe(0n)
    // An update that leaves the row as it was.
    expect(
      await moves(() => t.db.execute(sql`update products set name = name where id = ${product.id}`)),
    ).toBe(0n)
  })

  it('a watch drops its cache when another instance (or anything) commits a public change, and only then', async () => {
    const cache = new PublicCache(60_000)
    const watch = new PublicDataWatch(t.db, cache, { warn: () => {} }, 20)
    await watch.start()
    try {
      await cache.get('brands', async () => 'old')
      await createUser(t.db, { role: 'buyer' })
      await new Promise((r) => setTimeout(r, 100))
      expect((await cache.get('brands', async () => 'new')).text).toBe('"old"')
      await createBrand(t.db)
      await vi.waitFor(
        async () => expect((await cache.get('brands', async () => 'new')).text).toBe('"new"'),
        {
          timeout: 1000,
          interval: 10,
        },
      )
    } finally {
      watch.stop()
    }
  })

  it('a watch told of each commit drops its cache as the change commits, and reads the version once a second', async () => {
    const { database, drop } = await openTestDatabase()
    const cache = new PublicCache(60_000)
    // A poll every 20 ms, but for the notifications: once they come, the version is read once a second.
    const watch = new PublicDataWatch(database.db, cache, { warn: () => {} }, 20, database.listen)
    const reads = vi.spyOn(database.db, 'select')
    try {
      await watch.start()
      await cache.get('brands', async () => 'old')
      await createBrand(database.db)
      await vi.waitFor(
        async () => expect((await cache.get('brands', async () => 'new')).text).toBe('"new"'),
        { timeout: 1000, interval: 10 },
      )
      reads.mockClear()
      await new Promise((r) => setTimeout(r, 1_000))
      // Fifty reads a second at 20 ms; one or two once listening.
      expect(reads.mock.calls.length).toBeLessThanOrEqual(3)
      // A second instance's watch, which polls only once a minute: the notification alone drops its cache in time.
      const other = new PublicCache(60_000)
      const slow = new PublicDataWatch(database.db, other, { warn: () => {} }, 60_000, database.listen)
      await slow.start()
      try {
        await other.get('brands', async () => 'old')
        await new Promise((r) => setTimeout(r, 100))
        await createBrand(database.db)
        await vi.waitFor(
          async () => expect((await other.get('brands', async () => 'new')).text).toBe('"new"'),
          { timeout: 1000, interval: 10 },
        )
      } finally {
        slow.stop()
      }
    } finally {
      watch.stop()
      reads.mockRestore()
      await database.close()
      await drop()
    }
  })
})
