import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { FACT_COLUMNS, type FactRow, idAt, readFactsApart } from '#server/modules/search'
import { rowsOf } from '../server/lib/paging'
import { argValue } from './args'
import { openFilledDatabase } from './filled-db'

// How long reading the copy of the listings whole takes (readFactsApart: a worker thread reads PostgreSQL and builds
// the copy), for the database at DATABASE_URL. With `--before <checkout>` that checkout's readFactsApart reads too,
// the two alternating, so both see the same machine. With `--rebase <n>`, each round also makes the copy again from
// a view in memory whose pile is n listings changed since its read (decision 0162), on the same kind of thread, and
// prints the machine's CPU for each (every process's, from /proc/stat: the database's share of a read included).
//   DATABASE_URL=postgres://… npx tsx bench/copy-read.ts [--rounds 4] [--before <checkout>] [--rebase 4203]

const rounds = Number(argValue('--rounds') ?? 4)
const beforeDir = argValue('--before')
const pile = argValue('--rebase')
const url = process.env.DATABASE_URL as string
type Read = () => Promise<{ size: number }>
const reads: [string, Read][] = [['this checkout', () => readFactsApart(url, { background: true })]]
if (beforeDir) {
  const other = await import(path.resolve(beforeDir, 'server/modules/search/facts-apart.ts'))
  reads.unshift([beforeDir, () => other.readFactsApart(url, { background: true })])
}
if (pile) {
  // The pile: n rows of a copy read, dead in it, and their listings as they are now, each repriced.
  const { db, close } = await openFilledDatabase()
  const base = await readFactsApart(url, { background: true })
  const picked = new Set<number>()
  while (picked.size < Math.min(Number(pile), base.size)) picked.add(Math.floor(Math.random() * base.size))
  const deadRows = Int32Array.from(picked).sort()
  const ids = Array.from(deadRows, (r) => idAt(base, r))
  const rows = await rowsOf<FactRow>(
    db,
    sql`select ${FACT_COLUMNS} from products where id = any(${`{${ids.join(',')}}`}::uuid[])`,
  )
  await close()
  const records = rows.map((row) => ({ ...row, price: String(Number(row.price) + 100) }))
  const rebase = { version: base.version, parts: [{ facts: base, deadRows }], records }
  reads.push([
    `made again from a view, pile ${picked.size}`,
    () => readFactsApart(url, { background: true, rebase }),
  ])
}

/** The machine's busy CPU seconds so far (every process, every core). */
function machineBusy(): number {
  const [, ...ticks] = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] as string).trim().split(/\s+/)
  const t = ticks.map(Number)
  // user nice system idle iowait irq softirq steal: all but idle and iowait.
  return t.reduce((a, b) => a + b, 0) - (t[3] as number) - (t[4] as number)
}
const ticksPerSecond = 100

const times = new Map(reads.map(([name]) => [name, [] as { ms: number; cpu: number }[]]))
let size = 0
for (let i = 0; i < rounds; i++)
  for (const [name, read] of reads) {
    const busy = machineBusy()
    const started = performance.now()
    size = (await read()).size
    times.get(name)?.push({ ms: performance.now() - started, cpu: (machineBusy() - busy) / ticksPerSecond })
  }
console.log(`${size.toLocaleString('en-US')} listings on sale`)
for (const [name, t] of times) {
  const median = (of: number[]) => [...of].sort((a, b) => a - b)[Math.floor(of.length / 2)] as number
  console.log(
    `${name}: median ${median(t.map((x) => x.ms)).toFixed(0)} ms (${t.map((x) => x.ms.toFixed(0)).join(', ')}), ` +
      `machine CPU ${median(t.map((x) => x.cpu)).toFixed(1)} s (${t.map((x) => x.cpu.toFixed(1)).join(', ')})`,
  )
}
