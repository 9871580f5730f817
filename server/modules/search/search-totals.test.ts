import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SearchResult } from '#contract/search'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

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
    // page_size=1: the total is counted, not taken from the page.
    for (const query of [
      '',
      `brand=${lenovo}`,
      'condition=Good,Fair&ram=16',
      'min_ram_gb=16&storage=512',
      'min_battery_pct=80',
      `min_battery_pct=80&brand=${dell}&ram=8,32`,
    ]) {
      const summed = await search(`facets=1&page_size=1&${query}`)
      // The same filters with a price filter no listing fails: counted from the listings.
      const counted = await search(`facets=1&page_size=1&min_price=0.01&${query}`)
      expect(summed.total, query).toBe(counted.total)
      expect(summed.total_is_estimate).toBe(false)
      expect(summed.facets, query).toEqual(counted.facets)
      const all = await search(`page_size=100&${query}`)
      expect(summed.total, query).toBe(all.items.length)
    }
    const brandPage = await t.app.inject({ url: `/api/category/${lenovo}?page_size=1` })
    expect(brandPage.headers['x-total-count']).toBe(
      String((await search(`brand=${lenovo}&page_size=100`)).items.length),
    )
  })
})
