// Prometheus metrics at /metrics (docs/decisions/0070-metrics-behind-a-token.md): requests by route pattern and
// status with their latency, search latency, and figures read from the database when scraped (app.ts passes
// the reader in: plugins import no module). Without METRICS_TOKEN there is no /metrics and nothing is counted.
import { timingSafeEqual } from 'node:crypto'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { AppInstance } from '#server/app-context'
import { sendError } from '#server/lib/error-handler'

export type ScrapedFigures = {
  queues: {
    queue: string
    waiting: number
    active: number
    failedLastHour: number
    oldestWaitingSeconds: number
  }[]
  emailBacklog: number
  payouts: { state: string; count: number; amountCents: number }[]
  ledger: { balanced: boolean; unbalancedTransactions: number }
  photoBytes: number
  listingCopy: { loaded: boolean; lagVersions: number }
}

/** Every metric /metrics exports besides Node's own (`laptop_market_process_*`, `laptop_market_nodejs_*`). */
export const METRIC_NAMES = {
  requests: 'laptop_market_http_requests_total',
  requestSeconds: 'laptop_market_http_request_duration_seconds',
  searchSeconds: 'laptop_market_search_duration_seconds',
  queueWaiting: 'laptop_market_job_queue_waiting',
  queueActive: 'laptop_market_job_queue_active',
  queueFailed: 'laptop_market_job_queue_failed_last_hour',
  queueOldest: 'laptop_market_job_queue_oldest_waiting_seconds',
  emailBacklog: 'laptop_market_email_backlog',
  payouts: 'laptop_market_payouts',
  payoutCents: 'laptop_market_payouts_amount_cents',
  ledgerBalanced: 'laptop_market_ledger_balanced',
  ledgerUnbalanced: 'laptop_market_ledger_unbalanced_transactions',
  photoBytes: 'laptop_market_photo_storage_bytes',
  copyLoaded: 'laptop_market_listing_copy_loaded',
  copyLag: 'laptop_market_listing_copy_lag_versions',
  figuresUp: 'laptop_market_figures_up',
  figuresSeconds: 'laptop_market_figures_read_seconds',
} as const

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export type MetricsOptions = {
  token: string | undefined
  readFigures: () => Promise<ScrapedFigures>
  /** How long a scrape waits for the database's figures before answering without them (2 s). */
  figuresTimeoutMs?: number
}

export function metricsPlugin(app: AppInstance, opts: MetricsOptions): void {
  const { token } = opts
  if (!token) return
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'laptop_market_' })
  const requests = new Counter({
    name: METRIC_NAMES.requests,
    help: 'Requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const requestSeconds = new Histogram({
    name: METRIC_NAMES.requestSeconds,
    help: 'Seconds from a request arriving to its answer, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS,
    registers: [registry],
  })
  const searchSeconds = new Histogram({
    name: METRIC_NAMES.searchSeconds,
    help: 'Seconds a search request took (routes under /api/search), by route pattern',
    labelNames: ['route'] as const,
    buckets: SECONDS,
    registers: [registry],
  })
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry] })
  const queueWaiting = gauge(METRIC_NAMES.queueWaiting, 'Jobs due and waiting for a worker', ['queue'])
  const queueActive = gauge(METRIC_NAMES.queueActive, 'Jobs being worked on', ['queue'])
  const queueFailed = gauge(
    METRIC_NAMES.queueFailed,
    'Jobs given up after their last attempt in the last hour',
    ['queue'],
  )
  const queueOldest = gauge(
    METRIC_NAMES.queueOldest,
    'Seconds the longest-waiting due job has waited for a worker',
    ['queue'],
  )
  const emailBacklog = gauge(METRIC_NAMES.emailBacklog, 'Emails queued and not yet sent')
  const payouts = gauge(METRIC_NAMES.payouts, 'Payouts to sellers, by state', ['state'])
  const payoutCents = gauge(METRIC_NAMES.payoutCents, 'Money in payouts to sellers, by state', ['state'])
  const ledgerBalanced = gauge(
    METRIC_NAMES.ledgerBalanced,
    "1 when every ledger transaction balances and the entries sum to zero, 0 when they don't",
  )
  const ledgerUnbalanced = gauge(
    METRIC_NAMES.ledgerUnbalanced,
    'Ledger transactions whose entries do not sum to 0',
  )
  const photoBytes = gauge(METRIC_NAMES.photoBytes, 'Bytes of the photos uploaded')
  const copyLoaded = gauge(METRIC_NAMES.copyLoaded, "1 once this instance's copy of the listings has loaded")
  const copyLag = gauge(
    METRIC_NAMES.copyLag,
    "Versions of the listings' change feed this instance's copy is behind",
  )
  const figuresUp = gauge(METRIC_NAMES.figuresUp, '1 when the last scrape read the database figures in time')
  const figuresSeconds = gauge(
    METRIC_NAMES.figuresSeconds,
    'Seconds the last scrape took to read the figures',
  )

  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched'
    const labels = { method: req.method, route, status: String(reply.statusCode) }
    const seconds = reply.elapsedTime / 1000
    requests.inc(labels)
    requestSeconds.observe(labels, seconds)
    if (route.startsWith('/api/search')) searchSeconds.observe({ route }, seconds)
    done()
  })

  const timeoutMs = opts.figuresTimeoutMs ?? 2000
  const refresh = async () => {
    const started = performance.now()
    let timer: NodeJS.Timeout | undefined
    try {
      const figures = await Promise.race([
        opts.readFigures(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`not read within ${timeoutMs} ms`)), timeoutMs)
        }),
      ])
      for (const q of figures.queues) {
        queueWaiting.set({ queue: q.queue }, q.waiting)
        queueActive.set({ queue: q.queue }, q.active)
        queueFailed.set({ queue: q.queue }, q.failedLastHour)
        queueOldest.set({ queue: q.queue }, q.oldestWaitingSeconds)
      }
      emailBacklog.set(figures.emailBacklog)
      for (const p of figures.payouts) {
        payouts.set({ state: p.state }, p.count)
        payoutCents.set({ state: p.state }, p.amountCents)
      }
      ledgerBalanced.set(figures.ledger.balanced ? 1 : 0)
      ledgerUnbalanced.set(figures.ledger.unbalancedTransactions)
      photoBytes.set(figures.photoBytes)
      copyLoaded.set(figures.listingCopy.loaded ? 1 : 0)
      copyLag.set(figures.listingCopy.lagVersions)
      figuresUp.set(1)
    } catch (err) {
      // The last figures read stay; figures_up says they are stale.
      figuresUp.set(0)
      app.log.warn({ err }, 'Metrics: could not read the figures from the database')
    } finally {
      clearTimeout(timer)
      figuresSeconds.set((performance.now() - started) / 1000)
    }
  }

  const expected = Buffer.from(`Bearer ${token}`)
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    const given = Buffer.from(req.headers.authorization ?? '')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      reply.header('www-authenticate', 'Bearer')
      return sendError(reply, 401, 'UNAUTHENTICATED', 'Metrics need the metrics token')
    }
    await refresh()
    return reply
      .header('content-type', registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics())
  })
}
