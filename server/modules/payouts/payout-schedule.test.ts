// Payout runs follow the PAYOUT_INTERVAL_SECONDS the app starts with, on a database that already holds a run
// queued under another: an app started with the daily default queues the run for midnight UTC (and Earnings
// says so); two apps started together on the same database with a few seconds' interval leave one waiting
// run, at the new time, and pay a sale completed after the restart within that interval. Real workers, real
// time: the apps run their jobs as `server/main.ts` starts them.

import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Earnings } from '#contract/payouts'
import { type AppInstance, buildApp } from '#server/app'
import type { Database } from '#server/db/client'
import { MemoryMediaStorage } from '#server/lib/storage'
import { rowsOf } from '#server/modules/ledger'
import { bearerFor } from '#server/test/auth-helpers'
import { dealAt } from '#server/test/deals'
import { createBrand, createUser, type UserRow } from '#server/test/factories'
import { openTestDatabase, testConfig } from '#server/test/test-app'

const DAY_MS = 86_400_000
const SHORT_SECONDS = 4

let database: Database
let drop: () => Promise<void>
const apps: AppInstance[] = []

beforeAll(async () => {
  ;({ database, drop } = await openTestDatabase())
})

afterAll(async () => {
  for (const app of apps) await app.close()
  await database?.close()
  await drop?.()
})

/** An app on the test's database, started as `server/main.ts` starts one (its workers and start jobs). */
async function startApp(env: Record<string, string>): Promise<AppInstance> {
  const app = await buildApp({
    config: testConfig({ TEST_PAYOUT_SECONDS: '0', ...env }),
    database,
    storage: new MemoryMediaStorage(),
    logger: false,
    jobPollMs: 250,
    mailTransport: { kind: 'smtp', send: async () => ({}), close() {} },
  })
  apps.push(app)
  await app.ready()
  await app.ctx.jobs.start()
  return app
}

/** The payout runs waiting to start (not yet taken by a worker). */
async function waitingRuns(): Promise<number[]> {
  const rows = await rowsOf<{ start_after: Date | string }>(
    database.db,
    sql`select start_after from pgboss.job where name = 'payouts.run' and state in ('created', 'retry')
        order by start_after`,
  )
  return rows.map((r) => new Date(r.start_after).getTime())
}

async function earningsOf(app: AppInstance, seller: UserRow) {
  const res = await app.inject({ method: 'GET', url: '/api/earnings', headers: await bearerFor(app, seller) })
  expect(res.statusCode).toBe(200)
  return Earnings.parse(res.json())
}

describe('payout runs after a restart with another PAYOUT_INTERVAL_SECONDS', () => {
  it('start at the new interval: one waiting run, and a completed sale paid out within the interval', async () => {
    const seller = await createUser(database.db, { role: 'seller' })
    const buyer = await createUser(database.db, { role: 'buyer' })
    const brand = await createBrand(database.db)

    // The daily default: the start queues the run for the next midnight UTC, the time Earnings gives.
    const daily = await startApp({})
    const midnight = (Math.floor(Date.now() / DAY_MS) + 1) * DAY_MS
    await vi.waitFor(async () => expect(await waitingRuns()).toEqual([midnight]), { timeout: 10_000 })
    expect(new Date((await earningsOf(daily, seller)).next_payout_at).getTime()).toBe(midnight)
    await daily.close()

    // Restarted as two instances at once with a few seconds' interval: the midnight run gives way to one at the
    // next multiple of the new interval (never two waiting), whichever instance's tick replaces it.
    const [a] = await Promise.all([
      startApp({ PAYOUT_INTERVAL_SECONDS: String(SHORT_SECONDS) }),
      startApp({ PAYOUT_INTERVAL_SECONDS: String(SHORT_SECONDS) }),
    ])
    const step = SHORT_SECONDS * 1000
    await vi.waitFor(
      async () => {
        const runs = await waitingRuns()
        expect(runs).toHaveLength(1)
        expect((runs[0] ?? 0) % step).toBe(0)
        expect(runs[0]).toBeLessThanOrEqual(Date.now() + step)
      },
      { timeout: 10_000, interval: 50 },
    )
    if (!a) throw new Error('no app')
    const next = new Date((await earningsOf(a, seller)).next_payout_at).getTime()
    expect(next % step).toBe(0)
    expect(next - Date.now()).toBeLessThanOrEqual(step)

    // A sale completed now is paid out at the next run, within the interval (and the workers' poll).
    const account = await a.inject({
      method: 'POST',
      url: '/api/payouts/account',
      headers: await bearerFor(a, seller, { steppedUp: true }),
      payload: { account_holder: 'Sam Seller', routing_number: '110000000', account_number: '000123456789' },
    })
    expect(account.statusCode).toBe(200)
    await dealAt({ app: a, db: database.db }, 'completed', { buyer, seller, brand, priceCents: 20_000 })
    const completed = Date.now()
    let most = 0
    await vi.waitFor(
      async () => {
        most = Math.max(most, (await waitingRuns()).length)
        expect((await earningsOf(a, seller)).payouts).toHaveLength(1)
      },
      { timeout: 3 * step, interval: 100 },
    )
    const [payout] = (await earningsOf(a, seller)).payouts
    expect(payout?.amount_cents).toBe(19_000)
    expect(new Date(payout?.created_at ?? 0).getTime() - completed).toBeLessThan(step + 1500)
    expect(most).toBeLessThanOrEqual(1)
  }, 60_000)
})
