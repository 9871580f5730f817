// `npx tsx bench/search-ab.ts --before <checkout>`: what a search costs a search thread (the page and the counts a
// view answers, search-pool.ts' searchView) in this checkout and in another one, on the same database (DATABASE_URL,
// filled by `npm run bench:scale`), the same searches (the long tail: every one asked for the first time), in one
// process, taking turns search by search. Each side reads its own copy and keeps its own answers, so neither helps the
// other; the two sides take turns search by search, so a busy machine slows both alike instead of deciding which run
// was lucky. Both sides must give the same answers: a difference is printed and fails the run.
//   BENCH_SEARCHES: how many searches are timed (default 2,000).
import { loadavg } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { SearchSort } from '#contract/search'
import { readPaging } from '#server/lib/paging'
import { openFilledDatabase } from './filled-db'
import { pathSource, quantile, searchOfPath } from './mixed'

const beforeAt = process.argv[process.argv.indexOf('--before') + 1]
if (!process.argv.includes('--before') || !beforeAt) {
  console.error('usage: npx tsx bench/search-ab.ts --before <checkout>')
  process.exit(2)
}
const COUNT = Number(process.env.BENCH_SEARCHES ?? 2_000)

type Side = {
  name: string
  readFacts: (db: unknown) => Promise<unknown>
  wholeView: (facts: unknown) => unknown
  searchView: (view: unknown, ask: unknown) => { ids?: string[]; total?: number; facets?: unknown }
}

async function sideAt(name: string, root: string): Promise<Side> {
  const load = (file: string) => import(pathToFileURL(path.resolve(root, file)).href)
  const [facts, view, pool] = await Promise.all([
    load('server/modules/search/listing-facts.ts'),
    load('server/modules/search/listing-view.ts'),
    load('server/modules/search/search-pool.ts'),
  ])
  return { name, readFacts: facts.readFacts, wholeView: view.wholeView, searchView: pool.searchView }
}

const here = path.resolve(import.meta.dirname, '..')
const sides = [await sideAt('before', beforeAt), await sideAt('after', here)]
const { db, close, brandIds } = await openFilledDatabase()
const { resolveText, searchWords } = await import('#server/modules/search')

const views: unknown[] = []
for (const side of sides) {
  const started = performance.now()
  views.push(side.wholeView(await side.readFacts(db)))
  console.log(`${side.name}: its copy read in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

/** A search as findProducts asks a view: its sort, its page, its words as resolveText made them. */
async function askOf(p: string) {
  const q = searchOfPath(p)
  const hasText = q.q !== undefined && searchWords(q.q).length > 0
  const sort: SearchSort = hasText
    ? (q.sort ?? 'relevance')
    : !q.sort || q.sort === 'relevance'
      ? 'newest'
      : q.sort
  const terms = hasText ? await resolveText(db, q.q as string) : undefined
  // A text the copy cannot match is answered by SQL: no search thread's work.
  if (hasText && !terms?.plain) return undefined
  const paging = readPaging(q)
  const ask = { query: q, sort, paging, nowMs: Date.now(), terms, facets: q.facets !== undefined }
  return { path: p, ask, kind: `${hasText ? 'text' : 'no text'}, ${sort}${q.facets ? ', facets' : ''}` }
}

async function draw(count: number, seed: number) {
  const source = pathSource({ kind: 'long-tail' }, brandIds, seed)
  const asks = []
  while (asks.length < count) {
    const ask = await askOf(source.next())
    if (ask) asks.push(ask)
  }
  return asks
}

/**
 * The time `run` took, ms. The thread's CPU is counted by the kernel in ticks here (most searches read 0 or 4 ms), so
 * the clock is read instead: a search is not interrupted by anything of this process, and a busy machine delays the
 * two sides' turns alike.
 */
const timed = (run: () => void) => {
  const started = performance.now()
  run()
  return performance.now() - started
}

// Whatever a copy builds on its first searches (a facet's lists of rows, the price ranks) is built by 400 others first.
for (const { ask } of await draw(400, 8))
  sides.forEach((side, i) => {
    side.searchView(views[i], ask)
  })
const asks = await draw(COUNT, 9)
const spent = sides.map(() => [] as number[])
let differ = 0
asks.forEach(({ ask, path: p }, n) => {
  const answers: unknown[] = [undefined, undefined]
  // Turn by turn: the first side of one search is the second of the next.
  const order = n % 2 === 0 ? [0, 1] : [1, 0]
  for (const i of order) {
    const side = sides[i] as Side
    ;(spent[i] as number[])[n] = timed(() => {
      answers[i] = side.searchView(views[i], ask)
    })
  }
  const [a, b] = answers.map((x) => JSON.stringify(x, (_, v) => (v instanceof Map ? [...v].sort() : v)))
  if (a !== b && differ++ < 5)
    console.log(`The two sides answer ${decodeURIComponent(p)} differently:\n  ${a}\n  ${b}`)
})

const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / Math.max(1, xs.length)
const cell = (x: number) => x.toFixed(2).padStart(7)
const row = (name: string, xs: number[]) =>
  `${name.padEnd(30)}${String(xs.length).padStart(6)}${cell(mean(xs))}${cell(quantile(xs, 0.5))}${cell(quantile(xs, 0.95))}${cell(quantile(xs, 0.99))}`
console.log(
  `\nA search thread's time for one search asked for the first time, ms (${process.version}, load ${loadavg()[0]?.toFixed(1)})`,
)
console.log(`${''.padEnd(30)}     n   mean    p50    p95    p99`)
sides.forEach((side, i) => {
  console.log(row(side.name, spent[i] as number[]))
})
const [before, after] = spent as [number[], number[]]
// Search by search: the ratio of the two sides' times, whose middle and geometric mean a few searches delayed by the
// machine move far less than they move the means.
const ratios = before.flatMap((b, n) => {
  const a = after[n] as number
  return b > 0.05 && a > 0.05 ? [a / b] : []
})
const geometric = Math.exp(mean(ratios.map(Math.log)))
console.log(
  `after / before: means ${(mean(after) / mean(before)).toFixed(3)}, search by search ${quantile(ratios, 0.5).toFixed(3)} (middle), ${geometric.toFixed(3)} (geometric mean)`,
)
const kinds = [...new Set(asks.map((a) => a.kind))]
console.log('\nBy kind: before and after, means')
for (const kind of kinds.sort()) {
  const at = asks.flatMap((a, n) => (a.kind === kind ? [n] : []))
  const m = (xs: number[]) => mean(at.map((n) => xs[n] as number))
  console.log(`${kind.padEnd(30)}${String(at.length).padStart(6)}${cell(m(before))}${cell(m(after))}`)
}
await close()
if (differ > 0) {
  console.log(`\n${differ} searches answered differently`)
  process.exit(1)
}
