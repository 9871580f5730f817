import { parentPort, workerData } from 'node:worker_threads'
import type { Db } from '#server/db/client'
import { lowerThreadPriority } from '#server/lib/thread-priority'

// Reads the copy of the listings (readFacts) on a thread of its own and hands it to the main thread, its arrays in
// shared memory (the search threads share them too: search-pool.ts), not copied (facts-apart.ts): at 1,000,000
// listings building the copy takes seconds of CPU, which on the main thread would stop every request for as long.
// The thread starts before it is asked (a spare) and reads once, what the first message asks; then it ends.

const { url, background } = workerData as { url: string; background: boolean }
// A read while a view answers yields to the searches: on a busy machine it takes the CPU they leave rather than an
// equal share beside them (decision 0129). Lowered before the reading code loads (the driver, the copy's modules):
// that load is most of the thread's start.
if (background) lowerThreadPriority(10)
const [{ default: pg }, { drizzle }, { readFacts }, { shareCopy }] = await Promise.all([
  import('pg'),
  import('drizzle-orm/node-postgres'),
  import('./listing-facts'),
  import('./search-pool'),
])
const connect = () =>
  new pg.Client({
    connectionString: url,
    options: '-c jit=off',
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
  })
const asDb = (c: InstanceType<typeof pg.Client>) => drizzle({ client: c }) as unknown as Db

/**
 * The first read over two connections (the words and the rest at once: readFacts' `words`), as the instance waits for
 * it. A read while a view answers over one: a part of 100,000 listings took the same 2 s over one as over two, and a
 * core of the database is left to the searches (decision 0129). A failed read throws: the thread's error.
 */
parentPort?.once('message', async ({ commits }: { commits?: string[] }) => {
  const client = connect()
  const words = background ? undefined : connect()
  try {
    await Promise.all([client.connect(), words?.connect()])
    const facts = shareCopy(await readFacts(asDb(client), commits, words && asDb(words)))
    parentPort?.postMessage({ facts })
  } finally {
    await Promise.allSettled([client.end(), words?.end()])
  }
})
