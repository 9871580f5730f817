// The cost of a search's page statement (selectPageRows, as pageByView sends it: the page's ids as an array) in the
// database: PAGES pages of 21 random listings on sale (`--page`: another number), each different, on one connection of
// the instance's pool (so prepared as the instance prepares it). Prints the round trip, the backend's CPU a page (/proc:
// the database on this machine) and this process's (the driver's side). Two sizes in turn tell a statement's own cost
// from a listing's.
// DATABASE_URL=postgres://…/bench_1m npx tsx bench/page-statement.ts [--pages 3000] [--page 21]
import fs from 'node:fs'
import { sql } from 'drizzle-orm'
import { openMigratedDatabase } from '#server/db/client'
import { products } from '#server/db/schema'
import { selectPageRows } from '#server/modules/products'
import { argValue } from './args'

const PAGES = Number(argValue('--pages') ?? 3_000)
const PAGE = Number(argValue('--page') ?? 21)
const database = await openMigratedDatabase({
  driver: 'postgres',
  url: process.env.DATABASE_URL as string,
  max: 1,
})
const { db } = database
const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows
const [{ pid } = { pid: 0 }] = await rows<{ pid: number }>(sql`select pg_backend_pid() as pid`)
const ids = (
  await rows<{ id: string }>(
    sql`select id::text from products where not is_sold and removed_at is null and review_state = 'approved'
      order by random() limit ${(PAGES + 200) * PAGE}`,
  )
).map((r) => r.id)
/** The backend's CPU so far, ms (utime + stime in clock ticks of 10 ms). */
const backendMs = () => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  return (Number(fields[11]) + Number(fields[12])) * 10
}
const page = (i: number) =>
  selectPageRows(db, {
    where: sql`${products.id} in (select unnest(${`{${ids.slice(i * PAGE, (i + 1) * PAGE).join(',')}}`}::uuid[]))`,
    orderBy: [sql`${products.postedOn} desc`, sql`${products.id} desc`],
    k0: sql`${products.postedOn}`,
  })
// Warm-up: the statement prepared, and its plan settled (a generic one after five).
for (let i = 0; i < 200; i++) await page(PAGES + i)
const cpu = backendMs()
const own = process.cpuUsage()
const started = performance.now()
let listings = 0
for (let i = 0; i < PAGES; i++) listings += (await page(i)).length
const ms = performance.now() - started
const client = process.cpuUsage(own)
console.log(
  `${PAGES} pages of ${PAGE} random listings (${listings} read): ${(ms / PAGES).toFixed(3)} ms a round trip, ` +
    `the backend's CPU ${((backendMs() - cpu) / PAGES).toFixed(3)} ms a page, ` +
    `this process's ${((client.user + client.system) / 1000 / PAGES).toFixed(3)} ms`,
)
await database.close()
