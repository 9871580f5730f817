import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessions } from '#server/db/schema'
import { bearerTokenFor, originOf, postSignIn, signIn, signUp, uniqueEmail } from '#server/test/auth-helpers'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { STALE_RESET_LINK } from './reset-links'

// Attempts an outside tester made against tokens, sessions, reset links and sign-ups, repeated here: each
// must fail.

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { origin: originOf(t.app), ...headers }, payload })

/** Asks for a reset link and returns its token, read from the email the worker sends. */
async function resetToken(email: string): Promise<string> {
  expect((await post('/api/auth/request-password-reset', { email })).statusCode).toBe(200)
  await t.app.ctx.jobs.drain('email')
  const mail = t.outbox.filter((m) => m.to.includes(email) && m.subject.includes('Reset')).at(-1)
  const token = mail?.text.match(/reset-password\?token=([^\s&]+)/)?.[1]
  if (!token) throw new Error(`no reset link in ${mail?.text}`)
  return decodeURIComponent(token)
}

describe('reset links end when the password changes', () => {
  it('an older link no longer works once a newer one was used', async () => {
    const account = await signUp(t.app, { role: 'buyer', email: uniqueEmail('reset-twice') })
    const older = await resetToken(account.user.email)
    const newer = await resetToken(account.user.email)
    expect(older).not.toBe(newer)
    expect(
      (await post('/api/auth/reset-password', { token: newer, newPassword: 'newer-pass-1' })).statusCode,
    ).toBe(200)

    const res = await post('/api/auth/reset-password', { token: older, newPassword: 'attacker-pass-1' })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toBe(STALE_RESET_LINK)
    expect(
      (await postSignIn(t.app, { email: account.user.email, password: 'attacker-pass-1' })).statusCode,
    ).toBe(401)
    expect(
      (await postSignIn(t.app, { email: account.user.email, password: 'newer-pass-1' })).statusCode,
    ).toBe(200)
  })

  it('a link sent before the owner changed their password no longer works', async () => {
    const account = await signUp(t.app, { role: 'buyer', email: uniqueEmail('reset-change') })
    const link = await resetToken(account.user.email)
    const changed = await post(
      '/api/auth/change-password',
      { currentPassword: account.password, newPassword: 'changed-pass-1' },
      { cookie: account.cookie },
    )
    expect(changed.statusCode).toBe(200)

    const res = await post('/api/auth/reset-password', { token: link, newPassword: 'attacker-pass-2' })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toBe(STALE_RESET_LINK)
    expect(
      (await postSignIn(t.app, { email: account.user.email, password: 'changed-pass-1' })).statusCode,
    ).toBe(200)
  })

  it('a link asked for after the change still works (control case)', async () => {
    const account = await signUp(t.app, { role: 'buyer', email: uniqueEmail('reset-after') })
    const changed = await post(
      '/api/auth/change-password',
      { currentPassword: account.password, newPassword: 'changed-pass-2' },
      { cookie: account.cookie },
    )
    expect(changed.statusCode).toBe(200)
    const link = await resetToken(account.user.email)
    expect(
      (await post('/api/auth/reset-password', { token: link, newPassword: 'fresh-pass-3' })).statusCode,
    ).toBe(200)
  })
})

describe('GET /api/jwt issues tokens only to the session cookie', () => {
  it('refuses to renew a bearer token with itself', async () => {
    const buyer = await signUp(t.app, { role: 'buyer' })
    const token = await bearerTokenFor(t.app, buyer)
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/jwt?email=${encodeURIComponent(buyer.user.email)}`,
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.statusCode).toBe(403)
    expect(res.body).not.toContain('accessToken')
  })
})

describe('POST /api/auth/revoke-session', () => {
  it("answers 404 for someone else's session, which stays signed in", async () => {
    const victim = await signUp(t.app, { role: 'buyer' })
    const attacker = await signUp(t.app, { role: 'buyer' })
    // No answer shows a session's token any more: say the attacker learnt it some other way.
    const [victimSession] = await t.db
      .select({ token: sessions.token })
      .from(sessions)
      .where(eq(sessions.userId, victim.user.id))
    const victimToken = victimSession?.token as string
    expect(victimToken).toBeTruthy()

    const res = await post('/api/auth/revoke-session', { token: victimToken }, { cookie: attacker.cookie })
    expect(res.statusCode).toBe(404)
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: victim.cookie } })).statusCode,
    ).toBe(200)
  })

  it('ends one of your own sessions (control case)', async () => {
    const account = await signUp(t.app, { role: 'buyer' })
    const other = await signIn(t.app, { email: account.user.email })
    const tokens = (
      await t.db.select({ token: sessions.token }).from(sessions).where(eq(sessions.userId, account.user.id))
    ).map((s) => s.token)
    const otherToken = tokens.find((token) => other.cookie.includes(token.slice(0, 10))) ?? tokens.at(-1)
    const res = await post(
      '/api/auth/revoke-session',
      { token: otherToken as string },
      { cookie: account.cookie },
    )
    expect(res.statusCode).toBe(200)
  })
})

describe('sign-ups are limited per client address', () => {
  let limited: TestApp
  beforeAll(async () => {
    limited = await createTestApp({ TRUST_PROXY: 'true', SIGNUPS_PER_ADDRESS_PER_HOUR: '3' })
  })
  afterAll(async () => {
    await limited?.close()
  })

  it('refuses the fourth sign-up from one address in an hour, with the minutes to wait; others go on', async () => {
    const from = (address: string) => ({ 'x-forwarded-for': address })
    const signUpFrom = (address: string) =>
      limited.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: { origin: originOf(limited.app), ...from(address) },
        payload: {
          name: 'Throwaway',
          email: uniqueEmail('throwaway'),
          password: 'cedar-lantern-58',
          role: 'buyer',
        },
      })
    for (let i = 0; i < 3; i++) expect((await signUpFrom('203.0.113.50')).statusCode).toBe(200)
    const refused = await signUpFrom('203.0.113.50')
    expect(refused.statusCode).toBe(429)
    expect(refused.json().error.message).toMatch(/Too many accounts were made from your network.*minutes/)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect((await signUpFrom('203.0.113.51')).statusCode).toBe(200)
  })
})
