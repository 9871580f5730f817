import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILTER_KEYS } from '#contract/filters'
import { SearchSort } from '#contract/search'
import { seededRandom } from '#server/lib/seeded-random'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, openTestDatabase, type TestApp } from '#server/test/test-app'
import { readFacts } from './listing-facts'
import { keepListingsCurrent, loadFacts, searchReady } from './listing-feed'
import { warmUpSearch, warmUpSearches } from './warm-up'

// An instance warms its search code on searches drawn from its copy before /api/health says it is ready (decision
// 0146): the searches vary every filter the table declares, the text, the sort and the page, and readiness waits for
// them.

let t: TestApp
const rnd = seededRandom(46)
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)] as T

beforeAll(async () => {
  t = await createTestApp()
  const brands = [await createBrand(t.db, { name: 'Lenovo' }), await createBrand(t.db, { name: 'Dell' })]
  const seller = await createUser(t.db, { role: 'seller' })
  for (let i = 0; i < 30; i++)
    await createProduct(t.db, {
      seller,
      brand: pick(brands),
      name: pick(['ThinkPad T14', 'XPS 13', 'Latitude 5420']),
      ramGb: pick([8, 16, 32]),
      storageGb: pick([256, 512, 1024]),
      screenInches: pick([13.3, 14, 15.6, 16]),
      batteryHealthPct: pick([null, 72, 85, 96]),
      resalePriceCents: Math.floor(200 + rnd() * 1800) * 100,
    })
}, 300_000)

afterAll(async () => {
  await t?.close()
})

describe('the warm-up searches', () => {
  it('are different searches that set every declared filter, text, each sort, pages and facets', async () => {
    const copy = await readFacts(t.db)
    const searches = warmUpSearches(copy, 300)
    expect(searches).toHaveLength(300)
    expect(new Set(searches.map((q) => JSON.stringify(q))).size).toBeGreaterThan(290)
    for (const key of FILTER_KEYS)
      expect(
        searches.some((q) => q[key] !== undefined),
        key,
      ).toBe(true)
    for (const sort of SearchSort.options) expect(searches.some((q) => q.sort === sort)).toBe(true)
    expect(searches.filter((q) => q.q).length).toBeGreaterThan(100)
    expect(searches.filter((q) => q.facets === '1').length).toBeGreaterThan(100)
    expect(new Set(searches.map((q) => q.page)).size).toBeGreaterThan(20)
    // The same copy gives the same searches.
    expect(warmUpSearches(copy, 300)).toEqual(searches)
  })

  it('keep the instance loading until they are answered, then it is ready', async () => {
    const infos: { obj: { searches?: number }; msg: string }[] = []
    const errors: string[] = []
    const log = {
      error: (_obj: object, msg: string) => errors.push(msg),
      info: (obj: object, msg: string) => infos.push({ obj, msg }),
    }
    const feed = keepListingsCurrent(t.db, log, 10)
    try {
      const warming = warmUpSearch(t.db, log, { from: 0, count: 40, budgetMs: 120_000 })
      expect(searchReady(t.db)).toBe(false)
      await warming
      expect(searchReady(t.db)).toBe(true)
      expect(errors).toEqual([])
      expect(infos.find((i) => i.msg === 'Search warmed up on its copy of the listings')?.obj.searches).toBe(
        40,
      )
    } finally {
      feed.stop()
    }
  })

  it('that fail leave the instance ready, with the failure logged', async () => {
    const { database, drop } = await openTestDatabase()
    const errors: string[] = []
    const feed = keepListingsCurrent(database.db, { error: () => undefined }, 10)
    try {
      await loadFacts(database.db)
      // Every statement fails from now on: the warm-up's first read of listings among them.
      await database.close()
      await warmUpSearch(database.db, { error: (_obj, msg) => errors.push(msg) }, { from: 0, count: 10 })
      expect(errors).toEqual(['Search could not warm up; ready without it'])
      expect(searchReady(database.db)).toBe(true)
    } finally {
      feed.stop()
      await drop()
    }
  })

  it('are not asked of a copy smaller than the warm-up threshold', async () => {
    const infos: { obj: { searches?: number }; msg: string }[] = []
    const log = { error: () => undefined, info: (obj: object, msg: string) => infos.push({ obj, msg }) }
    const feed = keepListingsCurrent(t.db, log, 10)
    try {
      await warmUpSearch(t.db, log, { from: 1_000 })
      expect(searchReady(t.db)).toBe(true)
      expect(infos.some((i) => i.msg === 'Search warmed up on its copy of the listings')).toBe(false)
    } finally {
      feed.stop()
    }
  })
})
