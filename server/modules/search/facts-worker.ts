import { parentPort, workerData } from 'node:worker_threads'
import { drizzle } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import type { Db } from '#server/db/client'
import { readFacts } from './listing-facts'

// Reads the copy of the listings whole (readFacts) on a thread of its own and hands it to the instance's main thread,
// its arrays moved, not copied (facts-apart.ts). At 1,000,000 listings building the copy takes seconds of CPU,
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
  const facts = await readFacts(drizzle({ client }) as unknown as Db)
  const buffers = new Set<ArrayBuffer>()
  const collect = (value: unknown) => {
    if (ArrayBuffer.isView(value)) buffers.add(value.buffer as ArrayBuffer)
    else if (value && typeof value === 'object') for (const v of Object.values(value)) collect(v)
  }
  collect(facts)
  parentPort?.postMessage({ facts }, [...buffers])
} finally {
  await client.end()
}
