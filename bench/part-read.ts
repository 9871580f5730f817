// The read of a bulk load's part alone (listing-feed.ts readPart): BULK listings inserted in one statement (copies of
// listings already there), then their part read over two connections and over one, each timed, then deleted.
// DATABASE_URL=postgres://…/bench_1m npx tsx bench/part-read.ts [--bulk 100000]
import { drizzle } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import type { Db } from '#server/db/client'
import { readFacts, readFactsTwice } from '../server/modules/search/listing-facts'

const url = process.env.DATABASE_URL as string
const at = process.argv.indexOf('--bulk')
const BULK = at > 0 ? Number(process.argv[at + 1]) : 100_000
const client = () => new pg.Client({ connectionString: url, options: '-c jit=off' })
const [a, b, admin] = [client(), client(), client()]
await Promise.all([a.connect(), b.connect(), admin.connect()])
const asDb = (c: pg.Client) => drizzle({ client: c }) as unknown as Db
const PHONE = '+880 1999 999999'
await admin.query('delete from products where seller_phone = $1', [PHONE])
const cols = `name, brand_id, seller_id, resale_price_cents, original_price_cents, description, condition, location,
  uses_years, processor, ram_gb, storage_gb, screen_inches, battery_health_pct, posted_on`
let t = Date.now()
await admin.query(
  `insert into products (${cols}, seller_phone) select ${cols}, $1 from products where seller_phone <> $1 limit ${BULK}`,
  [PHONE],
)
const version = (await admin.query('select version::text as v from listing_counts_version where id')).rows[0].v
console.log(`${BULK} listings inserted in ${Date.now() - t} ms (commit version ${version})`)
for (const how of ['two connections', 'one connection', 'two connections', 'one connection']) {
  t = Date.now()
  const cpu = process.cpuUsage()
  const facts =
    how === 'one connection'
      ? await readFacts(asDb(a), [version])
      : await readFactsTwice(asDb(a), asDb(b), [version])
  const used = process.cpuUsage(cpu)
  console.log(
    `${how}: ${facts.size} listings in ${Date.now() - t} ms, this process's CPU ${((used.user + used.system) / 1000).toFixed(0)} ms`,
  )
}
await admin.query('delete from products where seller_phone = $1', [PHONE])
await Promise.all([a.end(), b.end(), admin.end()])
