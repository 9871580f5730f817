import type { LightMyRequestResponse as Response } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  mergeCookies,
  originOf,
  postAuth,
  postSignIn,
  postSignUp,
  stepUp,
  TEST_PASSWORD,
  uniqueEmail,
} from '#server/test/auth-helpers'
import { addPasskey, SoftPasskey } from '#server/test/passkey-authenticator'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { currentCode, enableTwoStep } from '#server/test/two-factor'
import { withoutSessionTokens } from './auth.routes'

// The session cookie is HttpOnly so that a page script cannot read it; the auth library still answered the
// same token in JSON (the sign-in answer, list-sessions, get-session…), which undid that. Every JSON answer a
// browser gets on the way through sign-up, sign-in, two-step sign-in, a passkey and a password change is
// scanned for the value of every session token the account ever had.

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t?.close())

/** The session token a Set-Cookie carries (the value before the signature). */
function sessionTokensIn(res: Response): string[] {
  const raw = res.headers['set-cookie']
  const lines = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]
  return lines
    .map((line) => /better-auth\.session_token=([^;]+)/.exec(String(line))?.[1])
    .filter((v): v is string => !!v)
    .map((v) => decodeURIComponent(v).split('.')[0] as string)
    .filter(Boolean)
}

describe('no session token in any JSON a browser gets', () => {
  it('sign-up, sign-in, two-step, passkey, get-session, list-sessions, password change and our own routes', async () => {
    const answers: { what: string; body: string }[] = []
    const tokens = new Set<string>()
    const seen = (what: string, res: Response) => {
      answers.push({ what, body: res.body })
      for (const token of sessionTokensIn(res)) tokens.add(token)
      return res
    }
    const email = uniqueEmail('tokens')
    const get = (path: string, cookie: string) =>
      t.app.inject({ method: 'GET', url: path, headers: { cookie, origin: originOf(t.app) } })

    const up = seen(
      'sign-up',
      await postSignUp(t.app, { name: 'Tia Tokens', email, password: TEST_PASSWORD, role: 'seller' }),
    )
    expect(up.statusCode).toBe(200)
    let cookie = mergeCookies('', up)
    const inAgain = seen('sign-in', await postSignIn(t.app, { email, password: TEST_PASSWORD }))
    expect(inAgain.statusCode).toBe(200)
    cookie = mergeCookies(cookie, inAgain)

    for (const path of [
      '/api/auth/get-session',
      '/api/auth/list-sessions',
      '/api/me/sessions',
      '/api/session',
      '/api/me',
    ]) {
      const res = seen(path, await get(path, cookie))
      expect(res.statusCode, path).toBe(200)
    }
    // The Security page names each session by its id: it still has one.
    const listed = (await get('/api/me/sessions', cookie)).json() as { items: { id: string }[] }
    expect(listed.items.length).toBeGreaterThanOrEqual(2)
    const library = (await get('/api/auth/list-sessions', cookie)).json() as { id: string; token?: string }[]
    expect(library[0]?.id).toBeTruthy()
    expect(library[0]?.token).toBeUndefined()

    seen('update-user', await postAuth(t.app, '/update-user', cookie, { name: 'Tia T.' }))
    const changed = seen(
      'change-password',
      await postAuth(t.app, '/change-password', cookie, {
        currentPassword: TEST_PASSWORD,
        newPassword: 'new-pass-77',
      }),
    )
    expect(changed.statusCode).toBe(200)
    cookie = mergeCookies(cookie, changed)

    const twoStep = await enableTwoStep(t.app, { cookie, password: 'new-pass-77' })
    cookie = twoStep.cookie
    const first = seen('sign-in, code asked', await postSignIn(t.app, { email, password: 'new-pass-77' }))
    const pending = mergeCookies('', first)
    const code = await currentCode(twoStep.totpURI, 1)
    const second = seen('second step', await postAuth(t.app, '/two-factor/verify-totp', pending, { code }))
    expect(second.statusCode, second.body).toBe(200)

    await stepUp(t.app, { cookie, password: 'new-pass-77' })
    const key = new SoftPasskey(new URL(originOf(t.app)).origin)
    expect((await addPasskey(t.app, cookie, key)).statusCode).toBe(200)
    const options = await t.app.inject({
      method: 'GET',
      url: '/api/auth/passkey/generate-authenticate-options',
    })
    const passkeyCookie = mergeCookies('', options)
    const byPasskey = seen(
      'passkey sign-in',
      await postAuth(t.app, '/passkey/verify-authentication', passkeyCookie, {
        response: key.authenticate(options.json()),
      }),
    )
    expect(byPasskey.statusCode, byPasskey.body).toBe(200)
    cookie = mergeCookies(cookie, byPasskey)
    seen('get-session after', await get('/api/auth/get-session', cookie))
    seen('list-sessions after', await get('/api/auth/list-sessions', cookie))

    expect(tokens.size).toBeGreaterThanOrEqual(5)
    for (const { what, body } of answers) {
      for (const token of tokens) expect(body.includes(token), `${what} answers a session token`).toBe(false)
      expect(body, what).not.toMatch(/"token"\s*:/)
    }
  })

  it('keeps the rest of an answer as it was', () => {
    expect(
      JSON.parse(withoutSessionTokens('{"token":"x","user":{"id":"u"},"list":[{"token":"y","id":1}]}')),
    ).toEqual({
      user: { id: 'u' },
      list: [{ id: 1 }],
    })
    expect(withoutSessionTokens('not json')).toBe('not json')
  })
})
