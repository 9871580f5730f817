// `npm run bench:search-cpu`: the instance's CPU for one search, in the process, on the database DATABASE_URL names
// (one that `npm run bench:scale` filled). Searches asked for the first time (nothing kept from them) and the same
// searches asked again, drawn from the mixed run's mix (bench/mixed.ts). See bench/README.md.
import fs from 'node:fs'
import { Session } from 'node:inspector'
import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks'
import { sql } from 'drizzle-orm'
import type { SearchQuery } from '#contract/search'
import {
  catchUp,
  type FactsView,
  loadFacts,
  type PoolAsk,
  resolveText,
  searchProducts,
  searchView,
  sortOf,
  wantsFacets,
  wholeView,
} from '#server/modules/search'
import { isOnSale } from '../server/lib/on-sale'
import { readPaging, rowsOf } from '../server/lib/paging'
import { openFilledDatabase } from './filled-db'
import { mixedPaths, pathSource, quantile, searchOfPath } from './mixed'

/** BENCH_SEARCHES: how many searches never asked before are timed (default 2,000). */
const FIRST = Number(process.env.BENCH_SEARCHES ?? 2_000)
/** BENCH_CHANGED: how many listings change before the searches are asked again of the copy's view (default 1,000). */
const CHANGED = Number(process.env.BENCH_CHANGED ?? 1_000)
/**
 * BENCH_CHANGED_STEP: how many of them change at a time, the view caught up after each (default all at once). 20: a
 * second's writes at 20 a second, so the view holds the parts a steady writer leaves (the settled levels and a delta).
 */
const STEP = Math.max(1, Number(process.env.BENCH_CHANGED_STEP ?? CHANGED))
/** BENCH_SLOWEST: how many of the slowest first-time searches are listed (default 5). */

const { db, close, brandIds } = await openFilledDatabase()
/** `--long-tail`: the searches drawn as the scale bench's long tail draws them (the wide space), not the mixed run's. */
const LONG_TAIL = process.argv.includes('--long-tail')
const draw = (count: number, seed: number) => {
  if (!LONG_TAIL) return mixedPaths(brandIds, count, seed)
  const source = pathSource({ kind: 'long-tail' }, brandIds, seed)
  return Array.from({ length: count }, () => source.next())
}
const queries = (count: number, seed: number) =>
  draw(count, seed).map((p) => ({
    path: p,
    q: searchOfPath(p),
  }))

const started = performance.now()
const facts = await loadFacts(db)
console.log(
  `Search's copy: ${facts.size.toLocaleString('en-US')} listings, read in ${((performance.now() - started) / 1000).toFixed(1)} s`,
)

/** CPU milliseconds of each search, in order. */
async function cpuOf(list: { q: SearchQuery }[]): Promise<number[]> {
  const spent: number[] = []
  for (const { q } of list) {
    const before = process.cpuUsage()
    await searchProducts(db, q)
    const used = process.cpuUsage(before)
    spent.push((used.user + used.system) / 1000)
  }
  return spent
}

/** A CPU profile of this thread from now on (node:inspector), written to a file when stopped. */
async function startProfile() {
  const session = new Session()
  session.connect()
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (err, res) => (err ? reject(err) : resolve(res))),
    )
  await post('Profiler.enable')
  await post('Profiler.start')
  return {
    stopInto: async (file: string) => {
      const { profile } = (await post('Profiler.stop')) as { profile: object }
      fs.writeFileSync(file, JSON.stringify(profile))
      session.disconnect()
      console.log(`CPU profile: ${file}`)
    },
  }
}

/** The garbage collections of this process while `run` runs: scavenges, full collections, and the time they paused it. */
async function gcDuring<T>(
  run: () => Promise<T>,
): Promise<{ value: T; minor: number; major: number; ms: number }> {
  const entries: PerformanceEntry[] = []
  const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()))
  observer.observe({ entryTypes: ['gc'] })
  const value = await run()
  entries.push(...observer.takeRecords())
  observer.disconnect()
  const kind = (e: PerformanceEntry) =>
    (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0
  return {
    value,
    minor: entries.filter((e) => kind(e) === constants.NODE_PERFORMANCE_GC_MINOR).length,
    major: entries.filter((e) => kind(e) === constants.NODE_PERFORMANCE_GC_MAJOR).length,
    ms: entries.reduce((sum, e) => sum + e.duration, 0),
  }
}

const row = (name: string, ms: number[]) => {
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length
  const cell = (x: number) => x.toFixed(2).padStart(7)
  return `${name.padEnd(28)}${String(ms.length).padStart(6)}${cell(mean)}${cell(quantile(ms, 0.5))}${cell(quantile(ms, 0.95))}${cell(quantile(ms, 0.99))}${cell(Math.max(...ms))}`
}

// Whatever a copy builds on its first searches (a facet's lists of rows, the price ranks) is built by 400 others first.
await cpuOf(queries(400, 8))
const first = queries(FIRST, 9)
// BENCH_PROFILE=<file>: a CPU profile of the searches asked for the first time alone (not the copy's read), for
// Chrome's DevTools or a summary of its functions' own time.
const profile = process.env.BENCH_PROFILE ? await startProfile() : undefined
const { value: firstMs, ...firstGc } = await gcDuring(() => cpuOf(first))
if (profile) await profile.stopInto(process.env.BENCH_PROFILE as string)
const again = first.slice(0, 400)
await cpuOf(again)
const againMs = await cpuOf(again)

// The copy a while after it was read, as under a writer: listings changed since (a price edit each, undone after), so
// every search also counts and pages the view's changed rows.
const toChange = (
  await rowsOf<{ id: string }>(
    db,
    sql`select id::text as id from products where ${isOnSale} order by md5(id::text) limit ${CHANGED + 1_000}`,
  )
).map((r) => r.id)
const changed: string[] = []
/** The next `n` listings of `toChange` changed (a price edit each, undone at the end). */
async function changeListings(n: number) {
  const ids = toChange.slice(changed.length, changed.length + n)
  await rowsOf(
    db,
    sql`update products set resale_price_cents = resale_price_cents + 1 where id = any(${`{${ids.join(',')}}`}::uuid[])`,
  )
  changed.push(...ids)
}
let view = await catchUp(db)
while (changed.length < CHANGED) {
  await changeListings(Math.min(STEP, CHANGED - changed.length))
  view = await catchUp(db)
}
await cpuOf(again)
const changedMs = await cpuOf(again)
// Searches never asked before, of the changed view: the long tail under a writer, where nothing kept helps. The same
// draw (seed 10) at every BENCH_CHANGED, so runs with different piles compare row to row.
// BENCH_PROFILE_CHANGED=<file>: the same profile of these alone.
const changedProfile = process.env.BENCH_PROFILE_CHANGED ? await startProfile() : undefined
const changedFirstMs = await cpuOf(queries(Math.min(FIRST, 1_000), 10))
if (changedProfile) await changedProfile.stopInto(process.env.BENCH_PROFILE_CHANGED as string)

/**
 * The changed view's own CPU in a search never asked before, beyond its copy's, with writes landing: 1,000 searches (a
 * draw of their own), and 20 more listings changed after every 20 (20 writes a second at 400 searches a second), so
 * each view is new to some of them. Each search is first asked, untimed, of the copy alone and of the copy less the
 * view's dead rows, so what the copy keeps for it is kept; then timed on the view (its dead rows, settled parts and
 * delta asked for the first time) and on the copy alone, in alternating order (the second finds the copy's arrays in
 * the CPU's caches). Far less noisy than two draws' means.
 */
async function viewsOwnCost(): Promise<number> {
  let extra = 0
  let asked = 0
  const draw = queries(1_000, 11)
  for (let i = 0; i < draw.length; i++) {
    if (i % 20 === 0) await changeListings(20)
    const whole = (await catchUp(db)) as FactsView
    const { q } = draw[i] as (typeof draw)[number]
    const paging = readPaging(q)
    const terms = q.q ? ((await resolveText(db, q.q)) ?? undefined) : undefined
    if (paging.cursor || (q.q && !terms)) continue
    const ask: PoolAsk = {
      query: q,
      sort: sortOf(q, terms),
      paging,
      nowMs: Date.now(),
      terms,
      facets: wantsFacets(q),
    }
    const base = whole.parts[0] as FactsView['parts'][number]
    const alone = wholeView(base.facts)
    searchView(alone, ask)
    searchView({ ...whole, parts: [base], delta: alone.delta }, ask)
    const cpu = (view: FactsView) => {
      const before = process.cpuUsage()
      searchView(view, ask)
      const used = process.cpuUsage(before)
      return (used.user + used.system) / 1000
    }
    if (i % 2 === 0) extra += cpu(whole) - cpu(alone)
    else extra -= cpu(alone) - cpu(whole)
    asked++
  }
  return extra / asked
}
const ownMs = view ? await viewsOwnCost() : 0
await rowsOf(
  db,
  sql`update products set resale_price_cents = resale_price_cents - 1 where id = any(${`{${changed.join(',')}}`}::uuid[])`,
)

console.log(`\nCPU of one search in the instance, ms (${process.version})`)
console.log(`${'searches'.padEnd(28)}     n   mean    p50    p95    p99    max`)
console.log(row('asked for the first time', firstMs))
console.log(row('asked again', againMs))
console.log(row(`again, ${CHANGED.toLocaleString('en-US')} listings changed`, changedMs))
console.log(row('first time, changed view', changedFirstMs))
console.log(
  `The changed view's own CPU in a search never asked before, beyond the copy's, 20 more listings changed every 20 searches: ${ownMs.toFixed(3)} ms (1,000 searches, each timed on the view and the copy alone)`,
)
console.log(
  `The changed view: ${view?.parts.length ?? 0} parts (${(view?.parts ?? []).map((p) => `${p.facts.size.toLocaleString('en-US')} less ${p.deadRows.length}`).join(', ')}) and a delta of ${view?.delta.size ?? 0}`,
)
// The first-asked searches' CPU by kind (text or not, the sort, facets or not): where the time goes.
const kinds = new Map<string, number[]>()
first.forEach(({ q }, i) => {
  const kind = `${q.q ? 'text' : 'no text'}, ${q.sort ?? (q.q ? 'relevance' : 'newest')}${q.facets ? ', facets' : ''}`
  kinds.set(kind, [...(kinds.get(kind) ?? []), firstMs[i] as number])
})
console.log(
  `\nGarbage collected while the first-time searches ran: ${firstGc.minor} scavenges, ${firstGc.major} full collections, ${firstGc.ms.toFixed(0)} ms paused (${(firstGc.ms / firstMs.length).toFixed(3)} ms a search)`,
)
console.log('\nAsked for the first time, by kind (share of the CPU)')
const spent = firstMs.reduce((a, b) => a + b, 0)
for (const [kind, ms] of [...kinds].sort(
  (a, b) => b[1].reduce((x, y) => x + y, 0) - a[1].reduce((x, y) => x + y, 0),
))
  console.log(`${row(kind, ms)}  ${((100 * ms.reduce((a, b) => a + b, 0)) / spent).toFixed(0).padStart(3)}%`)
// The same CPU by what a search sets: each part's searches with it and without it, side by side.
const parts: [string, (q: (typeof first)[number]['q']) => boolean][] = [
  ['text', (q) => q.q !== undefined],
  ['facets', (q) => q.facets !== undefined],
  ['a price range', (q) => q.min_price !== undefined || q.max_price !== undefined],
  ['a battery floor', (q) => q.min_battery_pct !== undefined],
  ['a posting date', (q) => q.posted_within !== undefined],
  ['a page past the first', (q) => (q.page ?? 1) > 1],
  ['a sort by price', (q) => q.sort === 'price_asc' || q.sort === 'price_desc'],
]
console.log('\nAsked for the first time, by what the search sets (share of the CPU)')
for (const [name, has] of parts) {
  const withIt = firstMs.filter((_, i) => has((first[i] as (typeof first)[number]).q))
  const share = (100 * withIt.reduce((a, b) => a + b, 0)) / spent
  if (withIt.length > 0) console.log(`${row(`with ${name}`, withIt)}  ${share.toFixed(0).padStart(3)}%`)
}
// How much of the CPU the costliest searches take: what a search thread is held by while others wait behind it.
const costliest = [...firstMs].sort((a, b) => b - a)
for (const share of [0.01, 0.05]) {
  const top = costliest.slice(0, Math.max(1, Math.round(share * costliest.length)))
  const used = top.reduce((a, b) => a + b, 0)
  console.log(
    `The costliest ${share * 100}% (${top.length} searches, from ${(top.at(-1) as number).toFixed(1)} ms): ${((100 * used) / spent).toFixed(0)}% of the first-time searches' CPU`,
  )
}
console.log('\nSlowest asked for the first time:')
for (const [ms, path] of firstMs
  .map((ms, i) => [ms, first[i]?.path ?? ''] as const)
  .sort((a, b) => b[0] - a[0])
  .slice(0, Number(process.env.BENCH_SLOWEST ?? 5)))
  console.log(`${ms.toFixed(1).padStart(7)} ms  ${decodeURIComponent(path)}`)
await close()
