// "Confirm it's you": the step-up a session gives (password or a second factor) before changing a sign-in
// factor, payout details or the email address, and the list of such routes read from the API itself: the
// OpenAPI document (our routes) and the auth library's own endpoints. A new route of that kind without the
// step-up fails here.

import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditEvents, stepUps, twoFactors } from '#server/db/schema'
import type { GuardExtension } from '#server/lib/guard'
import { STEP_UP_SECONDS } from '#server/lib/step-up'
import {
  makeAdmin,
  originOf,
  postAuth,
  postStepUp,
  type SignedIn,
  signIn,
  signUp,
  stepUp,
  TEST_PASSWORD,
} from '#server/test/auth-helpers'
import { addPasskey, SoftPasskey } from '#server/test/passkey-authenticator'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { currentCode, enableTwoStep } from '#server/test/two-factor'
import { SIGN_IN_LIMITS } from './sign-in-limit'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t?.close())

/** What changes a sign-in factor, payout details or the email address, by its path or what it says it does. */
const NEEDS_STEP_UP_PATH =
  /payout|bank|two-factor|two-step|passkey|password|totp|backup|secret|factor|credential|email|link-social|unlink|account$/i
const NEEDS_STEP_UP_SUMMARY =
  /payout (details|account)|bank|email address|password|passkey|two-step|authenticator|backup code/i

/**
 * Routes the patterns above name that change none of those, each with why. Anything else they name must carry
 * the step-up.
 */
const OPENAPI_NOT_A_FACTOR: Record<string, string> = {
  'PUT /api/email-settings': 'which emails to get, not the address',
  'POST /api/me/step-up': 'the proof itself',
  'POST /api/me/step-up/passkey-options': "the passkey proof's challenge: changes no factor",
  'DELETE /api/me': 'erasing the account takes the password (and a code) with the call',
  'POST /api/unsubscribe': 'an emailed link turning an email off, not the address',
  'POST /api/account/not-me':
    '"I did not do this": the emailed, signed, single-use link is the proof, and it only takes access away',
  'POST /api/account/reset-passkeys':
    'lists, to the holder of a reset link, the recent passkeys the reset may remove; changes nothing',
}

/** The auth library's endpoints that change no factor and no address, or carry their own proof, with why. */
const AUTH_NOT_A_FACTOR: Record<string, string> = {
  '/sign-up/email': 'makes an account: no session to ride yet',
  '/sign-in/email': 'a sign-in: the password is the proof',
  '/sign-in/social': 'a sign-in',
  '/callback/:id': 'a sign-in',
  '/sign-out': 'ends the session',
  '/request-password-reset': 'sends a link to the address on file; changes nothing',
  '/reset-password': 'the emailed token is the proof, with no session',
  '/reset-password/:token': 'opens the emailed link',
  '/verify-email': 'the emailed token is the proof',
  '/send-verification-email': 'sends a link to the address on file',
  '/verify-password': 'server-side only; checks a password',
  '/two-factor/verify-totp':
    "a sign-in's second step, or the confirmation of a setup that needed the step-up",
  '/two-factor/verify-backup-code': "a sign-in's second step",
  '/two-factor/verify-otp': "a sign-in's second step",
  '/two-factor/send-otp': "a sign-in's second step (email codes are off)",
  '/passkey/generate-authenticate-options': 'a passkey sign-in',
  '/passkey/verify-authentication': 'a passkey sign-in',
  '/passkey/list-user-passkeys': 'reads the names of your passkeys',
  '/passkey/update-passkey': 'renames a passkey: the factor stays what it was',
  '/list-accounts': 'reads which ways of signing in are linked',
  '/account-info': 'reads a linked account',
  '/get-access-token': "reads a linked provider's token",
  '/refresh-token': "refreshes a linked provider's token",
  '/delete-user': 'off in this app (erasing goes through DELETE /api/me, which takes the password)',
  '/delete-user/callback': 'off in this app',
  '/update-user': 'name and picture',
}

type Operation = { 'x-guard'?: GuardExtension; 'x-step-up'?: boolean; summary?: string }

async function openApiOperations() {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, Operation>>
  }
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  )
}

/** The auth library's endpoints, as it lists them itself: each one's path and methods. */
function authEndpoints(): { path: string; methods: string[] }[] {
  const found = new Map<string, Set<string>>()
  for (const endpoint of Object.values(t.app.ctx.auth.api) as {
    path?: string
    options?: { method?: string | string[]; metadata?: { SERVER_ONLY?: boolean } }
  }[]) {
    if (typeof endpoint.path !== 'string') continue
    const methods = [endpoint.options?.method ?? 'GET'].flat().filter((m) => m !== '*')
    const set = found.get(endpoint.path) ?? new Set<string>()
    for (const m of methods) set.add(m)
    found.set(endpoint.path, set)
  }
  return [...found].map(([path, methods]) => ({ path, methods: [...methods] }))
}

/** A fresh session that has given no proof, of a role the route's guard lets in. */
async function freshSessionFor(guard: GuardExtension | undefined): Promise<SignedIn> {
  const roles = guard?.roles
  if (roles && !roles.includes('seller') && !roles.includes('buyer')) {
    const admin = await signUp(t.app, { role: 'buyer' })
    await makeAdmin(t.db, admin.user.id)
    return admin
  }
  return signUp(t.app, { role: roles?.includes('buyer') ? 'buyer' : 'seller' })
}

const STEP_UP_BODY = {
  error: { code: 'STEP_UP_REQUIRED', message: expect.stringMatching(/Confirm it's you/) },
}

describe('the routes that change a factor, payout details or the email address', () => {
  it('are found in the API document, and each carries the step-up', async () => {
    const ops = await openApiOperations()
    const named = ops.filter(
      ({ method, path, op }) =>
        method !== 'HEAD' &&
        (method !== 'GET' || /secret|totp|backup/i.test(path)) &&
        (NEEDS_STEP_UP_PATH.test(path) || NEEDS_STEP_UP_SUMMARY.test(op.summary ?? '')),
    )
    const missing = named
      .filter(({ method, path, op }) => !op['x-step-up'] && !OPENAPI_NOT_A_FACTOR[`${method} ${path}`])
      .map(({ method, path }) => `${method} ${path}`)
    expect(missing).toEqual([])
    // Payout details are among them: the pattern is not reading an empty document.
    expect(named.map(({ method, path }) => `${method} ${path}`)).toContain('POST /api/payouts/account')
  })

  it('refuse a fresh session without a proof (403 STEP_UP_REQUIRED) before anything changes', async () => {
    const ops = (await openApiOperations()).filter(({ op }) => op['x-step-up'])
    expect(ops.length).toBeGreaterThan(0)
    const answers: Record<string, unknown> = {}
    for (const { method, path, op } of ops) {
      const who = await freshSessionFor(op['x-guard'])
      const url = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000')
      const res = await t.app.inject({
        method: method as 'POST',
        url,
        headers: { cookie: who.cookie, origin: originOf(t.app) },
        ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
      })
      answers[`${method} ${path}`] = { status: res.statusCode, body: res.json() }
      expect(answers[`${method} ${path}`]).toEqual({ status: 403, body: STEP_UP_BODY })
    }
  })

  it('of the auth library are each either behind the step-up or written down as something else', async () => {
    const endpoints = authEndpoints()
    expect(endpoints.length).toBeGreaterThan(20)
    const unclassified: string[] = []
    const refusedWrongly: Record<string, unknown> = {}
    for (const { path, methods } of endpoints) {
      if (AUTH_NOT_A_FACTOR[path]) continue
      const changes = methods.some((m) => m !== 'GET') || /register|secret|totp|backup/i.test(path)
      const named = NEEDS_STEP_UP_PATH.test(path)
      if (!changes && !named) continue
      if (path.startsWith('/list-') || path === '/get-session' || path === '/ok' || path === '/error')
        continue
      if (/^\/revoke-|^\/update-session$/.test(path)) continue
      // Behind the step-up: a fresh session that gave no proof (and sends no password) is refused.
      const who = await signUp(t.app, { role: 'buyer' })
      const method = methods.includes('POST') ? 'POST' : (methods[0] ?? 'GET')
      const res = await t.app.inject({
        method: method as 'POST',
        url: `/api/auth${path}`,
        headers: { cookie: who.cookie, origin: originOf(t.app) },
        ...(method === 'GET' ? {} : { payload: {} }),
      })
      if (
        res.statusCode !== 403 ||
        (res.json() as { error?: { code?: string } }).error?.code !== 'STEP_UP_REQUIRED'
      ) {
        if (!named && res.statusCode < 500) unclassified.push(`${method} ${path} (${res.statusCode})`)
        else refusedWrongly[`${method} ${path}`] = { status: res.statusCode, body: res.body.slice(0, 200) }
      }
    }
    expect(refusedWrongly).toEqual({})
    expect(unclassified).toEqual([])
  })

  it('changes nothing when refused: no authenticator secret is made, no passkey challenge given', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const enable = await postAuth(t.app, '/two-factor/enable', who.cookie, {})
    expect(enable.statusCode).toBe(403)
    expect(await t.db.select().from(twoFactors).where(eq(twoFactors.userId, who.user.id))).toEqual([])
    const options = await t.app.inject({
      method: 'GET',
      url: '/api/auth/passkey/generate-register-options',
      headers: { cookie: who.cookie },
    })
    expect(options.statusCode).toBe(403)
    expect(options.json()).toEqual(STEP_UP_BODY)
  })
})

describe("confirming it's you", () => {
  it('with the password holds five minutes for that session only, and is written to the log', async () => {
    const who = await signUp(t.app, { role: 'seller' })
    const other = await signIn(t.app, { email: who.user.email })

    const wrong = await postStepUp(t.app, who.cookie, { password: 'not-my-password' })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json()).toEqual({
      error: {
        code: 'VALIDATION',
        message: 'That password is not right',
        fields: { password: 'That password is not right' },
      },
    })
    expect(await t.db.select().from(stepUps).where(eq(stepUps.userId, who.user.id))).toEqual([])

    const ok = await postStepUp(t.app, who.cookie, { password: TEST_PASSWORD })
    expect(ok.statusCode).toBe(200)
    const until = new Date((ok.json() as { fresh_until: string }).fresh_until).getTime()
    expect(until - Date.now()).toBeGreaterThan((STEP_UP_SECONDS - 30) * 1000)
    expect(until - Date.now()).toBeLessThanOrEqual(STEP_UP_SECONDS * 1000)

    const body = { account_holder: 'Sam Seller', routing_number: '110000000', account_number: '000123456789' }
    const post = (cookie: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payouts/account',
        headers: { cookie, origin: originOf(t.app) },
        payload: body,
      })
    // The other session of the same account proved nothing.
    expect((await post(other.cookie)).statusCode).toBe(403)
    expect((await post(who.cookie)).statusCode).toBe(200)

    // Five minutes later the proof no longer holds.
    await t.db
      .update(stepUps)
      .set({ provedAt: sql`now() - make_interval(secs => ${STEP_UP_SECONDS + 1})` })
      .where(eq(stepUps.userId, who.user.id))
    const late = await post(who.cookie)
    expect(late.statusCode).toBe(403)
    expect(late.json()).toEqual(STEP_UP_BODY)

    const rows = await t.db
      .select({ kind: auditEvents.kind, result: auditEvents.result, detail: auditEvents.detail })
      .from(auditEvents)
      .where(eq(auditEvents.actorId, who.user.id))
    expect(rows.filter((r) => r.kind === 'step_up')).toEqual([
      { kind: 'step_up', result: 'failure', detail: 'password VALIDATION 400' },
      { kind: 'step_up', result: 'success', detail: 'password' },
    ])
  })

  it('with a code from the authenticator app when two-step sign-in is on, not when it is off', async () => {
    const who = await signUp(t.app, { role: 'seller' })
    const off = await postStepUp(t.app, who.cookie, { code: '123456' })
    expect(off.statusCode).toBe(400)
    expect((off.json() as { error: { message: string } }).error.message).toMatch(/confirm with your password/)

    const { totpURI, cookie } = await enableTwoStep(t.app, who)
    const state = await t.app.inject({ method: 'GET', url: '/api/me/step-up', headers: { cookie } })
    expect(state.json()).toEqual({ fresh_until: null, password: true, code: true, passkey: false })
    const wrong = await postStepUp(t.app, cookie, { code: '000000' })
    expect(wrong.statusCode).toBe(400)
    // The code that turned two-step on is used up: the next one (inside the window) is taken.
    const right = await postStepUp(t.app, cookie, { code: await currentCode(totpURI, 1) })
    expect(right.statusCode, right.body).toBe(200)
    expect((right.json() as { fresh_until: string | null }).fresh_until).not.toBeNull()
    const [row] = await t.db.select().from(stepUps).where(eq(stepUps.userId, who.user.id))
    expect(row?.method).toBe('code')
  })

  it('is limited like sign-in: wrong passwords past the limit answer 429', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndAddress; i++) {
      expect((await postStepUp(t.app, who.cookie, { password: `wrong-${i}` })).statusCode).toBe(400)
    }
    const limited = await postStepUp(t.app, who.cookie, { password: TEST_PASSWORD })
    expect(limited.statusCode).toBe(429)
    expect(await t.db.select().from(stepUps).where(eq(stepUps.userId, who.user.id))).toEqual([])
  })

  it('asks for one of the password or a code, and is for signed-in sessions only', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    expect((await postStepUp(t.app, who.cookie, {})).statusCode).toBe(400)
    expect((await postStepUp(t.app, who.cookie, { password: 'x', code: '123456' })).statusCode).toBe(400)
    expect((await postStepUp(t.app, who.cookie, { password: 'x', passkey: { id: 'k' } })).statusCode).toBe(
      400,
    )
    expect((await postStepUp(t.app, '', { password: TEST_PASSWORD })).statusCode).toBe(401)
  })

  it('lets a call that carries the password (two-step setup) go on, and counts as a proof', async () => {
    const who = await signUp(t.app, { role: 'seller' })
    const started = await postAuth(t.app, '/two-factor/enable', who.cookie, { password: who.password })
    expect(started.statusCode).toBe(200)
    const [row] = await t.db.select().from(stepUps).where(eq(stepUps.userId, who.user.id))
    expect(row?.method).toBe('password')
  })

  it("with one of the account's own passkeys, the person checked, for the session that asked", async () => {
    const who = await signUp(t.app, { role: 'seller' })
    await stepUp(t.app, who)
    const key = new SoftPasskey(originOf(t.app))
    expect((await addPasskey(t.app, who.cookie, key)).statusCode).toBe(200)
    const stranger = await signUp(t.app, { role: 'seller' })
    await stepUp(t.app, stranger)
    const strangersKey = new SoftPasskey(originOf(t.app))
    expect((await addPasskey(t.app, stranger.cookie, strangersKey)).statusCode).toBe(200)

    // A session of the same account signed in later has proved nothing yet.
    const fresh = await signIn(t.app, { email: who.user.email })
    const other = await signIn(t.app, { email: who.user.email })
    const state = await t.app.inject({
      method: 'GET',
      url: '/api/me/step-up',
      headers: { cookie: fresh.cookie },
    })
    expect(state.json()).toEqual({ fresh_until: null, password: true, code: false, passkey: true })
    const askOptions = (cookie: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/me/step-up/passkey-options',
        headers: { cookie, origin: originOf(t.app) },
      })
    const refusal = (message: string) => ({
      error: { code: 'VALIDATION', message, fields: { passkey: message } },
    })
    const NOT_CHECKED = 'That passkey could not confirm it is you. Please try again.'
    const GONE = 'That passkey check took too long or was already used. Please try again.'

    // An answer to no challenge of this session.
    const unasked = await postStepUp(t.app, fresh.cookie, { passkey: key.authenticate({ challenge: 'x' }) })
    expect(unasked.json()).toEqual(refusal(GONE))

    // The challenge offers the account's own passkeys only, and asks the device to check the person.
    const asked = await askOptions(fresh.cookie)
    expect(asked.statusCode, asked.body).toBe(200)
    const options = asked.json() as { challenge: string; allowCredentials: { id: string }[] }
    expect(options).toMatchObject({ userVerification: 'required', rpId: t.app.ctx.config.webauthnRpId })
    expect(options.allowCredentials.map((c) => c.id)).toEqual([key.id])

    // Another account's passkey signing this challenge is not a proof, and uses the challenge up.
    const strangers = await postStepUp(t.app, fresh.cookie, { passkey: strangersKey.authenticate(options) })
    expect(strangers.statusCode).toBe(400)
    expect(strangers.json()).toEqual(refusal(NOT_CHECKED))
    expect((await postStepUp(t.app, fresh.cookie, { passkey: key.authenticate(options) })).json()).toEqual(
      refusal(GONE),
    )

    // A device that did not check the person (no fingerprint, face or PIN) proves nothing.
    key.verified = false
    const unverified = await postStepUp(t.app, fresh.cookie, {
      passkey: key.authenticate((await askOptions(fresh.cookie)).json()),
    })
    expect(unverified.json()).toEqual(refusal(NOT_CHECKED))
    key.verified = true

    // A challenge given to one session is not answered from another.
    const elsewhere = (await askOptions(other.cookie)).json()
    expect((await postStepUp(t.app, fresh.cookie, { passkey: key.authenticate(elsewhere) })).json()).toEqual(
      refusal(GONE),
    )
    expect(await t.db.select().from(stepUps).where(eq(stepUps.userId, who.user.id))).toEqual([
      expect.objectContaining({ sessionId: expect.any(String), method: 'password' }),
    ])

    const proved = await postStepUp(t.app, fresh.cookie, {
      passkey: key.authenticate((await askOptions(fresh.cookie)).json()),
    })
    expect(proved.statusCode, proved.body).toBe(200)
    expect((proved.json() as { fresh_until: string | null }).fresh_until).not.toBeNull()

    // It counts like a password: payout details change from this session, not from the other.
    const body = { account_holder: 'Sam Seller', routing_number: '110000000', account_number: '000123456789' }
    const payout = (cookie: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payouts/account',
        headers: { cookie, origin: originOf(t.app) },
        payload: body,
      })
    expect((await payout(other.cookie)).statusCode).toBe(403)
    expect((await payout(fresh.cookie)).statusCode).toBe(200)

    const methods = await t.db
      .select({ method: stepUps.method })
      .from(stepUps)
      .where(eq(stepUps.userId, who.user.id))
    expect(methods.map((m) => m.method).sort()).toEqual(['passkey', 'password'])
    const log = await t.db
      .select({ result: auditEvents.result, detail: auditEvents.detail })
      .from(auditEvents)
      .where(sql`${auditEvents.actorId} = ${who.user.id} and ${auditEvents.kind} = 'step_up'`)
    expect(log.filter((r) => r.detail?.startsWith('passkey'))).toEqual([
      { result: 'failure', detail: 'passkey VALIDATION 400' },
      { result: 'failure', detail: 'passkey VALIDATION 400' },
      { result: 'failure', detail: 'passkey VALIDATION 400' },
      { result: 'failure', detail: 'passkey VALIDATION 400' },
      { result: 'failure', detail: 'passkey VALIDATION 400' },
      { result: 'success', detail: 'passkey' },
    ])
  })

  it('with a passkey is not offered to an account that has none', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/me/step-up/passkey-options',
      headers: { cookie: who.cookie, origin: originOf(t.app) },
    })
    expect(asked.statusCode).toBe(400)
    expect(asked.json().error.message).toBe(
      'Your account has no passkey: confirm with your password instead.',
    )
    const answered = await postStepUp(t.app, who.cookie, {
      passkey: new SoftPasskey(originOf(t.app)).authenticate({ challenge: 'x' }),
    })
    expect(answered.statusCode).toBe(400)
    expect(await t.db.select().from(stepUps).where(eq(stepUps.userId, who.user.id))).toEqual([])
  })
})
