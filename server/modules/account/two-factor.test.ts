// Two-step sign-in (Better Auth's two-factor plugin behind our auth route), the admin rule, and sessions.

import { createHmac } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditEvents, twoFactors, users } from '#server/db/schema'
import { resolveAuthSecret } from '#server/lib/auth'
import { ADMIN_TWO_FACTOR_MESSAGE } from '#server/lib/guard'
import {
  auditKindsSince,
  cookieFrom,
  lastAuditId,
  makeAdmin,
  mergeCookies,
  originOf,
  postAuth,
  postSignIn,
  type SignedIn,
  signUp,
  TEST_PASSWORD,
} from '#server/test/auth-helpers'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { currentCode, enableTwoStep, forgetUsedCodes, signInWithCode } from '#server/test/two-factor'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp({ REQUIRE_ADMIN_TWO_FACTOR: 'true' })
})
afterAll(() => t?.close())

const post = (path: string, cookie: string, payload?: unknown) => postAuth(t.app, path, cookie, payload)

async function me(cookie: string) {
  return t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })
}

describe('turning two-step sign-in on', () => {
  it('needs the password, gives a QR code URI with the secret and ten backup codes, and is on once a code is confirmed', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const before = await lastAuditId(t.db)
    const wrong = await post('/two-factor/enable', who.cookie, { password: 'not-my-password' })
    expect(wrong.statusCode).toBe(400)

    const started = await post('/two-factor/enable', who.cookie, { password: who.password })
    const { totpURI, backupCodes } = started.json() as { totpURI: string; backupCodes: string[] }
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Laptop%20Market:.+\?.*secret=[A-Z2-7]+/)
    expect(backupCodes).toHaveLength(10)
    expect(new Set(backupCodes).size).toBe(10)
    // Not on until the person proves the app works: signing in still asks for the password alone.
    const [row] = await t.db.select().from(users).where(eq(users.id, who.user.id))
    expect(row?.twoFactorEnabled).toBe(false)

    const badCode = await post('/two-factor/verify-totp', who.cookie, { code: '000000' })
    expect(badCode.statusCode).toBe(401)
    const ok = await post('/two-factor/verify-totp', who.cookie, { code: await currentCode(totpURI) })
    expect(ok.statusCode).toBe(200)
    const [after] = await t.db.select().from(users).where(eq(users.id, who.user.id))
    expect(after?.twoFactorEnabled).toBe(true)
    expect(await auditKindsSince(t.db, before, who.user.id)).toEqual([
      'two_step.setup:failure',
      'two_step.setup:success',
      'two_step.enable:failure',
      'two_step.enable:success',
    ])
    // Neither the secret nor a backup code is stored as it is, nor in the audit log.
    const stored = JSON.stringify(await t.db.execute(sql`select * from two_factors`))
    expect(stored).not.toContain(new URL(totpURI).searchParams.get('secret'))
    for (const code of backupCodes) expect(stored).not.toContain(code)
    const log = JSON.stringify(await t.db.select().from(auditEvents))
    for (const code of backupCodes) expect(log).not.toContain(code)
  })
})

describe('signing in with two-step sign-in on', () => {
  let who: SignedIn
  let enrolment: Awaited<ReturnType<typeof enableTwoStep>>
  beforeAll(async () => {
    who = await signUp(t.app, { role: 'buyer' })
    enrolment = await enableTwoStep(t.app, who)
  })

  it('asks for a code after the password, and only a right code gives a session', async () => {
    await forgetUsedCodes(t.app, who.user.id)
    const before = await lastAuditId(t.db)
    const first = await postSignIn(t.app, { email: who.user.email, password: TEST_PASSWORD })
    expect(first.statusCode).toBe(200)
    expect(first.json()).toMatchObject({ twoFactorRedirect: true })
    const pending = cookieFrom(first)
    expect((await me(pending)).statusCode).toBe(401)

    const wrong = await post('/two-factor/verify-totp', pending, { code: '123456' })
    expect(wrong.statusCode).toBe(401)
    const right = await post('/two-factor/verify-totp', pending, {
      code: await currentCode(enrolment.totpURI),
    })
    expect(right.statusCode, right.body).toBe(200)
    const cookie = mergeCookies(pending, right)
    expect((await me(cookie)).statusCode).toBe(200)
    expect(await auditKindsSince(t.db, before, who.user.id)).toEqual([
      'sign_in:success',
      'sign_in.two_step:failure',
      'sign_in.two_step:success',
      'sign_in.new_device:success',
    ])
  })

  it('remembers a device for 30 days when asked', async () => {
    await forgetUsedCodes(t.app, who.user.id)
    const { res: right, cookie: device } = await signInWithCode(
      t.app,
      who.user,
      await currentCode(enrolment.totpURI),
      { trustDevice: true },
    )
    expect(right.statusCode).toBe(200)
    const trust = String(right.headers['set-cookie']).match(
      /better-auth\.trust_device=[^;]+;[^,]*Max-Age=(\d+)/i,
    )
    expect(Number(trust?.[1])).toBe(30 * 24 * 60 * 60)
    const again = await postSignIn(
      t.app,
      { email: who.user.email, password: TEST_PASSWORD },
      { cookie: device },
    )
    expect(again.statusCode).toBe(200)
    expect(again.json()).not.toHaveProperty('twoFactorRedirect')
    expect((await me(mergeCookies(device, again))).statusCode).toBe(200)
  })

  it('takes each backup code once', async () => {
    const code = enrolment.backupCodes[0] as string
    const { res: used } = await signInWithCode(t.app, who.user, code, { backup: true })
    expect(used.statusCode, used.body).toBe(200)
    const { res: refused } = await signInWithCode(t.app, who.user, code, { backup: true })
    expect(refused.statusCode).toBe(401)
  })

  it('keeps backup codes one way: 24 random characters shown once, stored as hashes that sign no one in', async () => {
    const person = await signUp(t.app, { role: 'buyer' })
    const { backupCodes, cookie } = await enableTwoStep(t.app, person)
    // Capitals and digits only, without the look-alikes 0/O and 1/I (and no lower-case l to mistake for either).
    for (const code of backupCodes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{6}(-[A-HJ-NP-Z2-9]{6}){3}$/)
    const storedList = async () => {
      const [row] = await t.db.select().from(twoFactors).where(eq(twoFactors.userId, person.user.id))
      return JSON.parse(row?.backupCodes ?? '[]') as string[]
    }
    const stored = await storedList()
    expect(stored).toHaveLength(10)
    for (const hash of stored) expect(hash).toMatch(/^h2:[\w-]{43}$/)
    for (const code of backupCodes) expect(JSON.stringify(stored)).not.toContain(code)

    // A copy of the table is no use: a stored hash typed as a code is refused.
    const { res: withHash } = await signInWithCode(t.app, person.user, stored[0] as string, { backup: true })
    expect(withHash.statusCode).toBe(401)

    // A code signs in once, and its hash leaves the list.
    const { res: used } = await signInWithCode(t.app, person.user, backupCodes[3] as string, { backup: true })
    expect(used.statusCode, used.body).toBe(200)
    expect(await storedList()).toHaveLength(9)

    // New codes replace the old ones, and are shown only in that answer.
    const fresh = await post('/two-factor/generate-backup-codes', cookie, {
      password: person.password,
    })
    expect(fresh.statusCode, fresh.body).toBe(200)
    const newCodes = (fresh.json() as { backupCodes: string[] }).backupCodes
    expect(newCodes).toHaveLength(10)
    const { res: old } = await signInWithCode(t.app, person.user, backupCodes[5] as string, { backup: true })
    expect(old.statusCode).toBe(401)
    const viewed = await t.app.inject({
      method: 'GET',
      url: '/api/auth/two-factor/view-backup-codes',
      headers: { cookie },
    })
    expect(viewed.body).not.toContain(newCodes[0] as string)
  })

  it('takes a backup code typed in lower case, with spaces or without its dashes', async () => {
    const person = await signUp(t.app, { role: 'buyer' })
    const { backupCodes } = await enableTwoStep(t.app, person)
    const [first, second] = backupCodes as [string, string]
    const lower = await signInWithCode(t.app, person.user, first.toLowerCase(), { backup: true })
    expect(lower.res.statusCode, lower.res.body).toBe(200)
    const spaced = await signInWithCode(t.app, person.user, ` ${second.replace(/-/g, ' ')} `, {
      backup: true,
    })
    expect(spaced.res.statusCode, spaced.res.body).toBe(200)
    const again = await signInWithCode(t.app, person.user, first.replace(/-/g, ''), { backup: true })
    expect(again.res.statusCode).toBe(401)
  })

  it('still takes a code made before codes were read case-blind, exactly as it was shown', async () => {
    const person = await signUp(t.app, { role: 'buyer' })
    await enableTwoStep(t.app, person)
    const older = 'abcde-FGHJK-mnpqr-STUVW'
    const asShown = `h1:${createHmac('sha256', resolveAuthSecret(t.app.ctx.config)).update(`backup-code:${older}`).digest('base64url')}`
    await t.db
      .update(twoFactors)
      .set({ backupCodes: JSON.stringify([asShown]) })
      .where(eq(twoFactors.userId, person.user.id))
    const { res } = await signInWithCode(t.app, person.user, older, { backup: true })
    expect(res.statusCode, res.body).toBe(200)
  })

  it('turns off only with the password and a current code', async () => {
    const cookie = enrolment.cookie
    const noCode = await post('/two-factor/disable', cookie, { password: TEST_PASSWORD })
    expect(noCode.statusCode).toBe(400)
    expect(noCode.json().error.message).toMatch(/code/)
    const wrongCode = await post('/two-factor/disable', cookie, { password: TEST_PASSWORD, code: '000000' })
    expect(wrongCode.statusCode).toBe(401)
    // A backup code is taken here too, so the refusal names both.
    expect(wrongCode.json().error.message).toBe(
      'That code is not right. Enter the current code from your authenticator app, or a backup code.',
    )
    await forgetUsedCodes(t.app, who.user.id)
    const wrongPassword = await post('/two-factor/disable', cookie, {
      password: 'not-my-password',
      code: await currentCode(enrolment.totpURI),
    })
    expect(wrongPassword.statusCode).toBe(400)
    let [row] = await t.db.select().from(users).where(eq(users.id, who.user.id))
    expect(row?.twoFactorEnabled).toBe(true)

    await forgetUsedCodes(t.app, who.user.id)
    const before = await lastAuditId(t.db)
    const off = await post('/two-factor/disable', cookie, {
      password: TEST_PASSWORD,
      code: await currentCode(enrolment.totpURI),
    })
    expect(off.statusCode, off.body).toBe(200)
    ;[row] = await t.db.select().from(users).where(eq(users.id, who.user.id))
    expect(row?.twoFactorEnabled).toBe(false)
    expect(await auditKindsSince(t.db, before, who.user.id)).toEqual(['two_step.disable:success'])
    const plain = await postSignIn(t.app, { email: who.user.email, password: TEST_PASSWORD })
    expect(plain.json()).not.toHaveProperty('twoFactorRedirect')
  })
})

describe('admins need two-step sign-in where REQUIRE_ADMIN_TWO_FACTOR is on', () => {
  it('refuses admin actions with a message on how to turn it on, and allows them once it is on', async () => {
    const admin = await signUp(t.app, { role: 'buyer' })
    await makeAdmin(t.db, admin.user.id)
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/reports',
      headers: { cookie: admin.cookie },
    })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error.message).toBe(ADMIN_TWO_FACTOR_MESSAGE)
    expect(ADMIN_TWO_FACTOR_MESSAGE).toMatch(/Turn it on under Dashboard → Security/)
    const target = await signUp(t.app, { role: 'buyer' })
    const promote = await t.app.inject({
      method: 'PUT',
      url: `/api/buyers/admin/${target.user.id}`,
      headers: { cookie: admin.cookie, origin: originOf(t.app) },
    })
    expect(promote.statusCode).toBe(403)
    // Their own account pages still work, so they can turn it on.
    expect((await me(admin.cookie)).statusCode).toBe(200)

    const { cookie } = await enableTwoStep(t.app, admin)
    const allowed = await t.app.inject({ method: 'GET', url: '/api/reports', headers: { cookie } })
    expect(allowed.statusCode).toBe(200)
  })

  it('is off by default outside production, on by default in production', async () => {
    const { loadConfig } = await import('#server/config')
    expect(loadConfig({ NODE_ENV: 'test' }).requireAdminTwoFactor).toBe(false)
    expect(loadConfig({ NODE_ENV: 'development' }).requireAdminTwoFactor).toBe(false)
    const secret = 'x'.repeat(40)
    expect(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: secret }).requireAdminTwoFactor).toBe(true)
    expect(
      loadConfig({ NODE_ENV: 'production', AUTH_SECRET: secret, REQUIRE_ADMIN_TWO_FACTOR: 'false' })
        .requireAdminTwoFactor,
    ).toBe(false)
    expect(() => loadConfig({ REQUIRE_ADMIN_TWO_FACTOR: 'yes' })).toThrow(/REQUIRE_ADMIN_TWO_FACTOR/)
  })
})

describe('sessions', () => {
  it('lists where you are signed in and signs out one or all others', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const phone = await postSignIn(
      t.app,
      { email: who.user.email, password: TEST_PASSWORD },
      {
        'user-agent':
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      },
    )
    const phoneCookie = cookieFrom(phone)
    const laptop = await postSignIn(
      t.app,
      { email: who.user.email, password: TEST_PASSWORD },
      {
        'user-agent':
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36',
      },
    )
    const laptopCookie = cookieFrom(laptop)

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/me/sessions',
      headers: { cookie: laptopCookie },
    })
    expect(list.statusCode).toBe(200)
    const items = (
      list.json() as { items: { id: string; browser: string; current: boolean; place: string }[] }
    ).items
    expect(items).toHaveLength(3)
    expect(items.filter((s) => s.current)).toMatchObject([{ browser: 'Chrome on Windows' }])
    expect(items.map((s) => s.browser)).toContain('Safari on iOS')
    expect(JSON.stringify(list.json())).not.toMatch(/token/i)

    // Someone else's session id is not yours to end.
    const other = await signUp(t.app, { role: 'buyer' })
    const phoneId = items.find((s) => s.browser === 'Safari on iOS')?.id as string
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/me/sessions/${phoneId}`,
      headers: { cookie: other.cookie, origin: originOf(t.app) },
    })
    expect(foreign.statusCode).toBe(404)
    expect((await me(phoneCookie)).statusCode).toBe(200)

    const one = await t.app.inject({
      method: 'DELETE',
      url: `/api/me/sessions/${phoneId}`,
      headers: { cookie: laptopCookie, origin: originOf(t.app) },
    })
    expect(one.json()).toEqual({ acknowledged: true, endedCount: 1 })
    expect((await me(phoneCookie)).statusCode).toBe(401)

    const others = await t.app.inject({
      method: 'DELETE',
      url: '/api/me/sessions',
      headers: { cookie: laptopCookie, origin: originOf(t.app) },
    })
    expect(others.json()).toEqual({ acknowledged: true, endedCount: 1 })
    expect((await me(who.cookie)).statusCode).toBe(401)
    expect((await me(laptopCookie)).statusCode).toBe(200)
    const [row] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.actorId, who.user.id),
          sql`${auditEvents.kind} in ('session.end', 'session.end_others')`,
        ),
      )
    expect(row?.n).toBe(2)
  })
})
