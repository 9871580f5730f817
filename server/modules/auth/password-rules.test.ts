import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD_MESSAGES } from '#contract/passwords'
import { auditEvents, users } from '#server/db/schema'
import {
  originOf,
  postAuth,
  postSignIn,
  postSignUp,
  signIn,
  signUp,
  TEST_PASSWORD,
  uniqueEmail,
} from '#server/test/auth-helpers'
import { createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

// An outside test signed up with 123456, abcdef and password, and changed a password to 111111. Each is
// refused now, with a message that says why, at every way a password is set; older accounts that hold such
// a password still sign in and are asked to change it.

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: { origin: originOf(t.app) }, payload })

async function userCount(email: string) {
  return (await t.db.select({ id: users.id }).from(users).where(eq(users.email, email))).length
}

function me(cookie: string) {
  return t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })
}

describe('sign-up', () => {
  it.each(['123456', 'abcdef', 'password'])(
    'refuses %s as one of the most common passwords',
    async (password) => {
      const email = uniqueEmail('weak')
      const res = await postSignUp(t.app, { name: 'Wes Weak', email, password, role: 'buyer' })
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toMatchObject({ code: 'VALIDATION', message: PASSWORD_MESSAGES.common })
      expect(await userCount(email)).toBe(0)
    },
  )

  it("refuses a password built from the person's name or email, or the product's name, saying which", async () => {
    const email = uniqueEmail('pat.parker')
    const personal = await postSignUp(t.app, {
      name: 'Pat Parker',
      email,
      password: 'PatParker2024',
      role: 'seller',
    })
    expect(personal.statusCode).toBe(400)
    expect(personal.json().error.message).toBe(PASSWORD_MESSAGES.personal)
    const product = await postSignUp(t.app, {
      name: 'Pat Parker',
      email,
      password: 'LaptopMarket!',
      role: 'buyer',
    })
    expect(product.statusCode).toBe(400)
    expect(product.json().error.message).toBe(PASSWORD_MESSAGES.product)
    expect(await userCount(email)).toBe(0)
  })

  it("keeps the seed's minimum and message, and takes 128 characters but not 129", async () => {
    const short = await postSignUp(t.app, {
      name: 'Sy Short',
      email: uniqueEmail('short'),
      password: 'x7#Qp',
      role: 'buyer',
    })
    expect(short.json().error.message).toBe('Password must be 6 character or longer')
    const long = 'Vq8#tLm2wZ'.repeat(13)
    const tooLong = await postSignUp(t.app, {
      name: 'Lo Long',
      email: uniqueEmail('long'),
      password: long.slice(0, 129),
      role: 'buyer',
    })
    expect(tooLong.statusCode).toBe(400)
    expect(tooLong.json().error.message).toBe('Keep the password under 128 characters')
    const longest = await signUp(t.app, { role: 'buyer', password: long.slice(0, 128) })
    expect(longest.user.id).toBeTruthy()
  })
})

describe('changing and resetting', () => {
  it('refuses 111111 as a new password and keeps the old one', async () => {
    const account = await signUp(t.app, { role: 'buyer' })
    const res = await postAuth(t.app, '/change-password', account.cookie, {
      currentPassword: TEST_PASSWORD,
      newPassword: '111111',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toBe(PASSWORD_MESSAGES.common)
    expect((await postSignIn(t.app, { email: account.user.email, password: '111111' })).statusCode).toBe(401)
    expect((await postSignIn(t.app, { email: account.user.email, password: TEST_PASSWORD })).statusCode).toBe(
      200,
    )
  })

  it('refuses a weak password through a reset link, which stays usable for a good one', async () => {
    const account = await signUp(t.app, { role: 'buyer', name: 'Rita Reset' })
    expect((await post('/api/auth/request-password-reset', { email: account.user.email })).statusCode).toBe(
      200,
    )
    await t.app.ctx.jobs.drain('email')
    const mail = t.outbox
      .filter((m) => m.to.includes(account.user.email) && m.subject.includes('Reset'))
      .at(-1)
    const token = decodeURIComponent(mail?.text.match(/reset-password\?token=([^\s&]+)/)?.[1] ?? '')
    const weak = await post('/api/auth/reset-password', { token, newPassword: 'rita-reset' })
    expect(weak.statusCode).toBe(400)
    expect(weak.json().error.message).toBe(PASSWORD_MESSAGES.personal)
    expect(
      (await post('/api/auth/reset-password', { token, newPassword: 'quiet-heron-77' })).statusCode,
    ).toBe(200)
  })
})

describe('an account whose password the rule now refuses', () => {
  it('still signs in, is asked to change it, and is no longer asked once it did', async () => {
    const email = uniqueEmail('old')
    await createUser(t.db, { email, password: '123456' })
    const signedIn = await signIn(t.app, { email, password: '123456' })
    expect((await me(signedIn.cookie)).json()).toMatchObject({ password_change_asked: true })

    const changed = await postAuth(t.app, '/change-password', signedIn.cookie, {
      currentPassword: '123456',
      newPassword: 'amber-kettle-39',
    })
    expect(changed.statusCode).toBe(200)
    const again = await signIn(t.app, { email, password: 'amber-kettle-39' })
    expect((await me(again.cookie)).json()).toMatchObject({ password_change_asked: false })
  })

  it('is not asked when its password is a good one', async () => {
    const account = await signUp(t.app, { role: 'seller' })
    const signedIn = await signIn(t.app, { email: account.user.email })
    expect((await me(signedIn.cookie)).json()).toMatchObject({ password_change_asked: false })
  })
})

describe("Security's Change your password", () => {
  it('signs out every other device, records a security event and sends one email', async () => {
    const account = await signUp(t.app, { role: 'buyer' })
    const other = await signIn(t.app, { email: account.user.email })
    await t.app.ctx.jobs.drain('email')
    t.outbox.length = 0
    const res = await postAuth(t.app, '/change-password', account.cookie, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'maple-drum-81',
      revokeOtherSessions: true,
    })
    expect(res.statusCode).toBe(200)
    expect((await me(other.cookie)).statusCode).toBe(401)
    const [event] = await t.db
      .select({ result: auditEvents.result })
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, account.user.id), eq(auditEvents.kind, 'password.change')))
    expect(event?.result).toBe('success')
    await t.app.ctx.jobs.drain('email')
    const mails = t.outbox.filter((m) => m.to.includes(account.user.email))
    expect(mails.map((m) => m.subject)).toEqual(['Your Laptop Market password was changed'])
  })
})
