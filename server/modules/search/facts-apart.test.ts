import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rowsOf } from '#server/lib/paging'
import { threadNice } from '#server/lib/thread-priority'
import { createBrand, createUser } from '#server/test/factories'
import { openTestDatabase } from '#server/test/test-app'
import { factsReader, readFactsApart, startReader, WHOLE_READ_LOCK } from './facts-apart'
import type { Rebase } from './facts-rebase'
import { type ListingFacts, readFacts } from './listing-facts'

// On PostgreSQL an instance reads its copy of the listings on a worker thread: the copy it receives must be the one
// the main thread would have read, every column, the text index and the combinations of facet values.

const postgres = process.env.TEST_DB === 'postgres'

/** A copy without the moment it was made (and its counts made at that moment): two reads a millisecond apart. */
function withoutClock(f: ListingFacts) {
  const { at: _at, within: _within, ...byCombo } = f.combos.byCombo
  return { ...f, combos: { ...f.combos, byCombo } }
}

describe.runIf(postgres)('the copy of the listings read on a worker thread', () => {
  let drop: (() => Promise<void>) | undefined
  afterAll(async () => {
    await drop?.()
  })

  it('equals the copy read on the main thread', async () => {
    const opened = await openTestDatabase()
    drop = async () => {
      await opened.database.close()
      await opened.drop()
    }
    const { db } = opened.database
    const brands = [
      (await createBrand(db, { name: 'Lenovo' })).id,
      (await createBrand(db, { name: 'Apple' })).id,
    ]
    const seller = await createUser(db, { role: 'seller' })
    await db.execute(sql`
      insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
        description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on,
        battery_health_pct, is_sold)
      select 'ThinkPad ' || i, (${`{${brands.join(',')}}`}::uuid[])[1 + i % 2], ${seller.id}, '+880 1711 000000',
        20000 + (i * 7919) % 180000, 250000, 'Light scratches, new battery.',
        (array['Excellent', 'Good', 'Fair'])[1 + i % 3], 'Dhaka', 1,
        (array['Intel Core i5-1135G7', 'Apple M2'])[1 + i % 2], (array[8, 16, 32])[1 + i % 3], 512, 14,
        now() - make_interval(mins => i * 13), case when i % 4 = 0 then null else 60 + i % 40 end, i % 11 = 0
      from generate_series(1, 3000) i`)
    const here = await readFacts(db)
    const apart = await readFactsApart(opened.url as string)
    expect(apart.size).toBeGreaterThan(2_000)
    expect(withoutClock(apart)).toEqual(withoutClock(here))
    // A bulk load's listings alone (the listings on sale that one commit changed), as listing-feed.ts reads them.
    await db.execute(sql`
      insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
        description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on, is_sold)
      select 'XPS 13 ' || i, ${brands[0]}, ${seller.id}, '+880 1711 000000', 30000 + i, 250000, 'Like new.', 'Good',
        'Dhaka', 1, 'Apple M2', 16, 512, 13.3, now() - make_interval(secs => i), i % 5 = 0
      from generate_series(1, 500) i`)
    const [{ version } = { version: '' }] = await rowsOf<{ version: string }>(
      db,
      sql`select max(version)::text as version from listing_change_commits`,
    )
    const partHere = await readFacts(db, [version])
    const partApart = await readFactsApart(opened.url as string, { commits: [version], background: true })
    expect(partApart.size).toBe(400)
    expect(withoutClock(partApart)).toEqual(withoutClock(partHere))
    // A read past its deadline is stopped and says so (the instance then reads on its own thread).
    await expect(readFactsApart(opened.url as string, { timeoutMs: 1 })).rejects.toThrow(
      /worker thread took over/,
    )
    // A read stopped with the instance ends at once, with the reason it was stopped for.
    const stop = new AbortController()
    const reading = readFactsApart(opened.url as string, { signal: stop.signal })
    const started = Date.now()
    stop.abort(new Error('the instance stops'))
    await expect(reading).rejects.toThrow('the instance stops')
    expect(Date.now() - started).toBeLessThan(1_000)

    // An instance's reader: after its first read a spare thread waits, and the next read while a view answers is
    // made by it (another spare starts after); the spare ends when the instance stops.
    const reader = factsReader(opened.url as string)
    const signal = new AbortController().signal
    expect(reader.hasSpare()).toBe(false)
    expect(withoutClock(await reader.read(signal, { background: false }))).toEqual(
      withoutClock(await readFacts(db)),
    )
    await expect.poll(() => reader.hasSpare()).toBe(true)
    const part = reader.read(signal, { commits: [version], background: true })
    expect(reader.hasSpare()).toBe(false)
    expect(withoutClock(await part)).toEqual(withoutClock(partHere))
    await expect.poll(() => reader.hasSpare()).toBe(true)
    reader.stop()
    expect(reader.hasSpare()).toBe(false)

    // A read in turn (the pile's read again) waits while another instance's holds the lock, then reads; a bulk
    // load's part and a read that requests wait on (far behind) do not wait for it.
    const other = new pg.Client({ connectionString: opened.url as string })
    await other.connect()
    try {
      const [{ pid } = { pid: 0 }] = (await other.query(`select pg_backend_pid() as pid`)).rows
      await other.query(`select pg_advisory_lock(${WHOLE_READ_LOCK})`)
      let read = false
      const inTurn = readFactsApart(opened.url as string, { background: true, inTurn: true }).then(
        (facts) => {
          read = true
          return facts
        },
      )
      const blocked = sql`select count(*)::int as n from pg_stat_activity where ${pid}::int = any(pg_blocking_pids(pid))`
      await expect
        .poll(async () => (await rowsOf<{ n: number }>(db, blocked))[0]?.n, { timeout: 20_000 })
        .toBe(1)
      const partMeanwhile = await readFactsApart(opened.url as string, {
        commits: [version],
        background: true,
      })
      expect(partMeanwhile.size).toBe(400)
      const farBehind = await readFactsApart(opened.url as string, { background: true })
      // Nor does a copy made again from a view in memory (decision 0162): here from the two copies read, the first
      // and the bulk load's part, which together hold every listing on sale.
      const none = new Int32Array(0)
      const rebase = {
        version: partHere.version,
        parts: [
          { facts: here, deadRows: none },
          { facts: partHere, deadRows: none },
        ],
        records: [],
      }
      expect(withoutClock(await readFactsApart(opened.url as string, { background: true, rebase }))).toEqual(
        withoutClock(farBehind),
      )
      expect(read).toBe(false)
      await other.query(`select pg_advisory_unlock(${WHOLE_READ_LOCK})`)
      expect(withoutClock(await inTurn)).toEqual(withoutClock(farBehind))
    } finally {
      await other.end()
    }
  })
})

// The thread yields to the searches by its CPU priority: a read or a copy made again from the view while a view
// answers runs at nice 10 (decision 0129), the first read at the process's own. Each answer says the niceness its
// thread had as it answered.
describe.runIf(process.platform === 'linux')('the priority of the thread reading or making the copy', () => {
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

  /** One answer of a thread started as an instance starts it (factsReader's). */
  function ask(url: string, background: boolean, message: { rebase?: Rebase }) {
    const worker = startReader(url, background)
    return new Promise<{ facts: ListingFacts; nice?: number }>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
      worker.postMessage(message)
    }).finally(() => worker.terminate())
  }

  it('makes a copy again from a view at nice 10, the database not asked', async () => {
    const rebase: Rebase = {
      version: facts.version,
      parts: [{ facts, deadRows: new Int32Array(0) }],
      records: [],
    }
    // A background thread (a spare) asked to make the copy from the view, given an address where no database answers.
    const made = await ask('postgres://127.0.0.1:1/none', true, { rebase })
    expect(made.nice).toBe(10)
    expect(withoutClock(made.facts)).toEqual(withoutClock(facts))
  })

  it.runIf(postgres)(
    'reads in the background at nice 10, and a first read at the process’s own',
    async () => {
      const url = opened.url as string
      const background = await ask(url, true, {})
      expect(background.nice).toBe(10)
      expect(withoutClock(background.facts)).toEqual(withoutClock(facts))
      const first = await ask(url, false, {})
      expect(first.nice).toBe(threadNice(process.pid))
      expect(withoutClock(first.facts)).toEqual(withoutClock(facts))
    },
  )
})
