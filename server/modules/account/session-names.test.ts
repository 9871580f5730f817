import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cookieFrom, postSignIn, signUp, TEST_PASSWORD } from '#server/test/auth-helpers'
import { createTestApp, type TestApp } from '#server/test/test-app'

// Every session read "Chrome on Linux · Unknown place": the address a session signed in from was never recorded.
// It is the address the server resolved (behind the proxies TRUST_PROXY names), never one a client claims.

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

let behindProxy: TestApp
let direct: TestApp

beforeAll(async () => {
  ;[behindProxy, direct] = await Promise.all([createTestApp({ TRUST_PROXY: 'true' }), createTestApp()])
})
afterAll(async () => {
  await Promise.all([behindProxy?.close(), direct?.close()])
})

async function sessionsAfterSignIn(t: TestApp, headers: Record<string, string>) {
  const who = await signUp(t.app, { role: 'buyer' })
  const res = await postSignIn(t.app, { email: who.user.email, password: TEST_PASSWORD }, headers)
  expect(res.statusCode).toBe(200)
  const list = await t.app.inject({ url: '/api/me/sessions', headers: { cookie: cookieFrom(res) } })
  return (list.json() as { items: { browser: string; place: string; ip: string | null; current: boolean }[] })
    .items
}

describe('a session is named by its device and the address it signed in from', () => {
  it('records the client address behind a trusted proxy', async () => {
    const items = await sessionsAfterSignIn(behindProxy, {
      'user-agent': CHROME_LINUX,
      'x-forwarded-for': '203.0.113.42',
    })
    const current = items.find((s) => s.current)
    expect(current).toMatchObject({ browser: 'Chrome on Linux', place: '203.0.113.42', ip: '203.0.113.42' })
  })

  it('takes the connection’s address without a proxy, whatever address header a client sends', async () => {
    const items = await sessionsAfterSignIn(direct, {
      'user-agent': CHROME_LINUX,
      'x-forwarded-for': '198.51.100.9',
      'x-laptop-market-client-ip': '198.51.100.10',
    })
    const current = items.find((s) => s.current)
    expect(current?.ip).toBe('127.0.0.1')
    expect(current?.place).toBe('127.0.0.1 (this computer or a local network)')
  })
})
