import { type SQL, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SearchResult } from '#contract/search'
import { createBrand, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

// An instance remembers the corrections of the words it was asked for, with the vocabulary's version they were read
// at; a search's page statement reads that version. A word a new listing brings must be found from the next search.

let t: TestApp
let asus: string
let sellerId: string

beforeAll(async () => {
  t = await createTestApp()
  asus = (await createBrand(t.db, { name: 'Asus' })).id
  sellerId = (await createUser(t.db, { role: 'seller' })).id
  await addListing('Zenbook 14')
})

afterAll(async () => {
  await t?.close()
})

async function addListing(name: string) {
  await t.db.execute(sql`
    insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
      description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches)
    values (${name}, ${asus}, ${sellerId}, '+880 1711 000000', 60000, 90000, 'A laptop.', 'Good', 'Dhaka', 1,
      'Intel Core i5-1135G7', 16, 512, 14)`)
}

async function names(q: string) {
  const res = await t.app.inject({ url: `/api/search?q=${encodeURIComponent(q)}` })
  expect(res.statusCode, res.body).toBe(200)
  return SearchResult.parse(res.json()).items.map((p) => p.name)
}

/** The statements a call sends that read the vocabulary (search_terms). */
async function vocabularyReads(call: () => Promise<unknown>) {
  const execute = vi.spyOn(t.db, 'execute')
  try {
    await call()
    const dialect = new PgDialect()
    return execute.mock.calls.filter(([query]) =>
      dialect.sqlToQuery(query as SQL).sql.includes('from search_terms'),
    ).length
  } finally {
    execute.mockRestore()
  }
}

describe('remembered corrections', () => {
  it('are taken without asking the vocabulary again, and read again once a listing adds a word', async () => {
    expect(await vocabularyReads(() => names('zenbok'))).toBe(1)
    expect(await names('zenbok')).toEqual(['Zenbook 14'])
    // The second time, the correction is the instance's own.
    expect(await vocabularyReads(() => names('zenbok'))).toBe(0)

    // A seller spells the model as the buyer did: "zenbok" is now a word of the vocabulary, not a typo.
    const before = await t.db.execute(sql`select terms_version from listing_counts_version`)
    await addListing('Zenbok Pro')
    const after = await t.db.execute(sql`select terms_version from listing_counts_version`)
    expect(JSON.stringify(after)).not.toBe(JSON.stringify(before))
    expect(await names('zenbok')).toEqual(['Zenbok Pro'])
    // A listing with only known words leaves the remembered corrections current.
    await addListing('Zenbook 14')
    expect(await vocabularyReads(() => names('zenbook'))).toBe(1)
    expect(await vocabularyReads(() => names('zenbook'))).toBe(0)
    expect(await names('zenbook')).toEqual(['Zenbook 14', 'Zenbook 14'])
  })

  it('are checked when nothing matches them too', async () => {
    // "chromebok" is corrected to the word of a listing that has since sold: nothing matches.
    await addListing('Chromebook 3')
    await t.db.execute(sql`update products set is_sold = true where name = 'Chromebook 3'`)
    expect(await names('chromebok')).toEqual([])
    expect(await vocabularyReads(() => names('chromebok'))).toBe(0)
    await addListing('Chromebok Go')
    expect(await names('chromebok')).toEqual(['Chromebok Go'])
  })
})
