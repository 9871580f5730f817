// `npm run test:cluster`: a rolling deploy under traffic. Two instances behind nginx (deploy/nginx.conf) serve
// clients that read, sign in, list, book, hold and pay, each step checked, while each instance in turn is stopped
// with SIGTERM and a new one started on its port (decision 0082). No answer may fail (a 502, a 503, a reset or any
// status but the expected one) and every acknowledged listing, booking and payment must be in the database.
// Ports 4141-4143 unless CLUSTER_ROLLING_PORT says otherwise. Before the next instance is stopped, the new one must
// have said ready (health 200) and nginx's set-aside window after its last turned-away read must be over (decision
// 0086): stopped sooner, nginx had no instance left and answered a burst of 502s.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DRILL_ENV } from '../bench/drill-env'
import { type Cluster, startCluster } from './harness'
import { rollingDeployUnderTraffic } from './rolling'

const METRICS_TOKEN = randomBytes(24).toString('hex')
// An instance starts in a few seconds on an idle machine; CLUSTER_START_TIMEOUT_S (60) allows for a busy one, and
// the test's own limits follow it: two instances at once, then two more one after the other.
const START_MS = Number(process.env.CLUSTER_START_TIMEOUT_S ?? 60) * 1000
let cluster: Cluster

beforeAll(async () => {
  cluster = await startCluster({
    basePort: Number(process.env.CLUSTER_ROLLING_PORT ?? 4141),
    env: { ...DRILL_ENV, REQUIRE_ADMIN_TWO_FACTOR: 'false', METRICS_TOKEN },
  })
}, START_MS + 60_000)

afterAll(async () => {
  await cluster?.close()
}, 60_000)

describe('a rolling deploy behind nginx', () => {
  it(
    'replaces both instances, one after the other, under traffic without a failed request or a lost write',
    async () => {
      const before = cluster.instances.map((i) => i.process.pid)
      const result = await rollingDeployUnderTraffic(cluster, {
        clients: 6,
        warmupMs: 2_000,
        tailMs: 2_000,
        metricsToken: METRICS_TOKEN,
        log: (line) => console.log(line),
      })
      console.log(
        `rolling deploy: ${result.requests} requests in ${result.seconds.toFixed(0)} s, ${result.failures.length} failed; ` +
          `acknowledged ${result.writes.listings} listings, ${result.writes.bookings} bookings, ${result.writes.payments} payments; ` +
          `p99 ${result.during.p99} ms while replacing, ${result.outside.p99} ms otherwise`,
      )
      expect(result.failures.length, JSON.stringify(result.failures.slice(0, 12), null, 1)).toBe(0)
      expect(result.lost).toEqual({ listings: [], bookings: [], payments: [] })
      expect(result.writes.payments).toBeGreaterThan(0)
      expect(result.replacements.map((r) => r.exitCode)).toEqual([0, 0])
      // Both are new processes now.
      expect(cluster.instances.map((i) => i.process.pid).filter((pid) => before.includes(pid))).toEqual([])
    },
    // Two starts, plus drains (10 s at most), the waits for nginx to take each new one back, warm-up and tail.
    2 * START_MS + 120_000,
  )
})
