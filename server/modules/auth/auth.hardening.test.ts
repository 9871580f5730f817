import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  bearerTokenFor,
  cookieFrom,
  originOf,
  postSignIn,
  postSignUp,
  type SignedIn,
  signIn,
  signOut,
  signUp,
  TEST_PASSWORD,
  uniqueEmail,
} from '#server/test/auth-helpers'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { SIGN_IN_LIMITS } from './sign-in-limit'

let t: TestApp
let buyer: SignedIn

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'true' })
  buyer = await signUp(t.app, { role: 'buyer' })
})

afterAll(async () => {
  await t?.close()
})

const me = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/me', headers })
const from = (address: string) => ({ 'x-forwarded-for': address })

function authPost(path: string, cookie: string, payload: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: `/api/auth/${path}`,
    headers: { cookie, origin: originOf(t.app) },
    payload,
  })
}

describe('a sign-in names one account', () => {
  const form = (payload: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: originOf(t.app) },
      payload,
    })

  it('refuses a form that repeats email or password with 400', async () => {
    const victim = encodeURIComponent(buyer.user.email)
    for (const body of [
      `email=decoy%40example.test&email=${victim}&password=${TEST_PASSWORD}`,
      `email=${victim}&password=wrong-password&password=${TEST_PASSWORD}`,
    ]) {
      const res = await form(body)
      expect(res.statusCode, body).toBe(400)
      expect(res.json().error.message).toMatch(/once/)
      expect(cookieFrom(res)).toBe('')
    }
  })

  it('refuses a JSON body that repeats email', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json', origin: originOf(t.app) },
      payload: `{"email":"decoy@example.test","email":"${buyer.user.email}","password":"${TEST_PASSWORD}"}`,
    })
    expect(res.statusCode).toBe(400)
  })
})

describe('sign-in failures lock out an address, not the account', () => {
  it('after 10 failures from one address the owner still signs in from another, after a slow-down', async () => {
    const victim = await signUp(t.app, { role: 'buyer' })
    const saved = { ...SIGN_IN_LIMITS }
    SIGN_IN_LIMITS.slowDownMs = 300
    try {
      for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndAddress; i++) {
        const res = await postSignIn(
          t.app,
          { email: victim.user.email, password: 'wrong-password' },
          from('203.0.113.50'),
        )
        expect(res.statusCode).toBe(401)
      }
      const attacker = await postSignIn(
        t.app,
        { email: victim.user.email, password: TEST_PASSWORD },
        from('203.0.113.50'),
      )
      expect(attacker.statusCode).toBe(429)

      const started = Date.now()
      const owner = await postSignIn(
        t.app,
        { email: victim.user.email, password: TEST_PASSWORD },
        from('198.51.100.77'),
      )
      expect(owner.statusCode).toBe(200)
      expect(Date.now() - started).toBeGreaterThanOrEqual(250)
    } finally {
      Object.assign(SIGN_IN_LIMITS, saved)
    }
  })
})

describe('password checks are limited', () => {
  it.each([
    ['verify-password', { password: 'wrong-password' }],
    ['change-password', { currentPassword: 'wrong-password', newPassword: 'another-pass-99' }],
  ])('%s: the 11th wrong password in the window gets 429', async (path, body) => {
    const person = await signUp(t.app, { role: 'buyer' })
    for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndAddress; i++) {
      expect((await authPost(path, person.cookie, body)).statusCode).toBe(400)
    }
    const blocked = await authPost(path, person.cookie, body)
    expect(blocked.statusCode).toBe(429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
  })
})

describe('control characters', () => {
  it.each([
    ['update-user', { name: 'A\u0000B' }, 'name'],
    ['update-user', { image: 'https://example.test/a\u0000.png' }, 'image'],
    ['update-user', { name: 'Bell\u0007' }, 'name'],
    ['revoke-session', { token: 'abc\u0000def' }, 'token'],
  ])('%s with %j answers 400 naming the field', async (path, body, field) => {
    const res = await authPost(path, buyer.cookie, body)
    expect(res.statusCode).toBe(400)
    expect(res.json().error.code).toBe('VALIDATION')
    expect(res.json().error.message).toContain(field === 'token' ? 'token' : field)
    expect(res.json().error.message).not.toBe('Sign-in failed')
  })
})

describe('bearer tokens end with their session', () => {
  it('Sign Out ends the session’s bearer token', async () => {
    const session = await signIn(t.app, { email: buyer.user.email })
    const token = await bearerTokenFor(t.app, session)
    expect((await me({ authorization: `Bearer ${token}` })).statusCode).toBe(200)
    expect((await signOut(t.app, session.cookie)).statusCode).toBe(200)
    const after = await me({ authorization: `Bearer ${token}` })
    expect(after.statusCode).toBe(401)
    // Other sessions of the same person keep working.
    expect((await me({ cookie: buyer.cookie })).statusCode).toBe(200)
  })

  it('a password change ends the other sessions and their tokens', async () => {
    const person = await signUp(t.app, { role: 'seller' })
    const other = await signIn(t.app, { email: person.user.email })
    const otherToken = await bearerTokenFor(t.app, other)
    const changed = await authPost('change-password', person.cookie, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'a-new-password-77',
    })
    expect(changed.statusCode).toBe(200)
    expect((await me({ cookie: other.cookie })).statusCode).toBe(401)
    expect((await me({ authorization: `Bearer ${otherToken}` })).statusCode).toBe(401)
    // The session that changed it carries on with its new cookie.
    expect((await me({ cookie: cookieFrom(changed) })).statusCode).toBe(200)
  })
})

describe('cookie-authenticated changes come from our own pages', () => {
  const report = (headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/reports', headers, payload: { unknown_field: 1 } })

  it('refuses another Origin, or a cross-site fetch, when the session cookie authenticates', async () => {
    const forged = await report({ cookie: buyer.cookie, origin: 'https://evil.example' })
    expect(forged.statusCode).toBe(403)
    expect(forged.json().error.message).toContain('PUBLIC_URL')
    expect((await report({ cookie: buyer.cookie, 'sec-fetch-site': 'same-site' })).statusCode).toBe(403)
    // Our own page: past the check (the body is then refused for what it is).
    expect((await report({ cookie: buyer.cookie, origin: originOf(t.app) })).statusCode).toBe(400)
    expect((await report({ cookie: buyer.cookie, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(400)
  })

  it('leaves bearer-authenticated API clients alone', async () => {
    const token = await bearerTokenFor(t.app, buyer)
    const res = await report({ authorization: `Bearer ${token}`, origin: 'https://tool.example' })
    expect(res.statusCode).toBe(400)
  })
})

describe('the address the app is opened at', () => {
  const signUpFrom = (app: TestApp['app'], origin: string) =>
    postSignUp(
      app,
      { name: 'Loop Back', email: uniqueEmail('loop'), password: TEST_PASSWORD, role: 'buyer' },
      { origin },
    )

  it('out of production, accepts the loopback spellings of PUBLIC_URL with the same port', async () => {
    expect(t.app.ctx.config.publicUrl).toBe('http://localhost:3000')
    for (const origin of ['http://127.0.0.1:3000', 'http://[::1]:3000', 'http://localhost:3000']) {
      expect((await signUpFrom(t.app, origin)).statusCode, origin).toBe(200)
    }
    const elsewhere = await signUpFrom(t.app, 'http://127.0.0.1:4000')
    expect(elsewhere.statusCode).toBe(403)
    expect(elsewhere.json().error.message).toContain('PUBLIC_URL')
  })

  it('out of production, accepts the pages of `npm run dev` (Vite on its port, proxying /api here)', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:5173']) {
      expect((await signUpFrom(t.app, origin)).statusCode, origin).toBe(200)
    }
    const elsewhere = await signUpFrom(t.app, 'http://localhost:5174')
    expect(elsewhere.statusCode).toBe(403)
    expect(elsewhere.json().error.message).toContain('PUBLIC_URL')
  })

  it('in production, accepts PUBLIC_URL alone and says to set it', async () => {
    const prod = await createTestApp({
      NODE_ENV: 'production',
      AUTH_SECRET: 'a-production-secret-of-at-least-32-chars',
      PUBLIC_URL: 'http://localhost:3000',
    })
    try {
      const refused = await signUpFrom(prod.app, 'http://127.0.0.1:3000')
      expect(refused.statusCode).toBe(403)
      expect(refused.json().error.message).toContain('PUBLIC_URL')
      expect((await signUpFrom(prod.app, 'http://localhost:5173')).statusCode).toBe(403)
    } finally {
      await prod.close()
    }
  })
})
