import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emailPreferences } from '#server/db/schema'
import { Jobs } from '#server/jobs/jobs'
import { Mail } from '#server/mail/mail'
import { compose, defineEmail } from '#server/mail/templates/layout'
import type { MailTransport, OutgoingEmail } from '#server/mail/transport'
import { originOf, signUp } from '#server/test/auth-helpers'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

const put = (cookie: string, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/email-settings',
    headers: { cookie, origin: originOf(t.app) },
    payload: payload as object,
  })
const get = (cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/email-settings', headers: { cookie } })
const ALL_ON = { deals: true, messages: true, reviews: true, alerts: true, listings: true }

describe('email settings', () => {
  it('tests read the emails the worker sent in the test app’s outbox', async () => {
    const { user } = await signUp(t.app, { role: 'buyer' })
    await t.app.ctx.jobs.drain('email')
    const mine = t.outbox.filter((e) => e.to.includes(user.email))
    expect(mine.map((e) => e.headers['X-Laptop-Market-Email'])).toEqual(['verify-email'])
    expect(mine[0]?.text).toContain('/api/auth/verify-email?token=')
  })

  it('has every topic on by default and keeps each change, leaving the others as they were', async () => {
    const { cookie, user } = await signUp(t.app, { role: 'buyer' })
    expect((await get(cookie)).json()).toEqual({ email: user.email, emailVerified: false, topics: ALL_ON })

    const off = await put(cookie, { messages: false, alerts: false })
    expect(off.statusCode).toBe(200)
    expect(off.json().topics).toEqual({ ...ALL_ON, messages: false, alerts: false })
    const back = await put(cookie, { alerts: true })
    expect(back.json().topics).toEqual({ ...ALL_ON, messages: false })
    expect((await get(cookie)).json().topics).toEqual({ ...ALL_ON, messages: false })
    const [row] = await t.db.select().from(emailPreferences).where(eq(emailPreferences.userId, user.id))
    expect(row?.mutedTopics).toEqual(['messages'])
  })

  it('refuses anything but known topics set to true or false, naming the field, and changes nothing', async () => {
    const { cookie, user } = await signUp(t.app, { role: 'seller' })
    await put(cookie, { reviews: false })
    for (const [body, field] of [
      [{ messages: 'no' }, 'messages'],
      [{ newsletter: false }, ''],
      [{ deals: null }, 'deals'],
      [[], ''],
    ] as const) {
      const res = await put(cookie, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json().error.code).toBe('VALIDATION')
      if (field) expect(JSON.stringify(res.json().error.fields ?? {})).toContain(field)
    }
    const [row] = await t.db.select().from(emailPreferences).where(eq(emailPreferences.userId, user.id))
    expect(row?.mutedTopics).toEqual(['reviews'])
  })

  it('stops emails of a topic the user turned off, even one already waiting; essential ones still go', async () => {
    const sent: OutgoingEmail[] = []
    const transport: MailTransport = {
      kind: 'smtp',
      send: async (e) => {
        sent.push(e)
        return {}
      },
      close() {},
    }
    const jobs = new Jobs(t.db, t.app.log)
    const mail = new Mail({
      db: t.db,
      jobs,
      transport,
      config: t.app.ctx.config,
      log: t.app.log,
      extraTemplates: {
        'test-message': defineEmail<{ from: string }>({
          topic: 'messages',
          render: ({ from }, ctx) =>
            compose(
              {
                subject: `A message from ${from}`,
                heading: 'New message',
                paragraphs: [],
                topic: 'messages',
              },
              ctx,
            ),
        }),
      },
    })
    const { cookie, user } = await signUp(t.app, { role: 'buyer' })
    await t.db.execute(sql`delete from pgboss.job where name = 'email'`)
    const queueBoth = async () => {
      await mail.queue(t.db, {
        to: { userId: user.id },
        template: 'test-message' as never,
        data: { from: 'Sam' } as never,
      })
      await mail.queue(t.db, {
        to: { userId: user.id },
        template: 'verify-email',
        data: { url: 'http://x.test/v' },
      })
    }
    await queueBoth()
    await jobs.drain('email')
    expect(sent.map((e) => e.subject).sort()).toEqual([
      'A message from Sam',
      'Confirm your email address for Laptop Market',
    ])
    const withTopic = sent.find((e) => e.subject === 'A message from Sam')
    expect(withTopic?.headers['List-Unsubscribe']).toMatch(/\/dashboard\/settings>$/)
    expect(withTopic?.text).toContain('“Messages” is on in your email settings')

    sent.length = 0
    await queueBoth()
    await put(cookie, { messages: false })
    await jobs.drain('email')
    expect(sent.map((e) => e.subject)).toEqual(['Confirm your email address for Laptop Market'])
  })
})
