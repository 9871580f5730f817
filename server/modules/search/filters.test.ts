import { and, type SQL, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILTER_KEYS, filterOf } from '#contract/filters'
import { SearchQuery } from '#contract/search'
import { products } from '#server/db/schema'
import { isOnSale } from '#server/lib/on-sale'
import { rowsOf } from '#server/lib/paging'
import { seededRandom } from '#server/lib/seeded-random'
import { createBrand, createUser } from '#server/test/factories'
import { drawOrder, drawWords, WORDS } from '#server/test/search-draw'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { type AlertListing, alertOf, conditionOf, conditionsOf, copyAnswers } from './filters'
import { loadFacts } from './listing-feed'
import { SearchIndex } from './matcher'
import { canonicalQuery, describeFilters, parseSavedQuery } from './saved-query'
import { searchProducts } from './search.queries'

// The one table of filters (contract/filters.ts): every filter the search's query takes is declared there, and every
// path derived from a declaration agrees with the others — its SQL, an alert's test of a new listing, the search from
// the copy of the listings in memory and the search by SQL (their totals and facets), and a
// saved search's canonical query and description.

let t: TestApp
let brandIds: string[] = []

const rnd = seededRandom(2026)
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)] as T
const some = <T>(xs: readonly T[]) => [...new Set([pick(xs), ...(rnd() < 0.4 ? [pick(xs)] : [])])]

const PROCESSORS = [
  'Intel Core i5-1135G7',
  'Intel Core i7-1185G7',
  'AMD Ryzen 7 5800U',
  'Apple M2',
  'Intel Celeron',
]

/** A random search setting a few of the table's filters (every one of them over the run). */
function randomFilters(): Record<string, string> {
  const q: Record<string, string> = {}
  if (rnd() < 0.3) q.brand = some(brandIds).join(',')
  if (rnd() < 0.3) q.condition = some(['Excellent', 'Good', 'Fair']).join(',')
  if (rnd() < 0.25) q.min_price = String(pick([200, 600, 900]))
  if (rnd() < 0.25) q.max_price = String(pick([500, 1000, 2500]))
  if (rnd() < 0.25) q.ram = some([8, 16, 32]).join(',')
  if (rnd() < 0.25) q.storage = some([256, 512, 1024]).join(',')
  if (rnd() < 0.25) q.screen = some([13, 14, 15, 16, 17]).join(',')
  if (rnd() < 0.25) q.display = some(['compact', 'standard', 'large']).join(',')
  if (rnd() < 0.25) q.processor = some(['intel-core-i5', 'intel-core-i7', 'amd-ryzen-7', 'apple-m']).join(',')
  if (rnd() < 0.25) q.min_battery_pct = String(pick([60, 80, 95]))
  if (rnd() < 0.2) q.min_ram_gb = String(pick([16, 32]))
  if (rnd() < 0.2) q.min_storage_gb = String(pick([512, 1024]))
  return q
}

type Row = AlertListing & { id: string }

beforeAll(async () => {
  t = await createTestApp()
  brandIds = [(await createBrand(t.db)).id, (await createBrand(t.db)).id, (await createBrand(t.db)).id]
  const seller = await createUser(t.db, { role: 'seller' })
  for (let i = 0; i < 150; i++) {
    await t.db.execute(sql`
      insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
        description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on,
        battery_health_pct)
      values (${`${pick(WORDS)} ${i}`}, ${pick(brandIds)}, ${seller.id}, '+880 1711 000000', ${Math.floor(150 + rnd() * 2850) * 100},
        400000, 'Used.', ${pick(['Excellent', 'Good', 'Fair'])}, 'Dhaka', 1, ${pick(PROCESSORS)}, ${pick([8, 16, 32])},
        ${pick([256, 512, 1024])}, ${pick([13.3, 14, 15.6, 16, 17.3])}, now() - make_interval(hours => ${i}),
        ${rnd() < 0.2 ? null : Math.floor(50 + rnd() * 51)})`)
  }
  await loadFacts(t.db)
}, 120_000)

afterAll(async () => {
  await t?.close()
})

describe('the one table of filters', () => {
  it('holds every filter the search takes (a new query parameter without its row fails here)', () => {
    const notFilters = new Set(['q', 'sort', 'facets', 'page', 'page_size', 'limit', 'cursor'])
    const params = Object.keys(SearchQuery.shape).filter((k) => !notFilters.has(k))
    expect([...FILTER_KEYS].sort()).toEqual(params.sort())
    // A saved search lists them in the table's order, between its text and its sort.
    expect(canonicalQuery({ sort: 'newest', min_ram_gb: 8, brand: ['b'], q: 'x' })).toBe(
      'q=x&brand=b&min_ram_gb=8&sort=newest',
    )
  })

  it('selects, alerts, counts and describes alike on every path, for random searches', async () => {
    const rows = await rowsOf<Row>(
      t.db,
      sql`select id, brand_id as "brandId", condition, resale_price_cents as "resalePriceCents", ram_gb as "ramGb",
        storage_gb as "storageGb", screen_inches::float8 as "screenInches", processor_family as "processorFamily",
        battery_health_pct as "batteryHealthPct" from products where ${isOnSale}`,
    )
    const seen = new Set<string>()
    for (let n = 0; n < 60; n++) {
      const raw = randomFilters()
      for (const key of Object.keys(raw)) seen.add(key)
      const q = SearchQuery.parse({ ...raw, facets: '1', page_size: '50' })
      // The table's SQL.
      const { facets, plain } = conditionsOf(q)
      const where = and(isOnSale, ...plain, ...Object.values(facets)) as SQL
      const bySql = (await rowsOf<{ id: string }>(t.db, sql`select id from ${products} where ${where}`))
        .map((r) => r.id)
        .sort()
      // An alert's test, for each listing as if it were just posted.
      const index = new SearchIndex()
      index.add({ id: 's', userId: 'buyer', filters: q, textQuery: null })
      const byAlert = rows
        .filter((l) => index.matchesOf({ ...l, sellerId: 'seller', words: [] }).length === 1)
        .map((l) => l.id)
        .sort()
      expect(byAlert, JSON.stringify(raw)).toEqual(bySql)
      // The search, from the copy and by SQL: the same total and facets as the table's SQL.
      const fromCopy = await searchProducts(t.db, q)
      const fromSql = await searchProducts(t.db, q, { facts: false })
      expect(fromCopy.total, JSON.stringify(raw)).toBe(bySql.length)
      expect(fromCopy).toEqual(fromSql)
      // The same filters with what people type, an order and a page, drawn as the bench's long tail draws them
      // (server/test/search-draw.ts): the fast paths answer the very page, total and facets SQL answers.
      const typed = drawWords(rnd)
      const { sort, page } = drawOrder(rnd)
      const read = { ...(typed ? { q: typed } : {}), ...(sort ? { sort } : {}), ...(page ? { page } : {}) }
      // With the filters, and without them (words and filters together leave few of the 150 listings).
      for (const search of [{ ...raw, ...read }, read]) {
        const full = SearchQuery.parse({ ...search, facets: '1', page_size: '7' })
        expect(await searchProducts(t.db, full), JSON.stringify(search)).toEqual(
          await searchProducts(t.db, full, { facts: false }),
        )
      }
      // A saved search keeps it in one spelling and describes every filter it sets.
      const saved = parseSavedQuery(new URLSearchParams(raw).toString())
      expect(parseSavedQuery(saved.query).query).toBe(saved.query)
      const words = describeFilters(saved.filters, new Map(brandIds.map((id, i) => [id, `Brand ${i}`])))
      if (Object.keys(raw).length === 0) expect(words).toBe('All laptops')
      else
        expect(words.split(' · ').length).toBe(
          Object.keys(raw).length - (raw.min_price && raw.max_price ? 1 : 0),
        )
    }
    // Every filter of the table but the posting date (which alerts ignore, and the random searches leave out) was
    // tried.
    expect([...seen].sort()).toEqual(FILTER_KEYS.filter((k) => k !== 'posted_within').sort())
    expect(alertOf(filterOf('posted_within'), 7)).toBeUndefined()
  })

  it('derives SQL, the copy and alerts that agree, for every declared filter and each of its values', async () => {
    const rows = await rowsOf<Row>(
      t.db,
      sql`select id, brand_id as "brandId", condition, resale_price_cents as "resalePriceCents", ram_gb as "ramGb",
        storage_gb as "storageGb", screen_inches::float8 as "screenInches", processor_family as "processorFamily",
        battery_health_pct as "batteryHealthPct" from products where ${isOnSale}`,
    )
    const VALUES: Record<string, unknown[]> = {
      brand: brandIds.map((id) => [id.toUpperCase()]),
      condition: [['Good'], ['Excellent', 'Fair']],
      min_price: [600, 1500],
      max_price: [900],
      ram: [[16], [8, 32]],
      storage: [[512], [256, 1024]],
      screen: [[13], [15, 17]],
      display: [['compact'], ['standard'], ['large'], ['compact', 'large']],
      processor: [['intel-core-i7'], ['apple-m', 'amd-ryzen-7']],
      posted_within: [1, 7],
      min_battery_pct: [80, 90],
      min_ram_gb: [16],
      min_storage_gb: [512],
    }
    expect(Object.keys(VALUES).sort()).toEqual([...FILTER_KEYS].sort())
    for (const key of FILTER_KEYS) {
      const f = filterOf(key)
      for (const value of VALUES[key] as unknown[]) {
        const label = `${key}=${JSON.stringify(value)}`
        const q = SearchQuery.parse({
          [key]: Array.isArray(value) ? value.join(',') : String(value),
          facets: '1',
        })
        const bySql = (
          await rowsOf<{ id: string }>(
            t.db,
            sql`select id from ${products} where ${isOnSale} and ${conditionOf(f, value)}`,
          )
        ).map((r) => r.id)
        expect(bySql.length, `${label} narrows`).toBeGreaterThan(0)
        const alert = alertOf(f, (q as Record<string, unknown>)[key])
        if (alert)
          expect(
            rows
              .filter(alert)
              .map((r) => r.id)
              .sort(),
            label,
          ).toEqual([...bySql].sort())
        // Every declared filter is answered by the copy.
        expect(copyAnswers(q), label).toBe(true)
        const fromCopy = await searchProducts(t.db, q)
        expect(fromCopy.total, label).toBe(bySql.length)
        expect(fromCopy, label).toEqual(await searchProducts(t.db, q, { facts: false }))
      }
    }
  })
})
