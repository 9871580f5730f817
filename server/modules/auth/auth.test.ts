import { and, count, eq, sql } from 'drizzle-orm'
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accounts, sessions, users } from '#server/db/schema'
import { resolveAuthSecret } from '#server/lib/auth'
import {
  type Account,
  cookieFrom,
  issueExpiredToken,
  makeAdmin,
  originOf,
  postSignIn,
  postSignUp,
  type SignedIn,
  signIn,
  signOut,
  signUp,
  signUpDeletedUser,
  TEST_PASSWORD,
  uniqueEmail,
} from '#server/test/auth-helpers'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { SIGN_IN_LIMITS } from './sign-in-limit'

let t: TestApp
let buyer: SignedIn
let seller: SignedIn
let admin: SignedIn

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'true' }) // behind a proxy: limits per forwarded client address
  buyer = await signUp(t.app, { role: 'buyer', name: 'Bea Buyer' })
  seller = await signUp(t.app, { role: 'seller', name: 'Sam Seller' })
  admin = await signUp(t.app, { role: 'buyer', name: 'Ada Admin' })
  await makeAdmin(t.db, admin.user.id)
})

afterAll(async () => {
  await t?.close()
})

function me(headers: Record<string, string>) {
  return t.app.inject({ method: 'GET', url: '/api/me', headers })
}

async function userRowsWithEmail(email: string): Promise<number> {
  const [row] = await t.db
    .select({ n: count() })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
  return row?.n ?? 0
}

async function roleOf(id: string) {
  const [row] = await t.db.select({ role: users.role }).from(users).where(eq(users.id, id))
  return row?.role
}

describe('sign-up', () => {
  it('creates the user and its password account with the chosen role, and signs them in', async () => {
    for (const who of [buyer, seller]) {
      const [row] = await t.db.select().from(users).where(eq(users.id, who.user.id))
      expect(row?.role).toBe(who === buyer ? 'buyer' : 'seller')
      const creds = await t.db
        .select()
        .from(accounts)
        .where(and(eq(accounts.userId, who.user.id), eq(accounts.providerId, 'credential')))
      expect(creds).toHaveLength(1)
      expect(creds[0]?.password).toBeTruthy()
      expect(creds[0]?.password).not.toContain(TEST_PASSWORD)

      const res = await me({ cookie: who.cookie })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ id: who.user.id, email: who.user.email, role: row?.role })
    }
  })

  it('answers with the user and an httpOnly SameSite session cookie, never a password hash', async () => {
    const email = uniqueEmail('cookie')
    const res = await postSignUp(t.app, {
      name: 'Cora Cookie',
      email,
      password: TEST_PASSWORD,
      role: 'buyer',
    })
    expect(res.statusCode).toBe(200)
    const setCookie = [res.headers['set-cookie']].flat().join('\n')
    expect(setCookie).toMatch(/session_token=[^;]+;.*HttpOnly/i)
    expect(setCookie).toMatch(/SameSite=Lax/i)
    expect(res.body).not.toMatch(/password|scrypt|\$/i)
    expect(res.json().user).toMatchObject({ email, name: 'Cora Cookie', role: 'buyer' })
  })

  it.each([
    ['no role', {}],
    ['an empty role', { role: '' }],
    ['role admin', { role: 'admin' }],
    ['an unknown role', { role: 'superuser' }],
  ])('refuses %s with "User role is required" and writes nothing', async (_label, extra) => {
    const email = uniqueEmail('norole')
    const res = await postSignUp(t.app, { name: 'No Role', email, password: TEST_PASSWORD, ...extra })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: { code: 'VALIDATION', message: 'User role is required' } })
    expect(cookieFrom(res)).toBe('')
    expect(await userRowsWithEmail(email)).toBe(0)
  })

  it.each([
    ['an empty name', { name: '' }, 'Name is required'],
    ['a blank name', { name: '   ' }, 'Name is required'],
    ['a name over 100 characters', { name: 'n'.repeat(101) }, 'Name is too long'],
    ['a script for a picture', { name: 'Pic', image: 'javascript:alert(1)' }, 'Image must be an https URL'],
    [
      'a plain-http picture',
      { name: 'Pic', image: 'http://tracker.example/p.gif' },
      'Image must be an https URL',
    ],
  ])('refuses %s and writes nothing', async (_label, fields, message) => {
    const email = uniqueEmail('badname')
    const res = await postSignUp(t.app, { email, password: TEST_PASSWORD, role: 'buyer', ...fields })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toBe(message)
    expect(await userRowsWithEmail(email)).toBe(0)
  })

  it('refuses an email already taken, whatever its letter case, with a clear message', async () => {
    const res = await postSignUp(t.app, {
      name: 'Again',
      email: buyer.user.email.toUpperCase(),
      password: TEST_PASSWORD,
      role: 'seller',
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().error.message).toBe('User already exists. Use another email.')
    expect(await userRowsWithEmail(buyer.user.email)).toBe(1)
    expect(await roleOf(buyer.user.id)).toBe('buyer')
  })

  it('refuses a password shorter than 6 characters', async () => {
    const email = uniqueEmail('short')
    const res = await postSignUp(t.app, { name: 'Short', email, password: '12345', role: 'buyer' })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toBe('Password must be 6 character or longer')
    expect(await userRowsWithEmail(email)).toBe(0)
  })
})

describe('the account after sign-up', () => {
  it('cannot be given a role or a blank name through update-user; the display name still updates', async () => {
    const update = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/update-user',
        headers: { cookie: seller.cookie, origin: originOf(t.app) },
        payload: payload as Record<string, unknown>,
      })
    const promoted = await update({ role: 'admin' })
    expect(promoted.statusCode).toBe(400)
    expect(await roleOf(seller.user.id)).toBe('seller')

    expect((await update({ name: '  ' })).statusCode).toBe(400)
    expect((await update({ image: 'javascript:alert(1)' })).statusCode).toBe(400)
    const renamed = await update({ name: '  Sam S. Seller ' })
    expect(renamed.statusCode).toBe(200)
    expect((await me({ cookie: seller.cookie })).json()).toMatchObject({
      name: 'Sam S. Seller',
      role: 'seller',
    })
  })
})

describe('sign-in and sign-out', () => {
  it('signs in with the right password and refuses a wrong one or an unknown email', async () => {
    const ok = await postSignIn(t.app, { email: buyer.user.email, password: TEST_PASSWORD })
    expect(ok.statusCode).toBe(200)
    expect((await me({ cookie: cookieFrom(ok) })).json().id).toBe(buyer.user.id)

    const wrong = await postSignIn(t.app, { email: buyer.user.email, password: 'not-the-password' })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Invalid email or password' } })
    expect(cookieFrom(wrong)).toBe('')

    const unknown = await postSignIn(t.app, { email: uniqueEmail('nobody'), password: TEST_PASSWORD })
    expect(unknown.statusCode).toBe(401)
  })

  it('Sign Out ends the session on the server: the old cookie no longer works', async () => {
    const session = await signIn(t.app, { email: buyer.user.email })
    expect((await me({ cookie: session.cookie })).statusCode).toBe(200)
    const before = await t.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, buyer.user.id))

    const out = await signOut(t.app, session.cookie)
    expect(out.statusCode).toBe(200)
    expect((await me({ cookie: session.cookie })).statusCode).toBe(401)
    const after = await t.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, buyer.user.id))
    expect(after[0]?.n).toBe((before[0]?.n ?? 0) - 1)
    // Other sessions of the same person are theirs to end separately.
    expect((await me({ cookie: buyer.cookie })).statusCode).toBe(200)
  })

  it('a deleted user cannot sign in, and their old cookie and token stop working', async () => {
    const doomed = await signUpDeletedUser(t.app, admin)
    const token = doomed.token

    expect((await me({ cookie: doomed.cookie })).statusCode).toBe(401)
    expect((await me({ authorization: `Bearer ${token}` })).statusCode).toBe(401)
    const again = await postSignIn(t.app, { email: doomed.user.email, password: TEST_PASSWORD })
    expect(again.statusCode).toBe(403)
    expect(again.json().error.message).toBe('This account has been disabled')
    expect(cookieFrom(again)).toBe('')
    const [left] = await t.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, doomed.user.id))
    expect(left?.n).toBe(0)
  })

  it('says which ways of signing in are set up', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth-options' })
    expect(res.json()).toEqual({ google: false })
  })
})

describe('GET /api/session', () => {
  const session = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/session', headers })

  it('answers a visitor with { user: null } and 200, so asking who is signed in is never an error', async () => {
    const res = await session()
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ user: null })
    expect(res.headers['cache-control']).toBe('private, no-store')
  })

  it('answers a signed-in user with what /api/me answers', async () => {
    const res = await session({ cookie: seller.cookie })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ user: (await me({ cookie: seller.cookie })).json() })
  })

  it('still refuses an expired bearer token with 401, so a client that sent one knows to renew it', async () => {
    const token = await issueExpiredToken(t.app, buyer.user)
    expect((await session({ authorization: `Bearer ${token}` })).statusCode).toBe(401)
  })
})

describe('GET /api/jwt', () => {
  const jwt = (email: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/jwt?email=${encodeURIComponent(email)}`, headers })

  it("issues a short-lived HS256 token for the signed-in user's own email, usable as a bearer", async () => {
    const res = await jwt(buyer.user.email.toUpperCase(), { cookie: buyer.cookie })
    expect(res.statusCode).toBe(200)
    const { accessToken } = res.json() as { accessToken: string }
    expect(decodeProtectedHeader(accessToken).alg).toBe('HS256')
    const claims = decodeJwt(accessToken)
    expect(claims.sub).toBe(buyer.user.id)
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(t.app.ctx.config.accessTokenTtlSeconds)

    const mine = await me({ authorization: `Bearer ${accessToken}` })
    expect(mine.statusCode).toBe(200)
    expect(mine.json().id).toBe(buyer.user.id)
  })

  it("refuses a token for another person's email (403), even to an admin", async () => {
    const res = await jwt(seller.user.email, { cookie: buyer.cookie })
    expect(res.statusCode).toBe(403)
    expect(res.body).not.toContain('accessToken')
    expect((await jwt(buyer.user.email, { cookie: admin.cookie })).statusCode).toBe(403)
  })

  it('refuses anyone signed out (401), whatever email they name', async () => {
    const res = await jwt(admin.user.email)
    expect(res.statusCode).toBe(401)
    expect(res.body).not.toContain('accessToken')
  })
})

describe('bearer tokens', () => {
  const ISSUER = 'laptop-market'
  const AUDIENCE = 'laptop-market-api'
  // The key the app signs with (server/lib/session.ts); the HS256 control case proves it matches.
  const realKey = () => new TextEncoder().encode(`access-token:${resolveAuthSecret(t.app.ctx.config)}`)
  // A live session of the buyer's, which the app's tokens name.
  let sid = ''
  beforeAll(async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/jwt?email=${encodeURIComponent(buyer.user.email)}`,
      headers: { cookie: buyer.cookie },
    })
    sid = String(decodeJwt(res.json().accessToken).sid)
  })
  const claims = (user: Account) => ({ email: user.email, role: user.role, sid })

  async function signed(
    user: Account,
    alg: string,
    key: Uint8Array | CryptoKey,
    opts: { iss?: string; aud?: string } = {},
  ) {
    return new SignJWT(claims(user))
      .setProtectedHeader({ alg, typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer(opts.iss ?? ISSUER)
      .setAudience(opts.aud ?? AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(key)
  }

  const asBearer = (token: string) => me({ authorization: `Bearer ${token}` })

  it('accepts a token signed exactly as the app signs them (control case)', async () => {
    expect((await asBearer(await signed(buyer.user, 'HS256', realKey()))).statusCode).toBe(200)
  })

  it('refuses an unsigned `alg: none` token', async () => {
    const token = new UnsecuredJWT(claims(buyer.user))
      .setSubject(buyer.user.id)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('10m')
      .encode()
    expect(decodeProtectedHeader(token).alg).toBe('none')
    const res = await asBearer(token)
    expect(res.statusCode).toBe(401)
    expect(res.json().error.code).toBe('UNAUTHENTICATED')
  })

  it('refuses a token signed with another secret', async () => {
    const other = new TextEncoder().encode('another-secret-that-is-long-enough-1234567890')
    expect((await asBearer(await signed(buyer.user, 'HS256', other))).statusCode).toBe(401)
  })

  it('refuses HS512 even with the right key, and RS256', async () => {
    expect((await asBearer(await signed(buyer.user, 'HS512', realKey()))).statusCode).toBe(401)
    const { privateKey } = await generateKeyPair('RS256')
    expect((await asBearer(await signed(buyer.user, 'RS256', privateKey))).statusCode).toBe(401)
  })

  it('refuses the right key with another issuer or audience', async () => {
    expect(
      (await asBearer(await signed(buyer.user, 'HS256', realKey(), { iss: 'elsewhere' }))).statusCode,
    ).toBe(401)
    expect(
      (await asBearer(await signed(buyer.user, 'HS256', realKey(), { aud: 'elsewhere' }))).statusCode,
    ).toBe(401)
  })

  it('refuses an expired token', async () => {
    const res = await asBearer(await issueExpiredToken(t.app, buyer.user))
    expect(res.statusCode).toBe(401)
    expect(res.json().error.message).toBe('Access token expired')
  })

  it('takes the role from the database, not from the token', async () => {
    const token = await new SignJWT({ email: buyer.user.email, role: 'admin', sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(buyer.user.id)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(realKey())
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/buyers',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.statusCode).toBe(403)
  })

  it('refuses malformed authorization headers, and a cookie does not rescue a bad bearer', async () => {
    for (const header of ['Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer a b', 'bearer-token']) {
      expect((await me({ authorization: header })).statusCode, header).toBe(401)
    }
    expect((await me({ cookie: buyer.cookie, authorization: 'Bearer not.a.token' })).statusCode).toBe(401)
  })
})

describe('sign-in limits', () => {
  const wrong = (email: string, headers: Record<string, string> = {}) =>
    postSignIn(t.app, { email, password: 'wrong-password' }, headers)

  it('after 10 failures for one account the 11th attempt gets 429 with Retry-After, even with the right password', async () => {
    const victim = await signUp(t.app, { role: 'buyer' })
    for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndAddress; i++) {
      // Letter case does not make a new account to guess at.
      const email = i % 2 ? victim.user.email.toUpperCase() : victim.user.email
      expect((await wrong(email)).statusCode).toBe(401)
    }
    const blocked = await postSignIn(t.app, { email: victim.user.email, password: TEST_PASSWORD })
    expect(blocked.statusCode).toBe(429)
    expect(blocked.json().error.code).toBe('RATE_LIMITED')
    const retryAfter = Number(blocked.headers['retry-after'])
    // The rest of the 15-minute window that began with the first failure.
    expect(retryAfter).toBeGreaterThan(SIGN_IN_LIMITS.windowMs / 1000 - 120)
    expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_LIMITS.windowMs / 1000)
    expect(cookieFrom(blocked)).toBe('')

    // Other accounts, from the same address, are unaffected.
    expect((await postSignIn(t.app, { email: seller.user.email, password: TEST_PASSWORD })).statusCode).toBe(
      200,
    )
  })

  it('a successful sign-in clears the account’s failures', async () => {
    const user = await signUp(t.app, { role: 'seller' })
    for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndAddress - 1; i++)
      expect((await wrong(user.user.email)).statusCode).toBe(401)
    expect((await signIn(t.app, { email: user.user.email })).cookie).not.toBe('')
    expect((await wrong(user.user.email)).statusCode).toBe(401)
    expect((await postSignIn(t.app, { email: user.user.email, password: TEST_PASSWORD })).statusCode).toBe(
      200,
    )
  })

  it('counts form-encoded and oddly spelled sign-ins against the same account', async () => {
    const victim = await signUp(t.app, { role: 'buyer' })
    const email = victim.user.email
    const from = { 'x-forwarded-for': '192.0.2.44' }
    const form = (type: string, payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: { ...from, 'content-type': type, origin: originOf(t.app) },
        payload,
      })
    const attempts = [
      () => wrong(email, from),
      () =>
        form(
          'application/x-www-form-urlencoded',
          `email=${encodeURIComponent(email)}&password=wrong-password`,
        ),
      () =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/./sign-in/email',
          headers: from,
          payload: { email, password: 'wrong-password' },
        }),
    ]
    for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndAddress; i++) {
      expect((await attempts[i % attempts.length]?.())?.statusCode, `attempt ${i + 1}`).toBe(401)
    }
    expect((await postSignIn(t.app, { email, password: TEST_PASSWORD }, from)).statusCode).toBe(429)
  })

  it('concurrent guesses cannot slip past the limit', async () => {
    const user = await signUp(t.app, { role: 'buyer' })
    const answers = await Promise.all(Array.from({ length: 15 }, () => wrong(user.user.email)))
    const statuses = answers.map((r) => r.statusCode)
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_LIMITS.perAccountAndAddress)
    expect(statuses.filter((s) => s === 429)).toHaveLength(15 - SIGN_IN_LIMITS.perAccountAndAddress)
  })

  it('limits failures per client address across accounts', async () => {
    const limit = SIGN_IN_LIMITS.perAddress
    // Fifty failures would take half a minute of password hashing; the rule is the same with three.
    SIGN_IN_LIMITS.perAddress = 3
    try {
      const from = { 'x-forwarded-for': '203.0.113.7' }
      for (let i = 0; i < 3; i++) expect((await wrong(uniqueEmail('guess'), from)).statusCode).toBe(401)
      const blocked = await postSignIn(t.app, { email: buyer.user.email, password: TEST_PASSWORD }, from)
      expect(blocked.statusCode).toBe(429)
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
      const elsewhere = { 'x-forwarded-for': '198.51.100.20' }
      expect(
        (await postSignIn(t.app, { email: buyer.user.email, password: TEST_PASSWORD }, elsewhere)).statusCode,
      ).toBe(200)
    } finally {
      SIGN_IN_LIMITS.perAddress = limit
    }
  })
})
