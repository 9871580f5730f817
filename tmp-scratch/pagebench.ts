import { SearchQuery } from '#contract/search'
import { openMigratedDatabase } from '#server/db/client'
import { loadFacts, currentFacts } from '#server/modules/search/listing-feed'
import { readCountsVersion } from '#server/modules/search/counts-snapshot'
import { searchProducts } from '#server/modules/search/search.queries'
import { mixedPaths } from '../bench/mixed'
import pg from 'pg'

const url = process.env.URL ?? 'postgres://postgres@127.0.0.1:5432/bench100k'
const { db, close } = await openMigratedDatabase({ driver: 'postgres', url })
const c = new pg.Client({ connectionString: url }); await c.connect()
const brandIds = (await c.query('select id from brands order by name')).rows.map((r) => r.id)
await c.end()
await loadFacts(db)
const paths = mixedPaths(brandIds, 400)
const times: [number, string][] = []
for (let round = 0; round < 3; round++) {
  for (const p of paths) {
    const q = SearchQuery.parse(Object.fromEntries(new URLSearchParams(p.split('?')[1])))
    const t0 = process.cpuUsage()
    await searchProducts(db, q)
    const d = process.cpuUsage(t0)
    if (round === 2) times.push([(d.user + d.system) / 1000, p])
  }
}
times.sort((a, b) => b[0] - a[0])
const sum = times.reduce((s, t) => s + t[0], 0)
console.log('mean cpu ms', (sum / times.length).toFixed(3), 'p50', times[200][0].toFixed(2), 'p95', times[20][0].toFixed(2))
for (const [t, p] of times.slice(0, 25)) console.log(t.toFixed(2), decodeURIComponent(p))
await close()
