// `npm run bench:listing-writes`: what a listing change costs the database, flat out. Sellers' changes as the mixed run
// makes them (new listings, price edits, a changed facet, sales, removals), each its own transaction, from
// BENCH_CONNECTIONS connections at once for BENCH_DURATION seconds, on the database DATABASE_URL names (one that
// `npm run bench:scale` filled). Every trigger a change sets off runs, at commit too. Prints the changes a second and
// their latency. The bench's own listings are taken off sale at the end. See bench/README.md.
import pg from 'pg'
import { seededRandom } from '../server/lib/seeded-random'
import { openFilledDatabase } from './filled-db'
import { NEW_LISTING_SQL, quantile } from './mixed'

/** BENCH_CONNECTIONS: writers at once (default 8); BENCH_DURATION: seconds (20). */
const AT_ONCE = Number(process.env.BENCH_CONNECTIONS ?? 8)
const DURATION_S = Number(process.env.BENCH_DURATION ?? 20)

// Opened (and migrated) as the instance opens it, then written to over plain connections.
const { close } = await openFilledDatabase()
await close()
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: AT_ONCE })
const { rows: owners } = await pool.query<{ seller_id: string; brand_id: string }>(
  'select seller_id::text, brand_id::text from products where not is_sold and removed_at is null limit 1',
)
const owner = owners[0]
if (!owner) throw new Error('The database holds no listing on sale: fill it with `npm run bench:scale` first')

const PRICE_FROM = 9_000_000
let nextPrice = PRICE_FROM
const latencies: number[] = []
const kinds = new Map<string, number>()
const until = Date.now() + DURATION_S * 1000

async function writer(seed: number) {
  const rnd = seededRandom(seed)
  const live: string[] = []
  while (Date.now() < until) {
    const roll = rnd()
    const kind =
      live.length < 5
        ? 'new'
        : roll < 0.3
          ? 'new'
          : roll < 0.55
            ? 'price'
            : roll < 0.7
              ? 'facet'
              : roll < 0.85
                ? 'sale'
                : 'removal'
    const started = performance.now()
    if (kind === 'new') {
      const { rows } = await pool.query<{ id: string }>(NEW_LISTING_SQL, [
        owner?.brand_id,
        owner?.seller_id,
        nextPrice++,
      ])
      live.push(rows[0]?.id as string)
    } else {
      const at = Math.floor(rnd() * live.length)
      const id = live[at] as string
      if (kind === 'price')
        await pool.query('update products set resale_price_cents = $2 where id = $1', [id, nextPrice++])
      else if (kind === 'facet')
        await pool.query(
          'update products set ram_gb = case when ram_gb = 64 then 32 else 64 end where id = $1',
          [id],
        )
      else {
        await pool.query(
          kind === 'sale'
            ? 'update products set is_sold = true, sold_at = now() where id = $1'
            : 'update products set removed_at = now() where id = $1',
          [id],
        )
        live.splice(at, 1)
      }
    }
    latencies.push(performance.now() - started)
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
  }
}

await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => writer(i + 1)))
// The bench's listings go (the catalogue as it was, but for them as removed listings).
await pool.query(
  `update products set removed_at = now() where resale_price_cents >= $1 and removed_at is null`,
  [PRICE_FROM],
)
await pool.end()

const q = (p: number) => quantile(latencies, p).toFixed(1)
console.log(
  `${latencies.length.toLocaleString('en-US')} listing changes in ${DURATION_S} s from ${AT_ONCE} connections (${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}):`,
)
console.log(`  changes a second   ${Math.round(latencies.length / DURATION_S)}`)
console.log(`  latency            p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, p99 ${q(0.99)} ms`)
process.exit(0)
