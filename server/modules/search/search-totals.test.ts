import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SearchQuery, SearchResult } from '#contract/search'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { loadFacts } from './listing-feed'
import { searchProducts } from './search.queries'

// The totals and facet counts of searches without text or price, and a brand page's total, are those of the listings
// themselves, however they were counted.

let t: TestApp
let lenovo = ''
let dell = ''

beforeAll(async () => {
  t = await createTestApp()
  lenovo = (await createBrand(t.db, { name: 'Lenovo' })).id
  dell = (await createBrand(t.db, { name: 'Dell' })).id
})

afterAll(async () => {
  await t?.close()
})

async function search(query: string) {
  const res = await t.app.inject({ url: `/api/search?${query}` })
  expect(res.statusCode, res.body).toBe(200)
  return SearchResult.parse(res.json())
}

describe('totals and facets', () => {
  it('gives the same totals and facets as counting the listings', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    for (let i = 0; i < 30; i++)
      await createProduct(t.db, {
        brand: { id: i % 3 ? lenovo : dell },
        seller,
        ramGb: [8, 16, 32][i % 3],
        storageGb: [256, 512][i % 2],
        condition: (['Excellent', 'Good', 'Fair'] as const)[i % 3],
        batteryHealthPct: i % 3 === 2 ? null : [85, 95, 78, 70][i % 4],
      })
    // page_size=1: the total is counted, not taken from the page. By the copy (read first) and by SQL alone.
    await loadFacts(t.db)
    for (const query of [
      '',
      `brand=${lenovo}`,
      'condition=Good,Fair&ram=16',
      'min_ram_gb=16&storage=512',
      'min_battery_pct=80',
      `min_battery_pct=80&brand=${dell}&ram=8,32`,
    ]) {
      const q = SearchQuery.parse(Object.fromEntries(new URLSearchParams(`facets=1&page_size=1&${query}`)))
      const fromCopy = await searchProducts(t.db, q)
      const bySql = await searchProducts(t.db, q, { facts: false })
      expect(fromCopy.total, query).toBe(bySql.total)
      expect(fromCopy.total_is_estimate).toBe(false)
      expect(fromCopy.facets, query).toEqual(bySql.facets)
      // And the listings themselves, every one on one page.
      const all = await search(`page_size=100&${query}`)
      expect(fromCopy.total, query).toBe(all.items.length)
    }
    const brandPage = await t.app.inject({ url: `/api/category/${lenovo}?page_size=1` })
    expect(brandPage.headers['x-total-count']).toBe(
      String((await search(`brand=${lenovo}&page_size=100`)).items.length),
    )
  })
})
