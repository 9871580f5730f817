import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { originOf, postSignIn, signUp, uniqueEmail } from '#server/test/auth-helpers'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { REDACTED, redactSecrets } from './log-redaction'

// An emailed reset link opened in a browser used to write `GET /reset-password?token=…` to the log, and that
// token reset the password. Real requests go through an app that logs at `info`; nothing secret may show up.

let t: TestApp
const lines: string[] = []

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  t = await createTestApp({ LOG_LEVEL: 'info' }, { logger: true, logStream: stream })
})
afterAll(async () => {
  await t?.close()
})

const log = () => lines.join('')

async function resetToken(email: string): Promise<string> {
  const asked = await t.app.inject({
    method: 'POST',
    url: '/api/auth/request-password-reset',
    headers: { origin: originOf(t.app) },
    payload: { email },
  })
  expect(asked.statusCode).toBe(200)
  await t.app.ctx.jobs.drain('email')
  const mail = t.outbox.filter((m) => m.to.includes(email) && m.subject.includes('Reset')).at(-1)
  const token = mail?.text.match(/reset-password\?token=([^\s&]+)/)?.[1]
  if (!token) throw new Error(`no reset link in ${mail?.text}`)
  return decodeURIComponent(token)
}

describe('the request log', () => {
  it('never holds a reset token, so the log cannot reset a password', async () => {
    const account = await signUp(t.app, { role: 'buyer', email: uniqueEmail('log-reset') })
    const token = await resetToken(account.user.email)
    lines.length = 0
    // The emailed link, opened in a browser, then the reset page's own call.
    await t.app.inject({ url: `/reset-password?token=${encodeURIComponent(token)}` })
    await t.app.inject({ url: `/api/auth/reset-password/${encodeURIComponent(token)}?callbackURL=%2F` })
    expect(log()).toContain('/reset-password?token=[redacted]')
    expect(log()).not.toContain(token)
    // What a reader of the log could try: the token from the log does not reset the password.
    const fromLog = log().match(/reset-password\?token=([^"&\s]+)/)?.[1] ?? ''
    const tried = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      headers: { origin: originOf(t.app) },
      payload: { token: fromLog, newPassword: 'taken-over-1' },
    })
    expect(tried.statusCode).toBe(400)
    expect(
      (await postSignIn(t.app, { email: account.user.email, password: 'taken-over-1' })).statusCode,
    ).toBe(401)
  })

  it('redacts email confirmation, unsubscribe, OAuth callback and webhook secrets, and 404s that name them', async () => {
    lines.length = 0
    const secrets = {
      verify: 'verify-secret-0a1b2c',
      unsubscribe: 'unsubscribe-secret-3d4e5f',
      code: 'oauth-code-6a7b8c',
      state: 'oauth-state-9d0e1f',
      signature: 't=1,v1=webhook-signature-2a3b4c',
      notFound: 'not-found-secret-5d6e7f',
      sig: 'sig-secret-8a9b0c',
    }
    await t.app.inject({ url: `/api/auth/verify-email?token=${secrets.verify}&callbackURL=%2Fdashboard` })
    await t.app.inject({ url: `/api/unsubscribe/${secrets.unsubscribe}` })
    await t.app.inject({
      method: 'POST',
      url: `/api/unsubscribe/${secrets.unsubscribe}`,
      headers: { origin: originOf(t.app) },
    })
    await t.app.inject({ url: `/unsubscribe/${secrets.unsubscribe}` })
    await t.app.inject({
      url: `/api/auth/oauth2/callback/google?code=${secrets.code}&state=${secrets.state}`,
    })
    await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'stripe-signature': secrets.signature, 'content-type': 'application/json' },
      payload: '{}',
    })
    await t.app.inject({ url: `/api/no-such-route?token=${secrets.notFound}&sig=${secrets.sig}` })
    const text = log()
    expect(text).toContain('/api/unsubscribe/[redacted]')
    expect(text).toContain('code=[redacted]&state=[redacted]')
    for (const secret of Object.values(secrets)) expect(text).not.toContain(secret)
  })
})

describe('redactSecrets', () => {
  it('keeps what is not secret', () => {
    expect(redactSecrets('/search?q=thinkpad&page=2&code_name=x')).toBe(
      '/search?q=thinkpad&page=2&code_name=x',
    )
    expect(redactSecrets('/a?TOKEN=abc&x=1#f')).toBe(`/a?TOKEN=${REDACTED}&x=1#f`)
  })
})
