// A hold keeps a laptop from every other buyer, so free accounts must not be able to take holds in bulk:
// a hold needs a confirmed email address, and the live holds taken from one client address are limited
// whoever takes them (sign-ups per address are limited too: server/modules/auth/tokens-and-resets.test.ts).

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearerFor } from '#server/test/auth-helpers'
import { createBooking, createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'true', LIVE_HOLDS_PER_ADDRESS: '3' })
})
afterAll(async () => {
  await t?.close()
})

async function listing() {
  const seller = await createUser(t.db, { role: 'seller' })
  const brand = await createBrand(t.db)
  return createProduct(t.db, { seller, brand })
}

/** A fresh buyer who books a new listing and opens its payment page from `address`. */
async function bookAndHold(opts: { emailVerified: boolean; address: string }) {
  const buyer = await createUser(t.db, { role: 'buyer', emailVerified: opts.emailVerified })
  const product = await listing()
  const booking = await createBooking(t.db, { product, buyer })
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/bookings/${booking.id}/hold`,
    headers: { ...(await bearerFor(t.app, buyer)), 'x-forwarded-for': opts.address },
  })
  return { res, product }
}

describe('what a hold costs', () => {
  it('needs a confirmed email address, and says where to get one', async () => {
    const { res } = await bookAndHold({ emailVerified: false, address: '198.51.100.7' })
    expect(res.statusCode).toBe(403)
    expect(res.json().error.message).toMatch(
      /Confirm your email address before paying.*\/dashboard\/settings/,
    )
  })

  it('lets many accounts from one address hold no more than LIVE_HOLDS_PER_ADDRESS laptops at once', async () => {
    const answers: number[] = []
    for (let i = 0; i < 6; i++) {
      answers.push((await bookAndHold({ emailVerified: true, address: '198.51.100.8' })).res.statusCode)
    }
    expect(answers).toEqual([200, 200, 200, 429, 429, 429])
    const refused = await bookAndHold({ emailVerified: true, address: '198.51.100.8' })
    expect(refused.res.json().error.message).toMatch(/already being paid for from your network/)
    // Another address is not held back by them.
    expect((await bookAndHold({ emailVerified: true, address: '198.51.100.9' })).res.statusCode).toBe(200)
  })
})
