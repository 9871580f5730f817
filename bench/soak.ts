// `npm run bench:soak`: two app instances behind nginx (the cluster of `npm run test:cluster`), mixed traffic
// (browse, search, detail, sign-in, booking). First the maximum the mix reaches with SOAK_CONNECTIONS
// requests in flight, then SOAK_SECONDS (60) at SOAK_SHARE (60%) of it, at a steady rate: errors, latency
// percentiles, and the resident memory of each instance at 20 s and at the end. Needs nginx, PostgreSQL
// and Redis on 127.0.0.1; ports 4460-4462 unless SOAK_PORT says otherwise.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import pg from 'pg'
import { type Account, call, LISTING, signUp } from '../cluster/client'
import { startCluster } from '../cluster/harness'
import { DRILL_ENV } from './drill-env'

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60)
const SHARE = Number(process.env.SOAK_SHARE ?? 0.6)
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 32)
// Each instance's /metrics is scraped at the end, as Prometheus would (docs/decisions/0070).
const METRICS_TOKEN = randomBytes(24).toString('hex')
const PROBE_SECONDS = Number(process.env.SOAK_PROBE_SECONDS ?? 10)

const cluster = await startCluster({
  basePort: Number(process.env.SOAK_PORT ?? 4460),
  env: { ...DRILL_ENV, LOG_LEVEL: 'error', METRICS_TOKEN },
})
const LB = cluster.balancerUrl

/** A few figures from an instance's /metrics: requests and 5xx answered, search latency, queues, the ledger. */
async function scrape(url: string) {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  if (res.status !== 200) return { scrape: `HTTP ${res.status}` }
  const lines = (await res.text()).split('\n').filter((l) => l && !l.startsWith('#'))
  const total = (name: string, match: (labels: string) => boolean = () => true) =>
    lines.reduce((sum, l) => {
      const m = /^([a-z_]+)(\{.*\})? (\S+)$/.exec(l)
      return m && m[1] === name && match(m[2] ?? '') ? sum + Number(m[3]) : sum
    }, 0)
  const searches = total('laptop_market_search_duration_seconds_count')
  return {
    requests: total('laptop_market_http_requests_total'),
    // 503 is what an instance answers while its search copy loads or it drains: nginx sends those GETs elsewhere.
    '503': total('laptop_market_http_requests_total', (l) => /status="503"/.test(l)),
    'other 5xx': total('laptop_market_http_requests_total', (l) => /status="5(?!03)/.test(l)),
    'search mean ms': searches
      ? ((total('laptop_market_search_duration_seconds_sum') / searches) * 1000).toFixed(1)
      : '-',
    'email backlog': total('laptop_market_email_backlog'),
    'jobs waiting': total('laptop_market_job_queue_waiting'),
    'ledger balanced': total('laptop_market_ledger_balanced'),
    'copy lag': total('laptop_market_listing_copy_lag_versions'),
    'figures up': total('laptop_market_figures_up'),
    'RSS MB': Math.round(total('laptop_market_process_resident_memory_bytes') / 1024 / 1024),
  }
}

function rssMb(pid: number | undefined): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024)
}

try {
  // A catalogue to browse, accounts to sign in with, buyers to book.
  const db = new pg.Client({ connectionString: cluster.databaseUrl })
  await db.connect()
  const brands = await db.query<{ id: string }>(
    `insert into brands (name, image_url) select 'Soak Brand ' || g, 'https://x.example/b.png' from generate_series(1, 6) g returning id`,
  )
  await db.end()
  const brandIds = brands.rows.map((r) => r.id)
  const seller = await signUp(LB, LB, 'seller')
  const names = ['ThinkPad X1 Carbon', 'MacBook Air M2', 'Dell XPS 13', 'HP Spectre x360', 'ASUS Zenbook 14']
  const productIds: string[] = []
  for (let i = 0; i < 300; i++) {
    const res = await call(LB, 'POST', '/api/products', {
      cookie: seller.cookie,
      origin: LB,
      body: {
        ...LISTING,
        name: `${names[i % names.length]} ${i}`,
        category_id: brandIds[i % brandIds.length],
      },
    })
    if (res.status !== 201) throw new Error(`listing: ${res.status} ${JSON.stringify(res.body)}`)
    const id = (res.body as { insertedId: string }).insertedId
    productIds.push(id)
    if (i % 5 === 0)
      await call(LB, 'PUT', `/api/advertise/product/${id}`, { cookie: seller.cookie, origin: LB })
  }
  const buyers: Account[] = []
  for (let i = 0; i < 12; i++) buyers.push(await signUp(LB, LB, 'buyer', `soak${i}`))

  // The mix, by weight: mostly reads, as a marketplace is.
  let bookingCursor = 0
  let pick = 0
  const at = <T>(list: T[], i: number) => list[i % list.length] as T
  const mix: { name: string; weight: number; send(i: number): Promise<number> }[] = [
    { name: 'home', weight: 25, send: async () => (await call(LB, 'GET', '/api/advertised_product')).status },
    { name: 'brands', weight: 10, send: async () => (await call(LB, 'GET', '/api/brands')).status },
    {
      name: 'brand page',
      weight: 15,
      send: async (i) => (await call(LB, 'GET', `/api/category/${at(brandIds, i)}`)).status,
    },
    {
      name: 'search',
      weight: 20,
      send: async (i) =>
        (
          await call(
            LB,
            'GET',
            `/api/search?q=${encodeURIComponent(at(['thinkpad', 'macbook air', 'xps', 'zenbok'], i))}`,
          )
        ).status,
    },
    {
      name: 'detail',
      weight: 20,
      send: async (i) => (await call(LB, 'GET', `/api/products/${at(productIds, i * 7)}`)).status,
    },
    {
      name: 'sign-in',
      weight: 3,
      send: async (i) => {
        const buyer = at(buyers, i)
        return (
          await call(LB, 'POST', '/api/auth/sign-in/email', {
            origin: LB,
            body: { email: buyer.email, password: buyer.password },
          })
        ).status
      },
    },
    {
      name: 'booking',
      weight: 7,
      send: async () => {
        // Each buyer books each listing once: walk the pairs in order.
        const n = bookingCursor++
        const buyer = at(buyers, n)
        const productId = at(productIds, Math.floor(n / buyers.length))
        const res = await call(LB, 'POST', '/api/bookings', {
          cookie: buyer.cookie,
          origin: LB,
          body: { productId, phoneNumber: '(512) 555-0100', location: 'Austin, TX' },
        })
        return res.status
      },
    },
  ]
  const wheel = mix.flatMap((m) => Array.from({ length: m.weight }, () => m))
  const nextRequest = () => {
    pick += 1
    return { kind: at(wheel, pick * 37), i: pick }
  }

  type Tally = { requests: number; errors: string[]; latencies: number[]; byKind: Record<string, number> }
  const tally = (): Tally => ({ requests: 0, errors: [], latencies: [], byKind: {} })
  const one = async (t: Tally) => {
    const { kind, i } = nextRequest()
    const started = performance.now()
    let status = 0
    try {
      status = await kind.send(i)
    } catch (err) {
      t.errors.push(`${kind.name}: ${(err as Error).message}`)
    }
    t.latencies.push(performance.now() - started)
    t.requests += 1
    t.byKind[kind.name] = (t.byKind[kind.name] ?? 0) + 1
    if (status !== 0 && status >= 400) t.errors.push(`${kind.name}: ${status}`)
  }

  // The maximum: CONNECTIONS requests always in flight.
  const probe = tally()
  let probing = true
  const probeStarted = performance.now()
  setTimeout(() => (probing = false), PROBE_SECONDS * 1000)
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (probing) await one(probe)
    }),
  )
  const maxRps = probe.requests / ((performance.now() - probeStarted) / 1000)
  const rate = Math.max(1, Math.round(maxRps * SHARE))
  console.log(`maximum: ${maxRps.toFixed(0)} requests/s with ${CONNECTIONS} in flight; soaking at ${rate}/s`)

  // The soak: requests started at a steady rate (open loop), for SECONDS.
  const soak = tally()
  // Resident memory every 10 s; the target compares the 20th second with the last.
  const memory: Record<string, Record<string, number>> = {}
  const pids = cluster.instances.map((i) => ({ name: i.name, pid: i.process.pid }))
  const pending = new Set<Promise<void>>()
  const soakStarted = performance.now()
  let issued = 0
  let nextSample = 10
  while (performance.now() - soakStarted < SECONDS * 1000) {
    const elapsed = (performance.now() - soakStarted) / 1000
    if (elapsed >= nextSample && nextSample < SECONDS) {
      for (const p of pids) memory[p.name] = { ...memory[p.name], [`${nextSample} s`]: rssMb(p.pid) }
      nextSample += 10
    }
    const due = Math.floor(elapsed * rate)
    while (issued < due) {
      issued += 1
      const request = one(soak).finally(() => pending.delete(request))
      pending.add(request)
    }
    await new Promise((r) => setTimeout(r, 5))
  }
  const endLabel = `${SECONDS} s`
  for (const p of pids) memory[p.name] = { ...memory[p.name], [endLabel]: rssMb(p.pid) }
  await Promise.all(pending)
  const soakSeconds = (performance.now() - soakStarted) / 1000

  const sorted = [...soak.latencies].sort((a, b) => a - b)
  const pct = (p: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(1)
  console.log(
    `\nSoak through nginx: ${SECONDS} s at ${rate} requests/s (${(SHARE * 100).toFixed(0)}% of the maximum)`,
  )
  console.table({
    soak: {
      requests: soak.requests,
      'requests/s': (soak.requests / soakSeconds).toFixed(0),
      errors: soak.errors.length,
      'p50 ms': pct(50),
      'p95 ms': pct(95),
      'p99 ms': pct(99),
      'max ms': (sorted[sorted.length - 1] ?? 0).toFixed(1),
    },
  })
  console.log('Requests by kind:', soak.byKind)
  console.log('Resident memory of each instance (MB):')
  console.table(
    Object.fromEntries(
      Object.entries(memory).map(([name, row]) => [
        name,
        {
          ...row,
          'growth 20 s→end': `${(((row[endLabel] ?? 0) / (row['20 s'] ?? 1) - 1) * 100).toFixed(1)}%`,
        },
      ]),
    ),
  )
  console.log("Each instance's /metrics after the run:")
  console.table(
    Object.fromEntries(await Promise.all(cluster.instances.map(async (i) => [i.name, await scrape(i.url)]))),
  )
  if (soak.errors.length) console.log('First errors:', soak.errors.slice(0, 10))
  if (probe.errors.length)
    console.log(`(${probe.errors.length} errors while finding the maximum)`, probe.errors.slice(0, 5))
  process.exitCode = soak.errors.length ? 1 : 0
} finally {
  await cluster.close()
}
