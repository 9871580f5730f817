import { parentPort, workerData } from 'node:worker_threads'
import { drizzle } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import type { Db } from '#server/db/client'
import { readFacts } from './listing-facts'
import { shareCopy } from './search-pool'

// Reads the copy of the listings whole (readFacts) on a thread of its own and hands it to the instance's main thread,
// its arrays in shared memory (so the instance's search threads share them too: search-pool.ts), not copied
// (facts-apart.ts). At 1,000,000 listings building the copy takes seconds of CPU,
// which on the main thread would stop every request for as long.

const { url } = workerData as { url: string }
const client = new pg.Client({
  connectionString: url,
  options: '-c jit=off',
  connectionTimeoutMillis: 10_000,
  keepAlive: true,
})
try {
  await client.connect()
  const facts = shareCopy(await readFacts(drizzle({ client }) as unknown as Db))
  parentPort?.postMessage({ facts })
} finally {
  await client.end()
}
