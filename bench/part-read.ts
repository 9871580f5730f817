// The read of a bulk load's part alone (listing-feed.ts readPart): BULK listings inserted in one statement (copies of
// listings already there), then their part read three times as an instance reads it (a worker thread, two
// connections: readFactsApart), each timed, then deleted.
// DATABASE_URL=postgres://…/bench_1m npx tsx bench/part-read.ts [--bulk 100000]
import pg from 'pg'
import { readFactsApart } from '#server/modules/search'

const url = process.env.DATABASE_URL as string
const at = process.argv.indexOf('--bulk')
const BULK = at > 0 ? Number(process.argv[at + 1]) : 100_000
const admin = new pg.Client({ connectionString: url })
await admin.connect()
const PHONE = '+880 1999 999999'
await admin.query('delete from products where seller_phone = $1', [PHONE])
const cols = `name, brand_id, seller_id, resale_price_cents, original_price_cents, description, condition, location,
  uses_years, processor, ram_gb, storage_gb, screen_inches, battery_health_pct, posted_on`
let t = Date.now()
await admin.query(
  `insert into products (${cols}, seller_phone) select ${cols}, $1 from products where seller_phone <> $1 limit ${BULK}`,
  [PHONE],
)
const [{ v: version }] = (await admin.query('select version::text as v from listing_counts_version where id'))
  .rows
console.log(`${BULK} listings inserted in ${Date.now() - t} ms (commit version ${version})`)
for (let round = 1; round <= 3; round++) {
  t = Date.now()
  const facts = await readFactsApart(url, { commits: [version], background: true })
  console.log(`read ${round}: ${facts.size} listings in ${Date.now() - t} ms`)
}
await admin.query('delete from products where seller_phone = $1', [PHONE])
await admin.end()
