import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SearchQuery } from '#contract/search'
import { brands } from '#server/db/schema'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { loadFacts } from './listing-feed'
import { searchProducts } from './search.queries'

// The brand facet's labels are the brand names, kept per instance with the brands' own version: a listing's change
// leaves them as they are (no read of the brands), a brand's rename shows in the next search.

let t: TestApp
let brand = { id: '' }
let seller = { id: '' }
let brandName = 'Lenovo'

beforeAll(async () => {
  t = await createTestApp()
  brand = await createBrand(t.db, { name: 'Lenovo' })
  seller = await createUser(t.db, { role: 'seller' })
  await createProduct(t.db, { seller, brand })
})

afterAll(async () => {
  await t?.close()
})

const withFacets = SearchQuery.parse({ facets: '1' })
const brandLabels = async (facts: boolean) =>
  (await searchProducts(t.db, withFacets, { facts })).facets?.brand.map((c) => c.label)

/** Reads of the brand names (`select id, name from brands`) while `run` runs. */
async function brandReads(run: () => Promise<unknown>): Promise<number> {
  const select = vi.spyOn(t.db, 'select')
  try {
    await run()
    return select.mock.calls.filter(([columns]) => (columns as { name?: unknown })?.name === brands.name)
      .length
  } finally {
    select.mockRestore()
  }
}

describe.each([
  ['by SQL', false],
  ['from the copy', true],
])('the brand facet’s labels, %s', (_, facts) => {
  beforeAll(async () => {
    if (facts) await loadFacts(t.db)
  })

  it('are not read again after a listing changes', async () => {
    expect(await brandLabels(facts)).toEqual([brandName])
    await createProduct(t.db, { seller, brand })
    expect(await brandReads(() => brandLabels(facts))).toBe(0)
    expect(await brandLabels(facts)).toEqual([brandName])
  })

  it('show a brand’s new name from the next search', async () => {
    brandName = facts ? 'Lenovo ThinkPad' : 'LENOVO'
    await t.db.update(brands).set({ name: brandName }).where(eq(brands.id, brand.id))
    expect(await brandReads(async () => expect(await brandLabels(facts)).toEqual([brandName]))).toBe(1)
  })
})
