import { parentPort, workerData } from 'node:worker_threads'
import type { Db } from '#server/db/client'
import { lowerThreadPriority, ownThreadNice } from '#server/lib/thread-priority'
import type { CopyRead } from './listing-feed'

// Reads the copy (readFacts), or makes it from a view (rebaseCopy), on its own thread and hands it over in shared
// memory (the search threads share it too: search-pool.ts), not copied (facts-apart.ts): at 1,000,000 listings
// building it takes seconds of CPU, which on the main thread would stall every request. Started ahead (a spare);
// makes one copy, then ends.

const { url, background } = workerData as { url: string; background: boolean }
// A read while a view answers yields to searches: on a busy machine it takes the CPU they leave, not an equal
// share (decision 0129). Lowered before the reading code (driver, copy's modules) loads: most of the start.
if (background) lowerThreadPriority(10)
const [{ default: pg }, { drizzle }, { readFacts }, { shareCopy }, { WHOLE_READ_LOCK }, { rebaseCopy }] =
  await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('./listing-facts'),
    import('./search-pool'),
    import('./facts-apart'),
    import('./facts-rebase'),
  ])
// A read in turn (decision 0161) takes no parallel workers: at 1,000,000 listings they held two more cores of the
// database for its first 15 s, beside the searches. Its backend checks every second that this thread is still there,
// so a read ended mid-statement lets go of the lock then, not when the statement would have answered.
const connect = (inTurn: boolean) =>
  new pg.Client({
    connectionString: url,
    options: inTurn
      ? '-c jit=off -c max_parallel_workers_per_gather=0 -c client_connection_check_interval=1000'
      : '-c jit=off',
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
  })
const asDb = (c: InstanceType<typeof pg.Client>) => drizzle({ client: c }) as unknown as Db

/**
 * First read over two connections (words and the rest at once: readFacts' `words`), as the instance waits.
 * A read while a view answers uses one: a 100,000-listing part took the same 2 s over one as over two,
 * leaving the database a core for the searches (decision 0129). A failed read throws: the thread's error.
 */
type Read = Omit<CopyRead, 'background'>
// Each answer says the thread's niceness as it answered (facts-apart.test.ts holds it to decision 0129).
parentPort?.once('message', async ({ commits, inTurn = false, rebase }: Read) => {
  // Made from a view in memory (decision 0162): the database is not asked.
  if (rebase) return parentPort?.postMessage({ facts: shareCopy(rebaseCopy(rebase)), nice: ownThreadNice() })
  const client = connect(inTurn)
  const words = background ? undefined : connect(false)
  try {
    await Promise.all([client.connect(), words?.connect()])
    // Waits for another instance's read in turn to end: the instances' days (and left-out bulk loads) come together,
    // and two reads at once took both cores for minutes. Held by this connection, so it ends with it.
    if (inTurn) await client.query(`select pg_advisory_lock(${WHOLE_READ_LOCK})`)
    const facts = shareCopy(await readFacts(asDb(client), commits, words && asDb(words)))
    parentPort?.postMessage({ facts, nice: ownThreadNice() })
  } finally {
    await Promise.allSettled([client.end(), words?.end()])
  }
})
