import { Worker } from 'node:worker_threads'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { threadNice } from '#server/lib/thread-priority'
import { workerScript } from '#server/lib/worker-script'
import { createBrand, createUser } from '#server/test/factories'
import { openTestDatabase } from '#server/test/test-app'
import type { Rebase } from './facts-rebase'
import { type ListingFacts, readFacts } from './listing-facts'
import { THREAD_LIMITS } from './search-pool'

// The thread that reads or makes the copy (facts-worker.ts) yields to the searches by its CPU priority: a read or a
// copy made again from the view while a view answers runs at nice 10 (decision 0129), the first read at the process's
// own. Each answer says the niceness its thread had as it answered.

const linux = process.platform === 'linux'

type Answer = { facts: ListingFacts; nice?: number }

function ask(url: string, background: boolean, message: { rebase?: Rebase }): Promise<Answer> {
  const { url: script, execArgv } = workerScript('facts-worker', import.meta.url)
  const worker = new Worker(script, {
    workerData: { url, background },
    execArgv,
    resourceLimits: THREAD_LIMITS,
  })
  return new Promise<Answer>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
    worker.postMessage(message)
  }).finally(() => worker.terminate())
}

/** A copy without the moment it was made (and its counts made at that moment). */
function withoutClock(f: ListingFacts) {
  const { at: _at, within: _within, ...byCombo } = f.combos.byCombo
  return { ...f, combos: { ...f.combos, byCombo } }
}

describe.runIf(linux)('the thread reading or making the copy', () => {
  let opened: Awaited<ReturnType<typeof openTestDatabase>>
  let facts: ListingFacts
  beforeAll(async () => {
    opened = await openTestDatabase()
    const { db } = opened.database
    const brand = (await createBrand(db, { name: 'Lenovo' })).id
    const seller = (await createUser(db, { role: 'seller' })).id
    await db.execute(sql`
      insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
        description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on,
        battery_health_pct)
      select 'ThinkPad ' || i, ${brand}, ${seller}, '+880 1711 000000', 20000 + i * 100, 250000, 'Like new.',
        (array['Excellent', 'Good', 'Fair'])[1 + i % 3], 'Dhaka', 1, 'Intel Core i5-1135G7', 16, 512, 14,
        now() - make_interval(mins => i), 80
      from generate_series(1, 50) i`)
    facts = await readFacts(db)
  })
  afterAll(async () => {
    await opened?.database.close()
    await opened?.drop()
  })

  it('makes a copy again from a view at nice 10, the database not asked', async () => {
    const rebase: Rebase = {
      version: facts.version,
      parts: [{ facts, deadRows: new Int32Array(0) }],
      records: [],
    }
    // A spare thread (a read's, started in the background) asked to make the copy from the view, given an address
    // where no database answers.
    const made = await ask('postgres://127.0.0.1:1/none', true, { rebase })
    expect(made.nice).toBe(10)
    expect(withoutClock(made.facts)).toEqual(withoutClock(facts))
  })

  it.runIf(process.env.TEST_DB === 'postgres')(
    'reads in the background at nice 10, and a first read at the process’s own',
    async () => {
      const url = opened.url as string
      const background = await ask(url, true, {})
      expect(background.nice).toBe(10)
      expect(background.facts.size).toBe(facts.size)
      const first = await ask(url, false, {})
      expect(first.nice).toBe(threadNice(process.pid))
      expect(withoutClock(first.facts)).toEqual(withoutClock(facts))
    },
  )
})
