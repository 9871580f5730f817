import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SearchQuery } from '#contract/search'
import { createBrand, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { factsFacets } from './facts-counts'
import { mergeInOrder } from './facts-pages'
import { keptOfThread } from './kept-per-copy'
import type { ListingFacts } from './listing-facts'
import { catchUp, currentFacts, loadFacts, readVersion } from './listing-feed'
import { searchProducts } from './search.queries'

// A copy big enough (6,000 listings) that a page is found from the rows of its narrowest facet filter (a brand's
// listings, a rare processor's) instead of a walk over every listing, newest first and by price: every page, followed
// by its cursor or by page number, must be the page SQL gives, also after listings changed since the copy was read.

let t: TestApp
let brands: string[] = []

beforeAll(async () => {
  t = await createTestApp()
  brands = [
    (await createBrand(t.db, { name: 'Lenovo' })).id,
    (await createBrand(t.db, { name: 'Dell' })).id,
    (await createBrand(t.db, { name: 'Apple' })).id,
    (await createBrand(t.db, { name: 'Razer' })).id,
  ]
  const seller = await createUser(t.db, { role: 'seller' })
  // Razer is rare (1 in 97), and a tie of prices is common (prices in whole $25 steps), so ids break ties.
  await t.db.execute(sql`
    insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
      description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on,
      battery_health_pct, is_sold)
    select 'Laptop ' || i,
      (${`{${brands.join(',')}}`}::uuid[])[case when i % 97 = 0 then 4 else 1 + i % 3 end],
      ${seller.id}, '+880 1711 000000', 20000 + 2500 * ((i * 7919) % 60), 250000, 'A laptop.',
      (array['Excellent', 'Good', 'Fair'])[1 + (i / 7) % 3], 'Dhaka', 1,
      (array['Intel Core i5-1135G7', 'AMD Ryzen 7 5800U', 'Intel Core i7-1165G7', 'Apple M2'])[case when i % 53 = 0 then 4 else 1 + i % 3 end],
      (array[8, 16, 32])[1 + i % 3], 512, 14, now() - make_interval(mins => i * 11),
      case when i % 5 = 0 then null else 60 + i % 40 end, i % 31 = 0
    from generate_series(1, 6000) i`)
})

afterAll(async () => {
  await t?.close()
})

const queries = () => {
  const [lenovo, dell, , razer] = brands
  return [
    `brand=${razer}`,
    `brand=${razer}&sort=price_asc`,
    `brand=${razer}&sort=price_desc&min_battery_pct=70`,
    `brand=${razer},${dell}&sort=price_asc&max_price=900`,
    `brand=${razer},${lenovo}&condition=Good`,
    'processor=apple-m&sort=price_desc',
    'processor=apple-m,intel-core-i7&sort=newest&min_ram_gb=16',
    `processor=apple-m&brand=${lenovo},${dell}&sort=price_asc`,
    `brand=${razer},${dell}&sort=price_desc`,
    `brand=${dell}&sort=price_asc&min_price=400`,
    // A text with few matches (the rare brand's name), by price: its matches picked by their place in the order.
    'q=razer&sort=price_asc',
    'q=razer&sort=price_desc&min_battery_pct=70',
    'q=razer&sort=price_asc&max_price=900&condition=Good',
    // A text every listing matches, by price: walked, its matches marked (a filter keeps the total under the 1,000
    // that SQL counts a text's matches to).
    `q=laptop&sort=price_desc&condition=Fair&brand=${dell}`,
    `condition=Fair&ram=32&sort=price_desc&max_price=1500`,
    // A text every listing matches, with facet filters that leave a handful: picked, as a walk would read every row.
    `q=laptop&brand=${razer}&condition=Good&ram=16&sort=price_asc`,
    `q=laptop&brand=${razer}&processor=apple-m&sort=price_desc`,
    // Newest first with few matches among the rows a walk would read: picked from the combinations' price runs.
    `brand=${dell}&min_price=1000&max_price=1025`,
    'min_price=1600&max_price=1650&min_battery_pct=95',
    `brand=${razer},${lenovo}&condition=Good&max_price=400&sort=newest`,
    // By price with few matches among the price range's rows: picked from the combinations too, put in price order.
    `brand=${razer}&condition=Good&sort=price_asc`,
    `brand=${razer}&condition=Fair&sort=price_desc&min_battery_pct=70`,
    'processor=apple-m&ram=16&sort=price_asc&max_price=1200',
    // A text whose matches are all of another brand, by price: nothing, found without a walk.
    `q=razer&brand=${dell}&sort=price_desc`,
    `q=razer&brand=${lenovo},${dell}&sort=price_asc&min_battery_pct=70`,
    // A date filter by price: the newest rows alone are candidates (of the narrowest filter's or the text's).
    'posted_within=1&sort=price_asc',
    'posted_within=7&sort=price_desc&condition=Fair&min_ram_gb=16',
    `posted_within=7&brand=${razer},${dell}&sort=price_asc&min_battery_pct=70`,
    'posted_within=30&processor=apple-m&sort=price_desc',
    'q=razer&posted_within=30&sort=price_asc',
    `q=laptop&posted_within=1&brand=${dell}&sort=price_desc`,
    'q=laptop&posted_within=7&sort=newest&condition=Good',
    // Filters that contradict each other: no listing passes, whatever the order.
    'ram=8&min_ram_gb=16&sort=price_desc',
    'ram=8&min_ram_gb=16&condition=Good',
  ]
}

async function page(qs: string, facts: boolean) {
  const q = SearchQuery.parse({ ...Object.fromEntries(new URLSearchParams(qs)), page_size: '7' })
  return searchProducts(t.db, q, { facts })
}

/**
 * Pages by number (the later ones past the hits a copy keeps after the first pages) and the first four by cursor, from
 * the copy and from SQL.
 */
async function agree(qs: string) {
  for (const n of [1, 2, 4, 9, 12, 30]) {
    const withPage = `${qs}&page=${n}`
    expect(await page(withPage, true), withPage).toEqual(await page(withPage, false))
  }
  let cursor: string | null = null
  for (let n = 0; n < 4; n++) {
    const withCursor = cursor ? `${qs}&cursor=${encodeURIComponent(cursor)}` : qs
    const fromFacts = await page(withCursor, true)
    expect(fromFacts, withCursor).toEqual(await page(withCursor, false))
    cursor = fromFacts.next_cursor
    if (!cursor) break
  }
}

describe('pages from a filter’s own rows', () => {
  it('equal SQL’s pages, by number and by cursor, for narrow filters in every order', async () => {
    await loadFacts(t.db)
    expect(currentFacts(t.db, await readVersion(t.db))).toBeDefined()
    for (const qs of queries()) await agree(qs)
    // Not two empty answers: the rare brand has pages of its own.
    expect((await page(`brand=${brands[3]}`, true)).total).toBeGreaterThan(40)
  })

  it('count a date filter’s facets as SQL does when listings are older than its longest choice', async () => {
    // 300 listings posted 80 to 120 days ago: the ones past 90 days count for nothing with a date filter, and the
    // pass over the copy stops at the first of them.
    const seller = await createUser(t.db, { role: 'seller' })
    await t.db.execute(sql`
      insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
        description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on)
      select 'Old laptop ' || i, (${`{${brands.join(',')}}`}::uuid[])[1 + i % 4], ${seller.id}, '+880 1711 000000',
        30000 + 100 * i, 250000, 'An older listing.', (array['Excellent', 'Good', 'Fair'])[1 + i % 3], 'Dhaka', 2,
        'AMD Ryzen 7 5800U', 16, 512, 14, now() - make_interval(hours => 1920 + i * 3)
      from generate_series(1, 300) i`)
    await loadFacts(t.db)
    for (const qs of [
      'posted_within=90&facets=1',
      'posted_within=30&facets=1&condition=Good',
      `posted_within=90&facets=1&brand=${brands[3]}&sort=price_asc`,
      'posted_within=7&facets=1&min_battery_pct=70',
      // A date filter longer than the longest choice: the listings past 90 days pass it and count in the total.
      'posted_within=365&facets=1',
      `posted_within=100&facets=1&condition=Fair&brand=${brands[0]}`,
    ]) {
      const fromFacts = await page(qs, true)
      expect(fromFacts, qs).toEqual(await page(qs, false))
      expect(fromFacts.facets?.posted_within?.length, qs).toBeGreaterThan(0)
    }
  })

  it('count facets from the combinations of facet values as SQL counts them, at any moment', async () => {
    const facts = (await loadFacts(t.db)) as ListingFacts
    const [lenovo, dell, , razer] = brands
    const searches = [
      '',
      `brand=${razer}`,
      `brand=${lenovo},${dell}&condition=Good,Fair`,
      'min_ram_gb=16&processor=apple-m,intel-core-i7',
      `ram=16,32&brand=${razer}&condition=Fair`,
      'min_storage_gb=512&min_ram_gb=32',
    ]
    for (const qs of searches) {
      const withFacets = `${qs}&facets=1`
      const fromFacts = await page(withFacets, true)
      expect(fromFacts, withFacets).toEqual(await page(withFacets, false))
      expect(fromFacts.facets?.posted_within?.length, withFacets).toBeGreaterThan(0)
      // The posting-date choices at later moments (their starts fall in other blocks of rows), against a pass over
      // the listings: a date filter of ten years passes every listing but is counted listing by listing.
      const q = SearchQuery.parse(Object.fromEntries(new URLSearchParams(qs)))
      const counted = SearchQuery.parse({ ...q, posted_within: '3650' })
      const now = Date.now()
      for (const days of [0, 0.3, 2, 5, 20, 29.5, 60]) {
        const at = now + days * 86_400_000
        expect(factsFacets(facts, q, at), `${qs} at +${days} days`).toEqual(factsFacets(facts, counted, at))
      }
    }
    expect(facts.combos.before.length).toBeGreaterThan(3)
  })

  it('count a date filter’s facets from the combinations as the clock moves, either way', async () => {
    const facts = (await loadFacts(t.db)) as ListingFacts
    const [lenovo, dell] = brands
    const now = Date.now()
    for (const qs of [
      'posted_within=7',
      `posted_within=30&brand=${lenovo},${dell}&condition=Good,Fair`,
      'posted_within=90&min_ram_gb=16',
      'posted_within=365&storage=512,1024',
    ]) {
      const q = SearchQuery.parse(Object.fromEntries(new URLSearchParams(qs)))
      // A price floor every listing passes: the same counts, from a pass over the listings.
      const counted = SearchQuery.parse({ ...q, min_price: '0' })
      // Moments that move each end a little and a lot, later and back.
      for (const days of [0, 3, 2.5, 40, 0.2, 89, 1, 200, 0]) {
        const at = now + days * 86_400_000
        const got = factsFacets(facts, q, at)
        expect(got, `${qs} at +${days} days`).toEqual(factsFacets(facts, counted, at))
        if (days === 0) expect(got.total, qs).toBeGreaterThan(0)
      }
    }
  })

  it('still equal them after listings of the narrow filter changed since the copy was read', async () => {
    const razer = brands[3] as string
    await t.db.execute(sql`update products set resale_price_cents = resale_price_cents + 12500
      where brand_id = ${razer} and name in ('Laptop 97', 'Laptop 194', 'Laptop 970')`)
    await t.db.execute(
      sql`update products set is_sold = true where brand_id = ${razer} and name = 'Laptop 291'`,
    )
    await t.db.execute(sql`update products set brand_id = ${razer} where name in ('Laptop 1', 'Laptop 2')`)
    const view = await catchUp(t.db)
    expect(view?.parts[0]?.deadRows.length).toBeGreaterThan(0)
    expect(currentFacts(t.db, await readVersion(t.db))).toBe(view)
    for (const qs of queries()) await agree(qs)
  })

  it('merge several choices’ rows only when that costs less than walking the copy for the page', async () => {
    const [lenovo, dell, , razer] = brands
    // A second rare brand: with Razer's, 1.5% of the listings.
    const framework = (await createBrand(t.db, { name: 'Framework' })).id
    const seller = await createUser(t.db, { role: 'seller' })
    await t.db.execute(sql`
      insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
        description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on)
      select 'Framework ' || i, ${framework}, ${seller.id}, '+880 1711 000000', 40000 + 700 * i, 250000, 'A laptop.',
        (array['Excellent', 'Good', 'Fair'])[1 + i % 3], 'Dhaka', 1, 'Intel Core i7-1165G7', 16, 512, 13,
        now() - make_interval(mins => i * 397)
      from generate_series(1, 30) i`)
    const facts = await loadFacts(t.db)
    const merged = keptOfThread.find((kept) => kept.name === 'merged rows of choices')
    // Two brands of two thirds of the listings, two conditions: a walk of the copy fills a page sooner.
    await agree(`brand=${lenovo},${dell}&sort=newest`)
    await agree('condition=Excellent,Good&sort=price_asc&min_ram_gb=16')
    expect(merged?.held(facts).values).toBe(0)
    // Two rare brands: their rows merged once, and every page read from them.
    await agree(`brand=${razer},${framework}`)
    await agree(`brand=${razer},${framework}&sort=price_desc`)
    expect(merged?.held(facts).values).toBe(1)
  })
})

describe('rows of several choices put in row order', () => {
  it('merges lists each in row order into one, as sorting them together does', () => {
    let seed = 3
    const rnd = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
      return seed / 2_147_483_648
    }
    for (let round = 0; round < 50; round++) {
      const lists = Array.from({ length: 1 + Math.floor(rnd() * 5) }, () => [] as number[])
      for (let r = 0; r < 200; r++) if (rnd() < 0.7) lists[Math.floor(rnd() * lists.length)]?.push(r)
      const typed = lists.map((l) => Int32Array.from(l))
      expect([...mergeInOrder(typed)]).toEqual(lists.flat().sort((a, b) => a - b))
    }
    expect([...mergeInOrder([])]).toEqual([])
  })
})
