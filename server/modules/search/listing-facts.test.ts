import { type SQL, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SearchQuery } from '#contract/search'
import { rowsOf } from '#server/lib/paging'
import { createBrand, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { findBrandProducts } from './brand-products'
import { factsFacets, factsTotal } from './facts-counts'
import { type PageAsk, pageHits, timestampMicros } from './facts-pages'
import { idAt, type ListingFacts } from './listing-facts'
import { catchUp, currentFacts, loadFacts, readVersion } from './listing-feed'
import { searchProducts } from './search.queries'

/** The ids of a page of a search as the copy alone chooses them. */
const factsPage = (f: ListingFacts, ask: PageAsk) => pageHits(f, ask)?.map((h) => idAt(f, h.r))

// The totals and facets of a search without text come from the per-instance copy of the listings' facts when it is
// current. Whatever the filters, they must be exactly what SQL counts over the listings themselves.

let t: TestApp
let brandIds: string[] = []

beforeAll(async () => {
  t = await createTestApp()
  brandIds = [
    (await createBrand(t.db, { name: 'Lenovo' })).id,
    (await createBrand(t.db, { name: 'Dell' })).id,
    (await createBrand(t.db, { name: 'Apple' })).id,
  ]
  const seller = await createUser(t.db, { role: 'seller' })
  const disabled = await createUser(t.db, { role: 'seller' })
  // 600 listings with every filter column varied, posted 37 minutes apart (no posting date falls on a choice's edge);
  // some sold, removed, expired, or from a seller whose account is then disabled, none of which may be counted.
  await t.db.execute(sql`
    insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
      description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on,
      battery_health_pct, is_sold, removed_at, expired_at)
    select 'Laptop ' || i, (${sql`${`{${brandIds.join(',')}}`}::uuid[]`})[1 + i % 3],
      case when i % 41 = 0 then ${disabled.id} else ${seller.id} end, '+880 1711 000000',
      20000 + (i * 7919) % 180000, 250000, 'A laptop.',
      (array['Excellent', 'Good', 'Fair'])[1 + i % 3], 'Dhaka', 1,
      (array['Intel Core i5-1135G7', 'AMD Ryzen 7 5800U', 'Apple M2', 'Intel Celeron N4020'])[1 + i % 4],
      (array[4, 8, 16, 32])[1 + i % 4], (array[128, 256, 512, 1024])[1 + (i / 3) % 4],
      (array[13.3, 14, 15.6, 16.2])[1 + (i / 5) % 4], now() - make_interval(mins => i * 37),
      case when i % 4 = 0 then null
        when i % 3 = 0 then 85 + i % 15 when i % 3 = 1 then 75 + i % 10 else 40 + i % 35 end,
      i % 17 = 0, case when i % 23 = 0 then now() end, case when i % 29 = 0 then now() end
    from generate_series(1, 600) i`)
  await t.db.execute(sql`update users set disabled_at = now() where id = ${disabled.id}`)
})

afterAll(async () => {
  await t?.close()
})

const QUERIES = () => {
  const [lenovo, dell] = brandIds
  return [
    '',
    'max_price=800',
    'min_price=500&max_price=1200',
    'posted_within=7',
    'posted_within=30&brand=LENOVO_ID',
    'min_battery_pct=80',
    'min_battery_pct=95&sort=price_asc',
    'min_battery_pct=60&condition=Good,Fair',
    `brand=${lenovo},${dell}&max_price=1500&ram=16,32`,
    'processor=intel-core-i5&processor=apple-m&screen=15&min_storage_gb=512',
    'min_ram_gb=16&posted_within=90&min_battery_pct=80&storage=1024',
    'posted_within=1',
    'max_price=1',
    // A price range walked by price: from its first listing, both ways, to a later page, and with a bound that is a
    // listing's own price (listing 1's, $279.19), which belongs in the range.
    'min_price=500&max_price=1200&sort=price_asc',
    'min_price=500&max_price=1200&sort=price_desc&page=3',
    'min_price=279.19&sort=price_asc',
    'max_price=279.19&sort=price_desc',
    'max_price=279.19&sort=price_asc&condition=Good',
  ].map((qs) => qs.replace('LENOVO_ID', (lenovo as string).toUpperCase()))
}

async function bothWays(qs: string, { facets = true } = {}) {
  const q = SearchQuery.parse({
    ...Object.fromEntries(new URLSearchParams(qs)),
    ...(facets ? { facets: '1' } : {}),
    page_size: '5',
  })
  const fromSql = await searchProducts(t.db, q, { facts: false })
  const fromFacts = await searchProducts(t.db, q)
  return { fromSql, fromFacts }
}

describe('totals and facets from the listings’ facts', () => {
  it('match SQL for every kind of filter', async () => {
    await loadFacts(t.db)
    expect(currentFacts(t.db, await readVersion(t.db))).toBeDefined()
    for (const qs of QUERIES()) {
      const { fromSql, fromFacts } = await bothWays(qs)
      expect(fromFacts, qs).toEqual(fromSql)
    }
    // The queries reach every facet: the comparison is not between two empty answers.
    const { fromFacts } = await bothWays('max_price=1500')
    for (const facet of Object.values(fromFacts.facets ?? {})) expect(facet.length).toBeGreaterThan(0)
    expect(fromFacts.total).toBeGreaterThan(5)
  })

  it('give the total alone (no facets asked for) as SQL counts it, and stop counting at the cap', async () => {
    const facts = await loadFacts(t.db)
    for (const qs of QUERIES()) {
      const { fromSql, fromFacts } = await bothWays(qs, { facets: false })
      expect(fromFacts, qs).toEqual(fromSql)
      expect(fromFacts.facets).toBeUndefined()
      // Every count beyond the cap is the cap plus one, whichever narrowest choice the pass read.
      const q = SearchQuery.parse(Object.fromEntries(new URLSearchParams(qs)))
      const exact = factsTotal(facts as ListingFacts, q, Date.now(), 10_000)
      for (const cap of [0, 3, 40]) {
        expect(factsTotal(facts as ListingFacts, q, Date.now(), cap), `${qs} cap ${cap}`).toBe(
          Math.min(exact, cap + 1),
        )
      }
    }
    expect((await bothWays('max_price=1500', { facets: false })).fromFacts.total).toBeGreaterThan(40)
  })

  it('give a text search, and filters the counts do not know, the facets a count over each listing gives', async () => {
    // Every listing on sale, with what the facets count by and whether it matches the text.
    const listings = (
      (await t.db.execute(sql`
      select p.brand_id::text as brand, p.condition, p.ram_gb::text as ram, p.storage_gb::text as storage,
        floor(p.screen_inches)::int::text as screen, coalesce(p.processor_family, '') as processor,
        coalesce(p.battery_health_pct, -1) as battery, p.resale_price_cents as price, p.ram_gb as ram_gb,
        p.storage_gb as storage_gb, extract(epoch from p.posted_on) * 1000 as posted_ms,
        p.search_vector @@ to_tsquery('simple', 'ryzen') as ryzen
      from products p join users u on u.id = p.seller_id
      where not p.is_sold and p.removed_at is null and p.expired_at is null and u.disabled_at is null`)) as unknown as {
        rows: Record<string, string | number | boolean>[]
      }
    ).rows
    const [lenovo] = brandIds
    const searches = [
      'q=ryzen',
      'q=ryzen&posted_within=10&min_battery_pct=60',
      `q=ryzen&brand=${lenovo}&ram=8&ram=16&min_battery_pct=95&condition=Good&condition=Excellent`,
      'max_price=900&posted_within=45&screen=14',
      'min_battery_pct=72&condition=Good&min_storage_gb=256',
      'min_price=700&posted_within=3&processor=intel-core-i5&processor=amd-ryzen-7',
    ]
    for (const qs of searches) {
      const params = new URLSearchParams(qs)
      // A name given twice is a list of choices, as the route reads it.
      const fields = Object.fromEntries(
        [...new Set(params.keys())].map((k) => [
          k,
          params.getAll(k).length > 1 ? params.getAll(k) : params.get(k),
        ]),
      )
      const q = SearchQuery.parse({ ...fields, facets: '1' })
      expect(Object.keys(q).length, qs).toBe(Object.keys(fields).length + 1)
      const got = (await searchProducts(t.db, q, { facts: false })).facets
      const now = Date.now()
      // Each test of a search, by name, so a facet's count can leave out its own.
      const tests: Record<string, (l: Record<string, string | number | boolean>) => boolean> = {
        base: (l) =>
          (!q.q || l.ryzen === true) &&
          (q.min_price === undefined || Number(l.price) >= q.min_price * 100) &&
          (q.max_price === undefined || Number(l.price) <= q.max_price * 100) &&
          (q.min_storage_gb === undefined || Number(l.storage_gb) >= q.min_storage_gb),
        brand: (l) => !q.brand || q.brand.includes(String(l.brand)),
        condition: (l) => !q.condition || q.condition.includes(String(l.condition) as never),
        ram: (l) => !q.ram || q.ram.includes(Number(l.ram)),
        storage: (l) => !q.storage || q.storage.includes(Number(l.storage)),
        screen: (l) => !q.screen || q.screen.includes(Number(l.screen)),
        processor: (l) => !q.processor || q.processor.includes(String(l.processor) as never),
        posted: (l) => !q.posted_within || Number(l.posted_ms) >= now - q.posted_within * 86_400_000,
        battery: (l) => q.min_battery_pct === undefined || Number(l.battery) >= q.min_battery_pct,
      }
      const allBut = (skip: string) =>
        listings.filter((l) => Object.entries(tests).every(([name, test]) => name === skip || test(l)))
      const byValue = (name: string) => {
        const counts: Record<string, number> = {}
        for (const l of allBut(name)) {
          const value = String(l[name])
          if (!(name === 'processor' && value === '')) counts[value] = (counts[value] ?? 0) + 1
        }
        return counts
      }
      const choices = (list: { value: string; count: number }[] | undefined) =>
        Object.fromEntries((list ?? []).map((c) => [c.value, c.count]))
      for (const name of ['brand', 'condition', 'ram', 'storage', 'screen', 'processor'] as const) {
        expect(choices(got?.[name]), `${qs}: ${name}`).toEqual(byValue(name))
      }
      const posted = Object.fromEntries(
        [1, 7, 30, 90]
          .map((days) => [
            String(days),
            allBut('posted').filter((l) => Number(l.posted_ms) >= now - days * 86_400_000).length,
          ])
          .filter(([, n]) => n !== 0),
      )
      expect(choices(got?.posted_within), `${qs}: posted`).toEqual(posted)
      const high = allBut('battery').filter((l) => Number(l.battery) >= 80).length
      expect(choices(got?.battery), `${qs}: battery`).toEqual(high ? { '80': high } : {})
      // The search is not between two empty answers.
      expect(Object.keys(byValue('brand')).length, qs).toBeGreaterThan(0)
    }
  })

  it('keep a search’s counts per copy, and count the posting-date choices at the moment asked', async () => {
    const facts = (await loadFacts(t.db)) as ListingFacts
    const now = Date.now()
    for (const qs of ['', 'max_price=1500&min_battery_pct=70', `brand=${brandIds[0]}&ram=16`]) {
      const q = SearchQuery.parse(Object.fromEntries(new URLSearchParams(qs)))
      // Posted within ten years passes every listing, so it counts the same, but in one pass of its own.
      const counted = SearchQuery.parse({ ...q, posted_within: '3650' })
      for (const at of [now, now + 0.5 * 86_400_000, now + 3 * 86_400_000, now + 25 * 86_400_000]) {
        const held = factsFacets(facts, q, at)
        expect(held, `${qs} at ${at - now}`).toEqual(factsFacets(facts, counted, at))
        expect(held.postedWithin.some((n) => n > 0)).toBe(true)
      }
    }
  })

  it('label the brand facet with the brand’s name as it is now', async () => {
    await loadFacts(t.db)
    const label = async (qs: string) => {
      const q = SearchQuery.parse({ ...Object.fromEntries(new URLSearchParams(qs)), facets: '1' })
      return (await searchProducts(t.db, q)).facets?.brand.find((c) => c.value === brandIds[2])?.label
    }
    // Facet-filter counts, and counts under a price filter.
    expect(await label('')).toBe('Apple')
    expect(await label('max_price=1500')).toBe('Apple')
    await t.db.execute(sql`update brands set name = 'Apple Inc.' where id = ${brandIds[2]}`)
    expect(await label('')).toBe('Apple Inc.')
    expect(await label('max_price=1500')).toBe('Apple Inc.')
    await t.db.execute(sql`update brands set name = 'Apple' where id = ${brandIds[2]}`)
    expect(await label('')).toBe('Apple')
  })

  it('page through every sort as SQL does, by cursor and by page number, from the copy', async () => {
    // Thirty listings share a price and thirty a posting time, so pages end inside ties, which the id breaks.
    await t.db.execute(sql`
      update products set resale_price_cents = 99900 where id in (select id from products order by id limit 30)`)
    await t.db.execute(sql`
      update products set posted_on = (select max(posted_on) from products) - interval '3 days'
      where id in (select id from products order by id desc limit 30)`)
    const facts = (await loadFacts(t.db)) as ListingFacts
    const [lenovo] = brandIds
    for (const filters of [
      '',
      `brand=${lenovo}&max_price=1500`,
      'min_battery_pct=70&posted_within=9',
      'max_price=1',
    ]) {
      for (const sort of ['newest', 'price_asc', 'price_desc'] as const) {
        const qs = `${filters}&sort=${sort}`
        let cursor: string | undefined
        let pages = 0
        do {
          const q = SearchQuery.parse({
            ...Object.fromEntries(new URLSearchParams(qs)),
            page_size: '12',
            ...(cursor ? { cursor } : {}),
          })
          const fromSql = await searchProducts(t.db, q, { facts: false })
          // The copy's choice alone, before any statement: the same listings in the same order.
          const decoded = cursor
            ? (JSON.parse(Buffer.from(cursor, 'base64url').toString()) as {
                k: (string | number)[]
                id: string
              })
            : undefined
          const ids = factsPage(facts, {
            query: q,
            sort,
            paging: { pageSize: 12, offset: 0 },
            cursor: decoded,
            nowMs: Date.now(),
          })
          expect(ids?.slice(0, 12), `${qs} page ${pages}`).toEqual(fromSql.items.map((p) => p._id))
          expect(await searchProducts(t.db, q), `${qs} page ${pages}`).toEqual(fromSql)
          cursor = fromSql.next_cursor ?? undefined
          pages++
        } while (cursor)
        if (filters === '') expect(pages, qs).toBeGreaterThan(30)
        // A page number skips the matches before it.
        const third = SearchQuery.parse({
          ...Object.fromEntries(new URLSearchParams(qs)),
          page_size: '40',
          page: '3',
        })
        expect(await searchProducts(t.db, third), qs).toEqual(
          await searchProducts(t.db, third, { facts: false }),
        )
      }
    }
  })

  it('go on from a cursor whose listing has since gone, and read times as the database writes them', async () => {
    let facts = (await loadFacts(t.db)) as ListingFacts
    const q = SearchQuery.parse({ sort: 'newest', page_size: '10' })
    const first = await searchProducts(t.db, q)
    const last = first.items.at(-1)?._id as string
    await t.db.execute(sql`update products set is_sold = true where id = ${last}`)
    facts = (await loadFacts(t.db)) as ListingFacts
    const next = SearchQuery.parse({ sort: 'newest', page_size: '10', cursor: first.next_cursor as string })
    const fromSql = await searchProducts(t.db, next, { facts: false })
    const decoded = JSON.parse(Buffer.from(first.next_cursor as string, 'base64url').toString())
    expect(
      factsPage(facts, {
        query: next,
        sort: 'newest',
        paging: { pageSize: 10, offset: 0 },
        cursor: decoded,
        nowMs: Date.now(),
      })?.slice(0, 10),
    ).toEqual(fromSql.items.map((p) => p._id))
    expect(await searchProducts(t.db, next)).toEqual(fromSql)
    expect(fromSql.items.map((p) => p._id)).not.toContain(last)

    expect(timestampMicros('2026-07-16 19:14:19.322248+00')).toBe(
      Date.UTC(2026, 6, 16, 19, 14, 19) * 1000 + 322248,
    )
    expect(timestampMicros('2026-07-16 19:14:19.3+05:30')).toBe(
      Date.UTC(2026, 6, 16, 13, 44, 19) * 1000 + 300000,
    )
    expect(timestampMicros('2026-07-16 19:14:19-03')).toBe(Date.UTC(2026, 6, 16, 22, 14, 19) * 1000)
    for (const bad of ['yesterday', '2026-07-16', 12, undefined]) expect(timestampMicros(bad)).toBeUndefined()
  })

  it('give the brand page each of its listings once, newest first, as the search by brand does', async () => {
    await loadFacts(t.db)
    const brand = brandIds[1] as string
    const walk = async (page: (cursor?: string) => Promise<{ ids: string[]; next: string | null }>) => {
      const ids: string[] = []
      let cursor: string | undefined
      do {
        const got = await page(cursor)
        ids.push(...got.ids)
        cursor = got.next ?? undefined
      } while (cursor)
      return ids
    }
    const fromFacts = await walk(async (cursor) => {
      const got = await findBrandProducts(t.db, brand.toUpperCase(), { page_size: 12, cursor })
      return { ids: got.items.map((p) => p._id), next: got.nextCursor }
    })
    const fromSql = await walk(async (cursor) => {
      const q = SearchQuery.parse({ brand, sort: 'newest', page_size: '12', ...(cursor ? { cursor } : {}) })
      const got = await searchProducts(t.db, q, { facts: false })
      return { ids: got.items.map((p) => p._id), next: got.next_cursor }
    })
    expect(fromFacts.length).toBeGreaterThan(100)
    expect(fromFacts).toEqual(fromSql)
  })

  it('apply a change before answering: the first search after it catches up from the feed, not by reading all again', async () => {
    const q = SearchQuery.parse({ sort: 'price_asc', page_size: '5' })
    // Statements that read a page by the copy's ids, and those that read the copy whole.
    const byIds = async () => {
      const execute = vi.spyOn(t.db, 'execute')
      try {
        const result = await searchProducts(t.db, q)
        const dialect = new PgDialect()
        const texts = execute.mock.calls.map(([query]) => dialect.sqlToQuery(query as SQL).sql)
        return {
          result,
          reads: texts.filter((s) => s.includes('unnest(')).length,
          whole: texts.filter((s) => s.includes('string_agg(brand')).length,
        }
      } finally {
        execute.mockRestore()
      }
    }
    await loadFacts(t.db)
    expect((await byIds()).reads).toBe(1)
    await t.db.execute(sql`
      update products set resale_price_cents = 1 where id = (select id from products
        where not is_sold and removed_at is null and expired_at is null order by resale_price_cents desc limit 1)`)
    // The first search after the change finds out from its own read, applies the change and chooses its page again.
    // That is a copy no change moved lately: an earlier test's change may have moved it less than a second ago, and
    // then a search reads the version first (writes under way, pageByView) and its page once. The clock is set past
    // that second for this search alone.
    vi.setSystemTime(Date.now() + 2_000)
    const first = await byIds().finally(() => vi.useRealTimers())
    expect(first.reads).toBe(2)
    expect(first.whole).toBe(0)
    expect(first.result).toEqual(await searchProducts(t.db, q, { facts: false }))
    expect(first.result.items[0]?.resale_price_cents).toBe(1)
    const second = await byIds()
    expect(second).toEqual({ ...first, reads: 1 })
  })

  it('under writes, share one read of the version among the searches asked before it was sent, and miss no change committed before a search', async () => {
    const q = SearchQuery.parse({ sort: 'price_asc', page_size: '5' })
    const cheapest = sql`update products set resale_price_cents = 1 where id = (select id from products
      where not is_sold and removed_at is null and expired_at is null and resale_price_cents > 1
      order by resale_price_cents desc limit 1) returning id::text as id`
    const dialect = new PgDialect()
    const isVersionRead = (query: unknown) =>
      dialect.sqlToQuery(query as SQL).sql.startsWith('select (select version::text')
    await loadFacts(t.db)
    // A change applied just now: writes are under way, so each search reads the version before it chooses its page.
    const change = async () => {
      const [changed] = await rowsOf<{ id: string }>(t.db, cheapest)
      await catchUp(t.db)
      return changed?.id
    }
    await change()
    const execute = t.db.execute.bind(t.db)
    // The next read of the version, once it has run, answers only when `hold` settles (as over a slow connection).
    let hold: Promise<unknown> | undefined
    let held = 0
    const spy = vi.spyOn(t.db, 'execute').mockImplementation((async (query: SQL) => {
      const result = await execute(query)
      if (hold && isVersionRead(query)) {
        const wait = hold
        hold = undefined
        held++
        await wait
      }
      return result
    }) as never)
    const heldOne = async () => {
      for (let tries = 0; held === 0 && tries < 400; tries++) await new Promise((r) => setTimeout(r, 5))
      expect(held).toBe(1)
      held = 0
    }
    try {
      const together = await Promise.all(Array.from({ length: 8 }, () => searchProducts(t.db, q)))
      const reads = spy.mock.calls.filter(([query]) => isVersionRead(query)).length
      expect(reads).toBeGreaterThan(0)
      expect(reads).toBeLessThan(8)
      for (const answer of together) expect(answer).toEqual(await searchProducts(t.db, q, { facts: false }))
      // A search asked after a change committed while a read of the version sent before it is under way: it waits
      // for a read sent after it came, and its page holds the change.
      await change()
      let release = () => {}
      hold = new Promise<void>((resolve) => {
        release = resolve
      })
      const earlier = searchProducts(t.db, q)
      await heldOne()
      const changed = await change()
      const later = searchProducts(t.db, q)
      await new Promise((r) => setTimeout(r, 20))
      release()
      await earlier
      expect((await later).items.map((p) => p._id)).toContain(changed)
      // A read that never answers holds up the searches that shared it, not the next ones: they read again after a
      // second.
      hold = new Promise(() => {})
      const stuck = searchProducts(t.db, q).catch(() => undefined)
      await heldOne()
      const next = await searchProducts(t.db, q)
      expect(next).toEqual(await searchProducts(t.db, q, { facts: false }))
      void stuck
    } finally {
      spy.mockRestore()
    }
  })

  it('read the versions a page without rows needs (of the copy, the vocabulary and the brands) in one statement, quiet and under writes', async () => {
    // "laptop" is every listing's word, the price none's: no row, so no page statement carries the versions.
    const q = SearchQuery.parse({ q: 'laptop', min_price: '50000', facets: '1' })
    const dialect = new PgDialect()
    const statements = async () => {
      const execute = vi.spyOn(t.db, 'execute')
      try {
        const result = await searchProducts(t.db, q)
        return { result, texts: execute.mock.calls.map(([query]) => dialect.sqlToQuery(query as SQL).sql) }
      } finally {
        execute.mockRestore()
      }
    }
    await loadFacts(t.db)
    // Asked once: the word's correction and the brands' names are the instance's own from then on, checked against
    // the vocabulary's and the brands' versions at each search.
    await searchProducts(t.db, q)
    // Quiet: no change moved the copy in the last second (an earlier test's may have), so no version is read first.
    vi.setSystemTime(Date.now() + 2_000)
    const quiet = await statements().finally(() => vi.useRealTimers())
    expect(quiet.result.items).toEqual([])
    expect(quiet.result.facets).toBeDefined()
    expect(quiet.result).toEqual(await searchProducts(t.db, q, { facts: false }))
    expect(quiet.texts).toHaveLength(1)
    expect(quiet.texts[0]).toMatch(/^select \(select version::text/)
    // Under writes the versions read first serve the whole search.
    await t.db.execute(sql`update products set resale_price_cents = resale_price_cents + 1 where id = (select id
      from products where not is_sold and removed_at is null and expired_at is null limit 1)`)
    await catchUp(t.db)
    const busy = await statements()
    expect(busy.result).toEqual(await searchProducts(t.db, q, { facts: false }))
    expect(busy.texts).toHaveLength(1)
    expect(busy.texts[0]).toMatch(/^select \(select version::text/)
  })

  it('under writes, fail the searches that shared a read of the version that failed, not answer them from a view that may be behind, and read again for the next', async () => {
    const q = SearchQuery.parse({ sort: 'price_asc', page_size: '5' })
    const dialect = new PgDialect()
    const isVersionRead = (query: unknown) =>
      dialect.sqlToQuery(query as SQL).sql.startsWith('select (select version::text')
    await loadFacts(t.db)
    // A change applied just now: writes are under way, so each search reads the version first.
    await t.db.execute(sql`update products set resale_price_cents = resale_price_cents + 1 where id = (select id
      from products where not is_sold and removed_at is null order by id limit 1)`)
    await catchUp(t.db)
    const execute = t.db.execute.bind(t.db)
    let fail = true
    const spy = vi.spyOn(t.db, 'execute').mockImplementation((async (query: SQL) => {
      if (fail && isVersionRead(query)) {
        fail = false
        throw new Error('connection lost')
      }
      return execute(query)
    }) as never)
    try {
      // Those that shared the failed read fail; one that came after it was sent waits for the next and answers.
      const asked = await Promise.allSettled(Array.from({ length: 4 }, () => searchProducts(t.db, q)))
      const sql = await searchProducts(t.db, q, { facts: false })
      expect(asked[0]?.status).toBe('rejected')
      for (const answer of asked) if (answer.status === 'fulfilled') expect(answer.value).toEqual(sql)
      expect(await searchProducts(t.db, q)).toEqual(sql)
    } finally {
      spy.mockRestore()
    }
  })

  it('read a brand id in any case, as SQL does, from the counts and from the facts', async () => {
    await loadFacts(t.db)
    const lenovo = brandIds[0] as string
    for (const extra of ['', '&max_price=1500']) {
      const search = (id: string) =>
        searchProducts(
          t.db,
          SearchQuery.parse({
            ...Object.fromEntries(new URLSearchParams(`brand=${id}${extra}`)),
            facets: '1',
            page_size: '5',
          }),
        )
      const lower = await search(lenovo)
      expect(lower.total).toBeGreaterThan(5)
      expect(await search(lenovo.toUpperCase()), extra).toEqual(lower)
    }
  })

  it('are used again once a listing changed, as soon as the change is applied', async () => {
    await loadFacts(t.db)
    const before = await readVersion(t.db)
    // A price change alone: the version row must still move on.
    await t.db.execute(sql`
      update products set resale_price_cents = 3 where id = (select id from products where not is_sold
        and removed_at is null and expired_at is null order by posted_on desc limit 1)`)
    const after = await readVersion(t.db)
    expect(after).not.toBe(before)
    expect(currentFacts(t.db, after)).toBeUndefined()
    await catchUp(t.db)
    expect(currentFacts(t.db, after)).toBeDefined()
    const { fromSql, fromFacts } = await bothWays('min_price=0.02&max_price=0.05')
    expect(fromSql.total).toBe(1)
    expect(fromFacts).toEqual(fromSql)
    for (const qs of ['max_price=1', 'min_price=0.02&posted_within=1', 'min_price=1', '']) {
      const again = await bothWays(qs)
      expect(again.fromFacts, qs).toEqual(again.fromSql)
    }
  })
})
