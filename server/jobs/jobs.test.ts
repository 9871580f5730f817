import { type SQL, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Db } from '#server/db/client'
import { users } from '#server/db/schema'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { Jobs } from './jobs'

// The queue's own rules, on the `email` queue with a handler of the test's choosing (a second Jobs on the
// same database stands in for a second instance).
let t: TestApp
const silent = { info() {}, warn() {}, error() {}, debug() {}, child: () => silent } as never

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows
}

function jobRows(db: Db) {
  return rowsOf<{ id: string; state: string; retry_count: number }>(
    db,
    sql`select id, state, retry_count from pgboss.job where name = 'email' order by created_on, id`,
  )
}

function secondsUntilDue(db: Db) {
  return rowsOf<{ seconds: number }>(
    db,
    sql`select extract(epoch from start_after - now())::float as seconds from pgboss.job where name = 'email'`,
  ).then((rows) => rows[0]?.seconds)
}

function emailJob(n: number) {
  return { to: { email: `n${n}@example.test` }, template: 'verify-email' as const, data: { n } }
}

describe('the job queue', () => {
  it('queues nothing for a transaction that rolls back, and the job once it commits', async () => {
    const jobs = new Jobs(t.db, silent)
    await t.db.execute(sql`delete from pgboss.job where name = 'email'`)
    await expect(
      t.db.transaction(async (tx) => {
        await tx.insert(users).values({ id: 'rolled-back', name: 'R', email: 'rolled-back@example.test' })
        await jobs.send('email', emailJob(1), { tx })
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    expect(await jobRows(t.db)).toEqual([])

    await t.db.transaction(async (tx) => {
      await jobs.send('email', emailJob(2), { tx })
    })
    const handled: number[] = []
    jobs.work('email', async (job) => {
      handled.push((job.data.data as { n: number }).n)
    })
    expect(await jobs.drain()).toBe(1)
    expect(handled).toEqual([2])
    expect((await jobRows(t.db)).map((r) => r.state)).toEqual(['completed'])
    await jobs.stop()
  })

  it('retries a failed job later, with backoff, until it succeeds', async () => {
    const jobs = new Jobs(t.db, silent)
    await t.db.execute(sql`delete from pgboss.job where name = 'email'`)
    let attempts = 0
    jobs.work('email', async (job) => {
      attempts++
      if (job.retryCount < 2) throw new Error(`attempt ${job.retryCount + 1} failed`)
    })
    await jobs.send('email', emailJob(3))

    expect(await jobs.drain()).toBe(1)
    let [row] = await jobRows(t.db)
    expect(row?.state).toBe('retry')
    // Not due yet: retry n waits the queue's delay (30 s) plus 2^n to 2^(n+1) seconds (pg-boss's backoff).
    expect(await jobs.drain()).toBe(0)
    const wait = await secondsUntilDue(t.db)
    expect(wait).toBeGreaterThan(30)
    expect(wait).toBeLessThanOrEqual(32)

    // The clock moves on: the second attempt fails too and waits longer; the third succeeds.
    await t.db.execute(
      sql`update pgboss.job set start_after = now() - interval '1 second' where name = 'email'`,
    )
    expect(await jobs.drain()).toBe(1)
    const second = await secondsUntilDue(t.db)
    expect(second).toBeGreaterThan(31)
    expect(second).toBeLessThanOrEqual(34)
    await t.db.execute(
      sql`update pgboss.job set start_after = now() - interval '1 second' where name = 'email'`,
    )
    expect(await jobs.drain()).toBe(1)
    ;[row] = await jobRows(t.db)
    expect(row?.state).toBe('completed')
    expect(row?.retry_count).toBe(2)
    expect(attempts).toBe(3)
  })

  it('counts a handler still running when its job expires as failed, and goes on', async () => {
    const jobs = new Jobs(t.db, silent)
    await t.db.execute(sql`delete from pgboss.job where name = 'email'`)
    jobs.work('email', () => new Promise(() => {}))
    await jobs.send('email', emailJob(4))
    await t.db.execute(sql`update pgboss.job set expire_seconds = 1 where name = 'email'`)
    const started = performance.now()
    expect(await jobs.drain()).toBe(1)
    expect(performance.now() - started).toBeLessThan(5000)
    const [row] = await rowsOf<{ state: string; output: { message: string } }>(
      t.db,
      sql`select state, output from pgboss.job where name = 'email'`,
    )
    expect(row).toMatchObject({ state: 'retry', output: { message: 'Job ran past its 1 s' } })
  })

  it('runs each job once when two instances take jobs from the same queue at the same time', async () => {
    await t.db.execute(sql`delete from pgboss.job where name = 'email'`)
    const a = new Jobs(t.db, silent)
    const b = new Jobs(t.db, silent)
    const seen: number[] = []
    const handler = async (job: { data: { data: object } }) => {
      seen.push((job.data.data as { n: number }).n)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    a.work('email', handler, { batchSize: 3 })
    b.work('email', handler, { batchSize: 3 })
    for (let n = 0; n < 30; n++) await a.send('email', emailJob(n))
    const [ranA, ranB] = await Promise.all([a.drain(), b.drain()])
    expect(ranA + ranB).toBe(30)
    expect(seen.sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, n) => n))
  })

  it('keeps one waiting job per singleton key, and holds a job until its start time', async () => {
    await t.db.execute(sql`delete from pgboss.job where name = 'email'`)
    const jobs = new Jobs(t.db, silent)
    const first = await jobs.send('email', emailJob(1), { singletonKey: 'conversation-1' })
    const second = await jobs.send('email', emailJob(2), { singletonKey: 'conversation-1' })
    expect(first).toEqual(expect.any(String))
    expect(second).toBeNull()
    await jobs.send('email', emailJob(3), { startAfter: 300 })
    const handled: number[] = []
    jobs.work('email', async (job) => void handled.push((job.data.data as { n: number }).n))
    await jobs.drain()
    expect(handled).toEqual([1])
  })

  it('replaces a waiting singleton that no longer stands, once however many instances send at the same time', async () => {
    await t.db.execute(sql`delete from pgboss.job where name = 'email'`)
    const instances = Array.from({ length: 8 }, () => new Jobs(t.db, silent))
    const old = new Date(Date.now() + 3_600_000)
    const wanted = new Date(Date.now() + 60_000)
    // Each instance's client opened already, so the sends below meet at the queue, not at the opening.
    for (const [n, jobs] of instances.entries())
      await jobs.send('email', emailJob(n), { singletonKey: `warm-${n}` })
    await t.db.execute(sql`delete from pgboss.job where name = 'email'`)
    const [a] = instances as [Jobs]
    await a.send('email', emailJob(1), { singletonKey: 'run', startAfter: old })
    const keepWaiting = (at: Date) => at.getTime() === wanted.getTime()
    // Each sends in its own transaction, all begun before any sends so that on PostgreSQL they overlap (the
    // embedded database runs transactions one at a time: there each goes on after a short wait).
    let begun = 0
    let allBegun = () => {}
    const together = new Promise<void>((resolve) => {
      allBegun = resolve
    })
    const sent = await Promise.all(
      instances.map((jobs) =>
        t.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`)
          if (++begun === instances.length) allBegun()
          await Promise.race([together, new Promise((resolve) => setTimeout(resolve, 200))])
          return jobs.send('email', emailJob(2), { tx, singletonKey: 'run', startAfter: wanted, keepWaiting })
        }),
      ),
    )
    expect(sent.filter(Boolean)).toHaveLength(1)
    const waiting = () =>
      rowsOf<{ state: string; start_after: Date | string }>(
        t.db,
        sql`select state, start_after from pgboss.job where name = 'email'`,
      ).then((rows) => rows.map((r) => ({ state: r.state, at: new Date(r.start_after).getTime() })))
    expect(await waiting()).toEqual([{ state: 'created', at: wanted.getTime() }])
    // A job waiting for a retry stands whatever the sender thinks of its time.
    await t.db.execute(sql`update pgboss.job set state = 'retry' where name = 'email'`)
    expect(await a.send('email', emailJob(3), { singletonKey: 'run', keepWaiting: () => false })).toBeNull()
    expect(await waiting()).toEqual([{ state: 'retry', at: wanted.getTime() }])
  })

  it("asks once a poll for every queue while nothing is due, and takes each queue's jobs once they are", async () => {
    await t.db.execute(sql`delete from pgboss.job`)
    const jobs = new Jobs(t.db, silent, { pollMs: 50 })
    const taken: string[] = []
    const names = ['price-guide.refresh', 'uploads.cleanup', 'payouts.tick', 'listings.expire'] as const
    for (const name of names) jobs.work(name, async (job) => void taken.push(job.name))
    await jobs.start()
    // Every statement of the app's database goes through its driver's client: `query`, or PGlite's `exec` for one
    // without parameters.
    const client = (
      t.db as unknown as { session: { client: { query: () => unknown; exec?: () => unknown } } }
    ).session.client
    await new Promise((resolve) => setTimeout(resolve, 300))
    const spies = [vi.spyOn(client, 'query'), ...(client.exec ? [vi.spyOn(client, 'exec')] : [])]
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      // About twenty polls in a second: one statement each, not a fetch for each of the four queues (eighty).
      const statements = spies.reduce((n, spy) => n + spy.mock.calls.length, 0)
      expect(statements).toBeGreaterThanOrEqual(3)
      expect(statements).toBeLessThanOrEqual(30)
    } finally {
      for (const spy of spies) spy.mockRestore()
    }
    await jobs.send('uploads.cleanup', {})
    await jobs.send('listings.expire', {})
    await jobs.send('listings.expire', {}, { startAfter: 3_600 })
    await vi.waitFor(() => expect(taken.sort()).toEqual(['listings.expire', 'uploads.cleanup']), {
      timeout: 5000,
    })
    await jobs.stop()
  })

  it('logs a failed look for due jobs and looks again at the next poll, taking the jobs then', async () => {
    await t.db.execute(sql`delete from pgboss.job`)
    const warned: string[] = []
    const log = { ...(silent as object), warn: (_: object, msg: string) => void warned.push(msg) } as never
    const jobs = new Jobs(t.db, log, { pollMs: 50 })
    const taken: string[] = []
    jobs.work('uploads.cleanup', async (job) => void taken.push(job.name))
    // The first three looks fail as a lost connection would; every other statement goes through.
    const execute = t.db.execute.bind(t.db)
    const dialect = (t.db as unknown as { dialect: { sqlToQuery: (q: SQL) => { sql: string } } }).dialect
    let failed = 0
    const spy = vi.spyOn(t.db, 'execute').mockImplementation(((query: SQL) => {
      if (failed < 3 && dialect.sqlToQuery(query).sql.includes('select distinct name')) {
        failed++
        return Promise.reject(new Error('Connection terminated unexpectedly'))
      }
      return execute(query)
    }) as never)
    try {
      await jobs.send('uploads.cleanup', {})
      await jobs.start()
      await vi.waitFor(() => expect(taken).toEqual(['uploads.cleanup']), { timeout: 5000 })
      expect(failed).toBe(3)
      expect(warned.filter((m) => m === 'Could not look for due jobs')).toHaveLength(3)
    } finally {
      spy.mockRestore()
      await jobs.stop()
    }
  })

  it('workers started with the app take jobs as they come and stop cleanly', async () => {
    await t.db.execute(sql`delete from pgboss.job where name = 'email'`)
    const jobs = new Jobs(t.db, silent, { pollMs: 50 })
    const done = vi.fn()
    jobs.work('email', async () => done())
    await jobs.start()
    await jobs.send('email', emailJob(1))
    await vi.waitFor(() => expect(done).toHaveBeenCalledTimes(1), { timeout: 5000 })
    await jobs.stop()
    await jobs.send('email', emailJob(2))
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(done).toHaveBeenCalledTimes(1)
    expect((await jobRows(t.db)).map((r) => r.state).sort()).toEqual(['completed', 'created'])
  })
})
