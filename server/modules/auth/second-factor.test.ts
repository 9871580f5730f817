// Admin rights follow how this session signed in, and an authenticator code is taken once. Each attack an
// outside test made is repeated here and must fail.

import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { sessions, twoFactors } from '#server/db/schema'
import { ADMIN_SECOND_STEP_MESSAGE } from '#server/lib/guard'
import { CODE_ALREADY_USED } from '#server/lib/totp-steps'
import {
  makeAdmin,
  mergeCookies,
  postAuth,
  postSignIn,
  type SignedIn,
  signIn,
  signUp,
  TEST_PASSWORD,
  tokenFor,
} from '#server/test/auth-helpers'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { currentCode, enableTwoStep, signInWithCode } from '#server/test/two-factor'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp({ REQUIRE_ADMIN_TWO_FACTOR: 'true' })
})
afterAll(() => t?.close())

const adminRead = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/reports', headers })
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })

async function newAdmin(): Promise<SignedIn> {
  const who = await signUp(t.app, { role: 'buyer' })
  await makeAdmin(t.db, who.user.id)
  return who
}

describe('admin rights need this session to have signed in with a second factor', () => {
  it('a password-only session keeps no admin rights when two-step sign-in is turned on elsewhere', async () => {
    const admin = await newAdmin()
    const laptop = await signIn(t.app, { email: admin.user.email })
    // The attacker's session (password only), then the owner turns two-step on from another device.
    const { cookie } = await enableTwoStep(t.app, { cookie: laptop.cookie, password: TEST_PASSWORD })
    const attacker = await adminRead({ cookie: admin.cookie })
    expect(attacker.statusCode).toBe(401)
    expect((await me(admin.cookie)).statusCode).toBe(401)
    // The session that turned it on (password, then a code) keeps its rights.
    expect((await adminRead({ cookie })).statusCode).toBe(200)
  })

  it('refuses a session without the second step, saying to sign in again with it, though the account has it on', async () => {
    const admin = await newAdmin()
    const { totpURI } = await enableTwoStep(t.app, admin)
    // A session that gave no code (as a password sign-in before two-step was on would have been).
    const bearer = await tokenFor(t.app, admin.user)
    const refused = await adminRead({ authorization: `Bearer ${bearer}` })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error.message).toBe(ADMIN_SECOND_STEP_MESSAGE)
    expect(ADMIN_SECOND_STEP_MESSAGE).toMatch(/sign in again with the code/)

    // Password and code: admin rights, recorded on the session.
    const { res, cookie } = await signInWithCode(t.app, admin.user, await currentCode(totpURI, 1))
    expect(res.statusCode, res.body).toBe(200)
    expect((await adminRead({ cookie })).statusCode).toBe(200)
    const recorded = await t.db
      .select({ secondFactor: sessions.secondFactor })
      .from(sessions)
      .where(eq(sessions.userId, admin.user.id))
    expect(recorded.map((s) => s.secondFactor).sort()).toContain('totp')
    // A password change remakes the session; it keeps how it signed in.
    const changed = await postAuth(t.app, '/change-password', cookie, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'changed-pass-9',
    })
    expect(changed.statusCode, changed.body).toBe(200)
    expect((await adminRead({ cookie: mergeCookies(cookie, changed) })).statusCode).toBe(200)
  })

  it('a backup code and a remembered device count; a bearer token follows its session', async () => {
    const admin = await newAdmin()
    const { totpURI, backupCodes } = await enableTwoStep(t.app, admin)
    const byBackup = await signInWithCode(t.app, admin.user, backupCodes[0] as string, { backup: true })
    expect(byBackup.res.statusCode, byBackup.res.body).toBe(200)
    expect((await adminRead({ cookie: byBackup.cookie })).statusCode).toBe(200)

    const remembered = await signInWithCode(t.app, admin.user, await currentCode(totpURI, 1), {
      trustDevice: true,
    })
    expect(remembered.res.statusCode, remembered.res.body).toBe(200)
    // The same browser signs in again with the password alone: the device was remembered after a code.
    const again = await postSignIn(
      t.app,
      { email: admin.user.email, password: TEST_PASSWORD },
      {
        cookie: remembered.cookie,
      },
    )
    expect(again.statusCode).toBe(200)
    expect(again.json()).not.toHaveProperty('twoFactorRedirect')
    const againCookie = mergeCookies(remembered.cookie, again)
    expect((await adminRead({ cookie: againCookie })).statusCode).toBe(200)

    const jwt = await t.app.inject({
      method: 'GET',
      url: `/api/jwt?email=${encodeURIComponent(admin.user.email)}`,
      headers: { cookie: againCookie },
    })
    expect((await adminRead({ authorization: `Bearer ${jwt.json().accessToken}` })).statusCode).toBe(200)
  })
})

describe('an authenticator code is taken once per account', () => {
  // These tests use the codes of the steps either side of now; a 30-second boundary passing between making a
  // code and checking it (a busy machine) would move it out of the window. The clock stands still mid-step.
  beforeEach(() => {
    const mid = Math.floor(Date.now() / 30_000) * 30_000 + 15_000
    vi.useFakeTimers({ toFake: ['Date'], now: mid })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('a code that signed in cannot sign in again inside its window; the next one can', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const { totpURI } = await enableTwoStep(t.app, who)
    const code = await currentCode(totpURI, 1)
    const first = await signInWithCode(t.app, who.user, code)
    expect(first.res.statusCode, first.res.body).toBe(200)

    const replay = await signInWithCode(t.app, who.user, code)
    expect(replay.res.statusCode).toBe(401)
    expect(replay.res.json().error.message).toBe(CODE_ALREADY_USED)
    expect((await me(replay.cookie)).statusCode).toBe(401)

    const next = await signInWithCode(t.app, who.user, await currentCode(totpURI, -1))
    expect(next.res.statusCode, next.res.body).toBe(200)
  })

  it('the code that turned two-step on cannot also sign in', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const { totpURI } = await enableTwoStep(t.app, who)
    const replay = await signInWithCode(t.app, who.user, await currentCode(totpURI))
    expect(replay.res.statusCode).toBe(401)
    expect(replay.res.json().error.message).toBe(CODE_ALREADY_USED)
  })

  it('two sign-ins racing with one code: exactly one gets in', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const { totpURI } = await enableTwoStep(t.app, who)
    const code = await currentCode(totpURI, 1)
    const pending = await Promise.all(
      [0, 1].map(async () => {
        const first = await postSignIn(t.app, { email: who.user.email, password: TEST_PASSWORD })
        expect(first.json().twoFactorRedirect).toBe(true)
        return mergeCookies('', first)
      }),
    )
    const answers = await Promise.all(
      pending.map((cookie) => postAuth(t.app, '/two-factor/verify-totp', cookie, { code })),
    )
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401])
  })

  it('a code used to sign in cannot also turn two-step sign-in off (every check of a code is one place)', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const { totpURI } = await enableTwoStep(t.app, who)
    const code = await currentCode(totpURI, 1)
    const signedIn = await signInWithCode(t.app, who.user, code)
    expect(signedIn.res.statusCode).toBe(200)
    const off = await postAuth(t.app, '/two-factor/disable', signedIn.cookie, {
      password: TEST_PASSWORD,
      code,
    })
    expect(off.statusCode).toBe(401)
    const [row] = await t.db.select().from(twoFactors).where(eq(twoFactors.userId, who.user.id))
    expect(row).toBeDefined()
  })
})
