// `npx tsx bench/ratio.ts [--before <checkout>]`: the public read endpoints' requests per second beside a bare
// node:http server answering the very same bytes, measured in alternating slices in one process, so load from other
// work on the machine falls on every side alike. With `--before`, the same app from another checkout (an earlier
// commit, say) is measured in the same slices: before, after and bare take turns, round after round.
// `RATIO_ENCODING=br` (or gzip): every request asks for that encoding, as a browser does, and the bare server answers
// the app's compressed bytes.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import autocannon from 'autocannon'
import { bareServer, benchAppSettings } from './bare-server'

const ROOT = path.resolve(import.meta.dirname, '..')
const ROUNDS = Number(process.env.RATIO_ROUNDS ?? 10)
const SLICE_S = Number(process.env.RATIO_SLICE ?? 2)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const RATIO_TARGET = 0.5
/** RATIO_ENCODING: the accept-encoding every request sends (none by default). */
const ENCODING = process.env.RATIO_ENCODING
const HEADERS = ENCODING ? { 'accept-encoding': ENCODING } : undefined

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')

type Side = { name: string; url: string; requests: number; seconds: number; failed: number }

/** The app of one checkout on PGlite in a temporary folder, filled with the demo data, listening on 127.0.0.1. */
async function startApp(checkout: string) {
  const load = (file: string) => import(pathToFileURL(path.join(checkout, file)).href)
  const [{ buildApp }, { loadConfig }, { openDatabase }, { seedDemoIfEmpty }, { LocalMediaStorage }] =
    await Promise.all([
      load('server/app.ts'),
      load('server/config.ts'),
      load('server/database.ts'),
      load('server/demo/seed.ts'),
      load('server/lib/storage.ts'),
    ])
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laptop-market-ratio-'))
  const config = loadConfig(benchAppSettings(dataDir))
  const database = await openDatabase({ driver: 'pglite', dataDir })
  const storage = new LocalMediaStorage(path.join(dataDir, 'media'))
  const app = await buildApp({ config, database, storage, logger: false })
  await seedDemoIfEmpty(database.db, storage, { info() {}, warn() {} })
  const url: string = await app.listen({ host: '127.0.0.1', port: 0 })
  const close = async () => {
    await app.close()
    await database.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  return { app, url, close }
}

type App = Awaited<ReturnType<typeof startApp>>

/** The biggest brand's page: its path differs between two apps, each seeded with its own ids. */
async function brandPath(app: App): Promise<string> {
  const brands = (await app.app.inject({ url: '/api/brands' })).json() as {
    _id: string
    product_count: number
  }[]
  const brand = [...brands].sort((a, b) => b.product_count - a.product_count)[0]
  if (!brand) throw new Error('The demo data has no brand')
  return `/api/category/${brand._id}`
}

async function slice(side: Side, durationS: number, counted = true) {
  const r = await autocannon({
    url: side.url,
    connections: CONNECTIONS,
    duration: durationS,
    headers: HEADERS,
    workers: 1,
    timeout: 10,
  })
  if (!counted) return
  side.requests += r.requests.total
  side.seconds += r.duration
  side.failed += r.errors + r.timeouts + r.non2xx
}

async function main() {
  const beforeAt = process.argv.indexOf('--before')
  const before = beforeAt > 0 ? path.resolve(process.argv[beforeAt + 1] ?? '') : undefined
  console.log(`node ${process.version}, ${os.cpus().length} CPUs; load average at start: ${loadAverage()}`)
  console.log(
    `${ROUNDS} rounds of ${SLICE_S} s slices, ${CONNECTIONS} connections${ENCODING ? `, accept-encoding: ${ENCODING}` : ''}${before ? `; before: ${before}` : ''}\n`,
  )
  const after = await startApp(ROOT)
  const old = before ? await startApp(before) : undefined
  const rows: string[][] = []
  try {
    for (const endpoint of ['advertised', 'category'] as const) {
      const pathOf = async (app: App) =>
        endpoint === 'advertised' ? '/api/advertised_product' : brandPath(app)
      const afterPath = await pathOf(after)
      // The exact bytes the app sends a client that asks as the slices ask (compressed with RATIO_ENCODING).
      const res = await after.app.inject({ url: afterPath, headers: HEADERS })
      if (res.statusCode !== 200) throw new Error(`${afterPath} answered ${res.statusCode}`)
      const encoding = res.headers['content-encoding']
      const bare = await bareServer(
        res.rawPayload,
        String(res.headers['content-type'] ?? 'application/json'),
        typeof encoding === 'string' ? encoding : undefined,
      )
      const sides: Side[] = [
        ...(old
          ? [{ name: 'before', url: old.url + (await pathOf(old)), requests: 0, seconds: 0, failed: 0 }]
          : []),
        { name: before ? 'after' : 'app', url: after.url + afterPath, requests: 0, seconds: 0, failed: 0 },
        { name: 'bare', url: bare.url + afterPath, requests: 0, seconds: 0, failed: 0 },
      ]
      try {
        for (const side of sides) await slice(side, SLICE_S, false)
        for (let round = 0; round < ROUNDS; round++) {
          // Each round starts with another side, so none is always the one measured after a given other.
          for (let i = 0; i < sides.length; i++)
            await slice(sides[(round + i) % sides.length] as Side, SLICE_S)
        }
      } finally {
        bare.server.close()
      }
      const rate = (s: Side) => s.requests / s.seconds
      const bareRate = rate(sides.at(-1) as Side)
      for (const s of sides) {
        const ratio = rate(s) / bareRate
        rows.push([
          endpoint,
          `${(res.rawPayload.length / 1000).toFixed(1)} kB`,
          s.name,
          Math.round(rate(s)).toLocaleString('en-US'),
          s.name === 'bare' ? '' : ratio.toFixed(2),
          s.name === 'bare' ? '' : ratio >= RATIO_TARGET ? 'pass' : 'FAIL',
          s.failed ? `${s.failed} failed` : '',
        ])
      }
    }
  } finally {
    await after.close()
    await old?.close()
  }
  const head = ['endpoint', 'body', 'server', 'req/s', 'vs bare', `>= ${RATIO_TARGET}`, '']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 3 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')
  console.log(line(head))
  for (const row of rows) console.log(line(row))
  console.log(`\nLoad average at end: ${loadAverage()}`)
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err)
    process.exit(1)
  },
)
