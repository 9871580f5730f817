// The mixed run of `npm run bench:scale`: every request a different search drawn from a few hundred (words, model
// names, misspellings, prefixes being typed, filters, every sort, pages 1–30, facets on half), first on a quiet
// catalogue, then while a writer commits listing changes (new listings, price edits, sales, removals) at a steady
// rate, with the freshness of each write: the time from its commit until a search on a second instance shows it.
// See bench/README.md.
import fs from 'node:fs'
import os from 'node:os'
import autocannon from 'autocannon'
import pg from 'pg'
import { SearchQuery } from '#contract/search'
import { seededRandom } from '../server/lib/seeded-random'
import { drawSearch } from '../server/test/search-draw'

/** `count` different search paths drawn from the realistic mix. */
export function mixedPaths(brandIds: string[], count: number, seed = 7): string[] {
  const rnd = seededRandom(seed)
  const paths = new Set<string>()
  while (paths.size < count) paths.add(searchPath(rnd, brandIds, false))
  return [...paths]
}

/** One search of the mix (server/test/search-draw.ts), as the path asked for. */
const searchPath = (rnd: () => number, brandIds: string[], wide: boolean) =>
  `/api/search?${drawSearch(rnd, brandIds, wide)}`

/** How the paths of a mixed run are drawn: from a fixed list, every one unique (the long tail), or by Zipf. */
export type Draw = { kind: 'list'; paths: string[] } | { kind: 'long-tail' } | { kind: 'zipf'; ranks: number }

/**
 * The next path of a run. `long-tail`: every request a search not asked before in the run (drawn again on the rare
 * repeat). `zipf`: search number k (each a fixed draw of the wide space) asked with probability proportional to 1/k
 * among `ranks` (exponent 1): a head of popular searches asked again and again, a tail asked once.
 */
export function pathSource(
  draw: Draw,
  brandIds: string[],
  seed: number,
): { next: () => string; distinct: () => number } {
  const rnd = seededRandom(seed)
  if (draw.kind === 'list')
    return {
      next: () => draw.paths[Math.floor(rnd() * draw.paths.length)] as string,
      distinct: () => draw.paths.length,
    }
  const seen = new Set<string>()
  if (draw.kind === 'long-tail')
    return {
      next: () => {
        for (;;) {
          const path = searchPath(rnd, brandIds, true)
          if (!seen.has(path)) {
            seen.add(path)
            return path
          }
        }
      },
      distinct: () => seen.size,
    }
  // Inverse of the continuous CDF of 1/k on [1, ranks + 1): k = floor((ranks + 1)^u).
  const logSpan = Math.log(draw.ranks + 1)
  return {
    next: () => {
      const k = Math.min(draw.ranks, Math.floor(Math.exp(rnd() * logSpan)))
      const path = searchPath(seededRandom(k * 7_919 + 13), brandIds, true)
      seen.add(path)
      return path
    },
    distinct: () => seen.size,
  }
}

/** Quantiles of a part of a run's answers. */
export type SliceFigures = {
  p50: number
  p95: number
  p975: number
  p99: number
  requests: number
  rps: number
}

/** The answers to the requests sent in the first `firstS` seconds of a run of `total` seconds and to the rest, apart. */
function splitAt(
  times: number[],
  sentS: number[],
  firstS: number,
  total: number,
): { head: SliceFigures; rest: SliceFigures } {
  const head: number[] = []
  const rest: number[] = []
  times.forEach((ms, i) => {
    ;((sentS[i] as number) < firstS ? head : rest).push(ms)
  })
  const figures = (xs: number[], seconds: number): SliceFigures => ({
    p50: quantile(xs, 0.5),
    p95: quantile(xs, 0.95),
    p975: quantile(xs, 0.975),
    p99: quantile(xs, 0.99),
    requests: xs.length,
    rps: xs.length / Math.max(seconds, 1e-3),
  })
  return { head: figures(head, Math.min(firstS, total)), rest: figures(rest, total - firstS) }
}

export type MixedFigures = {
  /** With `firstS`: the first seconds' figures and the rest's. */
  first?: { head: SliceFigures; rest: SliceFigures }
  /** The answers while `beforeWrites` ran: each one's time and when it came (performance.now()). */
  meanwhile: { times: number[]; at: number[] }
  p50: number
  p95: number
  p975: number
  p99: number
  rps: number
  requests: number
  bad: number
  rssMb: number
  /** The instance's memory when the measured run started. */
  rssStartMb: number
  /** The highest of the instance's memory sampled every BENCH_RSS_EVERY seconds (default 5) during the run. */
  rssPeakMb: number
  writes: number
  fresh: number[]
  staleAtEnd: number
}

/** A process and every process under it (tsx runs the app in a child), as their pids; gone ones are left out. */
function processTree(pid: number): number[] {
  const tree = [pid]
  try {
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      let children = ''
      try {
        children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim()
      } catch {}
      for (const c of children ? children.split(/\s+/) : []) tree.push(...processTree(Number(c)))
    }
  } catch {}
  return tree
}

/** The resident memory of a process and its children, in MB. */
export function rssMb(pid: number | undefined, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  if (!pid) return Number.NaN
  let kb = 0
  for (const p of processTree(pid)) {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8')
      kb += Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
    } catch {}
  }
  return kb / 1024
}

/** The CPU seconds a run's parts used, read from /proc (each thread's user and system time). */
export type CpuUse = {
  /** The instance's main thread, its worker threads (searches, whole reads of the copy), V8's helper threads. */
  main: number
  workers: number
  v8: number
  /** The instance's other threads (libuv's pool, the tsx parent). */
  other: number
  /**
   * The second instance (the freshness prober's, scale.ts), every thread: it applies every write as the first does and
   * answers the prober, on the same cores. Undefined when none runs beside the first (`--after-bulk`).
   */
  second: number | undefined
  /** Every PostgreSQL process working for the database (backends, autovacuum), those gone included (postgresSeconds). */
  postgres: number
  /** This process: the load generator and the writer. */
  bench: number
  /** The whole machine's busy time, and its seconds of wall clock. */
  machine: number
  wallS: number
}

const TICKS_PER_S = 100

/** A /proc stat line's name (between its parentheses) and its user and system time in seconds. */
function readStat(path: string): { name: string; seconds: number } {
  const stat = fs.readFileSync(path, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return {
    name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S,
  }
}

/** What a thread of the instance is, by its name. */
const threadKind = (name: string) =>
  name === 'MainThread'
    ? 'main'
    : name === 'WorkerThread'
      ? 'workers'
      : name.startsWith('V8')
        ? 'v8'
        : 'other'

/**
 * The CPU seconds of each thread of `pid` and its children so far, by what the thread is (threadKind). A thread that
 * ended is no longer listed, but its process's own line still counts its time: that rest is put with the worker
 * threads, as the threads that end are those that read or make the copy (facts-apart.ts: each reads once and ends).
 * Summing the threads alive alone lost a copy made from the view (3–4 s of a thread) when it ended within a reading.
 */
function threadsCpu(pid: number | undefined) {
  const app = { main: 0, workers: 0, v8: 0, other: 0 }
  for (const p of pid ? processTree(pid) : []) {
    let tasks: string[] = []
    let whole = 0
    try {
      tasks = fs.readdirSync(`/proc/${p}/task`)
      whole = readStat(`/proc/${p}/stat`).seconds
    } catch {}
    let alive = 0
    for (const task of tasks) {
      try {
        const { name, seconds } = readStat(`/proc/${p}/task/${task}/stat`)
        app[threadKind(name)] += seconds
        alive += seconds
      } catch {}
    }
    app.workers += Math.max(0, whole - alive)
  }
  return app
}

/** Per database, each PostgreSQL process's CPU seconds when last seen, and the sum of those gone since. */
const backendsSeen = new Map<string, { last: Map<number, number>; gone: number }>()

/**
 * The CPU seconds PostgreSQL's processes for `dbName` used so far: those alive now, and those gone since as of when
 * they were last seen. Pools close idle connections (the second instance's, under the prober's light load, every few
 * seconds), and a backend gone between two readings took its CPU with it: a run's readings a minute apart counted
 * half of PostgreSQL's. mixedRun looks every second (watchPostgres), so a backend gone loses at most its last second.
 */
function postgresSeconds(dbName: string): number {
  const seen = backendsSeen.get(dbName) ?? { last: new Map<number, number>(), gone: 0 }
  const now = new Map<number, number>()
  for (const p of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue
    try {
      const cmd = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8')
      if (!cmd.startsWith('postgres: ') || !cmd.split(/\s+/).includes(dbName)) continue
      now.set(Number(p), readStat(`/proc/${p}/stat`).seconds)
    } catch {}
  }
  for (const [pid, seconds] of seen.last) if (!now.has(pid)) seen.gone += seconds
  seen.last = now
  backendsSeen.set(dbName, seen)
  return [...now.values()].reduce((a, b) => a + b, seen.gone)
}

/**
 * The CPU seconds used so far by the instance `pid` (and the second instance `secondPid`), PostgreSQL's processes for
 * database `dbName`, and this process.
 */
export function cpuUse(pid: number | undefined, dbName: string, secondPid?: number): CpuUse {
  const app = threadsCpu(pid)
  const second =
    secondPid === undefined ? undefined : Object.values(threadsCpu(secondPid)).reduce((a, b) => a + b, 0)
  const postgres = postgresSeconds(dbName)
  const own = process.cpuUsage()
  const cpu = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').split(/\s+/).slice(1).map(Number)
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  const busy = cpu.slice(0, 8).reduce((a, b, i) => (i === 3 || i === 4 ? a : a + b), 0) / TICKS_PER_S
  return {
    ...app,
    second,
    postgres,
    bench: (own.user + own.system) / 1e6,
    machine: busy,
    wallS: performance.now() / 1000,
  }
}

/** What a run used between two readings, in milliseconds of CPU a request; the machine's in cores busy. */
export function cpuPerRequest(from: CpuUse, to: CpuUse, requests: number): string {
  const ms = (seconds: number) => ((seconds * 1000) / Math.max(1, requests)).toFixed(2)
  const per = (k: keyof CpuUse) => ms((to[k] ?? 0) - (from[k] ?? 0))
  const cores = (to.machine - from.machine) / Math.max(1e-3, to.wallS - from.wallS)
  const second = to.second === undefined ? '' : `; the second instance ${per('second')}`
  return `CPU a request, ms: instance main thread ${per('main')}, worker threads ${per('workers')}, V8's helper threads ${per('v8')}, other ${per('other')}${second}; PostgreSQL ${per('postgres')}; the bench ${per('bench')}; the machine busy ${cores.toFixed(2)} of ${os.cpus().length} cores`
}

/**
 * A writer's new listing with its photo, in one statement: $1 its brand, $2 its seller, $3 its price in cents. Returns
 * its id.
 */
export const NEW_LISTING_SQL = `with ins as (
    insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
      description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, posted_on)
    values ('Lenovo ThinkPad P16 Gen 2 workstation', $1, $2, '+880 1711 000000', $3, $3 + 50000,
      'Used workstation with an RTX card, 64 GB RAM and a 2 TB SSD.', 'Excellent', 'Dhaka', 1,
      'Intel Core i9-13980HX', 64, 2048, 16, now())
    returning id)
  insert into product_images (product_id, position, card_url, detail_url)
  select id, 1, '/images/laptop-placeholder.svg', '/images/laptop-placeholder.svg' from ins returning product_id as id`

/** A bench path (`/api/search?…`) as the search route reads its query. */
export const searchOfPath = (path: string) =>
  SearchQuery.parse(Object.fromEntries(new URLSearchParams(path.split('?')[1])))

/** Prices of the writer's listings, in dollars: above every bench listing's, so a search can find them alone. */
export const FRESH_FROM = 5_000

/**
 * BENCH_WRITES_SPREAD (0 to 1, default 0): the share of the writes that reprice a catalogue listing drawn at random (by
 * a dollar; its price put back when the run ends) instead of touching the writer's own. The writer's own listings are
 * few and new, so alone they never pile up changes to the listings the instance's copy read: spread writes do, as
 * sellers editing their listings would, and bring the copy's settled parts and whole reads (listing-feed.ts) into the
 * run. Their freshness is not probed.
 */
const SPREAD = Math.min(1, Math.max(0, Number(process.env.BENCH_WRITES_SPREAD ?? 0)))

/**
 * BENCH_PROBE_GAP_MS (default 25): the prober's pause between one answer and its next ask. Each probe is a search of
 * a hundred listings answered by the second instance on the same cores, about twenty a second at 25 ms: a larger gap
 * measures freshness more coarsely and leaves the searches measured more of the machine.
 */
const PROBE_GAP_MS = Number(process.env.BENCH_PROBE_GAP_MS ?? 25)

/**
 * A writer committing `perSecond` listing changes a second by SQL (each its own transaction): new listings (35%),
 * price edits (30%), sales (20%), removals (15%) of its own listings, priced from FRESH_FROM dollars, so a prober
 * asking the second instance for `min_price=FRESH_FROM` every 25 ms (PROBE_GAP_MS) sees each change appear (or
 * disappear) and notes when. The live set stays between 5 and 80 listings.
 */
function startWriter(dbUrl: string, perSecond: number, probeUrl: string, sellerId: string, brandId: string) {
  const pool = new pg.Pool({ connectionString: dbUrl, max: 2 })
  const rnd = seededRandom(perSecond * 1_000 + 11)
  // Catalogue listings on sale the spread writes reprice (BENCH_WRITES_SPREAD), and the price each had before.
  const drawn =
    SPREAD > 0
      ? pool.query<{ id: string; cents: number }>(
          `select id, resale_price_cents as cents from products tablesample system (5)
            where is_sold = false and removed_at is null and resale_price_cents < ${FRESH_FROM * 100} limit 50000`,
        )
      : undefined
  drawn?.catch(() => undefined)
  const repriced = new Map<string, number>()
  let spreadWrites = 0
  /** Reprices a catalogue listing by a dollar, or puts back one repriced before. */
  const spreadWrite = async () => {
    const { rows } = await (drawn as NonNullable<typeof drawn>)
    const row = rows[Math.floor(rnd() * rows.length)]
    if (!row) return
    const was = repriced.get(row.id)
    if (was === undefined) repriced.set(row.id, row.cents)
    else repriced.delete(row.id)
    await pool.query('update products set resale_price_cents = $2 where id = $1', [
      row.id,
      was === undefined ? row.cents + 100 : was,
    ])
    spreadWrites++
  }
  let nextPrice = FRESH_FROM + (Math.floor(Date.now() / 1000) % 100_000)
  const live = new Map<string, number>()
  /** Pending checks: listing id → what the prober waits for, and the commit time. */
  const pending = new Map<string, { wants: 'present' | 'absent' | number; at: number }>()
  const fresh: number[] = []
  let writes = 0
  let stopped = false
  const write = async () => {
    if (SPREAD > 0 && rnd() < SPREAD) {
      await spreadWrite()
      writes++
      return
    }
    const roll = rnd()
    const ids = [...live.keys()].filter((id) => !pending.has(id))
    const canTouch = ids.length > 0
    let kind: 'new' | 'price' | 'sale' | 'removal'
    if (live.size < 5 || !canTouch) kind = 'new'
    else if (live.size > 80) kind = roll < 0.6 ? 'sale' : 'removal'
    else kind = roll < 0.35 ? 'new' : roll < 0.65 ? 'price' : roll < 0.85 ? 'sale' : 'removal'
    const price = (nextPrice++ % 900_000) + FRESH_FROM
    if (kind === 'new') {
      const { rows } = await pool.query<{ id: string }>(NEW_LISTING_SQL, [brandId, sellerId, price * 100])
      const id = rows[0]?.id as string
      live.set(id, price)
      pending.set(id, { wants: 'present', at: Date.now() })
    } else {
      const id = ids[Math.floor(rnd() * ids.length)] as string
      if (kind === 'price') {
        await pool.query('update products set resale_price_cents = $2 where id = $1', [id, price * 100])
        live.set(id, price)
        pending.set(id, { wants: price, at: Date.now() })
      } else {
        await pool.query(
          kind === 'sale'
            ? 'update products set is_sold = true, sold_at = now() where id = $1'
            : 'update products set removed_at = now() where id = $1',
          [id],
        )
        live.delete(id)
        pending.set(id, { wants: 'absent', at: Date.now() })
      }
    }
    writes++
  }
  /** What the last answered probe showed, and the probes not answered since the writes stopped (status, or none). */
  let lastSeen = new Map<string, number>()
  const refusedAfterStop = new Map<string, number>()
  const refused = (why: string) => {
    if (stopped) refusedAfterStop.set(why, (refusedAfterStop.get(why) ?? 0) + 1)
  }
  const probe = async () => {
    const res = await fetch(`${probeUrl}/api/search?min_price=${FRESH_FROM}&sort=price_asc&page_size=100`)
    if (!res.ok) return refused(String(res.status))
    const body = (await res.json()) as { items: { _id: string; resale_price: number }[] }
    const seen = new Map(body.items.map((i) => [i._id, i.resale_price]))
    lastSeen = seen
    const now = Date.now()
    for (const [id, p] of pending) {
      const shown = seen.get(id)
      const ok =
        p.wants === 'present'
          ? shown !== undefined
          : p.wants === 'absent'
            ? shown === undefined
            : shown === p.wants
      // Only checks made after the commit count (the request left after `at`).
      if (ok && startedProbe >= p.at) {
        fresh.push(now - p.at)
        pending.delete(id)
      }
    }
  }
  let startedProbe = 0
  let stoppedAt = 0
  const writer = (async () => {
    const gap = 1000 / perSecond
    let due = Date.now()
    while (!stopped) {
      due += gap
      await write().catch((err) => console.error('writer:', err.message))
      await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())))
    }
  })()
  const prober = (async () => {
    while (!stopped || pending.size > 0) {
      startedProbe = Date.now()
      await probe().catch(() => refused('no answer'))
      await new Promise((r) => setTimeout(r, PROBE_GAP_MS))
      if (stopped && Date.now() - stoppedAt > 10_000) break
    }
  })()
  return {
    async stop() {
      stopped = true
      stoppedAt = Date.now()
      await writer
      await prober
      // A write never seen is a freshness failure to explain: which, what it waited for, and what was shown instead.
      for (const [id, p] of pending)
        console.log(
          `  never seen: listing ${id}, waiting for ${p.wants} from ${((stoppedAt - p.at) / 1000).toFixed(1)} s before the writes stopped; the last probe showed ${lastSeen.has(id) ? `it at ${lastSeen.get(id)}` : 'it absent'} among ${lastSeen.size}${refusedAfterStop.size > 0 ? `; probes refused since the stop: ${[...refusedAfterStop].map(([status, n]) => `${n} × ${status}`).join(', ')}` : ''}`,
        )
      return { writes, spreadWrites, fresh, staleAtEnd: pending.size }
    },
    /** Once no search is measured: the catalogue left as it was (a statement of thousands of changes). */
    async putBack() {
      // The writer's listings go, the listings it repriced get their prices back.
      await pool.query(
        `update products set removed_at = now() where resale_price_cents >= ${FRESH_FROM * 100} and removed_at is null`,
      )
      if (repriced.size > 0)
        await pool.query(
          `update products p set resale_price_cents = v.cents
            from unnest($1::uuid[], $2::int[]) as v(id, cents) where p.id = v.id`,
          [[...repriced.keys()], [...repriced.values()]],
        )
      await pool.end()
    },
  }
}

/** The requests' time-out: a run waits at most this long past its window for the window's last answers. */
const TIMEOUT_S = 10

/** One mixed run: `paths` asked in random order at `connections` for `durationS`, with a writer when `perSecond`. */
export async function mixedRun(opts: {
  url: string
  probeUrl: string
  dbUrl: string
  /** Where each request's path comes from (pathSource). */
  source: { next: () => string }
  connections: number
  durationS: number
  warmupS: number
  perSecond: number
  appPid: number | undefined
  /** The second instance, when one runs beside it (its CPU is counted apart). */
  secondPid?: number | undefined
  sellerId: string
  brandId: string
  /**
   * Run while the searches go on, after the warm-up and before the writer starts (a bulk load, say): the writes and
   * the measured run begin the moment it ends.
   */
  beforeWrites?: () => Promise<void>
  /** Also prints the figures of the first this many seconds of the measured run apart from the rest's. */
  firstS?: number
}): Promise<MixedFigures> {
  // One run of requests from the warm-up to the end: its connections keep their pace across the warm-up, the work
  // before the writes and the measured window. A run stopped and another started in its place left the old run's
  // requests in flight on the instance (autocannon closes their sockets; the instance answers them anyway) while the
  // new run's connections all sent at once: the first answers of every measured window waited behind twice the usual
  // queue (its first 16 answers were its slowest 11 of the first 2 s: bench/README, "A run that keeps its pace").
  // Each answer belongs to the part of the run in which its request was sent.
  /** Each answer's time, when its request was sent and whether it failed (performance.now(), ms). */
  const answers: { ms: number; sentAt: number; bad: boolean }[] = []
  const load = autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: 24 * 3_600,
    timeout: TIMEOUT_S,
    requests: [
      {
        method: 'GET',
        setupRequest: (req: Record<string, unknown>) => ({ ...req, path: opts.source.next() }),
      },
    ],
  } as never) as ReturnType<typeof autocannon> & NodeJS.EventEmitter & { stop: () => void }
  let loadErrors = 0
  /** Per connection, when its last answered request was sent. */
  const lastSent = new Map<unknown, number>()
  load.on('response', (connection: unknown, status: number, _b: number, ms: number) => {
    const sentAt = performance.now() - ms
    answers.push({ ms, sentAt, bad: status < 200 || status >= 300 })
    lastSent.set(connection, sentAt)
  })
  load.on('reqError', () => loadErrors++)
  const sentBetween = (from: number, to: number) => answers.filter((a) => a.sentAt >= from && a.sentAt < to)
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  await sleep(opts.warmupS * 1000)
  /** The answers while `beforeWrites` ran, kept apart (the caller may cut a window out of them). */
  const meanwhileAnswers = { times: [] as number[], at: [] as number[] }
  if (opts.beforeWrites) {
    const from = performance.now()
    try {
      await opts.beforeWrites()
    } catch (err) {
      load.stop()
      throw err
    } finally {
      for (const a of sentBetween(from, performance.now())) {
        meanwhileAnswers.times.push(a.ms)
        meanwhileAnswers.at.push(a.sentAt + a.ms)
      }
    }
  }
  const writer =
    opts.perSecond > 0
      ? startWriter(opts.dbUrl, opts.perSecond, opts.probeUrl, opts.sellerId, opts.brandId)
      : undefined
  const times: number[] = []
  /** When each answer's request was sent, in seconds from the measured window's start. */
  const sentS: number[] = []
  const dbName = new URL(opts.dbUrl).pathname.slice(1)
  const watchPostgres = setInterval(() => postgresSeconds(dbName), 1000)
  /** Each instance's memory at the end of each slice (the second's: NaN when none runs). */
  const slicesRss: number[] = []
  const slicesSecondRss: number[] = []
  /** The CPU readings at each slice's end: what each slice cost a request, part by part, as the changes pile up. */
  const slicesCpu: CpuUse[] = []
  const sampler = setInterval(
    () => {
      slicesRss.push(rssMb(opts.appPid))
      slicesSecondRss.push(rssMb(opts.secondPid))
      slicesCpu.push(cpuUse(opts.appPid, dbName, opts.secondPid))
    },
    Number(process.env.BENCH_MIXED_SLICE ?? 30) * 1000,
  )
  const rssAtStart = rssMb(opts.appPid)
  let rssPeak = rssAtStart
  const secondAtStart = rssMb(opts.secondPid)
  let secondPeak = secondAtStart
  const peakSampler = setInterval(
    () => {
      rssPeak = Math.max(rssPeak, rssMb(opts.appPid))
      secondPeak = Math.max(secondPeak, rssMb(opts.secondPid))
    },
    Number(process.env.BENCH_RSS_EVERY ?? 5) * 1000,
  )
  const cpuAtStart = cpuUse(opts.appPid, dbName, opts.secondPid)
  const windowStart = performance.now()
  // Where the window starts on the clock the instances' logs (BENCH_LOG_LEVEL) carry: what a logged event was near.
  console.log(`  window from ${new Date().toISOString()}`)
  const errorsBefore = loadErrors
  // With firstS, the CPU of the first seconds apart from the rest's: what the first seconds of writes cost more.
  let cpuAtFirst: ReturnType<typeof cpuUse> | undefined
  const firstTimer =
    opts.firstS !== undefined
      ? setTimeout(() => {
          cpuAtFirst = cpuUse(opts.appPid, dbName, opts.secondPid)
        }, opts.firstS * 1000)
      : undefined
  await sleep(opts.durationS * 1000)
  const windowEnd = performance.now()
  const cpuAtEnd = cpuUse(opts.appPid, dbName, opts.secondPid)
  const writerStopped = writer?.stop()
  // Every request sent in the window answered (each connection has sent one since; one timed out is an error),
  // the run keeping its pace meanwhile, then it stops: a slow last answer counts in the window's figures.
  const doneBy = performance.now() + (TIMEOUT_S + 1) * 1000
  const windowAnswered = () =>
    lastSent.size >= opts.connections && [...lastSent.values()].every((sentAt) => sentAt >= windowEnd)
  while (!windowAnswered() && performance.now() < doneBy) await sleep(20)
  load.stop()
  const measured = sentBetween(windowStart, windowEnd)
  for (const a of measured) {
    times.push(a.ms)
    sentS.push((a.sentAt - windowStart) / 1000)
  }
  const bad = measured.filter((a) => a.bad).length + loadErrors - errorsBefore
  clearTimeout(firstTimer)
  clearInterval(sampler)
  clearInterval(peakSampler)
  clearInterval(watchPostgres)
  const rss = rssMb(opts.appPid)
  rssPeak = Math.max(rssPeak, rss)
  const secondRss = rssMb(opts.secondPid)
  secondPeak = Math.max(secondPeak, secondRss)
  const change = (from: number, to: number) => `${(((to - from) / from) * 100).toFixed(1)}%`
  console.log(
    `  ${opts.perSecond} writes/s for ${opts.durationS} s: RSS start ${rssAtStart.toFixed(0)} MB, end ${rss.toFixed(0)} MB (${change(rssAtStart, rss)}), peak ${rssPeak.toFixed(0)} MB (sampled every ${process.env.BENCH_RSS_EVERY ?? 5} s)${opts.secondPid ? `; the second instance ${secondAtStart.toFixed(0)} → ${secondRss.toFixed(0)} MB (${change(secondAtStart, secondRss)}), peak ${secondPeak.toFixed(0)} MB` : ''}; load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  )
  if (cpuAtFirst) {
    const inFirst = sentS.filter((t) => t < (opts.firstS as number)).length
    console.log(`  first ${opts.firstS} s: ${cpuPerRequest(cpuAtStart, cpuAtFirst, inFirst)}`)
    console.log(`  the rest: ${cpuPerRequest(cpuAtFirst, cpuAtEnd, times.length - inFirst)}`)
  } else console.log(`  ${cpuPerRequest(cpuAtStart, cpuAtEnd, times.length)}`)
  const written = (await writerStopped) ?? { writes: 0, spreadWrites: 0, fresh: [], staleAtEnd: 0 }
  await writer?.putBack()
  if (written.spreadWrites > 0)
    console.log(
      `  of the ${written.writes} writes, ${written.spreadWrites} repriced catalogue listings (BENCH_WRITES_SPREAD)`,
    )
  // A long run also prints its figures per slice (BENCH_MIXED_SLICE seconds, default 30): whether they hold while the
  // changes pile up, and whether the first seconds of writes cost more than later ones.
  const sliceS = Number(process.env.BENCH_MIXED_SLICE ?? 30)
  if (opts.durationS >= 2 * sliceS && times.length > 0) {
    for (let from = 0; from < opts.durationS; from += sliceS) {
      const slice = times.filter(
        (_, i) => (sentS[i] as number) >= from && (sentS[i] as number) < from + sliceS,
      )
      if (slice.length === 0) continue
      const q = (x: number) => quantile(slice, x).toFixed(1)
      console.log(
        `  ${opts.perSecond} writes/s, ${from}–${from + sliceS} s: p50 ${q(0.5)} p95 ${q(0.95)} p97.5 ${q(0.975)} p99 ${q(0.99)} ms, ${Math.round(slice.length / sliceS)} req/s, RSS ${slicesRss[Math.floor(from / sliceS)]?.toFixed(0) ?? '?'} MB${opts.secondPid ? `, the second's ${slicesSecondRss[Math.floor(from / sliceS)]?.toFixed(0) ?? '?'} MB` : ''}`,
      )
      const k = Math.floor(from / sliceS)
      const cpuFrom = k === 0 ? cpuAtStart : slicesCpu[k - 1]
      const cpuTo = slicesCpu[k] ?? cpuAtEnd
      if (cpuFrom) console.log(`    ${cpuPerRequest(cpuFrom, cpuTo, slice.length)}`)
    }
  }
  const firstS = opts.firstS
  const first = firstS !== undefined ? splitAt(times, sentS, firstS, opts.durationS) : undefined
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN
  return {
    first,
    meanwhile: meanwhileAnswers,
    p50: at(0.5),
    p95: at(0.95),
    p975: at(0.975),
    p99: at(0.99),
    rps: times.length / opts.durationS,
    requests: times.length,
    bad,
    rssMb: rss,
    rssStartMb: rssAtStart,
    rssPeakMb: rssPeak,
    ...written,
  }
}

export const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN
}
