// The statements searches send PostgreSQL, counted by their text: BENCH_SEARCHES long-tail searches (each different,
// drawn as the scale bench's long tail draws them) asked one after another in this process, on the copy of the
// database DATABASE_URL names (one that `npm run bench:scale` filled), no writes meanwhile. A statement costs the
// instance its socket write and the driver's reading of its answer, and the database its own work, whatever its rows:
// see bench/page-statement.ts for the two apart.
// DATABASE_URL=postgres://…/bench_1m npx tsx bench/search-statements.ts
import pg from 'pg'
import { loadFacts, searchProducts } from '#server/modules/search'
import { openFilledDatabase } from './filled-db'
import { pathSource, searchOfPath } from './mixed'

/** BENCH_SEARCHES: how many searches are counted (default 2,000), after 200 not counted (the copy's first lists). */
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 2_000)
const WARM = 200

const sent = new Map<string, number>()
const query = pg.Client.prototype.query
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [first] = args as [string | { text?: string }]
  const text = typeof first === 'string' ? first : (first?.text ?? '(no text)')
  const key = text.replace(/\s+/g, ' ').trim().slice(0, 100)
  sent.set(key, (sent.get(key) ?? 0) + 1)
  return (query as (...a: unknown[]) => unknown).apply(this, args)
} as typeof query

const { db, close, brandIds } = await openFilledDatabase()
await loadFacts(db)
const source = pathSource({ kind: 'long-tail' }, brandIds, 9)
const searches = Array.from({ length: WARM + SEARCHES }, () => searchOfPath(source.next()))
for (const q of searches.slice(0, WARM)) await searchProducts(db, q)
sent.clear()
for (const q of searches.slice(WARM)) await searchProducts(db, q)
const all = [...sent.values()].reduce((a, b) => a + b, 0)
console.log(`${SEARCHES} long-tail searches sent ${all} statements, ${(all / SEARCHES).toFixed(2)} a search:`)
for (const [text, n] of [...sent].sort((a, b) => b[1] - a[1]))
  console.log(`${(n / SEARCHES).toFixed(3).padStart(7)} a search  ${text}`)
await close()
