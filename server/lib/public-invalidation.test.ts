import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reports } from '#server/db/schema'
import { markProductSold } from '#server/modules/products/products.service'
import { resolveReport } from '#server/modules/reports/reports.service'
import { verifySeller } from '#server/modules/users/users.service'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

/** The services themselves, called without any route, clear the public lists when they change them. */
describe('public lists follow the services that change them', () => {
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

  async function listed() {
    const seller = await createUser(t.db, { role: 'seller' })
    const brand = await createBrand(t.db)
    const product = await createProduct(t.db, { seller, brand, isAdvertised: true })
    // Factories write rows directly, past the services, so nothing has told the cache.
    t.app.ctx.cache.clear()
    return { seller, brand, product }
  }

  it('a listing marked sold leaves the cached home page list at once', async () => {
    const { seller, product } = await listed()
    expect((await advertised()).map((p) => p._id)).toContain(product.id)
    const actor = {
      id: seller.id,
      name: seller.name,
      email: seller.email,
      role: 'seller' as const,
      isVerified: false,
    }
    await markProductSold(t.db, actor, product.id)
    expect((await advertised()).map((p) => p._id)).not.toContain(product.id)
  })

  it('a listing removed on a report leaves it too', async () => {
    const { seller, product } = await listed()
    const admin = await createUser(t.db, { role: 'admin' })
    const [report] = await t.db
      .insert(reports)
      .values({ productId: product.id, reporterId: seller.id, reason: 'Not a laptop' })
      .returning({ id: reports.id })
    expect((await advertised()).map((p) => p._id)).toContain(product.id)
    const actor = {
      id: admin.id,
      name: admin.name,
      email: admin.email,
      role: 'admin' as const,
      isVerified: false,
    }
    const { payments, mail, config } = t.app.ctx
    await resolveReport(t.db, payments, actor, report?.id ?? '', 'remove', mail, config.payouts.fee)
    expect((await advertised()).map((p) => p._id)).not.toContain(product.id)
  })

  it('a seller verified by an admin shows the badge on the cached list at once', async () => {
    const { seller, product } = await listed()
    const admin = await createUser(t.db, { role: 'admin' })
    const badge = async () => (await advertised()).find((p) => p._id === product.id)?.seller_verified
    expect(await badge()).toBe(false)
    const actor = {
      id: admin.id,
      name: admin.name,
      email: admin.email,
      role: 'admin' as const,
      isVerified: false,
    }
    await verifySeller(t.db, actor, seller.id, true)
    expect(await badge()).toBe(true)
  })
})
