// Lighthouse on two (or more) running servers in turn, a few rounds, medians per server and page: on a shared
// machine the load moves between runs, so versions are compared run against run rather than one after the other.
//   npx tsx bench/lighthouse-ab.ts <rounds> http://127.0.0.1:3000 http://127.0.0.1:3001 / /productcard /products/<id>
import { loadavg } from 'node:os'
import { runLighthouse } from './lighthouse'

const [rounds, ...rest] = process.argv.slice(2)
const servers = rest.filter((a) => a.startsWith('http'))
const paths = rest.filter((a) => a.startsWith('/'))
if (!Number(rounds) || servers.length === 0 || paths.length === 0) {
  console.error('usage: tsx bench/lighthouse-ab.ts <rounds> <base url>... <path>...')
  process.exit(2)
}

type Runs = { perf: number[]; lcp: number[]; tbt: number[]; phases: number[][] }
const runs = new Map<string, Runs>()
const loads: number[] = []
for (let round = 0; round < Number(rounds); round++) {
  for (const server of servers) {
    loads.push(loadavg()[0] ?? Number.NaN)
    for (const f of await runLighthouse(server, paths)) {
      const key = `${server} ${f.path}`
      const r = runs.get(key) ?? { perf: [], lcp: [], tbt: [], phases: [] }
      r.perf.push(f.performance)
      r.lcp.push(f.lcpMs)
      r.tbt.push(f.tbtMs)
      r.phases.push(f.lcpPhases)
      runs.set(key, r)
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN
const seconds = (ms: number) => (ms / 1000).toFixed(2)
console.log(
  'page | perf (runs) | LCP (runs) | TBT | LCP phases: TTFB / load delay / load time / render delay',
)
for (const [key, r] of runs) {
  const phases = [0, 1, 2, 3].map((i) => Math.round(median(r.phases.map((p) => p[i] ?? Number.NaN))))
  console.log(
    `${key} | ${median(r.perf)} (${r.perf.join(', ')}) | ${seconds(median(r.lcp))} s (${r.lcp.map(seconds).join(', ')}) | ${Math.round(median(r.tbt))} ms | ${phases.join(' / ')} ms`,
  )
}
console.log(`load average (1 min) before each server's pages: ${loads.map((l) => l.toFixed(1)).join(', ')}`)
