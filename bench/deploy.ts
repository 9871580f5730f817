// `npm run bench:deploy`: a rolling deploy under steady traffic. Starts the cluster of `npm run test:cluster` (two
// instances, PostgreSQL, Redis, nginx with deploy/nginx.conf) on DEPLOY_PORT (default 4144, so 4144-4146), sends
// DEPLOY_CLIENTS (8) clients' steps through nginx (home, search, sign-in, a listing, its page, a booking, a hold,
// a payment, a brand page; each answer checked), and after DEPLOY_WARMUP seconds (10) replaces each instance in
// turn, DEPLOY_ROUNDS times (2): SIGTERM, wait for it to exit, start the new one on its port, wait for health, for
// nginx's set-aside window and for nginx to send it a read (decisions 0082, 0086). DEPLOY_APP_DIR names another checkout (with its node_modules) for
// the new instances to run. Prints requests, failures, writes acknowledged and lost, latency while replacing and
// otherwise, each instance's drain and start, and the load average. Exits 1 on any failure or lost write.
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import { startCluster } from '../cluster/harness'
import { rollingDeployUnderTraffic } from '../cluster/rolling'
import { DRILL_ENV } from './drill-env'

const METRICS_TOKEN = randomBytes(24).toString('hex')
console.log(
  `load average (1 / 5 / 15 min) at the start: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')}`,
)
const cluster = await startCluster({
  basePort: Number(process.env.DEPLOY_PORT ?? 4144),
  env: { ...DRILL_ENV, LOG_LEVEL: 'error', METRICS_TOKEN },
})
try {
  const result = await rollingDeployUnderTraffic(cluster, {
    clients: Number(process.env.DEPLOY_CLIENTS ?? 8),
    warmupMs: Number(process.env.DEPLOY_WARMUP ?? 10) * 1000,
    tailMs: Number(process.env.DEPLOY_TAIL ?? 5) * 1000,
    rounds: Number(process.env.DEPLOY_ROUNDS ?? 2),
    release: process.env.DEPLOY_APP_DIR ? { appDir: process.env.DEPLOY_APP_DIR } : undefined,
    metricsToken: METRICS_TOKEN,
    log: (line) => console.log(line),
  })
  const lost = result.lost.listings.length + result.lost.bookings.length + result.lost.payments.length
  console.log(
    `\nRolling deploy through nginx: ${result.replacements.length} replacements in ${result.seconds.toFixed(0)} s`,
  )
  console.table({
    'rolling deploy': {
      requests: result.requests,
      failed: result.failures.length,
      'listings / bookings / payments acknowledged': `${result.writes.listings} / ${result.writes.bookings} / ${result.writes.payments}`,
      'writes lost': lost,
      'p50 / p99 / max ms while replacing': `${result.during.p50} / ${result.during.p99} / ${result.during.max}`,
      'p50 / p99 / max ms otherwise': `${result.outside.p50} / ${result.outside.p99} / ${result.outside.max}`,
    },
  })
  console.table(
    result.replacements.map((r) => ({
      instance: r.instance,
      'drain ms': r.drainMs,
      exit: r.exitCode,
      'start ms': r.startMs,
      'taken back ms': r.takenBackMs,
    })),
  )
  console.log(
    `load average at the start ${result.load.start.map((l) => l.toFixed(1)).join(' / ')}, ` +
      `at the end ${result.load.end.map((l) => l.toFixed(1)).join(' / ')}`,
  )
  if (result.failures.length) console.log('Failures:', result.failures.slice(0, 20))
  if (lost) console.log('Lost:', result.lost)
  process.exitCode = result.failures.length || lost ? 1 : 0
} finally {
  await cluster.close()
}
