// Security changes are told to the account's owner: one email each (two-step on and off, a passkey added, the
// password changed or reset), queued with the change and its security event, with an "I did not do this" link
// that signs out every device, removes the passkeys added in the last 7 days and asks for a new password.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { auditEvents, passkeys, users } from '#server/db/schema'
import { recordSecurityChange } from '#server/lib/security-change'
import {
  auditKindsSince,
  lastAuditId,
  mergeCookies,
  originOf,
  postAuth,
  postSignIn,
  signIn,
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
beforeEach(() => {
  t.outbox.length = 0
})

/** The security emails that reached `email`, after the queue ran. */
async function securityEmails(email: string) {
  await t.app.ctx.jobs.drain('email')
  return t.outbox.filter(
    (m) => m.to.includes(email) && m.headers['X-Laptop-Market-Email'] === 'security-change',
  )
}

function notMeToken(mail: { text: string } | undefined): string {
  const match = mail?.text.match(/\/account\/not-me#([A-Za-z0-9_.-]+)/)
  if (!match?.[1]) throw new Error(`no "I did not do this" link in:\n${mail?.text}`)
  return match[1]
}

const post = (url: string, payload: object, cookie = '') =>
  t.app.inject({ method: 'POST', url, headers: { origin: originOf(t.app), cookie }, payload })
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })

async function signInWithPasskey(key: SoftPasskey) {
  const options = await t.app.inject({
    method: 'GET',
    url: '/api/auth/passkey/generate-authenticate-options',
  })
  const cookie = mergeCookies('', options)
  const res = await postAuth(t.app, '/passkey/verify-authentication', cookie, {
    response: key.authenticate(options.json()),
  })
  return { res, cookie: mergeCookies(cookie, res) }
}

describe('security emails', () => {
  it('tell the owner when two-step sign-in is turned on and off, each once, beside its security event', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const before = await lastAuditId(t.db)
    const { backupCodes, cookie } = await enableTwoStep(t.app, who)
    let mails = await securityEmails(who.user.email)
    expect(mails.map((m) => m.subject)).toEqual([
      'Two-step sign-in was turned on for your Laptop Market account',
    ])
    expect(mails[0]?.text).toContain('I did not do this: http://')
    expect(mails[0]?.html).toContain('I did not do this')

    // The code that turned it on is spent: a backup code turns it off.
    const off = await postAuth(t.app, '/two-factor/disable', cookie, {
      password: TEST_PASSWORD,
      code: backupCodes[0],
    })
    expect(off.statusCode, off.body).toBe(200)
    mails = await securityEmails(who.user.email)
    expect(mails.map((m) => m.subject)).toEqual([
      'Two-step sign-in was turned on for your Laptop Market account',
      'Two-step sign-in was turned off for your Laptop Market account',
    ])
    expect(await auditKindsSince(t.db, before, who.user.id)).toEqual(
      expect.arrayContaining(['two_step.enable:success', 'two_step.disable:success']),
    )
  })

  it('tell the owner when a passkey is added, naming it', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    await stepUp(t.app, who)
    const added = await addPasskey(t.app, who.cookie, new SoftPasskey(originOf(t.app)), 'Desk key')
    expect(added.statusCode, added.body).toBe(200)
    const [mail, ...more] = await securityEmails(who.user.email)
    expect(more).toEqual([])
    expect(mail?.subject).toBe('A passkey was added to your Laptop Market account')
    expect(mail?.text).toContain('A passkey named “Desk key” was added to your account.')
  })

  it('tell the owner when the password is changed, and when it is reset', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const changed = await postAuth(t.app, '/change-password', who.cookie, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'a-new-pass-77',
    })
    expect(changed.statusCode, changed.body).toBe(200)
    expect((await securityEmails(who.user.email)).map((m) => m.subject)).toEqual([
      'Your Laptop Market password was changed',
    ])

    t.outbox.length = 0
    await post('/api/auth/request-password-reset', { email: who.user.email })
    await t.app.ctx.jobs.drain('email')
    const link = t.outbox.find((m) => m.to.includes(who.user.email))?.text.match(/token=([^\s&]+)/)?.[1]
    const reset = await post('/api/auth/reset-password', {
      token: decodeURIComponent(link ?? ''),
      newPassword: 'another-pass-88',
    })
    expect(reset.statusCode, reset.body).toBe(200)
    expect((await securityEmails(who.user.email)).map((m) => m.subject)).toEqual([
      'Your Laptop Market password was reset',
    ])
  })

  it('are queued in the transaction of the change: a change that rolls back sends nothing', async () => {
    const who = await signUp(t.app, { role: 'seller' })
    const before = await lastAuditId(t.db)
    const origin = {
      ip: '203.0.113.9',
      userAgent: 'Mozilla/5.0 (Windows NT 10.0) Chrome/140.0 Safari/537.36',
    }
    const deps = { mail: t.app.ctx.mail, config: t.app.ctx.config }
    await expect(
      t.db.transaction(async (tx) => {
        await recordSecurityChange(
          tx,
          deps,
          { userId: who.user.id, origin },
          {
            kind: 'payout_account.change',
            previousLast4: '6789',
            newLast4: '1116',
          },
        )
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    expect(await securityEmails(who.user.email)).toEqual([])
    expect(await auditKindsSince(t.db, before, who.user.id)).toEqual([])

    await t.db.transaction((tx) =>
      recordSecurityChange(
        tx,
        deps,
        { userId: who.user.id, origin },
        {
          kind: 'payout_account.change',
          previousLast4: '6789',
          newLast4: '1116',
        },
      ),
    )
    const [mail] = await securityEmails(who.user.email)
    expect(mail?.subject).toBe('Your payout bank account was changed')
    expect(mail?.text).toContain('from the one ending 6789 to the one ending 1116')
    expect(mail?.text).toContain('Device: Chrome on Windows. Where: Internet address 203.0.113.x.')
    expect(await auditKindsSince(t.db, before, who.user.id)).toEqual(['payout_account.change:success'])
  })
})

describe('"I did not do this"', () => {
  it('removes a passkey an attacker added with a copied cookie: it no longer signs in, nor does any session', async () => {
    const victim = await signUp(t.app, { role: 'seller' })
    const attackerCookie = victim.cookie // the copied cookie
    // Adding a passkey also needs the password given again (a step-up): this attacker has it too.
    await stepUp(t.app, { cookie: attackerCookie, password: victim.password })
    const key = new SoftPasskey(originOf(t.app))
    expect((await addPasskey(t.app, attackerCookie, key, 'Not mine')).statusCode).toBe(200)
    const laptop = await signIn(t.app, { email: victim.user.email })
    const viaKey = await signInWithPasskey(key)
    expect(viaKey.res.statusCode, viaKey.res.body).toBe(200)

    const mail = (await securityEmails(victim.user.email)).find((m) => m.subject.includes('passkey'))
    const token = notMeToken(mail)
    const check = await post('/api/account/not-me/check', { token })
    expect(check.statusCode, check.body).toBe(200)
    expect(check.json()).toMatchObject({ kind: 'passkey.add' })

    const before = await lastAuditId(t.db)
    const done = await post('/api/account/not-me', { token })
    expect(done.statusCode, done.body).toBe(200)
    expect(done.json()).toMatchObject({
      sessions_ended: true,
      passkeys_removed: 1,
      two_step_turned_off: false,
    })

    expect(await t.db.select().from(passkeys).where(eq(passkeys.userId, victim.user.id))).toEqual([])
    for (const cookie of [attackerCookie, laptop.cookie, viaKey.cookie]) {
      expect((await me(cookie)).statusCode).toBe(401)
    }
    expect((await signInWithPasskey(key)).res.statusCode).not.toBe(200)
    // The password is gone until a new one is chosen through the link the answer gives.
    expect((await postSignIn(t.app, { email: victim.user.email, password: TEST_PASSWORD })).statusCode).toBe(
      401,
    )
    const token2 = new URL(done.json().reset_url, 'http://x').searchParams.get('token')
    const reset = await post('/api/auth/reset-password', { token: token2, newPassword: 'mine-again-55' })
    expect(reset.statusCode, reset.body).toBe(200)
    expect(
      (await postSignIn(t.app, { email: victim.user.email, password: 'mine-again-55' })).statusCode,
    ).toBe(200)
    expect(await auditKindsSince(t.db, before, victim.user.id)).toContain('account.not_me:success')

    // Single use.
    const again = await post('/api/account/not-me', { token })
    expect(again.statusCode).toBe(400)
    expect(again.json().error.message).toMatch(/already used or has expired/)
  })

  it('turns two-step sign-in off when the change it answers was turning it on, and secures the account like the others', async () => {
    const victim = await signUp(t.app, { role: 'buyer' })
    const { cookie } = await enableTwoStep(t.app, victim)
    const mail = (await securityEmails(victim.user.email))[0]
    expect(mail?.subject).toBe('Two-step sign-in was turned on for your Laptop Market account')
    const token = notMeToken(mail)
    const check = await post('/api/account/not-me/check', { token })
    expect(check.statusCode, check.body).toBe(200)
    expect(check.json()).toMatchObject({ kind: 'two_step.enable' })

    const done = await post('/api/account/not-me', { token })
    expect(done.statusCode, done.body).toBe(200)
    expect(done.json()).toMatchObject({ sessions_ended: true, two_step_turned_off: true })
    const [row] = await t.db
      .select({ on: users.twoFactorEnabled })
      .from(users)
      .where(eq(users.id, victim.user.id))
    expect(row?.on).toBe(false)
    // As for the other changes: every session ends, the password is taken away, and the answer's link sets a
    // new one, which then signs in without a code (someone else's authenticator no longer stands in the way).
    expect((await me(cookie)).statusCode).toBe(401)
    expect((await postSignIn(t.app, { email: victim.user.email, password: TEST_PASSWORD })).statusCode).toBe(
      401,
    )
    const resetToken = new URL(done.json().reset_url, 'http://x').searchParams.get('token')
    const reset = await post('/api/auth/reset-password', { token: resetToken, newPassword: 'mine-again-77' })
    expect(reset.statusCode, reset.body).toBe(200)
    const back = await postSignIn(t.app, { email: victim.user.email, password: 'mine-again-77' })
    expect(back.statusCode).toBe(200)
    expect(back.json()).not.toHaveProperty('twoFactorRedirect')
    expect((await post('/api/account/not-me', { token })).statusCode).toBe(400)
  })

  it('refuses a link not signed by us, or one that expired, and changes nothing', async () => {
    const victim = await signUp(t.app, { role: 'buyer' })
    await stepUp(t.app, victim)
    await addPasskey(t.app, victim.cookie, new SoftPasskey(originOf(t.app)))
    const token = notMeToken((await securityEmails(victim.user.email))[0])
    const [id] = token.split('.')
    const forged = await post('/api/account/not-me', { token: `${id}.${'A'.repeat(32)}` })
    expect(forged.statusCode).toBe(400)
    expect((await me(victim.cookie)).statusCode).toBe(200)

    const { verifications } = await import('#server/db/schema')
    await t.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verifications.identifier, `not-me:${id}`))
    const expired = await post('/api/account/not-me', { token })
    expect(expired.statusCode).toBe(400)
    expect((await me(victim.cookie)).statusCode).toBe(200)
    expect(
      await t.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.actorId, victim.user.id), eq(auditEvents.kind, 'account.not_me'))),
    ).toEqual([])
  })
})

describe('a sign-in from a new device', () => {
  const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36'
  const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'
  const deviceOf = (res: { headers: Record<string, unknown> }): string =>
    String([res.headers['set-cookie']].flat().find((c) => String(c).startsWith('lm_device=')) ?? '').split(
      ';',
    )[0] ?? ''

  it('is emailed once; the same browser with its device cookie signs in again without one', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    expect(await securityEmails(who.user.email)).toEqual([])

    const first = await postSignIn(
      t.app,
      { email: who.user.email, password: TEST_PASSWORD },
      { 'user-agent': CHROME },
    )
    expect(first.statusCode).toBe(200)
    const device = deviceOf(first)
    expect(device).toMatch(/^lm_device=[A-Za-z0-9_-]{43}$/)
    expect([first.headers['set-cookie']].flat().join('\n')).toMatch(
      /lm_device=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax/,
    )
    const [mail, ...more] = await securityEmails(who.user.email)
    expect(more).toEqual([])
    expect(mail?.subject).toBe('A new sign-in to your Laptop Market account')
    expect(mail?.text).toContain('Device: Chrome on Windows.')

    t.outbox.length = 0
    const again = await postSignIn(
      t.app,
      { email: who.user.email, password: TEST_PASSWORD },
      { 'user-agent': CHROME, cookie: device },
    )
    expect(again.statusCode).toBe(200)
    expect(deviceOf(again)).toBe('')
    expect(await securityEmails(who.user.email)).toEqual([])

    // The same cookie with another browser family is another device.
    const other = await postSignIn(
      t.app,
      { email: who.user.email, password: TEST_PASSWORD },
      { 'user-agent': FIREFOX, cookie: device },
    )
    expect(other.statusCode).toBe(200)
    expect((await securityEmails(who.user.email)).map((m) => m.subject)).toEqual([
      'A new sign-in to your Laptop Market account',
    ])
  })

  it('with a passkey is emailed too', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const key = new SoftPasskey(originOf(t.app))
    await stepUp(t.app, who)
    await addPasskey(t.app, who.cookie, key)
    await securityEmails(who.user.email)
    t.outbox.length = 0
    expect((await signInWithPasskey(key)).res.statusCode).toBe(200)
    expect((await securityEmails(who.user.email)).map((m) => m.subject)).toEqual([
      'A new sign-in to your Laptop Market account',
    ])
  })
})

describe('a password reset', () => {
  async function resetLink(email: string): Promise<string> {
    await post('/api/auth/request-password-reset', { email })
    await t.app.ctx.jobs.drain('email')
    const mail = t.outbox.filter((m) => m.to.includes(email) && m.subject.includes('Reset')).at(-1)
    return decodeURIComponent(mail?.text.match(/token=([^\s&]+)/)?.[1] ?? '')
  }

  it("offers to remove passkeys added in the last 7 days; removed, the attacker's passkey no longer signs in", async () => {
    const victim = await signUp(t.app, { role: 'seller' })
    const mine = new SoftPasskey(originOf(t.app))
    const theirs = new SoftPasskey(originOf(t.app))
    await stepUp(t.app, victim)
    const old = (await addPasskey(t.app, victim.cookie, mine, 'My old key')).json().id as string
    await t.db
      .update(passkeys)
      .set({ createdAt: new Date(Date.now() - 8 * 24 * 60 * 60_000) })
      .where(eq(passkeys.id, old))
    // The attacker's copied cookie adds a passkey.
    const added = (await addPasskey(t.app, victim.cookie, theirs, 'Not mine')).json().id as string

    const token = await resetLink(victim.user.email)
    const offered = await post('/api/account/reset-passkeys', { token })
    expect(offered.statusCode, offered.body).toBe(200)
    expect(offered.json().items.map((p: { id: string; name: string }) => [p.id, p.name])).toEqual([
      [added, 'Not mine'],
    ])

    const before = await lastAuditId(t.db)
    const reset = await post('/api/auth/reset-password', {
      token,
      newPassword: 'fresh-start-31',
      removePasskeys: [added, old],
    })
    expect(reset.statusCode, reset.body).toBe(200)
    const left = await t.db
      .select({ id: passkeys.id })
      .from(passkeys)
      .where(eq(passkeys.userId, victim.user.id))
    expect(left).toEqual([{ id: old }])
    expect((await signInWithPasskey(theirs)).res.statusCode).not.toBe(200)
    expect((await signInWithPasskey(mine)).res.statusCode).toBe(200)
    expect(await auditKindsSince(t.db, before, victim.user.id)).toContain('passkey.remove:success')

    // The link is spent: its passkeys are no longer listed to whoever holds it.
    expect((await post('/api/account/reset-passkeys', { token })).statusCode).toBe(400)
  })

  it('refuses a removal list that is not a list of ids, and changes nothing', async () => {
    const victim = await signUp(t.app, { role: 'buyer' })
    const token = await resetLink(victim.user.email)
    const res = await post('/api/auth/reset-password', {
      token,
      newPassword: 'fresh-start-32',
      removePasskeys: 'all',
    })
    expect(res.statusCode).toBe(400)
    expect((await me(victim.cookie)).statusCode).toBe(200)
  })
})

describe('the authenticator secret', () => {
  it('shown again is written to the log', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const { cookie } = await enableTwoStep(t.app, who)
    const before = await lastAuditId(t.db)
    const res = await postAuth(t.app, '/two-factor/get-totp-uri', cookie, { password: TEST_PASSWORD })
    expect(res.statusCode, res.body).toBe(200)
    expect(await auditKindsSince(t.db, before, who.user.id)).toEqual(['two_step.secret_read:success'])
  })
})
