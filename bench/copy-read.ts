import path from 'node:path'
import { readFactsApart } from '#server/modules/search'
import { argValue } from './args'

// How long reading the copy of the listings whole takes (readFactsApart: a worker thread reads PostgreSQL and builds
// the copy), for the database at DATABASE_URL. With `--before <checkout>` that checkout's readFactsApart reads too,
// the two alternating, so both see the same machine.
//   DATABASE_URL=postgres://… npx tsx bench/copy-read.ts [--rounds 4] [--before <checkout>]

const rounds = Number(argValue('--rounds') ?? 4)
const beforeDir = argValue('--before')
const url = process.env.DATABASE_URL as string
const reads: [string, typeof readFactsApart][] = [['this checkout', readFactsApart]]
if (beforeDir) {
  const other = await import(path.resolve(beforeDir, 'server/modules/search/facts-apart.ts'))
  reads.unshift([beforeDir, other.readFactsApart])
}
const times = new Map(reads.map(([name]) => [name, [] as number[]]))
let size = 0
for (let i = 0; i < rounds; i++)
  for (const [name, read] of reads) {
    const started = performance.now()
    size = (await read(url)).size
    times.get(name)?.push(performance.now() - started)
  }
console.log(`${size.toLocaleString('en-US')} listings on sale`)
for (const [name, t] of times) {
  const sorted = [...t].sort((a, b) => a - b)
  console.log(
    `${name}: median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms (${t.map((x) => x.toFixed(0)).join(', ')})`,
  )
}
