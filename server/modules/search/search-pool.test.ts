import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SearchQuery, SearchResult } from '#contract/search'
import { createBrand, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { findBrandProducts } from './brand-products'
import { catchUp, loadFacts } from './listing-feed'
import type { FactsView } from './listing-view'
import { searchProducts } from './search.queries'
import { type PoolAsk, SearchPool, searchView, startSearchPool } from './search-pool'

// Searches answered on the pool's worker threads, which share the copy of the listings: every page, total and facet
// must be what SQL gives, by page number and by cursor, with text and without, also once listings changed since the
// copy was read (the view posted to the threads anew), and after the pool stopped (answered on the main thread).

let t: TestApp
let brands: string[] = []
let pool: ReturnType<typeof startSearchPool>

beforeAll(async () => {
  t = await createTestApp()
  brands = [
    (await createBrand(t.db, { name: 'Lenovo' })).id,
    (await createBrand(t.db, { name: 'Dell' })).id,
    (await createBrand(t.db, { name: 'Razer' })).id,
  ]
  const seller = await createUser(t.db, { role: 'seller' })
  // 5,000 listings: past the size from which a page is found from a filter's own rows.
  await t.db.execute(sql`
    insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
      description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on,
      battery_health_pct, is_sold)
    select (array['ThinkPad T14', 'XPS 13', 'Blade 15'])[case when i % 89 = 0 then 3 else 1 + i % 2 end] || ' ' || i,
      (${`{${brands.join(',')}}`}::uuid[])[case when i % 89 = 0 then 3 else 1 + i % 2 end],
      ${seller.id}, '+880 1711 000000', 20000 + 2500 * ((i * 7919) % 60), 250000, 'A laptop with its charger.',
      (array['Excellent', 'Good', 'Fair'])[1 + (i / 7) % 3], 'Dhaka', 1,
      (array['Intel Core i5-1135G7', 'AMD Ryzen 7 5800U', 'Intel Core i7-1165G7'])[1 + i % 3],
      (array[8, 16, 32])[1 + i % 3], 512, 14, now() - make_interval(mins => i * 11),
      case when i % 5 = 0 then null else 60 + i % 40 end, i % 31 = 0
    from generate_series(1, 5000) i`)
  await loadFacts(t.db)
  pool = startSearchPool(t.db, 2, { error: (obj, msg) => console.error(msg, obj) })
}, 300_000)

afterAll(async () => {
  pool?.stop()
  await t?.close()
})

const queries = () => {
  const [lenovo, dell, razer] = brands
  return [
    '',
    'facets=1',
    `brand=${razer}&sort=price_asc`,
    `brand=${lenovo},${dell}&condition=Good&facets=1`,
    'min_price=400&max_price=900&sort=price_desc&facets=1',
    'min_battery_pct=80&min_ram_gb=16',
    // Texts with fewer matches than the 1,000 SQL counts a text's matches to.
    'q=thinkpad&condition=Fair&ram=8',
    'q=thinkpad&facets=1&sort=price_asc&min_ram_gb=32&condition=Good',
    'q=blade&min_battery_pct=70',
    'q=xps 13&sort=newest&facets=1&min_ram_gb=32&condition=Excellent',
    'q=charger&condition=Fair&ram=16',
    'posted_within=7&facets=1',
  ]
}

async function page(qs: string, facts: boolean) {
  const q = SearchQuery.parse({ ...Object.fromEntries(new URLSearchParams(qs)), page_size: '7' })
  return searchProducts(t.db, q, { facts })
}

async function agree(qs: string) {
  for (const n of [1, 2, 5, 30]) {
    const withPage = `${qs}&page=${n}`
    expect(await page(withPage, true), withPage).toEqual(await page(withPage, false))
  }
  let cursor: string | null = null
  for (let n = 0; n < 3; n++) {
    const withCursor = cursor ? `${qs}&cursor=${encodeURIComponent(cursor)}` : qs
    const fromFacts = await page(withCursor, true)
    expect(fromFacts, withCursor).toEqual(await page(withCursor, false))
    cursor = fromFacts.next_cursor
    if (!cursor) break
  }
}

describe('searches on the pool’s threads', () => {
  it('write answers with nothing the contract leaves out (the route writes them without the schema)', async () => {
    for (const qs of queries()) {
      const written = JSON.parse(JSON.stringify(await page(qs, true)))
      expect(SearchResult.parse(written), qs).toEqual(written)
    }
  }, 300_000)

  it('answer as SQL does, with text and without, in every order', async () => {
    for (const qs of queries()) await agree(qs)
    expect(pool.answered()).toBeGreaterThan(50)
    // Not two empty answers.
    expect((await page('q=thinkpad&condition=Fair&ram=8', true)).total).toBeGreaterThan(100)
  }, 300_000)

  it('answer as SQL does once listings changed since the copy was read', async () => {
    const razer = brands[2] as string
    await t.db.execute(sql`update products set resale_price_cents = resale_price_cents + 12500
      where brand_id = ${razer} and name like 'Blade 15 8%'`)
    await t.db.execute(sql`update products set is_sold = true where name in ('ThinkPad T14 3', 'XPS 13 4')`)
    await t.db.execute(
      sql`update products set brand_id = ${razer} where name in ('ThinkPad T14 5', 'XPS 13 6')`,
    )
    const before = pool.answered()
    const view = await catchUp(t.db)
    expect(view?.parts[0]?.deadRows.length).toBeGreaterThan(0)
    for (const qs of queries()) await agree(qs)
    expect(pool.answered()).toBeGreaterThan(before)
  }, 300_000)

  it('choose a page once under writes: from the view caught up to the database before the page is chosen', async () => {
    const newest = (n: number) => sql`update products set resale_price_cents = resale_price_cents + 100
      where id = (select id from products where not is_sold order by posted_on desc offset ${n} limit 1)`
    // A change the instance applied just now: writes are under way.
    await t.db.execute(newest(0))
    await catchUp(t.db)
    // Another it has not applied yet (no feed runs in this test), committed before the search is asked.
    await t.db.execute(newest(1))
    const before = pool.answered()
    const found = await page('facets=1', true)
    // One choice of the page, not one from the view behind and another once its rows said it was behind.
    expect(pool.answered() - before).toBe(1)
    expect(found).toEqual(await page('facets=1', false))
  }, 300_000)

  it('answer a brand’s page, by cursor too (its paging is sent without its functions)', async () => {
    const lenovo = brands[0] as string
    const before = pool.answered()
    const first = await findBrandProducts(t.db, lenovo, { page_size: 5 })
    const next = await findBrandProducts(t.db, lenovo, { page_size: 5, cursor: first.nextCursor as string })
    expect(pool.answered() - before).toBe(2)
    expect(next.items[0]?._id).not.toBe(first.items[0]?._id)
    expect(new Set([...first.items, ...next.items].map((p) => p.category_id))).toEqual(new Set([lenovo]))
  }, 300_000)

  it('give each searcher two searches at a time, and the rest to the first searcher free', async () => {
    const view = (await catchUp(t.db)) as FactsView
    const asks: PoolAsk[] = queries()
      .filter((qs) => !qs.includes('q='))
      .map((qs, i) => ({
        query: SearchQuery.parse(Object.fromEntries(new URLSearchParams(qs))),
        sort: i % 2 ? 'price_asc' : 'newest',
        paging: { pageSize: 7, offset: 7 * i },
        nowMs: Date.now(),
        facets: i % 3 === 0,
      }))
    const own = new SearchPool(2, () => undefined)
    try {
      const answers = asks.map((ask) => own.ask(view, ask))
      expect(own.searchers.map((s) => s.pending)).toEqual([2, 2])
      expect(own.queued.length).toBe(asks.length - 4)
      expect(await Promise.all(answers)).toEqual(asks.map((ask) => searchView(view, ask)))
      expect(own.searchers.map((s) => s.pending)).toEqual([0, 0])
      expect(own.queued.length).toBe(0)
      // Those still waiting for a searcher when the pool stops fail with those in flight (their callers answer here).
      const stopped = asks.map((ask) =>
        own.ask(view, ask).then(
          () => 'answered',
          () => 'failed',
        ),
      )
      own.stop()
      expect(await Promise.all(stopped)).toEqual(asks.map(() => 'failed'))
    } finally {
      own.stop()
    }
  }, 300_000)

  it('are answered on the main thread once the pool stopped', async () => {
    pool.stop()
    const answered = pool.answered()
    for (const qs of queries().slice(0, 4)) await agree(qs)
    expect(pool.answered()).toBe(answered)
  }, 300_000)
})
