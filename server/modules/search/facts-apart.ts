import { Worker } from 'node:worker_threads'
import type { ListingFacts } from './listing-facts'

/**
 * The copy of the listings read whole on a worker thread (facts-worker.ts) from the PostgreSQL database at `url`:
 * the instance goes on answering while the copy is built, and only receives it (about 0.1 s at 1,000,000 listings).
 * The worker runs the project's TypeScript as the server does, through tsx.
 */
export function readFactsApart(url: string): Promise<ListingFacts> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./facts-worker.ts', import.meta.url), {
      workerData: { url },
      execArgv: ['--import', 'tsx'],
    })
    let received = false
    worker.once('message', (message: { facts: ListingFacts }) => {
      received = true
      resolve(message.facts)
    })
    worker.once('error', reject)
    worker.once('exit', (code) => {
      if (!received)
        reject(new Error(`The worker reading search's copy of the listings stopped (exit code ${code})`))
    })
  })
}
