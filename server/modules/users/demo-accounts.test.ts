import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser } from '#server/db/factories'
import { bookings, users } from '#server/db/schema'
import {
  cookieFrom,
  insertBooking,
  insertListing,
  postSignIn,
  signUp,
  TEST_PASSWORD,
} from '#server/test/auth-helpers'
import { createTestApp, type TestApp } from '#server/test/test-app'
import {
  demoAccountsRefusal,
  findDemoAccounts,
  REMOVE_DEMO_COMMAND,
  removeDemoAccounts,
} from './demo-accounts'

// The demo admin's password is in the README: anyone could sign in as it beside a real admin. Removing the demo
// accounts shuts that door and breaks nothing a real person paid for or wrote.

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t?.close())

describe('removing the demo accounts', () => {
  it('no one signs in as them again; their listings leave sale; a real buyer keeps a paid sale', async () => {
    const demoAdmin = await createUser(t.db, {
      id: 'demo-admin',
      role: 'admin',
      email: 'admin@laptopmarket.test',
      password: TEST_PASSWORD,
    })
    const demoSeller = await createUser(t.db, {
      id: 'demo-seller',
      role: 'seller',
      email: 'seller@laptopmarket.test',
      password: TEST_PASSWORD,
    })
    const real = await signUp(t.app, { role: 'buyer' })
    const onSale = await insertListing(t.db, { sellerId: demoSeller.id })
    const bought = await insertListing(t.db, { sellerId: demoSeller.id, brandId: onSale.brandId })
    const unpaid = await insertBooking(t.db, { buyer: real.user, listing: onSale })
    const paid = await insertBooking(t.db, { buyer: real.user, listing: bought, paid: true })
    const adminSession = await postSignIn(t.app, { email: demoAdmin.email, password: TEST_PASSWORD })
    expect(adminSession.statusCode).toBe(200)

    expect((await t.app.inject({ url: '/api/advertised_product' })).body).toContain(onSale.id)
    expect((await findDemoAccounts(t.db)).map((a) => a.id)).toEqual(['demo-admin', 'demo-seller'])
    const refusal = demoAccountsRefusal(await findDemoAccounts(t.db))
    expect(refusal).toContain(REMOVE_DEMO_COMMAND)
    expect(refusal).toContain('admin@laptopmarket.test')

    const done = await removeDemoAccounts(t.db, t.app.ctx.mail)
    expect(done).toMatchObject({ listingsOffSale: 1, bookingsCancelled: 1 })
    expect(await findDemoAccounts(t.db)).toEqual([])

    // The door is shut: the password, and the session it had.
    expect(
      (await postSignIn(t.app, { email: demoAdmin.email, password: TEST_PASSWORD })).statusCode,
    ).not.toBe(200)
    const me = await t.app.inject({ url: '/api/me', headers: { cookie: cookieFrom(adminSession) } })
    expect(me.statusCode).toBe(401)
    // The listing still on sale is gone from the public list; the real buyer's paid sale is theirs still.
    const list = await t.app.inject({ url: '/api/advertised_product' })
    expect(list.statusCode).toBe(200)
    expect(list.body).not.toContain(onSale.id)
    const mine = await t.app.inject({
      url: `/api/bookings?email=${encodeURIComponent(real.user.email)}`,
      headers: { cookie: real.cookie },
    })
    expect(mine.statusCode).toBe(200)
    expect(mine.body).toContain(paid.id)
    const [ended] = await t.db.select().from(bookings).where(eq(bookings.id, unpaid.id))
    expect(ended?.stage).toBe('cancelled')
    // The rows stay for the record others point at.
    expect(await t.db.select().from(users).where(eq(users.id, 'demo-seller'))).toHaveLength(1)
    // Twice is harmless.
    expect((await removeDemoAccounts(t.db, t.app.ctx.mail)).removed).toEqual([])
  })
})
