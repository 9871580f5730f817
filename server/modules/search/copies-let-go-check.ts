import { SearchQuery } from '#contract/search'
import { readPaging } from '#server/lib/paging'
import { factsFromRows } from './listing-facts'
import { wholeView } from './listing-view'
import { SearchPool } from './search-pool'

// Run by copies-let-go.test.ts in a process of its own, with the node flags it is given: copies of `mb` MB (argv)
// handed to both search threads one after another, each let go of as the next comes, as a quiet instance's copies
// made again; prints the process's RSS after each, in MB, and 2 s after the last, as JSON.

const MB = 1024 * 1024
const mb = Number(process.argv[2] ?? 64)
const pool = new SearchPool(2, (err) => {
  if (!/pool stopped/.test(err.message)) throw err
})
const query = SearchQuery.parse({})
const ask = { query, sort: 'newest' as const, paging: readPaging(query), nowMs: Date.now(), facets: false }
const rss: number[] = []
for (let k = 1; k <= 6; k++) {
  // An empty copy with arrays of `mb` in shared memory, as a copy's are (touched, so resident).
  const held = new Int32Array(new SharedArrayBuffer(mb * MB)).fill(k)
  const view = wholeView(Object.assign(factsFromRows(String(k), []), { held }))
  // Two at once: one on each search thread, which then holds the copy; the next copy's drops it.
  await Promise.all([pool.ask(view, ask), pool.ask(view, ask)])
  await new Promise((resolve) => setTimeout(resolve, 500))
  rss.push(Math.round(process.memoryUsage().rss / MB))
}
// The collections asked for run concurrently: on a busy machine the last may take a while.
await new Promise((resolve) => setTimeout(resolve, 2_000))
rss.push(Math.round(process.memoryUsage().rss / MB))
pool.stop()
console.log(JSON.stringify(rss))
