// A rolling deploy under traffic, shared by the cluster test (cluster/rolling-deploy.test.ts) and
// `npm run bench:deploy`: clients walk a buyer's and a seller's steps through nginx (reads, sign-in, a listing,
// a booking, a hold, a payment) while each instance in turn is stopped with SIGTERM, drains, and a new one
// is started on its port (docs/deployment.md, "Rolling deploy"; decision 0082). Every answer is counted and
// checked; every acknowledged write is looked for in the database afterwards.
import os from 'node:os'
import pg from 'pg'
import { type Account, type Answer, CARD, call, LISTING, sessionCookie, signUp } from './client'
import { type Cluster, NGINX_FAIL_TIMEOUT_S, type Release } from './harness'

export type Failure = { at: number; step: string; status: number; body: string }

export type RequestRecord = { started: number; ms: number }

export type Replacement = {
  instance: string
  /** SIGTERM → the old process exited (its drain). */
  drainMs: number
  exitCode: number | string
  /** The old process exited → the new one answered /api/health 200 (started, migrated, search copy loaded). */
  startMs: number
  /** Health 200 → nginx sends the new instance requests again (its set-aside window over, a read answered). */
  takenBackMs: number
}

export type RollingResult = {
  requests: number
  failures: Failure[]
  writes: { listings: number; bookings: number; payments: number }
  lost: { listings: string[]; bookings: string[]; payments: string[] }
  replacements: Replacement[]
  /** Latency percentiles (ms) of the requests started while instances were being replaced, and of the others. */
  during: { requests: number; p50: number; p99: number; max: number }
  outside: { requests: number; p50: number; p99: number; max: number }
  seconds: number
  load: { start: number[]; end: number[] }
}

export type RollingOptions = {
  clients: number
  /** Traffic before the first instance is stopped, and after the last one is back. */
  warmupMs: number
  tailMs: number
  /** How many times every instance is replaced, one after the other. */
  rounds?: number
  /** What the new instances run (another checkout, more environment); by default the same code. */
  release?: Release
  /** Bearer token of /metrics, to see nginx send a new instance reads again after its set-aside window. */
  metricsToken?: string
  log?: (line: string) => void
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function percentiles(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b)
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0
  return { requests: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0 }
}

/**
 * Reads (GET) an instance has answered with a status other than 503, health checks and scrapes (its own /metrics)
 * left out. A read arriving while its search copy loads is turned away with 503, so a read answered otherwise
 * arrived once it was ready. Writes are no sign: they are served while the copy loads, also in the seconds nginx
 * keeps the instance aside after one of its 503s.
 */
async function servedReads(url: string, token: string): Promise<number> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })
  if (res.status !== 200) return 0
  let total = 0
  for (const line of (await res.text()).split('\n')) {
    const m = /^laptop_market_http_requests_total\{(.*)\} (\S+)$/.exec(line)
    const labels = m?.[1] ?? ''
    if (m && /method="GET"/.test(labels) && !/route="\/(api\/health|metrics)"|status="503"/.test(labels))
      total += Number(m[2])
  }
  return total
}

/**
 * The operator's steps for one instance: SIGTERM, wait for the process to exit (it drains: health 503, reads
 * turned away to the other instance, requests in flight finished), start the new release on the same port, wait
 * for /api/health 200 (its search copy loaded), then until nginx uses it again before the next instance is touched.
 *
 * Until health said 200 the new instance turned reads away with 503, and nginx set it aside for fail_timeout after
 * each (max_fails=1). From health 200 on it turns nothing away, so nginx takes it back at most fail_timeout later
 * (plus a second: nginx's clock counts whole seconds): wait that long, then for a read it answers, which nginx sent
 * it after the window. Stopping the other instance sooner leaves nginx none: the first read it turns away while it
 * drains sets it aside too, and nginx answers every request 502 "no live upstreams" until the new one's window ends
 * (decision 0086). The writes a loading instance serves say nothing of this.
 */
export async function replaceInstance(
  cluster: Cluster,
  index: number,
  opts: Pick<RollingOptions, 'release' | 'metricsToken'> = {},
): Promise<Replacement> {
  const old = cluster.instances[index]
  if (!old) throw new Error(`no instance ${index}`)
  const signalled = Date.now()
  old.process.kill('SIGTERM')
  const exitCode = await old.exited
  const exited = Date.now()
  const fresh = await cluster.startInstance(index, opts.release)
  const healthy = Date.now()
  await sleep(NGINX_FAIL_TIMEOUT_S * 1000 + 1_000)
  if (opts.metricsToken) {
    const until = Date.now() + 30_000
    const before = await servedReads(fresh.url, opts.metricsToken)
    while ((await servedReads(fresh.url, opts.metricsToken)) <= before) {
      if (Date.now() > until)
        throw new Error(`${fresh.name}: nginx sent it no read within 30 s of its set-aside window`)
      await sleep(100)
    }
  }
  return {
    instance: old.name,
    drainMs: exited - signalled,
    exitCode,
    startMs: healthy - exited,
    takenBackMs: Date.now() - healthy,
  }
}

export async function rollingDeployUnderTraffic(
  cluster: Cluster,
  opts: RollingOptions,
): Promise<RollingResult> {
  const LB = cluster.balancerUrl
  const log = opts.log ?? (() => {})
  const load = { start: os.loadavg(), end: [] as number[] }
  const db = new pg.Client({ connectionString: cluster.databaseUrl })
  await db.connect()
  try {
    const brand = await db.query<{ id: string }>(
      `insert into brands (name, image_url) values ('Rolling Brand ' || gen_random_uuid(), 'https://x.example/b.png') returning id`,
    )
    const brandId = brand.rows[0]?.id ?? ''
    // One seller and one buyer per client, their addresses confirmed (a hold needs it), as the emailed link would.
    const pairs: { seller: Account; buyer: Account }[] = []
    for (let c = 0; c < opts.clients; c++) {
      const seller = await signUp(LB, LB, 'seller', `roll-seller${c}`)
      const buyer = await signUp(LB, LB, 'buyer', `roll-buyer${c}`)
      pairs.push({ seller, buyer })
    }
    await db.query('update users set email_verified = true where id = any($1)', [
      pairs.flatMap((p) => [p.seller.id, p.buyer.id]),
    ])

    const records: RequestRecord[] = []
    const failures: Failure[] = []
    const acked = { listings: [] as string[], bookings: [] as string[], payments: [] as string[] }
    const t0 = Date.now()
    /** One request through nginx, counted and checked: its answer when it is the expected one, else undefined. */
    const step = async (
      name: string,
      expected: number,
      method: string,
      url: string,
      opt: Parameters<typeof call>[3] = {},
    ): Promise<Answer | undefined> => {
      const started = Date.now()
      let answer: Answer | undefined
      let error = ''
      try {
        answer = await call(LB, method, url, { origin: LB, ...opt })
      } catch (err) {
        error = `${(err as Error).message} ${((err as Error).cause as Error | undefined)?.message ?? ''}`
      }
      records.push({ started, ms: Date.now() - started })
      if (answer?.status === expected) return answer
      failures.push({
        at: started - t0,
        step: `${method} ${name}`,
        status: answer?.status ?? 0,
        body: answer ? JSON.stringify(answer.body).slice(0, 200) : error,
      })
      return undefined
    }
    const id = (answer: Answer | undefined) =>
      (answer?.body as { insertedId?: string } | undefined)?.insertedId

    let running = true
    const client = async (c: number) => {
      const { seller } = pairs[c] as { seller: Account; buyer: Account }
      let buyer = (pairs[c] as { buyer: Account }).buyer
      for (let n = 0; running; n++) {
        await step('home', 200, 'GET', '/api/advertised_product')
        await step('search', 200, 'GET', `/api/search?q=${['thinkpad', 'macbook', 'xps'][n % 3]}`)
        if (n % 2 === 0) {
          const signedIn = await step('sign-in', 200, 'POST', '/api/auth/sign-in/email', {
            body: { email: buyer.email, password: buyer.password },
          })
          if (signedIn) buyer = { ...buyer, cookie: sessionCookie(signedIn.headers) }
        }
        const listingId = id(
          await step('listing', 201, 'POST', '/api/products', {
            cookie: seller.cookie,
            body: { ...LISTING, name: `ThinkPad Rolling ${c}-${n}`, category_id: brandId },
          }),
        )
        if (!listingId) continue
        acked.listings.push(listingId)
        await step('detail', 200, 'GET', `/api/products/${listingId}`)
        const bookingId = id(
          await step('booking', 201, 'POST', '/api/bookings', {
            cookie: buyer.cookie,
            body: { productId: listingId, phoneNumber: '(512) 555-0100', location: 'Austin, TX' },
          }),
        )
        if (!bookingId) continue
        acked.bookings.push(bookingId)
        if (!(await step('hold', 200, 'POST', `/api/bookings/${bookingId}/hold`, { cookie: buyer.cookie })))
          continue
        const paid = await step('payment', 200, 'POST', '/api/payments/test', {
          cookie: buyer.cookie,
          body: { bookingId, card: CARD },
        })
        const transactionId = (paid?.body as { transactionId?: string } | undefined)?.transactionId
        if (transactionId) acked.payments.push(transactionId)
        await step('brand page', 200, 'GET', `/api/category/${brandId}`)
      }
    }
    const clients = Array.from({ length: opts.clients }, (_, c) => client(c))

    await sleep(opts.warmupMs)
    const replacements: Replacement[] = []
    const windows: [number, number][] = []
    for (let round = 0; round < (opts.rounds ?? 1); round++) {
      for (let i = 0; i < cluster.instances.length; i++) {
        const from = Date.now()
        const replaced = await replaceInstance(cluster, i, opts)
        windows.push([from, Date.now()])
        replacements.push(replaced)
        log(
          `${replaced.instance}: drained and exited (${replaced.exitCode}) ${replaced.drainMs} ms after SIGTERM; ` +
            `the new one healthy ${replaced.startMs} ms later, sent requests by nginx ${replaced.takenBackMs} ms after that`,
        )
      }
    }
    await sleep(opts.tailMs)
    running = false
    await Promise.all(clients)
    const seconds = (Date.now() - t0) / 1000
    load.end = os.loadavg()

    // Every acknowledged write is in the database.
    const missing = async (sql: string, ids: string[]) => {
      const found = await db.query<{ id: string }>(sql, [ids])
      const have = new Set(found.rows.map((r) => r.id))
      return ids.filter((id) => !have.has(id))
    }
    const lost = {
      listings: await missing(
        'select id::text as id from products where id = any($1::uuid[])',
        acked.listings,
      ),
      bookings: await missing(
        'select id::text as id from bookings where id = any($1::uuid[])',
        acked.bookings,
      ),
      payments: await missing(
        `select transaction_id as id from payments where transaction_id = any($1) and status = 'succeeded'`,
        acked.payments,
      ),
    }
    const inWindow = (r: RequestRecord) => windows.some(([a, b]) => r.started >= a && r.started <= b)
    return {
      requests: records.length,
      failures,
      writes: {
        listings: acked.listings.length,
        bookings: acked.bookings.length,
        payments: acked.payments.length,
      },
      lost,
      replacements,
      during: percentiles(records.filter(inWindow).map((r) => r.ms)),
      outside: percentiles(records.filter((r) => !inWindow(r)).map((r) => r.ms)),
      seconds,
      load,
    }
  } finally {
    await db.end()
  }
}
