import { eq } from 'drizzle-orm'
import type { ParsedMail } from 'mailparser'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { users } from '#server/db/schema'
import { originOf, postSignIn, signIn, signUp, uniqueEmail } from '#server/test/auth-helpers'
import { type LocalSmtp, startLocalSmtp } from '#server/test/local-smtp'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { EMAILS_PER_ACCOUNT } from './auth-emails'

// The auth library's emails, end to end through the API: asked for, queued, sent by the worker to a real
// SMTP server, and their links followed.
let smtp: LocalSmtp
let t: TestApp

beforeAll(async () => {
  smtp = await startLocalSmtp()
  t = await createTestApp({ SMTP_URL: smtp.url })
})
afterAll(async () => {
  await t?.close()
  await smtp?.stop()
})
beforeEach(() => {
  smtp.received.length = 0
})

const post = (url: string, payload: object, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { origin: originOf(t.app), ...(cookie ? { cookie } : {}) },
    payload,
  })
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })

/** Runs the queued emails and returns those that reached `address`. */
async function inbox(address: string): Promise<ParsedMail[]> {
  await t.app.ctx.jobs.drain('email')
  return smtp.received.filter((m) =>
    (Array.isArray(m.to) ? m.to : [m.to]).some((to) => to?.value.some((v) => v.address === address)),
  )
}

function linkIn(mail: ParsedMail | undefined, pattern: RegExp): URL {
  const match = mail?.text?.match(pattern)
  if (!match) throw new Error(`no link matching ${pattern} in:\n${mail?.text}`)
  return new URL(match[0])
}

describe('password reset', () => {
  it('emails a link; the new password works, the old one and every session end', async () => {
    const account = await signUp(t.app, { role: 'buyer' })
    const otherDevice = await signIn(t.app, { email: account.user.email })
    expect((await me(otherDevice.cookie)).statusCode).toBe(200)

    const asked = await post('/api/auth/request-password-reset', { email: account.user.email })
    expect(asked.statusCode).toBe(200)
    const [mail] = (await inbox(account.user.email)).filter((m) => m.subject?.includes('Reset'))
    expect(mail?.subject).toBe('Reset your Laptop Market password')
    expect(mail?.text).toContain('every device signed in to your account is signed out')
    const link = linkIn(mail, /http:\/\/localhost:\d+\/reset-password\?token=[^\s]+/)
    expect(link.pathname).toBe('/reset-password')
    const token = link.searchParams.get('token') as string
    expect(mail?.html).toContain(`href="${link.href}"`)

    const reset = await post('/api/auth/reset-password', { token, newPassword: 'a-brand-new-pass' })
    expect(reset.statusCode).toBe(200)
    for (const cookie of [account.cookie, otherDevice.cookie]) expect((await me(cookie)).statusCode).toBe(401)
    expect(
      (await postSignIn(t.app, { email: account.user.email, password: account.password })).statusCode,
    ).toBe(401)
    expect(
      (await postSignIn(t.app, { email: account.user.email, password: 'a-brand-new-pass' })).statusCode,
    ).toBe(200)

    // The link works once.
    const again = await post('/api/auth/reset-password', { token, newPassword: 'yet-another-pass' })
    expect(again.statusCode).toBe(400)
    expect(again.json().error.message).toMatch(/token/i)
  })

  it('answers the same for an unknown address, and sends nothing', async () => {
    const unknown = uniqueEmail('nobody')
    const res = await post('/api/auth/request-password-reset', { email: unknown })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      status: true,
      message: 'If this email exists in our system, check your email for the reset link',
    })
    expect(await inbox(unknown)).toHaveLength(0)
  })

  it(`sends at most ${EMAILS_PER_ACCOUNT} reset emails per account in a quarter hour`, async () => {
    const account = await signUp(t.app, { role: 'seller' })
    for (let i = 0; i < EMAILS_PER_ACCOUNT + 2; i++) {
      expect((await post('/api/auth/request-password-reset', { email: account.user.email })).statusCode).toBe(
        200,
      )
    }
    const resets = (await inbox(account.user.email)).filter((m) => m.subject?.includes('Reset'))
    expect(resets).toHaveLength(EMAILS_PER_ACCOUNT)
  })

  it('refuses a made-up token and a too-short password, changing nothing', async () => {
    const account = await signUp(t.app, { role: 'buyer' })
    const bad = await post('/api/auth/reset-password', { token: 'made-up', newPassword: 'whatever-123' })
    expect(bad.statusCode).toBe(400)
    await post('/api/auth/request-password-reset', { email: account.user.email })
    const [mail] = (await inbox(account.user.email)).filter((m) => m.subject?.includes('Reset'))
    const token = linkIn(mail, /http:\/\/localhost:\d+\/reset-password\?token=[^\s]+/).searchParams.get(
      'token',
    )
    const short = await post('/api/auth/reset-password', { token, newPassword: '123' })
    expect(short.statusCode).toBe(400)
    expect((await me(account.cookie)).statusCode).toBe(200)
    expect(
      (await postSignIn(t.app, { email: account.user.email, password: account.password })).statusCode,
    ).toBe(200)
  })
})

describe('email verification', () => {
  it('sign-up emails a link that marks the address verified, and signing in never waits for it', async () => {
    const account = await signUp(t.app, { role: 'buyer' })
    const settings = await t.app.inject({
      method: 'GET',
      url: '/api/email-settings',
      headers: { cookie: account.cookie },
    })
    expect(settings.json()).toMatchObject({ email: account.user.email, emailVerified: false })
    expect(
      (await postSignIn(t.app, { email: account.user.email, password: account.password })).statusCode,
    ).toBe(200)

    const [mail] = (await inbox(account.user.email)).filter((m) => m.subject?.includes('Confirm'))
    expect(mail?.subject).toBe('Confirm your email address for Laptop Market')
    const link = linkIn(mail, /http:\/\/localhost:\d+\/api\/auth\/verify-email\?token=[^\s]+/)
    const followed = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` })
    expect(followed.statusCode).toBe(302)
    expect(followed.headers.location).toBe('/dashboard/settings')
    const [row] = await t.db.select().from(users).where(eq(users.id, account.user.id))
    expect(row?.emailVerified).toBe(true)

    const resend = await post(
      '/api/auth/send-verification-email',
      { email: account.user.email },
      account.cookie,
    )
    expect(resend.statusCode).toBe(400)
  })

  it('sends the link again on request while the address is unconfirmed', async () => {
    const account = await signUp(t.app, { role: 'seller' })
    const resend = await post(
      '/api/auth/send-verification-email',
      { email: account.user.email },
      account.cookie,
    )
    expect(resend.statusCode).toBe(200)
    const confirms = (await inbox(account.user.email)).filter((m) => m.subject?.includes('Confirm'))
    expect(confirms).toHaveLength(2)
  })

  it(`sends at most ${EMAILS_PER_ACCOUNT} confirmation links per account in a quarter hour, however often asked`, async () => {
    const account = await signUp(t.app, { role: 'buyer' })
    for (let i = 0; i < EMAILS_PER_ACCOUNT + 2; i++) {
      const resend = await post(
        '/api/auth/send-verification-email',
        { email: account.user.email },
        account.cookie,
      )
      expect(resend.statusCode).toBe(200)
    }
    const confirms = (await inbox(account.user.email)).filter((m) => m.subject?.includes('Confirm'))
    expect(confirms).toHaveLength(EMAILS_PER_ACCOUNT)
  })
})
