import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deleteThroughAdmin, makeAdmin, signIn, signOut, signUp } from '#server/test/auth-helpers'
import { createTestApp, type TestApp } from '#server/test/test-app'

// Runs only when a server is named, e.g. TEST_REDIS_URL=redis://127.0.0.1:6379; each run has its own prefix.
const REDIS_URL = process.env.TEST_REDIS_URL
const PREFIX = `lm-test:${randomUUID().slice(0, 8)}:`

describe.skipIf(!REDIS_URL)('sessions in Redis (REDIS_URL)', () => {
  let t: TestApp
  let redis: Redis
  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: REDIS_URL ?? '', REDIS_KEY_PREFIX: PREFIX })
    redis = new Redis(REDIS_URL ?? '')
  })
  afterAll(async () => {
    const keys = await redis.keys(`${PREFIX}*`)
    if (keys.length) await redis.del(...keys)
    await redis.quit()
    await t?.close()
  })

  const me = (cookie: string) => t.app.inject({ url: '/api/auth/get-session', headers: { cookie } })
  const sessionKeys = async () =>
    (await redis.keys(`${PREFIX}auth:*`)).filter((k) => !k.includes('active-sessions'))

  it('keeps each new session in Redis under the prefix, and drops it there on sign-out', async () => {
    const before = await sessionKeys()
    const buyer = await signUp(t.app, { role: 'buyer' })
    expect((await sessionKeys()).length).toBe(before.length + 1)
    expect((await me(buyer.cookie)).json()).toMatchObject({ user: { email: buyer.user.email } })
    expect((await signOut(t.app, buyer.cookie)).statusCode).toBe(200)
    expect((await sessionKeys()).length).toBe(before.length)
    expect((await me(buyer.cookie)).json()).toBeNull()
  })

  it('refuses the session of a user an admin deleted at once, though Redis still held it', async () => {
    const admin = await signUp(t.app, { role: 'buyer' })
    await makeAdmin(t.db, admin.user.id)
    const adminAgain = await signIn(t.app, { email: admin.user.email })
    const buyer = await signUp(t.app, { role: 'buyer' })
    expect(
      (await t.app.inject({ url: '/api/bookings', headers: { cookie: buyer.cookie } })).statusCode,
    ).not.toBe(401)
    await deleteThroughAdmin(t.app, adminAgain, buyer.user)
    const refused = await t.app.inject({
      url: `/api/bookings?email=${encodeURIComponent(buyer.user.email)}`,
      headers: { cookie: buyer.cookie },
    })
    expect(refused.statusCode).toBe(401)
    expect((await me(buyer.cookie)).json()).toBeNull()
  })
})

describe.skipIf(!REDIS_URL)('a password reset with sessions in Redis', () => {
  let t: TestApp
  let redis: Redis
  const prefix = `lm-test:${randomUUID().slice(0, 8)}:`
  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: REDIS_URL ?? '', REDIS_KEY_PREFIX: prefix })
    redis = new Redis(REDIS_URL ?? '')
  })
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length) await redis.del(...keys)
    await redis.quit()
    await t?.close()
  })

  it('ends every session of the account, in Redis too', async () => {
    const account = await signUp(t.app, { role: 'seller' })
    const other = await signIn(t.app, { email: account.user.email })
    const tokens = [account.cookie, other.cookie].map(
      (c) => decodeURIComponent(c.split('=')[1] ?? '').split('.')[0],
    )
    for (const token of tokens) expect(await redis.exists(`${prefix}auth:${token}`)).toBe(1)

    // The reset token the emailed link carries, read where the auth library keeps it: with Redis, in Redis
    // (so a link asked for on one instance works on every other).
    const origin = t.app.ctx.config.publicUrl
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { origin },
      payload: { email: account.user.email },
    })
    const [key] = await redis.keys(`${prefix}*verification:reset-password:*`)
    const token = key?.split('reset-password:')[1]
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      headers: { origin },
      payload: { token, newPassword: 'fresh-start-42' },
    })
    expect(reset.statusCode).toBe(200)
    for (const token of tokens) expect(await redis.exists(`${prefix}auth:${token}`)).toBe(0)
    for (const cookie of [account.cookie, other.cookie]) {
      expect((await t.app.inject({ url: '/api/me', headers: { cookie } })).statusCode).toBe(401)
    }
  })
})
