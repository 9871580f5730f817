import { type SQL, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SearchQuery } from '#contract/search'
import type { Database } from '#server/db/client'
import { rowsOf } from '#server/lib/paging'
import { seededRandom } from '#server/lib/seeded-random'
import { createBrand, createUser } from '#server/test/factories'
import { createTestApp, openTestDatabase, type TestApp } from '#server/test/test-app'
import { rebaseCopy } from './facts-rebase'
import { DAY_MS, idAt, type ListingFacts, readFacts } from './listing-facts'
import {
  catchUp,
  factsStatus,
  keepListingsCurrent,
  loadFacts,
  pileForWholeRead,
  rebaseOf,
  searchReady,
  searchWhileRead,
  settleLevel,
} from './listing-feed'
import { viewPage, viewTotal } from './listing-view'
import { searchProducts } from './search.queries'

// Search keeps its copy of the listings current by applying the change feed (migration 0027), not by reading it all
// again. Random searches must give what a plain SQL query over the table gives (and what the SQL engine gives, for
// text and facets) before and after bursts of random writes, each checked right after the writes commit, with
// every answer chosen from the copy and no whole read of it.

let t: TestApp
let brandIds: string[] = []
let sellers: string[] = []

const rnd = seededRandom(24)
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)] as T
const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1))

const NAMES = [
  'ThinkPad T14',
  'ThinkPad X1 Carbon',
  'XPS 13',
  'Latitude 5420',
  'MacBook Air M2',
  'ZenBook 14',
]
const PROCESSORS = ['Intel Core i5-1135G7', 'AMD Ryzen 7 5800U', 'Apple M2', 'Intel Core i7-1185G7']

/** Listings with random facts, posted within the last 60 days (`recent`: within the last hour). */
async function insertListings(n: number, recent = false) {
  for (let i = 0; i < n; i++) {
    await t.db.execute(sql`
      insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
        description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on,
        battery_health_pct)
      values (${pick(NAMES)}, ${pick(brandIds)}, ${pick(sellers)}, '+880 1711 000000', ${int(150, 3000) * 100}, 400000,
        ${pick(['Battery holds a full day.', 'Light scratches on the lid.', 'Comes with the charger.'])},
        ${pick(['Excellent', 'Good', 'Fair'])}, 'Dhaka', 1, ${pick(PROCESSORS)}, ${pick([8, 16, 32])},
        ${pick([256, 512, 1024])}, ${pick([13.3, 14, 15.6])},
        now() - make_interval(mins => ${recent ? int(0, 60) : int(0, 60 * 24 * 60)}),
        ${rnd() < 0.2 ? null : int(50, 100)})`)
  }
}

const someListing = async () =>
  (
    await rowsOf<{ id: string }>(
      t.db,
      sql`select id from products order by md5(id::text || ${String(rnd())}) limit 1`,
    )
  )[0]?.id as string

/** One random write, as sellers, buyers and admins make them, each its own transaction. */
async function randomWrite() {
  const id = await someListing()
  const kind = int(0, 12)
  switch (kind) {
    case 0:
    case 1:
      return insertListings(int(1, 3), true)
    case 2:
      return t.db.execute(
        sql`update products set resale_price_cents = ${int(150, 3000) * 100} where id = ${id}`,
      )
    case 3:
      return t.db.execute(sql`update products set is_sold = true, sold_at = now() where id = ${id}`)
    case 4:
      return t.db.execute(sql`update products set removed_at = now() where id = ${id}`)
    case 5:
      return t.db.execute(sql`update products set expired_at = now() where id = ${id}`)
    case 6:
      return t.db.execute(
        sql`update products set ram_gb = ${pick([8, 16, 32])}, condition = ${pick(['Excellent', 'Good', 'Fair'])},
          battery_health_pct = ${rnd() < 0.3 ? null : int(50, 100)} where id = ${id}`,
      )
    case 7:
      return t.db.execute(
        sql`update products set name = ${pick(NAMES)}, processor = ${pick(PROCESSORS)} where id = ${id}`,
      )
    case 8:
      // Posted again: its place in posting order moves.
      return t.db.execute(sql`update products set posted_on = now() where id = ${id}`)
    case 9: {
      const seller = pick(sellers.slice(1))
      return t.db.execute(
        sql`update users set disabled_at = case when disabled_at is null then now() end where id = ${seller}`,
      )
    }
    case 10:
      // Back on sale.
      return t.db.execute(
        sql`update products set is_sold = false, sold_at = null, removed_at = null, expired_at = null where id = ${id}`,
      )
    case 11: {
      // Several changes in one transaction; and one rolled back, which changes nothing.
      const other = await someListing()
      await t.db
        .transaction(async (tx) => {
          await tx.execute(
            sql`update products set resale_price_cents = resale_price_cents + 100 where id = ${id}`,
          )
          await tx.execute(sql`update products set is_sold = true where id = ${other}`)
          throw new Error('rolled back')
        })
        .catch(() => undefined)
      return t.db.transaction(async (tx) => {
        await tx.execute(
          sql`update products set resale_price_cents = resale_price_cents + 100 where id = ${id}`,
        )
        await tx.execute(sql`update products set is_sold = true where id = ${other}`)
      })
    }
    default:
      // A listing deleted outright (a removal the database forgets).
      return t.db.execute(sql`delete from products where id = ${id} and not exists (
        select 1 from bookings b where b.product_id = products.id)`)
  }
}

const TEXTS = [
  'thinkpad',
  'thnkpad',
  'xps',
  'macbook air',
  'zenbo',
  'ryzen',
  'charger',
  'latitude 5420',
  'carbon',
]

/** A random search: filters, a sort, a page; text in a third of them; facets on half. */
function randomQuery(): Record<string, string> {
  const q: Record<string, string> = {}
  if (rnd() < 0.33) q.q = pick(TEXTS)
  if (rnd() < 0.4) q.brand = rnd() < 0.3 ? `${pick(brandIds)},${pick(brandIds)}` : pick(brandIds)
  if (rnd() < 0.3) q.condition = pick(['Excellent', 'Good', 'Fair', 'Excellent,Good'])
  if (rnd() < 0.3) q.max_price = String(pick([500, 1000, 2000]))
  if (rnd() < 0.2) q.min_price = String(pick([200, 800]))
  if (rnd() < 0.2) q.min_ram_gb = String(pick([16, 32]))
  if (rnd() < 0.2) q.min_battery_pct = String(pick([60, 80, 95]))
  if (rnd() < 0.1) q.posted_within = String(pick([1, 7, 30]))
  const sort = pick(['', 'newest', 'price_asc', 'price_desc'])
  if (sort) q.sort = sort
  q.page = String(pick([1, 1, 1, 2, 3]))
  q.page_size = '10'
  if (rnd() < 0.5) q.facets = '1'
  return q
}

/** The plain reference: one SQL query over the table for a search without text (its page's ids and its total). */
async function reference(q: SearchQuery) {
  const parts: SQL[] = [
    sql`p.is_sold = false and p.removed_at is null and p.expired_at is null`,
    sql`not exists (select 1 from users u where u.id = p.seller_id and u.disabled_at is not null)`,
  ]
  if (q.brand) parts.push(sql`p.brand_id = any(${`{${q.brand.join(',')}}`}::uuid[])`)
  if (q.condition) parts.push(sql`p.condition = any(${`{${q.condition.join(',')}}`}::text[])`)
  if (q.min_price !== undefined) parts.push(sql`p.resale_price_cents >= ${Math.round(q.min_price * 100)}`)
  if (q.max_price !== undefined) parts.push(sql`p.resale_price_cents <= ${Math.round(q.max_price * 100)}`)
  if (q.min_ram_gb !== undefined) parts.push(sql`p.ram_gb >= ${q.min_ram_gb}`)
  if (q.min_battery_pct !== undefined) parts.push(sql`p.battery_health_pct >= ${q.min_battery_pct}`)
  if (q.posted_within !== undefined)
    parts.push(sql`p.posted_on >= now() - make_interval(days => ${q.posted_within})`)
  const where = sql.join(parts, sql` and `)
  const order =
    q.sort === 'price_asc'
      ? sql`p.resale_price_cents asc, p.id asc`
      : q.sort === 'price_desc'
        ? sql`p.resale_price_cents desc, p.id desc`
        : sql`p.posted_on desc, p.id desc`
  const size = q.page_size ?? 10
  const ids = await rowsOf<{ id: string }>(
    t.db,
    sql`select p.id from products p where ${where} order by ${order} limit ${size} offset ${((q.page ?? 1) - 1) * size}`,
  )
  const [count] = await rowsOf<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from products p where ${where}`,
  )
  return { ids: ids.map((r) => r.id), total: count?.n ?? 0 }
}

/** A search from the copy, and whether the copy chose its page (a read by ids) and whether the copy was read whole. */
async function fromCopy(q: SearchQuery) {
  const execute = vi.spyOn(t.db, 'execute')
  try {
    const result = await searchProducts(t.db, q)
    const dialect = new PgDialect()
    const texts = execute.mock.calls.map(([s]) => dialect.sqlToQuery(s as SQL).sql)
    return {
      result,
      byIds: texts.some((s) => s.includes('unnest(')),
      whole: texts.some((s) => s.includes('string_agg(brand')),
    }
  } finally {
    execute.mockRestore()
  }
}

async function checkSearches(n: number) {
  let byIds = 0
  for (let i = 0; i < n; i++) {
    const fields = randomQuery()
    const q = SearchQuery.parse(fields)
    const got = await fromCopy(q)
    const label = JSON.stringify(fields)
    expect(got.whole, label).toBe(false)
    if (got.byIds) byIds++
    expect(got.result, label).toEqual(await searchProducts(t.db, q, { facts: false }))
    if (!q.q) {
      const ref = await reference(q)
      expect(
        got.result.items.map((p) => p._id),
        label,
      ).toEqual(ref.ids)
      // The total is exact below the threshold (the test catalogue is far below it).
      expect(got.result.total, label).toBe(ref.total)
    }
  }
  return byIds
}

/**
 * The copy made again from the instance's view in memory (rebaseOf) is, array for array, the copy a whole read gives
 * at the view's version (the clock held, as the posting-date counts are as of the making).
 */
async function expectRebaseAsRead(db: Database['db']) {
  const view = await catchUp(db)
  const rebase = rebaseOf(db)
  expect(rebase?.version).toBe(view?.version)
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() })
  try {
    const read = await readFacts(db)
    expect(read.version).toBe(view?.version)
    const made = rebaseCopy(rebase as NonNullable<typeof rebase>)
    expect(made.size).toBe(read.size)
    expect(plain(made)).toEqual(plain(read))
    // Made in shared memory, each array of an item per listing or per word's listing, read or made from the view:
    // handing it over copies none.
    for (const copy of [made, read])
      for (const array of perListing(copy)) expect(array.buffer).toBeInstanceOf(SharedArrayBuffer)
  } finally {
    vi.useRealTimers()
  }
}

/** A copy's arrays of an item per listing, or per word's listing. */
function perListing(f: ListingFacts) {
  const { byCombo } = f.combos
  return [
    ...[f.ids, f.priceCents, f.postedUs, f.postedMs, f.battery, f.byPrice, f.combos.ofRow, ...byCombo.within],
    ...[f.text.all.rows, f.text.title.rows, f.text.titleOf],
    ...[
      byCombo.rows,
      byCombo.price,
      byCombo.battery,
      byCombo.postedMs,
      byCombo.battery80,
      byCombo.batteryAscending,
    ],
    ...Object.values(f.columns).map((column) => column.index),
    ...Object.values(f.valueRows).flat(),
  ]
}

/** Every typed array as a plain one, so equality reads values, not buffers. */
const plain = (value: unknown): unknown =>
  ArrayBuffer.isView(value)
    ? Array.from(value as Uint8Array)
    : Array.isArray(value)
      ? value.map(plain)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
        : value

beforeAll(async () => {
  t = await createTestApp()
  brandIds = [
    (await createBrand(t.db, { name: 'Lenovo' })).id,
    (await createBrand(t.db, { name: 'Dell' })).id,
    (await createBrand(t.db, { name: 'Apple' })).id,
  ]
  sellers = [
    (await createUser(t.db, { role: 'seller' })).id,
    (await createUser(t.db, { role: 'seller' })).id,
    (await createUser(t.db, { role: 'seller' })).id,
  ]
  await insertListings(250)
})

afterAll(async () => {
  await t?.close()
})

describe('the copy of the listings, kept current by the change feed', () => {
  it('answers random searches as plain SQL does, before and right after bursts of random writes', async () => {
    await loadFacts(t.db)
    const loaded = factsStatus(t.db)
    let byIds = await checkSearches(40)
    for (let burst = 0; burst < 6; burst++) {
      const writes = int(3, 12)
      for (let w = 0; w < writes; w++) await randomWrite()
      byIds += await checkSearches(40)
    }
    // The copy chose the pages (not SQL), and was never read whole again: each change was applied.
    expect(byIds).toBeGreaterThan(200)
    const now = factsStatus(t.db)
    expect(now?.version).not.toBe(loaded?.version)
    expect(now?.load_ms).toBe(loaded?.load_ms)
    // Every listing on sale is in the copy, once.
    const [onSale] = await rowsOf<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from products p where not p.is_sold and p.removed_at is null
        and p.expired_at is null and not exists (select 1 from users u where u.id = p.seller_id and u.disabled_at is not null)`,
    )
    expect(now?.listings).toBe(onSale?.n)
  }, 300_000)

  it('answers as plain SQL does once the changes settle into parts of their own, and after more changes to them', async () => {
    const loaded = factsStatus(t.db)
    // Until the changes settled twice: every listing changed since the base in one part, those changed since in a
    // second (the delta empty again, as right after a settling).
    // (The writes before may have settled more already.) Right after a settling, so the few changes below settle none.
    const settledAt = async (parts: number) => {
      let view = await catchUp(t.db)
      for (let w = 0; w < 400 && !((view?.parts.length ?? 0) >= parts && view?.delta.size === 0); w++) {
        await randomWrite()
        view = await catchUp(t.db)
      }
      expect(view?.parts.length).toBeGreaterThanOrEqual(parts)
      return view
    }
    let view = await settledAt(3)
    const levels = view?.parts.length
    await checkSearches(30)
    // A listing of each settled part changed again: its row there is skipped, its new one is in the delta. (A level
    // whose listings all went off sale holds no row.)
    const held = view?.parts.slice(1).filter((part) => part.facts.size > 0) ?? []
    for (const part of held)
      await t.db.execute(
        sql`update products set resale_price_cents = resale_price_cents + 100 where id = ${idAt(part.facts, 0)}`,
      )
    view = await catchUp(t.db)
    expect(view?.parts.length).toBe(levels)
    for (const part of view?.parts.slice(1).filter((part) => part.facts.size > 0) ?? [])
      expect(part.deadRows.length).toBeGreaterThan(0)
    expect(view?.delta.size).toBeGreaterThan(0)
    await checkSearches(30)
    for (let burst = 0; burst < 4; burst++) {
      const writes = int(3, 12)
      for (let w = 0; w < writes; w++) await randomWrite()
      await checkSearches(30)
    }
    // On to four levels settled from the feed, each skipping its listings changed since.
    view = await settledAt(5)
    expect(view?.parts.length).toBe(5)
    await checkSearches(30)
    expect(factsStatus(t.db)?.load_ms).toBe(loaded?.load_ms)
    // The copy made again from this view (the base less its changed rows, the changed listings as they are now),
    // decision 0162: as a whole read gives it, and searched as SQL answers once it is the view's base.
    await expectRebaseAsRead(t.db)
    const rebase = rebaseOf(t.db)
    await loadFacts(t.db, false, rebase)
    expect((await catchUp(t.db))?.parts.length).toBe(1)
    await checkSearches(30)
  }, 300_000)

  it('settles the delta into the deepest level it fits with the levels after it, the first taking every change', () => {
    const held = (...ids: string[]) => new Map(ids.map((id) => [id, 0]))
    const most = [Number.POSITIVE_INFINITY, 6, 3]
    // While there is room, a new level of the delta's listings alone.
    expect(settleLevel([], new Set(['a', 'b']), most)).toEqual({ level: 0, since: new Set(['a', 'b']) })
    expect(settleLevel([held('a')], new Set(['b', 'c']), most)).toEqual({
      level: 1,
      since: new Set(['b', 'c']),
    })
    expect(settleLevel([held('a'), held('b')], new Set(['c']), most).level).toBe(2)
    // The last level made again with them while they fit it; a listing in both counts once.
    expect(settleLevel([held('a'), held('b'), held('c', 'd')], new Set(['d']), most)).toEqual({
      level: 2,
      since: new Set(['c', 'd']),
    })
    // Past it, the level before takes them all (the last goes); past every bounded level, the first.
    expect(settleLevel([held('a'), held('b', 'c'), held('d', 'e')], new Set(['f', 'g']), most)).toEqual({
      level: 1,
      since: new Set(['b', 'c', 'd', 'e', 'f', 'g']),
    })
    expect(
      settleLevel([held('a'), held('b', 'c', 'x'), held('d', 'e')], new Set(['f', 'g']), most).level,
    ).toBe(0)
  })

  it('reads a copy read apart whole again at a pile of √(20 × listings) changes, at least 2,000', () => {
    expect(pileForWholeRead(0)).toBe(2_000)
    expect(pileForWholeRead(200_000)).toBe(2_000)
    // The copy of the 1,000,000 bench (883,202 on sale) and ten times as many: the pile grows as √listings.
    expect(pileForWholeRead(883_202)).toBe(4_203)
    expect(pileForWholeRead(10_000_000)).toBe(14_142)
  })

  it('never answers from a copy that misses a committed sale', async () => {
    const q = SearchQuery.parse({ sort: 'newest', page_size: '5' })
    const [first] = (await searchProducts(t.db, q)).items
    await t.db.execute(sql`update products set is_sold = true where id = ${first?._id}`)
    // Right after the commit, with no time for the background to apply it.
    const after = await fromCopy(q)
    expect(after.byIds).toBe(true)
    expect(after.result.items.map((p) => p._id)).not.toContain(first?._id)
    expect(after.result).toEqual(await searchProducts(t.db, q, { facts: false }))
  })
})

describe('a view of the copy, once later changes are applied', () => {
  it('still answers as it was: the rows the later changes mark are skipped only by the views after them', async () => {
    const before = await catchUp(t.db)
    if (!before) throw new Error('no view')
    const ask = {
      query: SearchQuery.parse({ sort: 'newest' }),
      sort: 'newest' as const,
      paging: { pageSize: 5, offset: 0 },
      nowMs: Date.now(),
    }
    const page = viewPage(before, ask)
    const total = viewTotal(before, ask.query, ask.nowMs, 10_000)
    const [sold, repriced] = page ?? []
    await t.db.execute(sql`update products set is_sold = true where id = ${sold}`)
    await t.db.execute(
      sql`update products set resale_price_cents = resale_price_cents + 1 where id = ${repriced}`,
    )
    const after = await catchUp(t.db, undefined)
    if (!after) throw new Error('no view')
    expect(after.version).not.toBe(before.version)
    expect(after.parts[0]?.dead.at).toBe(before.parts[0]?.dead.at)
    // The earlier view, as a request still reading it sees it.
    expect(viewPage(before, ask)).toEqual(page)
    expect(viewTotal(before, ask.query, ask.nowMs, 10_000)).toBe(total)
    // The later one: the sold listing gone, the repriced one there once (from the changes, not the copy).
    const now = viewPage(after, ask)
    expect(now).not.toContain(sold)
    expect(now?.filter((id) => id === repriced)).toHaveLength(1)
    expect(viewTotal(after, ask.query, ask.nowMs, 10_000)).toBe(total - 1)
  })
})

describe('an instance whose copy is loading', () => {
  it('says so on /api/health and turns reads away; a failed read is logged with its cause and tried again', async () => {
    const other = await createTestApp({ TURN_AWAY_WHILE_LOADING: 'true' })
    try {
      // The whole read fails once, then waits for the test to let it go.
      let release = () => {}
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      let wholeReads = 0
      const execute = other.db.execute.bind(other.db)
      vi.spyOn(other.db, 'execute').mockImplementation(((query: SQL) => {
        if (new PgDialect().sqlToQuery(query).sql.includes('string_agg(brand')) {
          wholeReads++
          if (wholeReads === 1) return Promise.reject(new Error('connection reset'))
          return held.then(() => execute(query))
        }
        return execute(query)
      }) as typeof other.db.execute)
      const errors: { obj: { err?: Error }; msg: string }[] = []
      const feed = keepListingsCurrent(other.db, { error: (obj, msg) => errors.push({ obj, msg }) }, 10)
      try {
        const health = await other.app.inject({ method: 'GET', url: '/api/health' })
        expect(health.statusCode).toBe(503)
        expect(health.json()).toMatchObject({ status: 'loading', listing_copy: null })
        const search = await other.app.inject({ method: 'GET', url: '/api/search' })
        expect(search.statusCode).toBe(503)
        expect(search.headers.connection).toBe('close')
        await vi.waitFor(() => expect(wholeReads).toBe(2))
        expect(errors[0]?.obj.err?.message).toBe('connection reset')
        expect(errors[0]?.msg).toMatch(/could not bring its copy/)
        release()
        await vi.waitFor(async () => {
          const ready = await other.app.inject({ method: 'GET', url: '/api/health' })
          expect(ready.statusCode).toBe(200)
          expect(ready.json()).toMatchObject({ status: 'ok', listing_copy: { listings: 0 } })
        })
        expect((await other.app.inject({ method: 'GET', url: '/api/search' })).statusCode).toBe(200)
      } finally {
        feed.stop()
      }
    } finally {
      vi.restoreAllMocks()
      await other.close()
    }
  })
})

describe('an instance reading its copy apart', () => {
  it('reads it on its own thread when the worker fails, and logs why', async () => {
    const { database, drop } = await openTestDatabase()
    const errors: { obj: { err?: Error }; msg: string }[] = []
    let asked = 0
    const feed = keepListingsCurrent(
      database.db,
      { error: (obj, msg) => errors.push({ obj, msg }) },
      10,
      undefined,
      () => {
        asked++
        return Promise.reject(new Error('worker stopped'))
      },
    )
    try {
      await vi.waitFor(() => expect(searchReady(database.db)).toBe(true))
      expect(asked).toBe(1)
      expect(errors[0]?.obj.err?.message).toBe('worker stopped')
      expect(errors[0]?.msg).toMatch(/worker thread; reading it here/)
    } finally {
      feed.stop()
      await database.close()
      await drop()
    }
  })
})

describe('an instance reading its copy again apart', () => {
  it('does not read it on its own thread when the worker fails: the view goes on answering and it tries again', async () => {
    const { database, drop } = await openTestDatabase()
    const errors: string[] = []
    const reads: boolean[] = []
    const inTurn: (boolean | undefined)[] = []
    const feed = keepListingsCurrent(
      database.db,
      { error: (_obj, msg) => errors.push(msg) },
      10,
      undefined,
      (_signal, read) => {
        reads.push(read.background)
        inTurn.push(read.inTurn)
        return read.background ? Promise.reject(new Error('worker stopped')) : readFacts(database.db)
      },
    )
    try {
      await vi.waitFor(() => expect(searchReady(database.db)).toBe(true))
      // A read again (the pile, the day) while the view answers: its failure is the read's, not a read here.
      await expect(loadFacts(database.db)).rejects.toThrow('worker stopped')
      expect(reads).toEqual([false, true])
      expect(errors.some((msg) => /reading it here/.test(msg))).toBe(false)
      expect(searchReady(database.db)).toBe(true)
      // The next read again goes to a thread of its own once more; a read again for the pile waits its turn
      // (decision 0161), the first read and one that requests wait on (far behind) do not.
      await expect(loadFacts(database.db, true)).rejects.toThrow('worker stopped')
      expect(reads).toEqual([false, true, true])
      expect(inTurn).toEqual([false, false, true])
    } finally {
      feed.stop()
      await database.close()
      await drop()
    }
  })
})

describe('an instance stopping while it reads its copy apart', () => {
  it('stops the read, reads nothing on its own thread, and logs no failure', async () => {
    const { database, drop } = await openTestDatabase()
    const errors: string[] = []
    let reading: AbortSignal | undefined
    const feed = keepListingsCurrent(
      database.db,
      { error: (_obj, msg) => errors.push(msg) },
      10,
      undefined,
      (signal) => {
        reading = signal
        return new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        )
      },
    )
    try {
      await vi.waitFor(() => expect(reading).toBeDefined())
      feed.stop()
      expect(reading?.aborted).toBe(true)
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(factsStatus(database.db)).toBeNull()
      expect(errors).toEqual([])
    } finally {
      await database.close()
      await drop()
    }
  })
})

describe('an instance told of each commit', () => {
  it('applies a change as it commits (the database notifies it), long before its next poll', async () => {
    const { database, drop } = await openTestDatabase()
    const { db } = database
    const errors: string[] = []
    // A poll an hour apart: only the notification can bring the change.
    const feed = keepListingsCurrent(
      db,
      { error: (_obj, msg) => errors.push(msg) },
      3_600_000,
      database.listen,
    )
    try {
      await vi.waitFor(() => expect(factsStatus(db)).not.toBeNull(), { timeout: 20_000 })
      const brand = await createBrand(db)
      const seller = await createUser(db, { role: 'seller' })
      const version = factsStatus(db)?.version as string
      await db.execute(sql`
        insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
          description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on)
        values ('ThinkPad Z13', ${brand.id}, ${seller.id}, '+880 1711 000000', 90000, 150000, 'As new.', 'Excellent',
          'Dhaka', 1, 'AMD Ryzen 7 6850U', 16, 512, 13.3, now())`)
      await vi.waitFor(
        () => {
          const now = factsStatus(db)
          expect(BigInt(now?.version ?? 0)).toBeGreaterThan(BigInt(version))
          expect(now?.listings).toBe(1)
        },
        { timeout: 5_000, interval: 10 },
      )
      expect(errors).toEqual([])
    } finally {
      feed.stop()
      await database.close()
      await drop()
    }
  })
  it('reads the version a second apart while it hears each commit, and at its own pace once it stops hearing them', async () => {
    const { database, drop } = await openTestDatabase()
    // The statements the instance sends, counted: a poll that finds nothing new is one (the version).
    let statements = 0
    const db = new Proxy(database.db, {
      get: (target, key) =>
        key === 'execute'
          ? (query: SQL) => {
              statements++
              return target.execute(query)
            }
          : Reflect.get(target, key),
    })
    let lose = (_err: Error) => {}
    const listen: Database['listen'] = (channel, onNotify, onError) => {
      lose = onError ?? lose
      return database.listen(channel, onNotify)
    }
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
    // Its own pace: every 10 ms.
    const feed = keepListingsCurrent(db, { error: () => undefined }, 10, listen)
    try {
      await vi.waitFor(() => expect(factsStatus(db)).not.toBeNull(), { timeout: 20_000 })
      await sleep(100)
      statements = 0
      await sleep(600)
      // A second apart: one poll at most in 600 ms (at its own pace it would have been about 60).
      expect(statements).toBeLessThanOrEqual(1)
      lose(new Error('connection closed'))
      // The poll set before the loss comes within a second; the next ones 10 ms apart.
      await sleep(1_100)
      statements = 0
      await sleep(600)
      expect(statements).toBeGreaterThanOrEqual(10)
    } finally {
      feed.stop()
      await database.close()
      await drop()
    }
  })
})

/** An instance kept current whose whole reads after the first wait for the test (`release`), and how many began. */
/** `alter`: what a read returns instead of the copy it read (a test's fault). */
async function heldReads(alter = (facts: ListingFacts, _commits?: string[]) => facts) {
  const { database, drop } = await openTestDatabase()
  const { db } = database
  const errors: string[] = []
  const infos: object[] = []
  let release = () => {}
  let held = Promise.resolve()
  const hold = () => {
    held = new Promise<void>((resolve) => {
      release = resolve
    })
  }
  // Reads started; and of them, those of some commits' listings alone (a bulk load read apart).
  const reads = { started: 0, parts: 0 }
  const feed = keepListingsCurrent(
    db,
    { error: (_obj, msg) => errors.push(msg), info: (obj) => infos.push(obj) },
    10,
    undefined,
    async (_signal, { commits }) => {
      reads.started++
      if (commits) reads.parts++
      if (reads.started > 1) await held
      return alter(await readFacts(db, commits), commits)
    },
    FLOOR,
  )
  await vi.waitFor(() => expect(factsStatus(db)).not.toBeNull(), { timeout: 20_000 })
  return {
    db,
    errors,
    infos,
    reads,
    hold,
    release: () => release(),
    close: async () => {
      release()
      feed.stop()
      await database.close()
      await drop()
    },
  }
}

const versionOf = async (db: TestApp['db']) =>
  (await rowsOf<{ v: string }>(db, sql`select version::text as v from listing_counts_version where id`))[0]?.v

/** Until the copy holds every change committed so far. */
const copyCurrent = (db: TestApp['db']) =>
  vi.waitFor(async () => expect(factsStatus(db)?.version).toBe(await versionOf(db)), { timeout: 20_000 })

/** A brand and two sellers for a test of its own database. */
async function brandAndSellers(db: TestApp['db']) {
  const brand = await createBrand(db)
  const seller = await createUser(db, { role: 'seller' })
  const other = await createUser(db, { role: 'seller' })
  return { brand, seller, other }
}

/**
 * The feed's floor in the tests of bulk imports (keepListingsCurrent's `applyFloor`; 5,000 in an instance), and the size
 * of a bulk import there: more changes than the feed applies at once.
 */
const FLOOR = 100
const BULK = FLOOR + 1

/** `n` listings of one seller in one statement. */
const bulkInsert = (db: TestApp['db'], brandId: string, sellerId: string, n: number) =>
  db.execute(sql`
    insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
      description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on)
    select 'ThinkPad T14 ' || i, ${brandId}, ${sellerId}, '+880 1711 000000', 20000 + i * 100, 400000,
      'Comes with the charger.', 'Good', 'Dhaka', 1, 'Intel Core i5-1135G7', 16, 512, 14,
      now() - make_interval(mins => i)
    from generate_series(1, ${n}) i`)

/**
 * A seller with a bulk import's worth of listings and another with two, all in the copy; then reads apart are held:
 * the sellers, and the reads started before the hold.
 */
async function sellersHeld(h: Awaited<ReturnType<typeof heldReads>>) {
  const sellers = await brandAndSellers(h.db)
  await bulkInsert(h.db, sellers.brand.id, sellers.seller.id, BULK)
  await bulkInsert(h.db, sellers.brand.id, sellers.other.id, 2)
  await copyCurrent(h.db)
  expect(factsStatus(h.db)?.listings).toBe(BULK + 2)
  h.hold()
  return { ...sellers, readsBefore: h.reads.started }
}

describe('an instance whose changes pile up', () => {
  it('makes its copy again from its view in memory, reading no listing from the database, and answers as SQL does; reads it whole a day after its last read', async () => {
    const { database, drop } = await openTestDatabase()
    const { db } = database
    const logged: string[] = []
    const startedAt = Date.now()
    const { brand, seller } = await brandAndSellers(db)
    await bulkInsert(db, brand.id, seller.id, 300)
    const execute = vi.spyOn(db, 'execute')
    const wholeReads = () =>
      execute.mock.calls.filter(([q]) =>
        new PgDialect().sqlToQuery(q as SQL).sql.includes('string_agg(brand'),
      ).length
    const log = (_obj: object, msg: string) => logged.push(msg)
    const feed = keepListingsCurrent(db, { error: log, info: log }, 10, undefined, undefined, FLOOR)
    try {
      await vi.waitFor(() => expect(factsStatus(db)).not.toBeNull(), { timeout: 20_000 })
      expect(wholeReads()).toBe(1)
      const madeAgain = () =>
        logged.filter((m) => m === 'Search made its copy of the listings again from its view')
      // One commit of 60 changes: 60 rows dead in the copy and 60 listings as they are now, a pile of 120, past the
      // 100 that brings a copy whole again.
      const pile = async (posted: string) => {
        await db.execute(sql`update products set resale_price_cents = resale_price_cents + 100,
          posted_on = posted_on - ${posted}::interval where id in (select id from products order by id limit 60)`)
        await copyCurrent(db)
      }
      await pile('1 day')
      await vi.waitFor(() => expect(madeAgain(), JSON.stringify(logged)).toHaveLength(1), { timeout: 20_000 })
      await copyCurrent(db)
      expect(wholeReads()).toBe(1)
      expect(logged.filter((m) => m === 'Search read its copy of the listings whole')).toHaveLength(1)
      expect((await catchUp(db))?.parts.length).toBe(1)
      for (const params of [
        { sort: 'price_asc', facets: '1' },
        { sort: 'newest', page: '2', page_size: '7', facets: '1' },
        { q: 'thinkpad', max_price: '150', facets: '1' },
        { posted_within: '1', facets: '1' },
      ]) {
        const q = SearchQuery.parse(params)
        expect(await searchProducts(db, q)).toEqual(await searchProducts(db, q, { facts: false }))
      }
      // A minute short of a day after the read, the pile is made from the view again (its clock then); two minutes
      // later, a day after the read but not after that copy, one change brings a read of the database, in turn.
      vi.useFakeTimers({ toFake: ['Date'], now: startedAt + DAY_MS - 60_000 })
      await pile('1 hour')
      await vi.waitFor(() => expect(madeAgain()).toHaveLength(2), { timeout: 20_000 })
      await copyCurrent(db)
      expect(wholeReads()).toBe(1)
      vi.setSystemTime(startedAt + DAY_MS + 60_000)
      await db.execute(
        sql`update products set resale_price_cents = ${33_300} where id = (select id from products order by id limit 1)`,
      )
      await vi.waitFor(() => expect(wholeReads()).toBe(2), { timeout: 20_000 })
    } finally {
      vi.useRealTimers()
      feed.stop()
      vi.restoreAllMocks()
      await database.close()
      await drop()
    }
  }, 60_000)
})

describe('an instance whose copy made from its view fails', () => {
  it('reads the copy from the database, in turn, the next time', async () => {
    const { database, drop } = await openTestDatabase()
    const { db } = database
    const { brand, seller } = await brandAndSellers(db)
    await bulkInsert(db, brand.id, seller.id, 300)
    const errors: string[] = []
    // Each read asked of the thread: whether from a view, whether in turn. The first (no view yet) fails, so the
    // copy is read here and its pile bound is the feed's (100 with FLOOR); a copy from a view fails too.
    const asked: { fromView: boolean; inTurn: boolean }[] = []
    const feed = keepListingsCurrent(
      db,
      { error: (_obj, msg) => errors.push(msg) },
      10,
      undefined,
      (_signal, read) => {
        asked.push({ fromView: read.rebase !== undefined, inTurn: read.inTurn === true })
        return asked.length === 1 || read.rebase
          ? Promise.reject(new Error('worker stopped'))
          : readFacts(db, read.commits)
      },
      FLOOR,
    )
    try {
      await vi.waitFor(() => expect(searchReady(db)).toBe(true), { timeout: 20_000 })
      const pile = (cents: number) =>
        db.execute(sql`update products set resale_price_cents = ${cents}
          where id in (select id from products order by id limit 60)`)
      // A pile of 120: a copy from the view, which fails.
      await pile(12_300)
      await vi.waitFor(() => expect(asked).toHaveLength(2), { timeout: 20_000 })
      expect(asked[1]).toEqual({ fromView: true, inTurn: false })
      // The next pile, after the back-off: read from the database, in turn, and it lands.
      await new Promise((resolve) => setTimeout(resolve, 600))
      await pile(45_600)
      await vi.waitFor(() => expect(asked).toHaveLength(3), { timeout: 20_000 })
      expect(asked[2]).toEqual({ fromView: false, inTurn: true })
      await copyCurrent(db)
      const q = SearchQuery.parse({ sort: 'price_asc', facets: '1' })
      expect(await searchProducts(db, q)).toEqual(await searchProducts(db, q, { facts: false }))
      expect(errors).toContain('Search could not bring its copy of the listings up to date; trying again')
    } finally {
      feed.stop()
      await database.close()
      await drop()
    }
  }, 60_000)
})

describe('an instance whose copy a bulk import left behind', () => {
  it('answers from its view without the import until the read lands, while every other change shows at once', async () => {
    const h = await heldReads()
    const { db } = h
    try {
      const { brand, seller, other } = await brandAndSellers(db)
      await bulkInsert(db, brand.id, other.id, 3)
      await copyCurrent(db)
      const before = await versionOf(db)
      h.hold()
      const readsBefore = h.reads.started
      await bulkInsert(db, brand.id, seller.id, BULK)
      const imported = await versionOf(db)
      // A listing posted after the import, and one of the listings before it sold: both show at once.
      const [sold] = await rowsOf<{ id: string }>(
        db,
        sql`select id from products where seller_id = ${other.id} and name = 'ThinkPad T14 1'`,
      )
      await db.execute(sql`update products set is_sold = true where id = ${sold?.id}`)
      await db.execute(sql`
        insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
          description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on)
        values ('XPS 13 after the import', ${brand.id}, ${other.id}, '+880 1711 000000', 10000, 400000,
          'Comes with the charger.', 'Good', 'Dhaka', 1, 'Apple M2', 16, 512, 13.3, now())`)
      const now = await versionOf(db)
      await vi.waitFor(() => expect(h.reads.started).toBeGreaterThan(readsBefore), { timeout: 20_000 })
      await catchUp(db, now)
      // The health says the version before the import: every change up to it is held, the import's not yet.
      expect(BigInt(factsStatus(db)?.version ?? 0)).toBeLessThan(BigInt(imported ?? 0))
      expect(BigInt(factsStatus(db)?.version ?? 0)).toBeGreaterThanOrEqual(BigInt(before ?? 0))
      const q = SearchQuery.parse({ sort: 'price_asc', facets: '1' })
      const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 15_000))
      const answer = await Promise.race([searchProducts(db, q), waited])
      expect(answer).not.toBe('waited')
      const found = answer as Awaited<ReturnType<typeof searchProducts>>
      // Not the import's; the two listings left of three before it, and the one posted after it.
      expect(found.total).toBe(3)
      expect(found.items.map((p) => p.name)).toEqual([
        'XPS 13 after the import',
        'ThinkPad T14 2',
        'ThinkPad T14 3',
      ])
      expect(found.facets?.brand).toEqual([expect.objectContaining({ count: 3 })])
      h.release()
      // The read lands: every answer is SQL's again, the import's listings in it.
      await vi.waitFor(() => expect(factsStatus(db)?.version).toBe(now), { timeout: 20_000 })
      expect(factsStatus(db)?.listings).toBe(BULK + 3)
      const q2 = SearchQuery.parse({ sort: 'price_asc', page: '3', page_size: '5', facets: '1' })
      expect(await searchProducts(db, q2)).toEqual(await searchProducts(db, q2, { facts: false }))
      expect(h.errors).toEqual([])
    } finally {
      await h.close()
    }
  }, 180_000)

  it('takes out of the view at once the listings a bulk change altered, but for those changed again, and leaves nothing out when a bulk change only takes listings off sale', async () => {
    const h = await heldReads()
    const { db } = h
    try {
      const { seller, other, readsBefore } = await sellersHeld(h)
      // The seller's every listing posted again and repriced in one statement (left to the read), then one of them
      // changed alone: the view holds it as it is now, and none of the others as they were (old prices, old order).
      await db.execute(
        sql`update products set posted_on = posted_on + interval '1 minute', resale_price_cents = resale_price_cents * 2
          where seller_id = ${seller.id}`,
      )
      const [one] = await rowsOf<{ id: string }>(
        db,
        sql`select id from products where seller_id = ${seller.id} order by posted_on desc limit 1`,
      )
      await db.execute(sql`update products set resale_price_cents = 15000 where id = ${one?.id}`)
      let now = await versionOf(db)
      await vi.waitFor(() => expect(h.reads.started).toBeGreaterThan(readsBefore), { timeout: 20_000 })
      await catchUp(db, now)
      const cheap = await searchProducts(db, SearchQuery.parse({ max_price: '150', facets: '1' }))
      expect(cheap.total).toBe(1)
      expect(cheap.items[0]?._id).toBe(one?.id)
      const all = SearchQuery.parse({ sort: 'price_asc', facets: '1' })
      const meanwhile = await searchProducts(db, all)
      expect(meanwhile.total).toBe(3)
      expect(meanwhile.items.map((p) => p._id).sort()).toEqual(
        (
          await rowsOf<{ id: string }>(
            db,
            sql`select id::text as id from products where seller_id = ${other.id} or id = ${one?.id}`,
          )
        )
          .map((r) => r.id)
          .sort(),
      )
      h.release()
      await copyCurrent(db)
      expect(await searchProducts(db, all)).toEqual(await searchProducts(db, all, { facts: false }))
      expect((await searchProducts(db, all)).total).toBe(BULK + 2)
      // The seller disabled: one statement takes their every listing off sale, out of the view at once, and nothing
      // is left out: the copy is complete at once.
      h.hold()
      await db.execute(sql`update users set disabled_at = now() where id = ${seller.id}`)
      now = await versionOf(db)
      await catchUp(db, now)
      expect(factsStatus(db)?.version).toBe(now)
      const q = SearchQuery.parse({ facets: '1' })
      expect(await searchProducts(db, q)).toEqual(await searchProducts(db, q, { facts: false }))
      expect((await searchProducts(db, q)).total).toBe(2)
      expect(h.errors).toEqual([])
    } finally {
      await h.close()
    }
  }, 180_000)

  it('takes a bulk delete out of the view at once and leaves a bulk import after it to the read, each one statement', async () => {
    const h = await heldReads()
    const { db } = h
    try {
      const { brand, seller, other, readsBefore } = await sellersHeld(h)
      // The seller's every listing deleted (gone from products: none of them is on sale, none is found), then a bulk
      // import by the other seller, before the view moves: applied together or one after the other.
      await db.execute(sql`delete from products where seller_id = ${seller.id}`)
      await bulkInsert(db, brand.id, other.id, BULK)
      const now = await versionOf(db)
      await vi.waitFor(() => expect(h.reads.started).toBeGreaterThan(readsBefore), { timeout: 20_000 })
      await catchUp(db, now)
      const all = SearchQuery.parse({ sort: 'price_asc', facets: '1' })
      // The deleted listings are out at once; the import waits for its read.
      const meanwhile = await searchProducts(db, all)
      expect(meanwhile.total).toBe(2)
      expect(BigInt(factsStatus(db)?.version ?? 0)).toBeLessThan(BigInt(now ?? 0))
      await importLanded(h, all)
    } finally {
      await h.close()
    }
  }, 180_000)

  it('applies a bulk import committed while it looks at a bulk delete in its next application, not by a whole read', async () => {
    const h = await heldReads()
    const { db } = h
    try {
      const { brand, seller, other } = await sellersHeld(h)
      const parts = h.reads.parts
      const wholeReads = h.reads.started - parts
      // The import commits just after the feed looked at the delete's commit (readBulk) and before it reads the
      // other changes of that application: they are read up to the version it started from, the import left to
      // the next application (which leaves it to a read of its own), not seen as too many changes to apply.
      const execute = db.execute.bind(db)
      let imported = false
      vi.spyOn(db, 'execute').mockImplementation((async (query: SQL) => {
        const result = await execute(query)
        if (!imported && new PgDialect().sqlToQuery(query).sql.includes('as any_on_sale')) {
          imported = true
          await bulkInsert(db, brand.id, other.id, BULK)
        }
        return result
      }) as typeof db.execute)
      await db.execute(sql`delete from products where seller_id = ${seller.id}`)
      await vi.waitFor(() => expect(h.reads.parts).toBe(parts + 1), { timeout: 10_000 })
      expect(imported).toBe(true)
      expect(h.reads.started - h.reads.parts).toBe(wholeReads)
      await catchUp(db, await versionOf(db))
      const all = SearchQuery.parse({ sort: 'price_asc', facets: '1' })
      expect((await searchProducts(db, all)).total).toBe(2)
      await importLanded(h, all)
    } finally {
      await h.close()
    }
  }, 180_000)
})

/** The held read let go: the view reaches the database and answers `all` as SQL does, the other seller's import in it. */
async function importLanded(h: Awaited<ReturnType<typeof heldReads>>, all: SearchQuery) {
  h.release()
  await copyCurrent(h.db)
  expect(await searchProducts(h.db, all)).toEqual(await searchProducts(h.db, all, { facts: false }))
  expect((await searchProducts(h.db, all)).total).toBe(BULK + 2)
  expect(h.errors).toEqual([])
}

/**
 * Three listings in the copy, then a bulk import whose read apart has begun and is held: the reads before
 * it, and the import's listing of a name.
 */
async function importHeld(h: Awaited<ReturnType<typeof heldReads>>) {
  const { brand, seller, other } = await brandAndSellers(h.db)
  await bulkInsert(h.db, brand.id, other.id, 3)
  await copyCurrent(h.db)
  h.hold()
  const readsBefore = { ...h.reads }
  await bulkInsert(h.db, brand.id, seller.id, BULK)
  await vi.waitFor(() => expect(h.reads.started).toBeGreaterThan(readsBefore.started), { timeout: 20_000 })
  const imported = (name: string) =>
    sql`(select id from products where seller_id = ${seller.id} and name = ${name})`
  return { readsBefore, imported }
}

describe('an instance reading a bulk import apart', () => {
  it('reads the import again when its part could not be added, and holds its listings once it is', async () => {
    let broken = false
    // The first part read claims a size no shared memory holds: building it fails, as a refused allocation would.
    const h = await heldReads((facts, commits) => {
      if (!commits || broken) return facts
      broken = true
      return { ...facts, size: -1 }
    })
    try {
      const { brand, seller, other } = await brandAndSellers(h.db)
      await bulkInsert(h.db, brand.id, other.id, 3)
      await copyCurrent(h.db)
      await bulkInsert(h.db, brand.id, seller.id, BULK)
      // Until the part is in the view its listings stay left out (SQL answers for them); then they are held.
      await vi.waitFor(() => expect(factsStatus(h.db)?.listings).toBe(BULK + 3), { timeout: 30_000 })
      await copyCurrent(h.db)
      expect(broken).toBe(true)
      expect(h.reads.parts).toBe(2)
      expect(h.errors).toEqual(['Search could not bring its copy of the listings up to date; trying again'])
    } finally {
      await h.close()
    }
  })

  it('adds the import alone to its view, and answers as SQL does whatever changed the import meanwhile and after', async () => {
    const h = await heldReads()
    const { db } = h
    try {
      const { readsBefore, imported } = await importHeld(h)
      // The import's listings alone are read, not the copy whole.
      expect(h.reads.parts).toBe(readsBefore.parts + 1)
      // While its read is held: one of the import sold, one repriced and posted again, one repriced (each changed
      // before or after the read's moment, as it lands: the view must hold each once, as it is now).
      await db.execute(sql`update products set is_sold = true where id = ${imported('ThinkPad T14 10')}`)
      await db.execute(
        sql`update products set resale_price_cents = 100, posted_on = now() where id = ${imported('ThinkPad T14 20')}`,
      )
      h.release()
      await db.execute(
        sql`update products set resale_price_cents = 150 where id = ${imported('ThinkPad T14 30')}`,
      )
      await copyCurrent(db)
      expect(factsStatus(db)?.listings).toBe(BULK + 2)
      // The same searches through the copy (its base, the import's part, the changes since) and through SQL.
      const same = async () => {
        for (const params of [
          { sort: 'price_asc', facets: '1' },
          { sort: 'price_desc', page: '3', page_size: '5' },
          { q: 'thinkpad', max_price: '210', facets: '1' },
          { max_price: '2', facets: '1' },
          { page: '2', page_size: '7', facets: '1' },
        ]) {
          const q = SearchQuery.parse(params)
          expect(await searchProducts(db, q)).toEqual(await searchProducts(db, q, { facts: false }))
        }
      }
      await same()
      const cheapest = await searchProducts(db, SearchQuery.parse({ sort: 'price_asc', page_size: '2' }))
      expect(cheapest.items.map((p) => p.name)).toEqual(['ThinkPad T14 20', 'ThinkPad T14 30'])
      // After it landed: more of the import changed, each found in the import's part.
      await db.execute(sql`update products set is_sold = true where id = ${imported('ThinkPad T14 40')}`)
      await db.execute(
        sql`update products set resale_price_cents = 120 where id = ${imported('ThinkPad T14 20')}`,
      )
      await db.execute(
        sql`update products set posted_on = now() - interval '1 year' where id = ${imported('ThinkPad T14 50')}`,
      )
      await copyCurrent(db)
      expect(factsStatus(db)?.listings).toBe(BULK + 1)
      await same()
      // Made again in memory from the two parts read (the base and the import's), each less its changed rows.
      expect(rebaseOf(db)?.parts.length).toBe(2)
      await expectRebaseAsRead(db)
      // No whole read was needed.
      expect(h.reads.started - h.reads.parts).toBe(readsBefore.started - readsBefore.parts)
      expect(h.errors).toEqual([])
    } finally {
      await h.close()
    }
  }, 180_000)
})

describe('an instance adding a bulk import read apart while the view moves', () => {
  it('reads again only the changes since its last round, and answers as SQL does', async () => {
    const h = await heldReads()
    const { db } = h
    try {
      const { imported } = await importHeld(h)
      // Changes commit after the part's read and the view applies them before the part is added: the part reads the
      // changes since its read; and while it reads them, another commits and is applied, so a second round reads the
      // changes since the first.
      const dialect = new PgDialect()
      const execute = db.execute.bind(db)
      const moveView = async (change: SQL) => {
        await execute(change)
        await catchUp(db, await versionOf(db))
      }
      let partRead = false
      // Each read of the changes since, as the versions it reads between.
      const sinceReads: unknown[][] = []
      const spy = vi.spyOn(db, 'execute').mockImplementation((async (query: SQL) => {
        const { sql: text, params } = dialect.sqlToQuery(query)
        const result = await execute(query)
        if (!partRead && text.includes('string_agg(')) {
          partRead = true
          await moveView(
            sql`update products set resale_price_cents = 110 where id = ${imported('ThinkPad T14 10')}`,
          )
        } else if (text.includes('from c group by c.product_id')) {
          sinceReads.push(params)
          if (sinceReads.length === 1)
            await moveView(
              sql`update products set resale_price_cents = 120, posted_on = now() where id = ${imported('ThinkPad T14 20')}`,
            )
        }
        return result
      }) as typeof db.execute)
      try {
        h.release()
        // Two rounds at least (a poll under way when a round ends makes another, which reads nothing).
        await vi.waitFor(
          () =>
            expect(h.infos).toContainEqual(expect.objectContaining({ rounds: expect.toBeOneOf([2, 3, 4]) })),
          { timeout: 20_000 },
        )
      } finally {
        spy.mockRestore()
      }
      // The second round read from where the first stopped, not from the part's version again.
      expect(sinceReads).toHaveLength(2)
      expect(sinceReads[1]?.[0]).toBe(sinceReads[0]?.[1])
      expect(sinceReads[1]?.[0]).not.toBe(sinceReads[0]?.[0])
      await copyCurrent(db)
      expect(factsStatus(db)?.listings).toBe(BULK + 3)
      for (const params of [
        { sort: 'price_asc', facets: '1' },
        { sort: 'newest', page_size: '3' },
        { q: 'thinkpad', max_price: '125', facets: '1' },
      ]) {
        const q = SearchQuery.parse(params)
        expect(await searchProducts(db, q)).toEqual(await searchProducts(db, q, { facts: false }))
      }
      const cheapest = await searchProducts(db, SearchQuery.parse({ sort: 'price_asc', page_size: '2' }))
      expect(cheapest.items.map((p) => p.name)).toEqual(['ThinkPad T14 10', 'ThinkPad T14 20'])
      expect(h.errors).toEqual([])
    } finally {
      await h.close()
    }
  }, 180_000)
})

describe('an instance whose copy the feed can no longer bring up', () => {
  it('answers searches by SQL while it reads the copy whole, without waiting for the read', async () => {
    const h = await heldReads()
    const { db } = h
    try {
      const { brand, seller } = await brandAndSellers(db)
      await bulkInsert(db, brand.id, seller.id, 3)
      await copyCurrent(db)
      h.hold()
      const readsBefore = h.reads.started
      // A change, and the feed pruned past it (as the feed's cleanup does to a copy left behind for long), in one
      // transaction: its commit's note is written at once (the deferred trigger made immediate) and pruned before the
      // commit, so the instance never sees the change in the feed. Pruned after the commit, an instance that applied
      // the change in between (a busy machine's test pauses) never needed the whole read this test waits for.
      await db.transaction(async (tx) => {
        await bulkInsert(tx, brand.id, seller.id, 2)
        await tx.execute(sql`set constraints all immediate`)
        await tx.execute(sql`delete from listing_change_commits`)
      })
      const now = await versionOf(db)
      await vi.waitFor(() => expect(h.reads.started).toBeGreaterThan(readsBefore), { timeout: 20_000 })
      const q = SearchQuery.parse({ sort: 'price_asc', facets: '1' })
      const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 15_000))
      const answer = await Promise.race([searchProducts(db, q), waited])
      expect(answer).toEqual(await searchProducts(db, q, { facts: false }))
      expect(answer).toMatchObject({ total: 5 })
      h.release()
      await vi.waitFor(() => expect(factsStatus(db)?.version).toBe(now), { timeout: 20_000 })
      expect(factsStatus(db)?.listings).toBe(5)
      expect(h.errors).toEqual([])
    } finally {
      await h.close()
    }
  }, 120_000)
})

describe('an instance whose whole read fails after a bulk import', () => {
  it('tries again later each time, not at every poll, and logs each failure', async () => {
    const { database, drop } = await openTestDatabase()
    const { db } = database
    const errors: string[] = []
    let reads = 0
    // Every read after the first fails (whole, or of a bulk load alone), apart and on the instance's own thread alike.
    const execute = db.execute.bind(db)
    vi.spyOn(db, 'execute').mockImplementation(((query: SQL) =>
      reads > 1 && new PgDialect().sqlToQuery(query).sql.includes('string_agg(brand')
        ? Promise.reject(new Error('connection reset'))
        : execute(query)) as typeof db.execute)
    const feed = keepListingsCurrent(
      db,
      { error: (_obj, msg) => errors.push(msg) },
      10,
      undefined,
      async (_signal, { commits }) => {
        reads++
        return readFacts(db, commits)
      },
      FLOOR,
    )
    try {
      await vi.waitFor(() => expect(factsStatus(db)).not.toBeNull(), { timeout: 20_000 })
      const { brand, seller } = await brandAndSellers(db)
      await bulkInsert(db, brand.id, seller.id, BULK)
      await vi.waitFor(() => expect(reads).toBeGreaterThan(1), { timeout: 20_000 })
      // The copy falls back to reading on its own thread once the worker fails; a second in, with a poll every 10 ms,
      // the waits of 0.5 s, 1 s, 2 s… between failed reads leave a handful of tries, not a hundred.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      expect(reads).toBeLessThanOrEqual(4)
      expect(errors.length).toBeGreaterThan(0)
    } finally {
      feed.stop()
      vi.restoreAllMocks()
      await database.close()
      await drop()
    }
  }, 60_000)
})

describe('an instance reading its copy for the first time', () => {
  it('answers searches by SQL one at a time meanwhile, without waiting for the read', async () => {
    const { database, drop } = await openTestDatabase()
    const { db } = database
    const errors: string[] = []
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const { brand, seller } = await brandAndSellers(db)
    await bulkInsert(db, brand.id, seller.id, 20)
    const feed = keepListingsCurrent(
      db,
      { error: (_obj, msg) => errors.push(msg) },
      10,
      undefined,
      async () => {
        await held
        return readFacts(db)
      },
    )
    try {
      const q = SearchQuery.parse({ sort: 'price_asc', page: '3', page_size: '5', facets: '1' })
      const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 15_000))
      const answer = await Promise.race([searchProducts(db, q), waited])
      expect(answer).toEqual(await searchProducts(db, q, { facts: false }))
      expect(answer).toMatchObject({ total: 20 })
      // One search at a time asks SQL; the rest wait for the turn, or for the copy when the read ends first.
      const started: number[] = []
      const gates = Array.from({ length: 4 }, () => {
        let resolve = () => {}
        const promise = new Promise<void>((r) => {
          resolve = r
        })
        return { promise, resolve }
      })
      const search = (i: number) =>
        searchWhileRead(db, async () => {
          started.push(i)
          await gates[i]?.promise
          // The first fails while it holds the turn: the turn passes on all the same.
          if (i === 0) throw new Error('SQL failed')
          return i
        }).catch((err: Error) => err.message)
      const asked = [0, 1].map(search)
      await vi.waitFor(() => expect(started).toEqual([0]))
      gates[0]?.resolve()
      await vi.waitFor(() => expect(started).toEqual([0, 1]))
      const later = [2, 3].map(search)
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(started).toEqual([0, 1])
      release()
      // The copy read: the two waiting go at once, though the turn is still held.
      await vi.waitFor(() => expect(started.sort()).toEqual([0, 1, 2, 3]), { timeout: 20_000 })
      for (const gate of gates) gate.resolve()
      expect(await Promise.all([...asked, ...later])).toEqual(['SQL failed', 1, 2, 3])
      await vi.waitFor(() => expect(factsStatus(db)?.listings).toBe(20), { timeout: 20_000 })
      expect(errors).toEqual([])
    } finally {
      release()
      feed.stop()
      await database.close()
      await drop()
    }
  }, 180_000)
})
