// `npm run bench`: what `/` costs to download, and how fast the public read endpoints answer beside a bare
// node:http server sending the very same bytes. Everything stays on 127.0.0.1 and the run ends by itself.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import autocannon, { type Result } from 'autocannon'
import type { Brand } from '#contract/brands'
import type { Product } from '#contract/products'
import { buildApp } from '#server/app'
import { loadConfig } from '#server/config'
import { openDatabase } from '#server/database'
import { seedDemoIfEmpty } from '#server/demo/seed'
import { LocalMediaStorage } from '#server/lib/storage'
import { bareServer, benchAppSettings } from './bare-server'
import { formatLighthouseRows, LIGHTHOUSE_HEAD, type LighthouseFigures, runLighthouse } from './lighthouse'

const ROOT = path.resolve(import.meta.dirname, '..')
const WEB_DIR = path.join(ROOT, 'dist/web')
const JS_TARGET_BYTES = 90_000
const RATIO_TARGET = 0.5
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10)
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 2)
const PAGE_RATIO_TARGET = 1 / 3
const WITH_LIGHTHOUSE = process.env.BENCH_LIGHTHOUSE !== '0'
// Twelve measured runs and their warm-ups, seeding and Lighthouse: anything far beyond that is a hang.
const DEADLINE_MS = (12 * (DURATION_S + WARMUP_S) + 480) * 1000

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
const passFail = (ok: boolean) => (ok ? 'pass' : 'FAIL')

function printTable(head: string[], rows: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')
  console.log(line(head))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of rows) console.log(line(row))
}

// (a) The JS and CSS that `/` loads: module scripts, modulepreload links and stylesheets of index.html.
type Asset = { kind: 'js' | 'css'; url: string; raw: number; gzip: number }

function parseAttributes(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {}
  for (const m of tag.matchAll(/([\w:-]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?/g)) {
    const name = m[1]?.toLowerCase()
    if (name) attrs[name] = (m[2] ?? '').replace(/^["']|["']$/g, '')
  }
  return attrs
}

function listHomeAssets(html: string): { kind: 'js' | 'css'; url: string }[] {
  const found = new Map<string, 'js' | 'css'>()
  for (const m of html.matchAll(/<(script|link)\b([^>]*)>/gi)) {
    const attrs = parseAttributes(m[2] ?? '')
    const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/)
    if (m[1]?.toLowerCase() === 'script' && attrs.type === 'module' && attrs.src) found.set(attrs.src, 'js')
    else if (rel.includes('modulepreload') && attrs.href) found.set(attrs.href, 'js')
    else if (rel.includes('stylesheet') && attrs.href) found.set(attrs.href, 'css')
  }
  return [...found].map(([url, kind]) => ({ kind, url }))
}

function measureHomeAssets(): Asset[] {
  const indexFile = path.join(WEB_DIR, 'index.html')
  if (!fs.existsSync(indexFile)) throw new Error('dist/web/index.html is missing: run `npx vite build` first')
  return listHomeAssets(fs.readFileSync(indexFile, 'utf8'))
    .filter((a) => !/^[a-z]+:\/\//i.test(a.url))
    .map((a) => {
      const data = fs.readFileSync(path.join(WEB_DIR, a.url.split(/[?#]/)[0] ?? ''))
      return { ...a, raw: data.length, gzip: zlib.gzipSync(data, { level: 9 }).length }
    })
}

// (b) Requests per second: the app, then a bare node:http server with the same bytes.
async function load(url: string, durationS: number, headers: Record<string, string> = {}): Promise<Result> {
  // The load comes from a worker thread, so it does not share the server's event loop.
  return autocannon({ url, connections: CONNECTIONS, duration: durationS, workers: 1, timeout: 10, headers })
}

/** What a browser sends: the page comes compressed (the page cache keeps it so). */
const AS_A_BROWSER = { 'accept-encoding': 'gzip, deflate, br' }

type Row = { endpoint: string; bytes: number; app: Result; bare: Result }

async function measureEndpoint(appUrl: string, endpoint: string, body: Buffer, contentType: string) {
  const { url: bareUrl, server: bare } = await bareServer(body, contentType)
  try {
    await load(appUrl + endpoint, WARMUP_S)
    const app = await load(appUrl + endpoint, DURATION_S)
    await load(bareUrl + endpoint, WARMUP_S)
    const bareResult = await load(bareUrl + endpoint, DURATION_S)
    return { endpoint, bytes: body.length, app, bare: bareResult } satisfies Row
  } finally {
    await new Promise((resolve) => bare.close(resolve))
  }
}

async function main() {
  const deadline = setTimeout(() => {
    console.error(`bench: still running after ${DEADLINE_MS / 1000} s, stopping`)
    process.exit(1)
  }, DEADLINE_MS)
  deadline.unref()

  console.log(`Laptop Market benchmark — node ${process.version}, ${os.cpus().length} CPUs, ${os.platform()}`)
  console.log(`Load average at start: ${loadAverage()} (other work on the machine skews every figure in (b))`)

  console.log(
    '\n(a) What `/` loads (dist/web/index.html: module scripts, modulepreload, stylesheets), gzip -9\n',
  )
  const assets = measureHomeAssets()
  const total = (kind: 'js' | 'css', key: 'raw' | 'gzip') =>
    assets.filter((a) => a.kind === kind).reduce((sum, a) => sum + a[key], 0)
  printTable(
    ['file', 'kind', 'raw', 'gzip'],
    [
      ...assets.map((a) => [a.url, a.kind, kB(a.raw), kB(a.gzip)]),
      ['total JS', 'js', kB(total('js', 'raw')), kB(total('js', 'gzip'))],
      ['total CSS', 'css', kB(total('css', 'raw')), kB(total('css', 'gzip'))],
    ],
  )
  const jsGzip = total('js', 'gzip')
  console.log(
    `\nJS target: at most ${kB(JS_TARGET_BYTES)} gzip — ${kB(jsGzip)} (${jsGzip} bytes): ${passFail(jsGzip <= JS_TARGET_BYTES)}`,
  )

  console.log(
    `\n(b) Requests per second, ${CONNECTIONS} connections, ${DURATION_S} s each after a ${WARMUP_S} s warm-up\n`,
  )
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laptop-market-bench-'))
  const config = loadConfig(benchAppSettings(dataDir))
  const database = await openDatabase({ driver: 'pglite', dataDir })
  const storage = new LocalMediaStorage(path.join(dataDir, 'media'))
  const app = await buildApp({ config, database, storage, logger: false })
  const rows: Row[] = []
  const pageRows: { path: string; bytes: number; sent: number; result: Result; plain: Result }[] = []
  let lighthouse: LighthouseFigures[] = []
  try {
    await seedDemoIfEmpty(database.db, storage, { info() {}, warn() {} })
    const appUrl = await app.listen({ host: '127.0.0.1', port: 0 })

    const brands = (await app.inject({ url: '/api/brands' })).json<Brand[]>()
    const brand = [...brands].sort((a, b) => b.product_count - a.product_count)[0]
    if (!brand || brand.product_count === 0)
      throw new Error('The demo data has no brand with laptops for sale')

    for (const endpoint of ['/api/advertised_product', `/api/category/${brand._id}`]) {
      // The exact bytes the app sends a client that asks for no compression, as autocannon does.
      const res = await app.inject({ url: endpoint })
      if (res.statusCode !== 200) throw new Error(`${endpoint} answered ${res.statusCode}`)
      const contentType = String(res.headers['content-type'] ?? 'application/json')
      rows.push(await measureEndpoint(appUrl, endpoint, res.rawPayload, contentType))
    }

    // (c) Server-rendered pages beside the static shell (index.html as a file, what every page was before).
    const product = (await app.inject({ url: '/api/advertised_product' })).json<Product[]>()[0]
    if (!product) throw new Error('The demo data has no advertised laptop')
    const pagePaths = ['/', '/productcard', `/products/${product._id}`]
    for (const pagePath of [...pagePaths, '/index.html']) {
      const res = await app.inject({ url: pagePath })
      if (res.statusCode !== 200) throw new Error(`${pagePath} answered ${res.statusCode}`)
      const sent = await app.inject({ url: pagePath, headers: AS_A_BROWSER })
      await load(appUrl + pagePath, WARMUP_S, AS_A_BROWSER)
      const result = await load(appUrl + pagePath, DURATION_S, AS_A_BROWSER)
      await load(appUrl + pagePath, WARMUP_S)
      const plain = await load(appUrl + pagePath, DURATION_S)
      pageRows.push({
        path: pagePath,
        bytes: res.rawPayload.length,
        sent: sent.rawPayload.length,
        result,
        plain,
      })
    }

    // (d) Lighthouse mobile on the same three pages.
    if (WITH_LIGHTHOUSE) lighthouse = await runLighthouse(appUrl, pagePaths)
  } finally {
    await app.close()
    await database.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }

  const rps = (r: Result) => Math.round(r.requests.average).toLocaleString('en-US')
  const latency = (r: Result) => `${r.latency.p50} / ${r.latency.p99} ms`
  printTable(
    [
      'endpoint',
      'body',
      'app req/s',
      'bare req/s',
      'app/bare',
      `>= ${RATIO_TARGET}`,
      'app p50/p99',
      'bare p50/p99',
    ],
    rows.map((r) => {
      const ratio = r.app.requests.average / r.bare.requests.average
      return [
        r.endpoint,
        kB(r.bytes),
        rps(r.app),
        rps(r.bare),
        ratio.toFixed(2),
        passFail(ratio >= RATIO_TARGET),
        latency(r.app),
        latency(r.bare),
      ]
    }),
  )
  const problems = rows.flatMap((r) =>
    (['app', 'bare'] as const)
      .filter((side) => r[side].errors + r[side].timeouts + r[side].non2xx > 0)
      .map(
        (side) =>
          `${r.endpoint} (${side}): ${r[side].errors} errors, ${r[side].timeouts} timeouts, ${r[side].non2xx} non-2xx`,
      ),
  )
  const shell = pageRows.find((r) => r.path === '/index.html')
  console.log(
    `\n(c) Server-rendered pages beside the static shell (/index.html from disk), ${CONNECTIONS} connections, asked for as a browser asks (accept-encoding: gzip, deflate, br); then without compression\n`,
  )
  printTable(
    [
      'page',
      'body',
      'sent',
      'req/s',
      'p50/p99',
      'vs shell',
      `>= ${PAGE_RATIO_TARGET.toFixed(2)}`,
      'plain req/s',
      'plain vs shell',
    ],
    pageRows.map((r) => {
      const ratio = shell ? r.result.requests.average / shell.result.requests.average : Number.NaN
      const plainRatio = shell ? r.plain.requests.average / shell.plain.requests.average : Number.NaN
      return [
        r.path,
        kB(r.bytes),
        kB(r.sent),
        rps(r.result),
        latency(r.result),
        ratio.toFixed(2),
        r === shell ? '' : passFail(ratio >= PAGE_RATIO_TARGET),
        rps(r.plain),
        plainRatio.toFixed(2),
      ]
    }),
  )
  if (lighthouse.length) {
    console.log(
      '\n(d) Lighthouse mobile (default throttling), Debian Chromium; targets: perf >= 98, LCP <= 1.5 s, CLS < 0.05, a11y and SEO 100, JS until idle <= 90 kB\n',
    )
    printTable(LIGHTHOUSE_HEAD, formatLighthouseRows(lighthouse))
    for (const f of lighthouse) {
      if (f.failedAudits.length)
        console.log(`${f.path}: accessibility/SEO audits below 0.9: ${f.failedAudits.join(', ')}`)
    }
  }
  const allRuns = [...rows.flatMap((r) => [r.app, r.bare]), ...pageRows.flatMap((r) => [r.result, r.plain])]
  if (allRuns.some((r) => r.non2xx + r.errors + r.timeouts > 0))
    console.log('\nSome page loads had errors or non-2xx answers.')
  console.log(`\nLoad average at end: ${loadAverage()}`)
  if (problems.length)
    console.log(`\nNot every request succeeded, so these figures are suspect:\n  ${problems.join('\n  ')}`)
  else console.log('\nEvery request succeeded (no errors, timeouts or non-2xx answers).')
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err)
    process.exit(1)
  },
)
