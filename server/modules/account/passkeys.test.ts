// Passkeys (Better Auth's passkey plugin behind our auth route): adding one on a signed-in device, signing in
// with it alone (no code, even with two-step sign-in on), removing it, and what the audit log says.

import { and, eq, gt, sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditEvents, passkeys } from '#server/db/schema'
import { originOf, postSignIn, type SignedIn, signUp, TEST_PASSWORD } from '#server/test/auth-helpers'
import { SoftPasskey } from '#server/test/passkey-authenticator'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { currentCode } from '#server/test/two-factor'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t?.close())

/** Cookies a browser holds after a response: the old ones, replaced or removed by its Set-Cookie. */
function merge(cookie: string, res: LightMyRequestResponse): string {
  const jar = new Map(
    cookie
      .split('; ')
      .filter(Boolean)
      .map((c) => [c.slice(0, c.indexOf('=')), c] as const),
  )
  const raw = res.headers['set-cookie']
  for (const line of raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]) {
    const pair = String(line).split(';')[0] ?? ''
    const name = pair.slice(0, pair.indexOf('='))
    if (/max-age=0/i.test(String(line)) || pair.endsWith('=')) jar.delete(name)
    else jar.set(name, pair)
  }
  return [...jar.values()].join('; ')
}

function get(path: string, cookie: string) {
  return t.app.inject({ method: 'GET', url: `/api/auth${path}`, headers: { cookie } })
}

function post(path: string, cookie: string, payload: unknown, origin = originOf(t.app)) {
  return t.app.inject({
    method: 'POST',
    url: `/api/auth${path}`,
    headers: { cookie, origin },
    payload: payload as object,
  })
}

function newPasskey(verified = true) {
  return new SoftPasskey(new URL(originOf(t.app)).origin, verified)
}

/** Adds a passkey on a signed-in device; the raw answer of the verify step. */
async function addPasskey(who: SignedIn, key: SoftPasskey, name = 'My laptop') {
  const options = await get('/passkey/generate-register-options', who.cookie)
  expect(options.statusCode, options.body).toBe(200)
  const cookie = merge(who.cookie, options)
  return post('/passkey/verify-registration', cookie, { response: key.register(options.json()), name })
}

/** Signs in with a passkey from a browser that holds no session; the raw answer and its cookies. */
async function signInWithPasskey(key: SoftPasskey, origin = originOf(t.app)) {
  const options = await get('/passkey/generate-authenticate-options', '')
  expect(options.statusCode, options.body).toBe(200)
  const cookie = merge('', options)
  const res = await post(
    '/passkey/verify-authentication',
    cookie,
    { response: key.authenticate(options.json()) },
    origin,
  )
  return { res, cookie: merge(cookie, res) }
}

async function lastAuditId() {
  const [row] = await t.db
    .select({ id: sql<number>`coalesce(max(${auditEvents.id}), 0)::int` })
    .from(auditEvents)
  return row?.id ?? 0
}

async function rowsSince(id: number, userId: string) {
  return t.db
    .select({ kind: auditEvents.kind, result: auditEvents.result, target: auditEvents.target })
    .from(auditEvents)
    .where(and(gt(auditEvents.id, id), eq(auditEvents.actorId, userId)))
    .orderBy(auditEvents.id)
}

describe('adding a passkey', () => {
  it('is done on a signed-in device, keeps only the public key, and is written to the log', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const before = await lastAuditId()
    const key = newPasskey()
    const added = await addPasskey(who, key)
    expect(added.statusCode, added.body).toBe(200)
    const { id } = added.json() as { id: string }

    const [row] = await t.db.select().from(passkeys).where(eq(passkeys.id, id))
    expect(row).toMatchObject({ userId: who.user.id, name: 'My laptop', credentialID: key.id })
    expect(await rowsSince(before, who.user.id)).toEqual([
      { kind: 'passkey.add', result: 'success', target: `passkey:${id}` },
    ])

    const list = await get('/passkey/list-user-passkeys', who.cookie)
    expect((list.json() as { id: string; name: string }[]).map((p) => [p.id, p.name])).toEqual([
      [id, 'My laptop'],
    ])
  })

  it('is refused when signed out, and when the device did not check who is holding it', async () => {
    const signedOut = await get('/passkey/generate-register-options', '')
    expect(signedOut.statusCode).toBe(401)

    const who = await signUp(t.app, { role: 'buyer' })
    const before = await lastAuditId()
    const unverified = await addPasskey(who, newPasskey(false))
    expect(unverified.statusCode).toBe(401)
    expect(unverified.json().error.message).toMatch(/fingerprint, face or PIN/)
    expect(await t.db.select().from(passkeys).where(eq(passkeys.userId, who.user.id))).toEqual([])
    expect(await rowsSince(before, who.user.id)).toEqual([
      { kind: 'passkey.add', result: 'failure', target: `user:${who.user.id}` },
    ])
  })
})

describe('signing in with a passkey', () => {
  let who: SignedIn
  let key: SoftPasskey
  beforeAll(async () => {
    who = await signUp(t.app, { role: 'seller' })
    key = newPasskey()
    expect((await addPasskey(who, key)).statusCode).toBe(200)
  })

  it('gives a session with no email or password typed, and is written to the log as a passkey sign-in', async () => {
    const before = await lastAuditId()
    const { res, cookie } = await signInWithPasskey(key)
    expect(res.statusCode, res.body).toBe(200)
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })
    expect(me.statusCode).toBe(200)
    expect(me.json()).toMatchObject({ id: who.user.id, email: who.user.email })
    expect(await rowsSince(before, who.user.id)).toEqual([
      { kind: 'sign_in.passkey', result: 'success', target: `user:${who.user.id}` },
    ])
  })

  it('asks for no code when two-step sign-in is on: the passkey is the second step', async () => {
    const person = await signUp(t.app, { role: 'buyer' })
    const started = await post('/two-factor/enable', person.cookie, { password: person.password })
    const { totpURI } = started.json() as { totpURI: string }
    const on = await post('/two-factor/verify-totp', person.cookie, { code: await currentCode(totpURI) })
    expect(on.statusCode).toBe(200)
    const cookie = merge(person.cookie, on)
    const personKey = newPasskey()
    const options = await get('/passkey/generate-register-options', cookie)
    const added = await post('/passkey/verify-registration', merge(cookie, options), {
      response: personKey.register(options.json()),
    })
    expect(added.statusCode, added.body).toBe(200)

    // The password alone asks for the code ...
    const withPassword = await postSignIn(t.app, { email: person.user.email, password: TEST_PASSWORD })
    expect(withPassword.json()).toMatchObject({ twoFactorRedirect: true })
    // ... the passkey signs in on its own.
    const { res, cookie: session } = await signInWithPasskey(personKey)
    expect(res.statusCode).toBe(200)
    expect(res.json()).not.toHaveProperty('twoFactorRedirect')
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: session } })
    expect(me.json()).toMatchObject({ id: person.user.id, two_factor: true })
  })

  it('is refused without the device checking the person, from another site, and for an unknown passkey', async () => {
    const before = await lastAuditId()
    key.verified = false
    const noCheck = await signInWithPasskey(key)
    key.verified = true
    expect(noCheck.res.statusCode).toBe(401)
    expect(noCheck.cookie).not.toMatch(/session_token/)

    // Another site's page is refused by the origin check; a page that relays our sign-in is refused by the
    // passkey's own signature over the page's origin.
    const crossSite = await signInWithPasskey(key, 'https://laptop-market.evil.example')
    expect(crossSite.res.statusCode).toBe(403)
    expect(crossSite.cookie).not.toMatch(/session_token/)
    key.origin = 'https://laptop-market.evil.example'
    const relayed = await signInWithPasskey(key)
    key.origin = new URL(originOf(t.app)).origin
    expect(relayed.res.statusCode).toBe(400)
    expect(relayed.cookie).not.toMatch(/session_token/)

    const stranger = await signInWithPasskey(newPasskey())
    expect(stranger.res.statusCode).toBe(401)

    const rows = await rowsSince(before, who.user.id)
    expect(rows.map((r) => `${r.kind}:${r.result}`)).toEqual([
      'sign_in.passkey:failure',
      'sign_in.passkey:failure',
    ])
  })
})

describe('removing a passkey', () => {
  it("removes only the person's own, is written to the log, and the passkey no longer signs in", async () => {
    const owner = await signUp(t.app, { role: 'buyer' })
    const other = await signUp(t.app, { role: 'buyer' })
    const key = newPasskey()
    const { id } = (await addPasskey(owner, key)).json() as { id: string }

    const notYours = await post('/passkey/delete-passkey', other.cookie, { id })
    expect(notYours.statusCode).toBeGreaterThanOrEqual(400)
    expect(await t.db.select().from(passkeys).where(eq(passkeys.id, id))).toHaveLength(1)

    const before = await lastAuditId()
    const removed = await post('/passkey/delete-passkey', owner.cookie, { id })
    expect(removed.statusCode, removed.body).toBe(200)
    expect(await t.db.select().from(passkeys).where(eq(passkeys.id, id))).toEqual([])
    expect(await rowsSince(before, owner.user.id)).toEqual([
      { kind: 'passkey.remove', result: 'success', target: `passkey:${id}` },
    ])
    const { res } = await signInWithPasskey(key)
    expect(res.statusCode).toBe(401)
  })
})
