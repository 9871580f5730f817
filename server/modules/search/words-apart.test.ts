import { type SQL, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SearchQuery } from '#contract/search'
import { rowsOf } from '#server/lib/paging'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { currentFacts, loadFacts, readVersion } from './listing-feed'
import { searchProducts } from './search.queries'

// Words typed apart or together find the same laptops, by SQL and from the listings' copy in memory alike: a title's
// two adjacent words are also indexed written together, and two typed words are joined when together they are a
// title word.

let t: TestApp
const ids: Record<string, string> = {}

beforeAll(async () => {
  t = await createTestApp()
  const seller = await createUser(t.db, { role: 'seller' })
  const brand = async (name: string) => createBrand(t.db, { name })
  const [apple, lenovo, asus, acer, dell] = [
    await brand('Apple'),
    await brand('Lenovo'),
    await brand('ASUS'),
    await brand('Acer'),
    await brand('Dell'),
  ]
  const listings = {
    air: { brand: apple, name: 'MacBook Air M2', processor: 'Apple M2' },
    pro: { brand: apple, name: 'MacBook Pro 14', processor: 'Apple M1 Pro' },
    thinkpad: { brand: lenovo, name: 'ThinkPad T14 Gen 2', processor: 'Intel Core i7-1165G7' },
    zenbook: { brand: asus, name: 'ZenBook 14', processor: 'Intel Core i5-1135G7' },
    // A seller who writes the model apart, and the processor without its hyphen.
    apart: { brand: acer, name: 'Think Pad Style 15', processor: 'Intel Core i7 1165G7' },
    other: { brand: dell, name: 'XPS 13 9310', processor: 'Intel Core i7-1185G7' },
  }
  let minutes = 0
  for (const [key, l] of Object.entries(listings)) {
    const p = await createProduct(t.db, {
      seller,
      ...l,
      description: 'Works well.',
      postedOn: new Date(Date.now() - ++minutes * 60_000),
    })
    ids[key] = p.id
  }
})

afterAll(async () => {
  await t?.close()
})

/** Each group's spellings, and the listings every one of them must find. */
const GROUPS: { texts: string[]; found: string[] }[] = [
  { texts: ['macbook', 'mac book', 'Mac-Book', 'MACBOOK'], found: ['air', 'pro'] },
  { texts: ['macbook air', 'mac book air', 'macbookair'], found: ['air'] },
  { texts: ['thinkpad', 'think pad', 'Think-Pad'], found: ['thinkpad', 'apart'] },
  { texts: ['zenbook', 'zen book', 'asus zen book 14'], found: ['zenbook'] },
  {
    texts: ['i7-1165g7', 'i7 1165g7', 'i71165g7', 'I7-1165G7', 'core i7 1165g7'],
    found: ['thinkpad', 'apart'],
  },
]

const query = (q: string, extra: Record<string, string> = {}) => SearchQuery.parse({ q, ...extra })
const found = (items: { _id: string }[]) =>
  items.map((p) => Object.entries(ids).find(([, id]) => id === p._id)?.[0]).sort()

/** The search from the copy, and whether its page came from the copy (a read of rows by id, `unnest`). */
async function fromCopy(q: SearchQuery) {
  const execute = vi.spyOn(t.db, 'execute')
  try {
    const result = await searchProducts(t.db, q)
    const dialect = new PgDialect()
    const usedCopy = execute.mock.calls.some(([s]) => dialect.sqlToQuery(s as SQL).sql.includes('unnest('))
    return { result, usedCopy }
  } finally {
    execute.mockRestore()
  }
}

describe('words typed apart or together', () => {
  it('find the same laptops by SQL', async () => {
    for (const { texts, found: want } of GROUPS) {
      for (const text of texts) {
        const result = await searchProducts(t.db, query(text), { facts: false })
        expect(found(result.items), text).toEqual([...want].sort())
        expect(result.total, text).toBe(want.length)
      }
    }
  })

  it('find the same laptops from the copy, with the same order, total and facets as SQL', async () => {
    await loadFacts(t.db)
    expect(currentFacts(t.db, await readVersion(t.db))).toBeDefined()
    for (const { texts, found: want } of GROUPS) {
      for (const text of texts) {
        for (const sort of ['relevance', 'price_asc']) {
          const q = query(text, { sort, facets: '1' })
          const { result, usedCopy } = await fromCopy(q)
          expect(usedCopy, text).toBe(true)
          expect(found(result.items), text).toEqual([...want].sort())
          expect(result, `${text} ${sort}`).toEqual(await searchProducts(t.db, q, { facts: false }))
        }
      }
    }
  })

  it('ranks the laptop named as typed first: "mac book air" puts the MacBook Air at the top', async () => {
    const result = await searchProducts(t.db, query('mac book air m2'), { facts: false })
    expect(found(result.items)).toEqual(['air'])
    const macbooks = await searchProducts(t.db, query('mac book pro'), { facts: false })
    expect(macbooks.items[0]?._id).toBe(ids.pro)
  })

  it('keep two typed words apart when together they are only two title words run together', async () => {
    // "dell xps" is not joined into "dellxps": a Dell whose name has XPS further on is still found.
    const result = await searchProducts(t.db, query('dell xps'), { facts: false })
    expect(found(result.items)).toEqual(['other'])
    const vocabulary = await rowsOf<{ term: string; joined: boolean }>(
      t.db,
      sql`select term, joined from search_terms where term in ('macbook', 'macbookair', 'dellxps', 'i71165g7')
        order by term`,
    )
    expect(vocabulary).toEqual([
      { term: 'dellxps', joined: true },
      { term: 'i71165g7', joined: true },
      { term: 'macbook', joined: false },
      { term: 'macbookair', joined: true },
    ])
  })

  it('finds a listing renamed to words written apart from the next search on', async () => {
    await t.db.execute(sql`update products set name = 'Zen Book 14' where id = ${ids.zenbook}`)
    for (const text of ['zenbook', 'zen book']) {
      const q = query(text)
      expect(found((await searchProducts(t.db, q)).items), text).toEqual(['zenbook'])
      expect(found((await searchProducts(t.db, q, { facts: false })).items), text).toEqual(['zenbook'])
    }
    await t.db.execute(sql`update products set name = 'ZenBook 14' where id = ${ids.zenbook}`)
  })
})
