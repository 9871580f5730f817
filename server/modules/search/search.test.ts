import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { ProductList } from '#contract/products'
import { SearchResult, Suggestions } from '#contract/search'
import { bookings } from '#server/db/schema'
import { signIn, TEST_PASSWORD } from '#server/test/auth-helpers'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { loadFacts } from './listing-feed'

// One app and one catalogue for the whole file: a few models across brands, plus listings that must never show.
let t: TestApp
const brand: Record<string, string> = {}
const id: Record<string, string> = {}
let sellerEmail = ''
let buyerEmail = ''
let cookieSeller = ''
let cookieBuyer = ''

type Spec = {
  key: string
  brand: string
  name: string
  processor: string
  price: number
  ram: number
  storage: number
  screen: number
  condition: 'Excellent' | 'Good' | 'Fair'
  daysAgo: number
  description?: string
}

const SPECS: Spec[] = [
  {
    key: 'x1',
    brand: 'Lenovo',
    name: 'ThinkPad X1 Carbon Gen 9',
    processor: 'Intel Core i7-1165G7',
    price: 900,
    ram: 16,
    storage: 512,
    screen: 14,
    condition: 'Excellent',
    daysAgo: 40,
  },
  {
    key: 't14',
    brand: 'Lenovo',
    name: 'ThinkPad T14',
    processor: 'AMD Ryzen 7 PRO 5850U',
    price: 650,
    ram: 16,
    storage: 512,
    screen: 14,
    condition: 'Good',
    daysAgo: 2,
    description: 'Lighter than an X1 Carbon, with a sturdy keyboard.',
  },
  {
    key: 'e15',
    brand: 'Lenovo',
    name: 'ThinkPad E15',
    processor: 'Intel Core i5-10210U',
    price: 400,
    ram: 8,
    storage: 256,
    screen: 15.6,
    condition: 'Fair',
    daysAgo: 1,
  },
  {
    key: 'legion',
    brand: 'Lenovo',
    name: 'Legion 5 Pro',
    processor: 'AMD Ryzen 7 5800H',
    price: 1100,
    ram: 32,
    storage: 1024,
    screen: 16,
    condition: 'Good',
    daysAgo: 10,
  },
  {
    key: 'air2',
    brand: 'Apple',
    name: 'MacBook Air M2',
    processor: 'Apple M2',
    price: 950,
    ram: 8,
    storage: 256,
    screen: 13.6,
    condition: 'Excellent',
    daysAgo: 3,
  },
  {
    key: 'air1',
    brand: 'Apple',
    name: 'MacBook Air M1',
    processor: 'Apple M1',
    price: 700,
    ram: 8,
    storage: 256,
    screen: 13.3,
    condition: 'Good',
    daysAgo: 20,
  },
  {
    key: 'pro',
    brand: 'Apple',
    name: 'MacBook Pro 14',
    processor: 'Apple M1 Pro',
    price: 1500,
    ram: 16,
    storage: 1024,
    screen: 14.2,
    condition: 'Excellent',
    daysAgo: 5,
  },
  {
    key: 'xps',
    brand: 'Dell',
    name: 'XPS 13 9310',
    processor: 'Intel Core i7-1185G7',
    price: 800,
    ram: 16,
    storage: 512,
    screen: 13.4,
    condition: 'Good',
    daysAgo: 6.5,
  },
  {
    key: 'inspiron',
    brand: 'Dell',
    name: 'Inspiron 15',
    processor: 'Intel Core i3-1115G4',
    price: 300,
    ram: 4,
    storage: 128,
    screen: 15.6,
    condition: 'Fair',
    daysAgo: 60,
  },
  {
    key: 'zephyrus',
    brand: 'ASUS',
    name: 'ROG Zephyrus G14',
    processor: 'AMD Ryzen 9 5900HS',
    price: 1200,
    ram: 32,
    storage: 1024,
    screen: 14,
    condition: 'Excellent',
    daysAgo: 15,
  },
  {
    key: 'vivobook',
    brand: 'ASUS',
    name: 'VivoBook 15',
    processor: 'AMD Ryzen 5 5500U',
    price: 450,
    ram: 8,
    storage: 512,
    screen: 15.6,
    condition: 'Good',
    daysAgo: 100,
  },
  {
    key: 'hp',
    brand: 'HP',
    name: 'EliteBook 840 G8',
    processor: 'Intel Core i9-11950H',
    price: 1000,
    ram: 64,
    storage: 2048,
    screen: 14,
    condition: 'Good',
    daysAgo: 3.5,
  },
  {
    key: 'ryzen3',
    brand: 'HP',
    name: 'HP 255 G8',
    processor: 'AMD Ryzen 3 3250U',
    price: 250,
    ram: 4,
    storage: 128,
    screen: 15.6,
    condition: 'Fair',
    daysAgo: 30,
  },
]
const AVAILABLE = SPECS.length

beforeAll(async () => {
  t = await createTestApp()
  const { db } = t
  const seller = await createUser(db, { role: 'seller', password: TEST_PASSWORD })
  const disabled = await createUser(db, { role: 'seller', disabled: true })
  const buyer = await createUser(db, { role: 'buyer', password: TEST_PASSWORD })
  sellerEmail = seller.email
  buyerEmail = buyer.email
  for (const name of ['Lenovo', 'Apple', 'Dell', 'ASUS', 'HP'])
    brand[name] = (await createBrand(db, { name })).id
  const day = 86_400_000
  for (const s of SPECS) {
    const row = await createProduct(db, {
      brand: { id: brand[s.brand] as string },
      seller,
      name: s.name,
      processor: s.processor,
      resalePriceCents: s.price * 100,
      originalPriceCents: s.price * 150,
      ramGb: s.ram,
      storageGb: s.storage,
      screenInches: s.screen,
      condition: s.condition,
      description: s.description ?? `A used ${s.brand} laptop in ${s.condition.toLowerCase()} condition.`,
      postedOn: new Date(Date.now() - s.daysAgo * day),
    })
    id[s.key] = row.id
  }
  // Never shown: sold, removed, and a disabled seller's listing (all "ThinkPad X1 Carbon" to tempt the search).
  const tempting = {
    brand: { id: brand.Lenovo as string },
    name: 'ThinkPad X1 Carbon Gen 9',
    processor: 'Intel Core i7-1165G7',
  }
  id.sold = (await createProduct(db, { ...tempting, seller, isSold: true })).id
  id.removed = (await createProduct(db, { ...tempting, seller, removedAt: new Date() })).id
  id.hidden = (await createProduct(db, { ...tempting, seller: disabled })).id
  for (let i = 0; i < 5; i++) {
    await db.insert(bookings).values({
      productId: id[SPECS[i]?.key ?? 'x1'] as string,
      buyerId: buyer.id,
      productName: 'x',
      productImage: '/x.webp',
      priceCents: 100,
      userName: buyer.name,
      email: buyer.email,
      phoneNumber: '+880 1711 000000',
      location: 'Dhaka',
      createdAt: new Date(Date.now() - i * 1000),
    })
  }
  cookieSeller = (await signIn(t.app, { email: sellerEmail })).cookie
  cookieBuyer = (await signIn(t.app, { email: buyerEmail })).cookie
})

afterAll(async () => {
  await t?.close()
})

async function get(url: string, cookie?: string) {
  return t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} })
}

async function search(query: string) {
  const res = await get(`/api/search?${query}`)
  expect(res.statusCode, res.body).toBe(200)
  return SearchResult.parse(res.json())
}
const keysOf = (r: SearchResult) => r.items.map((p) => Object.entries(id).find(([, v]) => v === p._id)?.[0])

describe('text search', () => {
  it('puts the exact model first', async () => {
    const r = await search('q=thinkpad%20x1%20carbon')
    expect(keysOf(r)[0]).toBe('x1')
    // The T14 mentions an X1 Carbon in its description: found, but after the model itself.
    expect(keysOf(r)).toEqual(['x1', 't14'])
    expect(r.sort).toBe('relevance')
  })

  it.each([
    ['thnkpad', 'x1'],
    ['x1 carbn', 'x1'],
    ['macbok air m2', 'air2'],
    ['ryzen 7', 't14'],
    ['thinkp', 'e15'],
    ['zephyrus', 'zephyrus'],
  ])('finds %s', async (q, key) => {
    const r = await search(`q=${encodeURIComponent(q)}`)
    expect(keysOf(r)).toContain(key)
  })

  it('finds every ThinkPad for a misspelt "thnkpad", and nothing else', async () => {
    expect(new Set(keysOf(await search('q=thnkpad')))).toEqual(new Set(['x1', 't14', 'e15']))
  })

  it('searches the brand, the processor and the description', async () => {
    expect(keysOf(await search('q=lenovo')).length).toBe(4)
    expect(keysOf(await search('q=i9'))).toEqual(['hp'])
    expect(keysOf(await search('q=sturdy%20keyboard'))).toEqual(['t14'])
  })

  it.each([
    ['"thinkpad"', 200],
    ["x1' or '1'='1", 200],
    ['100%', 200],
    ['\\', 200],
    ['%_%', 200],
    ['💻 thinkpad 🔥', 200],
    ['💻', 200],
    ['ThinkPad & | ! ( ) : * <->', 200],
    ['a'.repeat(200), 200],
    ['a'.repeat(1000), 400],
  ])('answers %s with %i, never a 500', async (q, status) => {
    const res = await get(`/api/search?q=${encodeURIComponent(q)}&facets=1`)
    expect(res.statusCode).toBe(status)
    if (status === 400) expect(Object.keys(ErrorBody.parse(res.json()).error.fields ?? {})).toEqual(['q'])
  })

  it('suggests brands and models as you type, typos forgiven', async () => {
    const res = await get('/api/search/suggest?q=thinkp')
    expect(res.statusCode).toBe(200)
    const s = Suggestions.parse(res.json())
    expect(s.models.map((m) => m.name)).toEqual(
      expect.arrayContaining(['ThinkPad X1 Carbon Gen 9', 'ThinkPad T14']),
    )
    const lenovo = Suggestions.parse((await get('/api/search/suggest?q=leno')).json())
    expect(lenovo.brands).toEqual([{ _id: brand.Lenovo, brand_name: 'Lenovo', product_count: 4 }])
    const typo = Suggestions.parse((await get('/api/search/suggest?q=macbok')).json())
    expect(typo.models.map((m) => m.name)).toContain('MacBook Air M2')
    expect((await get('/api/search/suggest?q=')).statusCode).toBe(400)
  })
})

describe('filters, sorts and facets', () => {
  it.each([
    [`brand=${'Apple'}`, ['air2', 'air1', 'pro']],
    ['condition=Fair', ['e15', 'inspiron', 'ryzen3']],
    ['min_price=1000&max_price=1200', ['legion', 'zephyrus', 'hp']],
    ['ram=32,64', ['legion', 'zephyrus', 'hp']],
    ['storage=2048', ['hp']],
    ['screen=13', ['air2', 'air1', 'xps']],
    ['processor=intel-core-i3&processor=intel-core-i9', ['inspiron', 'hp']],
    ['processor=amd-ryzen-7', ['t14', 'legion']],
    ['processor=amd-ryzen-3', ['ryzen3']],
    ['processor=amd-ryzen-9', ['zephyrus']],
    ['processor=apple-m', ['air2', 'air1', 'pro']],
    ['processor=intel-core-i5', ['e15']],
    ['posted_within=4', ['e15', 't14', 'air2', 'hp']],
    ['min_ram_gb=32', ['legion', 'zephyrus', 'hp']],
  ])('filters %s', async (query, keys) => {
    const q = query.replace('brand=Apple', `brand=${brand.Apple}`)
    const r = await search(`${q}&sort=price_asc`)
    expect(new Set(keysOf(r))).toEqual(new Set(keys))
    expect(r.total).toBe(keys.length)
  })

  it('combines filters, text and a sort', async () => {
    const r = await search(
      `q=thinkpad&brand=${brand.Lenovo},${brand.Dell}&ram=16&condition=Excellent,Good&sort=price_desc`,
    )
    expect(keysOf(r)).toEqual(['x1', 't14'])
  })

  it('sorts by price both ways and by newest', async () => {
    const prices = (r: SearchResult) => r.items.map((p) => p.resale_price_cents)
    const asc = prices(await search('sort=price_asc&page_size=100'))
    expect(asc).toEqual([...asc].sort((a, b) => a - b))
    expect(asc.length).toBe(AVAILABLE)
    const desc = prices(await search('sort=price_desc&page_size=100'))
    expect(desc).toEqual([...asc].reverse())
    const newest = (await search('page_size=100')).items.map((p) => p.postedOn)
    expect(newest).toEqual([...newest].sort().reverse())
  })

  it('counts each facet with every other filter applied', async () => {
    const r = await search(`facets=1&brand=${brand.Lenovo}&ram=16`)
    const facets = r.facets
    if (!facets) throw new Error('no facets')
    // Brand counts ignore the brand filter but keep ram=16: Lenovo 2, Apple 1, Dell 1.
    expect(Object.fromEntries(facets.brand.map((c) => [c.label, c.count]))).toEqual({
      Lenovo: 2,
      Apple: 1,
      Dell: 1,
    })
    // RAM counts keep the brand filter: Lenovo has 16 GB ×2, 8 GB ×1, 32 GB ×1.
    expect(facets.ram.map((c) => [c.label, c.count])).toEqual([
      ['8 GB', 1],
      ['16 GB', 2],
      ['32 GB', 1],
    ])
    expect(facets.processor.map((c) => c.value).sort()).toEqual(['amd-ryzen-7', 'intel-core-i7'])
    expect(r.total).toBe(2)
    const all = (await search('facets=1')).facets
    expect(all?.brand.reduce((n, c) => n + c.count, 0)).toBe(AVAILABLE)
    expect(all?.posted_within.find((c) => c.value === '7')?.count).toBe(6)
  })
})

describe('paging', () => {
  it('walks every listing once by cursor, even when one is added meanwhile', async () => {
    for (const sort of ['newest', 'price_asc', 'price_desc']) {
      const seen: string[] = []
      let cursor: string | null = null
      let added = false
      do {
        const r: SearchResult = await search(`sort=${sort}&page_size=4${cursor ? `&cursor=${cursor}` : ''}`)
        seen.push(...r.items.map((p) => p._id))
        cursor = r.next_cursor
        if (!added) {
          // A new listing lands while the buyer pages: nothing already listed is skipped or shown twice.
          added = true
          const extra = await createProduct(t.db, {
            brand: { id: brand.Dell as string },
            seller: await createUser(t.db, { role: 'seller' }),
            name: `Dell Latitude extra ${sort}`,
            resalePriceCents: 55_500,
          })
          id[`extra-${sort}`] = extra.id
        }
      } while (cursor)
      expect(new Set(seen).size).toBe(seen.length)
      for (const s of SPECS) expect(seen).toContain(id[s.key])
    }
  })

  it('pages a text search by relevance without repeats', async () => {
    const first = await search('q=thinkpad&page_size=2')
    const second = await search(`q=thinkpad&page_size=2&cursor=${first.next_cursor}`)
    expect(first.next_cursor).not.toBeNull()
    expect(second.page).toBeNull()
    const keys = [...keysOf(first), ...keysOf(second)]
    expect(new Set(keys)).toEqual(new Set(['x1', 't14', 'e15']))
    expect(first.total).toBe(3)
  })

  it('refuses a cursor of another sort or a forged one, naming cursor', async () => {
    // The listings' facts are current, so a cursor is first read against them.
    await loadFacts(t.db)
    const { next_cursor } = await search('sort=price_asc&page_size=2')
    for (const query of [
      `sort=newest&cursor=${next_cursor}`,
      'cursor=abc',
      `cursor=${Buffer.from('{"s":"newest","k":["x"],"id":"1"}').toString('base64url')}`,
      // A well-formed cursor whose time is none: the listings' facts cannot place it, and SQL refuses it.
      `cursor=${Buffer.from('{"s":"newest","k":["yesterday"],"id":"00000000-0000-4000-8000-000000000000"}').toString('base64url')}`,
    ]) {
      const res = await get(`/api/search?${query}`)
      expect(res.statusCode).toBe(400)
      expect(Object.keys(ErrorBody.parse(res.json()).error.fields ?? {})).toEqual(['cursor'])
    }
  })

  it('never shows sold, removed or disabled-seller listings, anywhere', async () => {
    const hidden = [id.sold, id.removed, id.hidden]
    const lists = [
      (await search('q=thinkpad%20x1%20carbon&page_size=100')).items,
      (await search('page_size=100')).items,
      ProductList.parse((await get(`/api/category/${brand.Lenovo}?page_size=100`)).json()),
    ]
    for (const list of lists) for (const h of hidden) expect(list.map((p) => p._id)).not.toContain(h)
    const facets = (await search(`facets=1&brand=${brand.Lenovo}`)).facets
    expect(facets?.brand.find((c) => c.label === 'Lenovo')?.count).toBe(4)
  })

  it('pages the brand page with total and next-page headers', async () => {
    const first = await get(`/api/category/${brand.Lenovo}?page_size=3`)
    expect(first.statusCode).toBe(200)
    expect(ProductList.parse(first.json()).length).toBe(3)
    expect(first.headers['x-total-count']).toBe('4')
    expect(first.headers['x-total-is-estimate']).toBe('false')
    const next = String(first.headers['x-next-cursor'])
    expect(first.headers.link).toBe(`</api/category/${brand.Lenovo}?page_size=3&cursor=${next}>; rel="next"`)
    const second = await get(String(first.headers.link).slice(1, String(first.headers.link).indexOf('>')))
    expect(ProductList.parse(second.json()).length).toBe(1)
    expect(second.headers.link).toBeUndefined()
    expect(second.headers['x-next-cursor']).toBeUndefined()
    // Without paging parameters: the first 24, as an array, as before.
    expect(ProductList.parse((await get(`/api/category/${brand.Lenovo}`)).json()).length).toBe(4)
    expect((await get(`/api/category/${brand.Lenovo}?page_size=0`)).statusCode).toBe(400)
  })

  it('pages My Product and My Orders with the same headers', async () => {
    const mine = await get(`/api/products?email=${encodeURIComponent(sellerEmail)}&page_size=5`, cookieSeller)
    expect(mine.statusCode).toBe(200)
    expect(ProductList.parse(mine.json()).length).toBe(5)
    // Sold listings stay on the seller's own list; removed ones do not.
    expect(mine.headers['x-total-count']).toBe(String(SPECS.length + 1))
    const rest = await get(
      `/api/products?email=${encodeURIComponent(sellerEmail)}&page_size=100&cursor=${mine.headers['x-next-cursor']}`,
      cookieSeller,
    )
    expect(ProductList.parse(rest.json()).length).toBe(SPECS.length + 1 - 5)

    const orders = await get(`/api/bookings?email=${encodeURIComponent(buyerEmail)}&page_size=2`, cookieBuyer)
    expect(orders.statusCode).toBe(200)
    expect((orders.json() as unknown[]).length).toBe(2)
    expect(orders.headers['x-total-count']).toBe('5')
    expect(orders.headers.link).toMatch(/^<\/api\/bookings\?email=.*&page_size=2&cursor=[\w-]+>; rel="next"$/)
    const page3 = await get(
      `/api/bookings?email=${encodeURIComponent(buyerEmail)}&page_size=2&page=3`,
      cookieBuyer,
    )
    expect((page3.json() as unknown[]).length).toBe(1)
  })
})

describe('bad parameters', () => {
  it.each([
    ['brand=lenovo', 'brand'],
    ['condition=Good,Mint', 'condition'],
    ['ram=16,lots', 'ram'],
    ['storage=-1', 'storage'],
    ['screen=25', 'screen'],
    ['processor=intel-core-i4', 'processor'],
    ['posted_within=0', 'posted_within'],
    ['min_price=cheap', 'min_price'],
    ['sort=best', 'sort'],
    ['cursor=not%20a%20cursor', 'cursor'],
    ['limit=500', 'limit'],
    ['facets=maybe', 'facets'],
  ])('%s is a 400 naming %s', async (query, field) => {
    const res = await get(`/api/search?${query}`)
    expect(res.statusCode).toBe(400)
    expect(Object.keys(ErrorBody.parse(res.json()).error.fields ?? {})).toEqual([field])
  })
})
