import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type SQL, sql } from 'drizzle-orm'
import { simpleParser } from 'mailparser'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Db } from '#server/db/client'
import { users } from '#server/db/schema'
import { Jobs } from '#server/jobs/jobs'
import { createUser } from '#server/test/factories'
import { type LocalSmtp, startLocalSmtp } from '#server/test/local-smtp'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { Mail } from './mail'
import { createMailTransport } from './transport'

// Email through a real SMTP server on 127.0.0.1, from the queue to the inbox.
let smtp: LocalSmtp
let t: TestApp

beforeAll(async () => {
  smtp = await startLocalSmtp()
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Laptop Market <hello@laptopmarket.test>' })
})
afterAll(async () => {
  await t?.close()
  await smtp?.stop()
})
beforeEach(async () => {
  await t.db.execute(sql`delete from pgboss.job where name = 'email'`)
  smtp.received.length = 0
})

function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  return db.execute(query).then((r) => (r as unknown as { rows: T[] }).rows)
}
const emailJobs = (db: Db) =>
  rowsOf<{ state: string; retry_count: number; output: { message?: string } | null }>(
    db,
    sql`select state, retry_count, output from pgboss.job where name = 'email' order by created_on`,
  )
const verifyData = (n = 1) => ({ url: `http://localhost:3000/verify?token=t${n}` })

describe('email', () => {
  it('goes out in the transaction that queued it: text and HTML parts, to the user’s current address', async () => {
    const user = await createUser(t.db, { name: 'Ada Lovelace' })
    await t.db.transaction(async (tx) => {
      await t.app.ctx.mail.queue(tx, {
        to: { userId: user.id },
        template: 'verify-email',
        data: verifyData(),
      })
    })
    // The address changes before the worker runs: the email goes where the user now reads.
    await t.db.update(users).set({ email: 'ada@example.test' }).where(sql`${users.id} = ${user.id}`)
    expect(await t.app.ctx.jobs.drain('email')).toBe(1)

    const [mail] = await smtp.waitFor(1)
    expect(mail?.subject).toBe('Confirm your email address for Laptop Market')
    expect(mail?.from?.value[0]).toEqual({ address: 'hello@laptopmarket.test', name: 'Laptop Market' })
    expect(mail?.to && !Array.isArray(mail.to) ? mail.to.value[0] : undefined).toEqual({
      address: 'ada@example.test',
      name: 'Ada Lovelace',
    })
    expect(mail?.text).toContain('Hi Ada Lovelace,')
    expect(mail?.text).toContain('Confirm my address: http://localhost:3000/verify?token=t1')
    expect(mail?.html).toContain('href="http://localhost:3000/verify?token=t1"')
    expect(mail?.headers.get('x-laptop-market-email')).toBe('verify-email')
    expect(mail?.messageId).toMatch(/^<[0-9a-f-]{36}@localhost>$/)
    expect((await emailJobs(t.db)).map((j) => j.state)).toEqual(['completed'])
  })

  it('escapes what it puts into HTML', async () => {
    await t.app.ctx.mail.queue(t.db, {
      to: { email: 'x@example.test', name: '<b>Mallory</b>' },
      template: 'verify-email',
      data: { url: 'http://localhost:3000/v?a=1&b="2"' },
    })
    await t.app.ctx.jobs.drain('email')
    const [mail] = await smtp.waitFor(1)
    expect(mail?.html).toContain('Hi &lt;b&gt;Mallory&lt;/b&gt;,')
    expect(mail?.html).toContain('href="http://localhost:3000/v?a=1&amp;b=&quot;2&quot;"')
    expect(mail?.html).not.toContain('<b>Mallory')
  })

  it('sends nothing for a transaction that rolls back', async () => {
    const user = await createUser(t.db)
    await expect(
      t.db.transaction(async (tx) => {
        await t.app.ctx.mail.queue(tx, {
          to: { userId: user.id },
          template: 'verify-email',
          data: verifyData(),
        })
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    expect(await t.app.ctx.jobs.drain('email')).toBe(0)
    expect(await emailJobs(t.db)).toEqual([])
    expect(smtp.received).toHaveLength(0)
  })

  it('is delivered once the mail server is back after being down', async () => {
    const user = await createUser(t.db)
    await smtp.stop()
    try {
      await t.app.ctx.mail.queue(t.db, {
        to: { userId: user.id },
        template: 'verify-email',
        data: verifyData(7),
      })
      expect(await t.app.ctx.jobs.drain('email')).toBe(1)
      const [failed] = await emailJobs(t.db)
      expect(failed?.state).toBe('retry')
      expect(failed?.output?.message).toMatch(/ECONNREFUSED|connect/i)
      // Still down at the first retry.
      await t.db.execute(
        sql`update pgboss.job set start_after = now() - interval '1 second' where name = 'email'`,
      )
      expect(await t.app.ctx.jobs.drain('email')).toBe(1)
      expect((await emailJobs(t.db))[0]).toMatchObject({ state: 'retry', retry_count: 1 })
    } finally {
      await smtp.start()
    }
    // Back up; the next retry (its time brought forward) delivers it.
    await t.db.execute(
      sql`update pgboss.job set start_after = now() - interval '1 second' where name = 'email'`,
    )
    expect(await t.app.ctx.jobs.drain('email')).toBe(1)
    const [mail] = await smtp.waitFor(1)
    expect(mail?.text).toContain('http://localhost:3000/verify?token=t7')
    expect((await emailJobs(t.db))[0]).toMatchObject({ state: 'completed', retry_count: 2 })
  })

  it('is sent once when two instances run the email worker side by side', async () => {
    // A second instance on the same database: its own queue client, worker and SMTP connection.
    const other = new Jobs(t.db, t.app.log)
    const otherMail = new Mail({
      db: t.db,
      jobs: other,
      transport: createMailTransport(t.app.ctx.config.mail),
      config: t.app.ctx.config,
      log: t.app.log,
    })
    const user = await createUser(t.db)
    for (let n = 0; n < 12; n++) {
      await t.app.ctx.mail.queue(t.db, {
        to: { userId: user.id },
        template: 'verify-email',
        data: verifyData(n),
      })
    }
    const [a, b] = await Promise.all([t.app.ctx.jobs.drain('email'), other.drain('email')])
    expect(a + b).toBe(12)
    await smtp.waitFor(12)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(smtp.received).toHaveLength(12)
    const links = smtp.received
      .map((m) => m.text?.match(/token=t(\d+)/)?.[1])
      .sort((x, y) => Number(x) - Number(y))
    expect(links).toEqual(Array.from({ length: 12 }, (_, n) => String(n)))
    expect(new Set(smtp.received.map((m) => m.messageId)).size).toBe(12)
    otherMail.close()
    await other.stop()
  })

  it('is not sent to a deleted (disabled) account', async () => {
    const user = await createUser(t.db, { disabled: true })
    await t.app.ctx.mail.queue(t.db, {
      to: { userId: user.id },
      template: 'verify-email',
      data: verifyData(),
    })
    expect(await t.app.ctx.jobs.drain('email')).toBe(1)
    expect((await emailJobs(t.db))[0]?.state).toBe('completed')
    expect(smtp.received).toHaveLength(0)
  })
})

describe('email without SMTP_URL', () => {
  it('is saved as an .eml file under DATA_DIR/mail', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-mail-'))
    const local = await createTestApp({ DATA_DIR: dataDir })
    try {
      const user = await createUser(local.db, { name: 'Grace Hopper' })
      await local.app.ctx.mail.queue(local.db, {
        to: { userId: user.id },
        template: 'password-reset',
        data: { url: 'http://localhost:3000/reset-password?token=abc', expiresInMinutes: 60 },
      })
      expect(await local.app.ctx.jobs.drain('email')).toBe(1)
      const files = fs.readdirSync(path.join(dataDir, 'mail'))
      expect(files).toHaveLength(1)
      expect(files[0]).toMatch(/^[0-9TZ-]+-password-reset-[0-9a-f]{8}\.eml$/)
      const mail = await simpleParser(fs.readFileSync(path.join(dataDir, 'mail', files[0] as string)))
      expect(mail.subject).toBe('Reset your Laptop Market password')
      expect(mail.text).toContain('Choose a new password: http://localhost:3000/reset-password?token=abc')
      expect(mail.html).toContain('href="http://localhost:3000/reset-password?token=abc"')
    } finally {
      await local.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
