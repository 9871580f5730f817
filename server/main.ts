import net from 'node:net'
import v8 from 'node:v8'
import { postUnpostedSales } from '#server/modules/ledger'
import { factsReader, keepListingsCurrent, startSearchPool, warmUpSearch } from '#server/modules/search'
import { demoAccountsRefusal, findDemoAccounts } from '#server/modules/users'
import { buildApp } from './app'
import { ConfigError, loadConfig } from './config'
import { openDatabase } from './database'
import { DataDirLockedError } from './db/lock'
import { brands } from './db/schema'
import { createMediaStorage } from './lib/media-storage'

const SHUTDOWN_LIMIT_MS = 10_000
/** While turning the balancer away: close once no connection arrived for this long, or after the limit. */
const QUIET_BEFORE_CLOSE_MS = 200
const TURN_AWAY_LIMIT_MS = 3_000
/** After the listener closes, how long a connection accepted just before has to send its request. */
const ACCEPTED_REQUEST_GRACE_MS = 300

async function main() {
  const config = loadConfig()
  // The instance's memory stays put under steady traffic: a full collection comes once the heap of a thread (the main
  // one, the search threads) has grown by this share past what the last one kept, instead of letting it grow up to
  // four times over first (hundreds of MB of garbage held between collections). docs/decisions/0088-*.
  if (config.heapGrowthPercent > 0)
    v8.setFlagsFromString(`--heap-growing-percent=${config.heapGrowthPercent}`)
  const database = config.databaseUrl
    ? await openDatabase({
        driver: 'postgres',
        url: config.databaseUrl,
        statementsAtOnce: config.databaseStatementsAtOnce,
      })
    : await openDatabase({ driver: 'pglite', dataDir: config.dataDir })
  if (config.env === 'production') {
    // The demo's accounts share a password the README prints: never beside real ones in production.
    const demo = await findDemoAccounts(database.db)
    if (demo.length > 0) {
      console.error(demoAccountsRefusal(demo))
      await database.close()
      process.exit(1)
    }
  }
  const storage = await createMediaStorage(config, database.db)
  const app = await buildApp({ config, database, storage })
  // Search reads its copy of the listings now and keeps it current from the change feed; until the first read,
  // /api/health says `loading` (listing-feed.ts). On PostgreSQL the copy is read whole on a worker thread.
  const reader = config.databaseUrl ? factsReader(config.databaseUrl) : undefined
  const feed = keepListingsCurrent(
    database.db,
    app.log.child({ module: 'search' }),
    config.searchFeedPollMs,
    database.listen,
    reader?.read,
  )
  // The searches of the copy are answered on worker threads sharing it (search-pool.ts).
  const searchPool = startSearchPool(database.db, config.searchThreads, app.log.child({ module: 'search' }))
  // Ready once its search code is warm: searches drawn from the copy, answered on those threads (warm-up.ts).
  void warmUpSearch(database.db, app.log.child({ module: 'search' }))
  if (config.seedDemo && (await database.db.select({ id: brands.id }).from(brands).limit(1)).length === 0) {
    // The demo data and the code that draws its pictures are loaded only to fill an empty database.
    const { seedDemoIfEmpty } = await import('./demo/seed')
    await seedDemoIfEmpty(database.db, storage, app.log)
  }
  // Paid sales the ledger has not seen (recorded before it began, or the demo's) get their postings.
  const posted = await postUnpostedSales(database.db, config.payouts.fee)
  if (posted > 0) app.log.info(`Posted ${posted} earlier sales to the ledger`)

  // Draining: health turns 503 at once so the balancer sends new requests elsewhere; requests keep being
  // served for SHUTDOWN_DELAY_MS (a balancer that polls health needs that long to notice), then the
  // listener closes, requests in flight finish, pools and connections close. Whatever still runs after
  // 10 seconds is cut off.
  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.ctx.lifecycle.draining = true
    const deadline = setTimeout(() => {
      app.log.error(`${signal}: still closing after ${SHUTDOWN_LIMIT_MS / 1000} s, exiting now`)
      process.exit(1)
    }, SHUTDOWN_LIMIT_MS)
    deadline.unref()
    app.log.info(`${signal}: draining`)
    if (signal === 'SIGTERM' && config.shutdownDelayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs))
    }
    // Turn the balancer away before the listener closes: a connection still waiting in the listener's queue
    // when it closes is reset, and nginx answers 502 for a POST sent on it. Reads now answer 503 (nginx sends
    // them elsewhere and marks this instance down); once no connection has arrived for a moment, close.
    app.ctx.lifecycle.turningAway = true
    let lastConnection = Date.now()
    const onConnection = () => {
      lastConnection = Date.now()
    }
    app.server.on('connection', onConnection)
    const turnAwayStarted = Date.now()
    while (
      Date.now() - lastConnection < QUIET_BEFORE_CLOSE_MS &&
      Date.now() - turnAwayStarted < TURN_AWAY_LIMIT_MS
    ) {
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    app.server.off('connection', onConnection)
    // Stop accepting connections first, and only then close the idle ones: a connection the balancer opened a
    // moment ago may not have delivered its request yet, and Node's server.close() would drop it as idle (nginx
    // answers 502 for a POST on it, which it never resends elsewhere).
    net.Server.prototype.close.call(app.server)
    await new Promise((resolve) => setTimeout(resolve, ACCEPTED_REQUEST_GRACE_MS))
    feed.stop()
    reader?.stop()
    searchPool.stop()
    await app.close()
    await database.close()
    app.log.info(`${signal}: closed`)
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))

  await app.listen({ port: config.port, host: config.host })
  // Workers start once the app serves; app.close() (on SIGTERM) lets running jobs finish first.
  await app.ctx.jobs.start()
  app.log.info(`Laptop Market on ${config.publicUrl} (database: ${database.driver})`)
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(err.message)
  } else {
    console.error(err)
  }
  process.exit(1)
})
