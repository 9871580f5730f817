// Passkeys (Better Auth's passkey plugin behind our auth route): adding one on a signed-in device, signing in
// with it alone (no code, even with two-step sign-in on), removing it, and what the audit log says.

import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { passkeys } from '#server/db/schema'
import {
  auditRowsSince,
  lastAuditId,
  mergeCookies,
  originOf,
  postAuth,
  postSignIn,
  type SignedIn,
  signUp,
  stepUp,
  TEST_PASSWORD,
} from '#server/test/auth-helpers'
import { addPasskey, SoftPasskey } from '#server/test/passkey-authenticator'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { enableTwoStep } from '#server/test/two-factor'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t?.close())

function get(path: string, cookie: string) {
  return t.app.inject({ method: 'GET', url: `/api/auth${path}`, headers: { cookie } })
}

function post(path: string, cookie: string, payload: unknown, origin = originOf(t.app)) {
  return postAuth(t.app, path, cookie, payload, { origin })
}

function newPasskey(verified = true) {
  return new SoftPasskey(new URL(originOf(t.app)).origin, verified)
}

/** Signs in with a passkey from a browser that holds no session; the raw answer and its cookies. */
async function signInWithPasskey(key: SoftPasskey, origin = originOf(t.app)) {
  const options = await get('/passkey/generate-authenticate-options', '')
  expect(options.statusCode, options.body).toBe(200)
  const cookie = mergeCookies('', options)
  const res = await post(
    '/passkey/verify-authentication',
    cookie,
    { response: key.authenticate(options.json()) },
    origin,
  )
  return { res, cookie: mergeCookies(cookie, res) }
}

describe('adding a passkey', () => {
  it('is done on a signed-in device, keeps only the public key, and is written to the log', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    await stepUp(t.app, who)
    const before = await lastAuditId(t.db)
    const key = newPasskey()
    const added = await addPasskey(t.app, who.cookie, key, 'My laptop')
    expect(added.statusCode, added.body).toBe(200)
    const { id } = added.json() as { id: string }

    const [row] = await t.db.select().from(passkeys).where(eq(passkeys.id, id))
    expect(row).toMatchObject({ userId: who.user.id, name: 'My laptop', credentialID: key.id })
    expect(await auditRowsSince(t.db, before, who.user.id)).toEqual([
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
    await stepUp(t.app, who)
    const before = await lastAuditId(t.db)
    const unverified = await addPasskey(t.app, who.cookie, newPasskey(false))
    expect(unverified.statusCode).toBe(401)
    expect(unverified.json().error.message).toMatch(/fingerprint, face or PIN/)
    expect(await t.db.select().from(passkeys).where(eq(passkeys.userId, who.user.id))).toEqual([])
    expect(await auditRowsSince(t.db, before, who.user.id)).toEqual([
      { kind: 'passkey.add', result: 'failure', target: `user:${who.user.id}` },
    ])
  })
})

describe('signing in with a passkey', () => {
  let who: SignedIn
  let key: SoftPasskey
  beforeAll(async () => {
    who = await signUp(t.app, { role: 'seller' })
    await stepUp(t.app, who)
    key = newPasskey()
    expect((await addPasskey(t.app, who.cookie, key)).statusCode).toBe(200)
  })

  it('gives a session with no email or password typed, and is written to the log as a passkey sign-in', async () => {
    const before = await lastAuditId(t.db)
    const { res, cookie } = await signInWithPasskey(key)
    expect(res.statusCode, res.body).toBe(200)
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })
    expect(me.statusCode).toBe(200)
    expect(me.json()).toMatchObject({ id: who.user.id, email: who.user.email })
    expect(await auditRowsSince(t.db, before, who.user.id)).toEqual([
      { kind: 'sign_in.passkey', result: 'success', target: `user:${who.user.id}` },
      { kind: 'sign_in.new_device', result: 'success', target: `user:${who.user.id}` },
    ])
  })

  it('asks for no code when two-step sign-in is on: the passkey is the second step', async () => {
    const person = await signUp(t.app, { role: 'buyer' })
    const { cookie } = await enableTwoStep(t.app, person)
    await stepUp(t.app, { cookie, password: person.password })
    const personKey = newPasskey()
    const added = await addPasskey(t.app, cookie, personKey)
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
    const before = await lastAuditId(t.db)
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

    const rows = await auditRowsSince(t.db, before, who.user.id)
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
    await stepUp(t.app, owner)
    await stepUp(t.app, other)
    const key = newPasskey()
    const { id } = (await addPasskey(t.app, owner.cookie, key)).json() as { id: string }

    const notYours = await post('/passkey/delete-passkey', other.cookie, { id })
    expect(notYours.statusCode).toBeGreaterThanOrEqual(400)
    expect(await t.db.select().from(passkeys).where(eq(passkeys.id, id))).toHaveLength(1)

    const before = await lastAuditId(t.db)
    const removed = await post('/passkey/delete-passkey', owner.cookie, { id })
    expect(removed.statusCode, removed.body).toBe(200)
    expect(await t.db.select().from(passkeys).where(eq(passkeys.id, id))).toEqual([])
    expect(await auditRowsSince(t.db, before, owner.user.id)).toEqual([
      { kind: 'passkey.remove', result: 'success', target: `passkey:${id}` },
    ])
    const { res } = await signInWithPasskey(key)
    expect(res.statusCode).toBe(401)
  })
})
