import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SearchQuery } from '#contract/search'
import { rowsOf } from '#server/lib/paging'
import { createBrand, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { isDead } from './facts-pages'
import { rowOf } from './listing-facts'
import { catchUp, loadFacts } from './listing-feed'
import { viewPage, viewTotal } from './listing-view'

// An application of the feed that fails after it marked the changed rows in the copy's shared array (decision 0108)
// leaves those marks behind, one past the view's number; the next application takes the same number and must count
// those rows among its dead ones, or the listing is counted twice (its old row and its new one). The test leaves such
// a mark itself, as the failed application would (a module mock cannot reach a module another test file loaded).

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
  const brand = (await createBrand(t.db, { name: 'Lenovo' })).id
  const seller = (await createUser(t.db, { role: 'seller' })).id
  for (let i = 0; i < 20; i++)
    await t.db.execute(sql`
      insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
        description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on)
      values ('ThinkPad T14', ${brand}, ${seller}, '+880 1711 000000', ${100000 + i * 100}, 400000, 'ok', 'Good',
        'Dhaka', 1, 'Apple M2', 16, 512, 14, now() - make_interval(mins => ${i}))`)
})

afterAll(async () => {
  await t?.close()
})

describe('marks left by an application of the feed that failed', () => {
  it('are taken up by the next application: the changed listing is counted once', async () => {
    await loadFacts(t.db)
    const before = await catchUp(t.db)
    if (!before) throw new Error('no view')
    const q = SearchQuery.parse({ sort: 'newest' })
    const now = Date.now()
    const total0 = viewTotal(before, q, now, 10_000)
    const [{ id, posted } = { id: '', posted: '' }] = await rowsOf<{ id: string; posted: string }>(
      t.db,
      sql`select id::text as id, (extract(epoch from posted_on) * 1000000)::bigint::text as posted
        from products order by posted_on desc limit 1`,
    )
    const part = before.parts[0]
    if (!part) throw new Error('no base')
    Atomics.store(part.dead.at, rowOf(part.facts, id, Number(posted)), part.dead.upTo + 1)
    await t.db.execute(sql`update products set resale_price_cents = resale_price_cents + 1 where id = ${id}`)
    const after = await catchUp(t.db)
    if (!after) throw new Error('no view')
    const base = after.parts[0]
    if (!base) throw new Error('no base')
    const r = rowOf(base.facts, id, Number(posted))
    expect(isDead(base.dead, r)).toBe(true)
    expect(Array.from(base.deadRows)).toContain(r)
    expect(viewTotal(after, q, now, 10_000)).toBe(total0)
    expect(after.size).toBe(total0)
    const page = viewPage(after, {
      query: q,
      sort: 'newest',
      paging: { pageSize: 30, offset: 0 },
      nowMs: now,
    })
    expect(page?.filter((p) => p === id)).toHaveLength(1)
  })
})
