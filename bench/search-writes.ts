// `npm run bench:search-writes`: long-tail searches on the instance's pool of search threads while listings change, in
// one process, on the database DATABASE_URL names (one that `npm run bench:scale` filled): the CPU the process spends
// per search, and by part (cpuPerRequest, bench/mixed.ts: the instance's threads, PostgreSQL; "the bench" there is
// this whole process, the instance and its writer), and how many times the pool chose a page per search (decision
// 0112). Figures that do not depend on how busy the machine is, as the searches a second through HTTP do. See
// bench/README.md.
import { sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import { keepListingsCurrent, loadFacts, searchProducts, startSearchPool } from '#server/modules/search'
import { rowsOf } from '../server/lib/paging'
import { openFilledDatabase } from './filled-db'
import { cpuPerRequest, cpuUse, pathSource, searchOfPath } from './mixed'

/** BENCH_WRITES: writes a second (default 20); BENCH_DURATION: seconds of searches (20); BENCH_CONNECTIONS: at once (16). */
const WRITES = Number(process.env.BENCH_WRITES ?? 20)
const DURATION_S = Number(process.env.BENCH_DURATION ?? 20)
const AT_ONCE = Number(process.env.BENCH_CONNECTIONS ?? 16)
/**
 * BENCH_WRITES_UNSEEN=1: each write changes nothing a search reads (the seller's phone, written as it was): the same
 * update, its round trip and the row's triggers as a price edit, but the listings' version does not move, so the instance
 * is not told, reads no change and applies none. Against a run of price edits: what keeping the copy current costs the
 * searches, apart from the writes' own cost.
 */
const UNSEEN = process.env.BENCH_WRITES_UNSEEN === '1'

const { db, close, brandIds } = await openFilledDatabase()
const source = pathSource({ kind: 'long-tail' }, brandIds, 11)
await loadFacts(db)
const quiet = { info() {}, warn() {}, error: (obj: unknown, msg: string) => console.error(msg, obj) }
const log = { ...quiet, child: () => log } as unknown as Logger
const feed = keepListingsCurrent(db, log)
const pool = startSearchPool(db, 2, log)

// The writer: a price edit a time, on listings on sale, undone at the end.
const ids = (
  await rowsOf<{ id: string }>(
    db,
    sql`select id::text as id from products where not is_sold order by md5(id::text) limit 2000`,
  )
).map((r) => r.id)
let writing = WRITES > 0
let writes = 0
const writer = (async () => {
  while (writing) {
    const id = ids[writes++ % ids.length]
    await db.execute(
      UNSEEN
        ? sql`update products set seller_phone = seller_phone where id = ${id}`
        : sql`update products set resale_price_cents = resale_price_cents + 1 where id = ${id}`,
    )
    await new Promise((r) => setTimeout(r, 1000 / WRITES))
  }
})()

const dbName = new URL(process.env.DATABASE_URL as string).pathname.slice(1)
const cpuBefore = process.cpuUsage()
const partsBefore = cpuUse(process.pid, dbName)
const answeredBefore = pool.answered()
const until = Date.now() + DURATION_S * 1000
let searches = 0
await Promise.all(
  Array.from({ length: AT_ONCE }, async () => {
    while (Date.now() < until) {
      const path = source.next()
      await searchProducts(db, searchOfPath(path))
      searches++
    }
  }),
)
const cpu = process.cpuUsage(cpuBefore)
const partsAfter = cpuUse(process.pid, dbName)
writing = false
await writer
const edited = ids.slice(0, Math.min(writes, ids.length))
for (const [i, id] of edited.entries()) {
  const times = Math.floor(writes / ids.length) + (i < writes % ids.length ? 1 : 0)
  await db.execute(
    sql`update products set resale_price_cents = resale_price_cents - ${times} where id = ${id}`,
  )
}
const chosen = pool.answered() - answeredBefore
console.log(
  `${searches.toLocaleString('en-US')} long-tail searches in ${DURATION_S} s, ${AT_ONCE} at a time, with ${writes} writes (${WRITES} a second${UNSEEN ? ', none a search reads' : ''}):`,
)
console.log(`  CPU of the process per search   ${((cpu.user + cpu.system) / 1000 / searches).toFixed(2)} ms`)
console.log(`  ${cpuPerRequest(partsBefore, partsAfter, searches)}`)
console.log(`  pages chosen by the pool        ${(chosen / searches).toFixed(2)} per search`)
pool.stop()
feed.stop()
await close()
process.exit(0)
