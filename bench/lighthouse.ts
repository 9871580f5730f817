// Lighthouse mobile (its default throttling and viewport) with Debian's Chromium, one page at a time.
// Used by `npm run bench`; also runs alone against any server:
//   npx tsx bench/lighthouse.ts http://127.0.0.1:3000 / /productcard /products/<id>
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'

export type LighthouseFigures = {
  path: string
  performance: number
  accessibility: number
  seo: number
  lcpMs: number
  tbtMs: number
  cls: number
  /** The largest paint's phases as Lighthouse gives them: time to first byte, load delay, load time, render delay (ms). */
  lcpPhases: number[]
  /** Bytes on the wire (compressed) of every script the page fetched until the network went quiet. */
  jsBytes: number
  failedAudits: string[]
}

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

type Audit = { score: number | null; numericValue?: number; title: string; details?: { items?: unknown[] } }

export async function runLighthouse(baseUrl: string, paths: string[]): Promise<LighthouseFigures[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
  })
  try {
    const figures: LighthouseFigures[] = []
    for (const path of paths) {
      // Now and then Chromium records no usable trace (Lighthouse's NO_NAVSTART); such a run is made again.
      let result: Awaited<ReturnType<typeof lighthouse>>
      for (let attempt = 1; ; attempt++) {
        result = await lighthouse(baseUrl + path, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'seo'],
        })
        if (!result?.lhr.runtimeError || attempt === 3) break
        console.log(`Lighthouse: ${result.lhr.runtimeError.code} on ${path}; running it again`)
      }
      if (!result) throw new Error(`Lighthouse gave no result for ${path}`)
      // LIGHTHOUSE_REPORT_DIR keeps each page's full report (LCP element and phases, requests) to read later.
      const reportDir = process.env.LIGHTHOUSE_REPORT_DIR
      if (reportDir) {
        mkdirSync(reportDir, { recursive: true })
        const name = path.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'home'
        writeFileSync(join(reportDir, `${name}-${Date.now()}.json`), JSON.stringify(result.lhr))
      }
      const { categories, audits } = result.lhr as unknown as {
        categories: Record<string, { score: number | null }>
        audits: Record<string, Audit>
      }
      const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100)
      const value = (id: string) => audits[id]?.numericValue ?? Number.NaN
      const phases =
        (
          audits['largest-contentful-paint-element']?.details?.items?.[1] as
            | { items?: { timing: number }[] }
            | undefined
        )?.items ?? []
      const requests = (audits['network-requests']?.details?.items ?? []) as {
        resourceType?: string
        transferSize?: number
      }[]
      figures.push({
        path,
        performance: score('performance'),
        accessibility: score('accessibility'),
        seo: score('seo'),
        lcpMs: value('largest-contentful-paint'),
        tbtMs: value('total-blocking-time'),
        cls: value('cumulative-layout-shift'),
        lcpPhases: phases.map((p) => p.timing),
        jsBytes: requests
          .filter((r) => r.resourceType === 'Script')
          .reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
        failedAudits: Object.entries(audits)
          .filter(([id, a]) => a.score !== null && a.score < 0.9 && !id.startsWith('network'))
          .filter(([id]) => a11yOrSeo(result.lhr, id))
          .map(([id]) => id),
      })
    }
    return figures
  } finally {
    chrome.kill()
  }
}

function a11yOrSeo(lhr: unknown, id: string): boolean {
  const categories = (lhr as { categories: Record<string, { auditRefs: { id: string; weight: number }[] }> })
    .categories
  return ['accessibility', 'seo'].some((c) =>
    categories[c]?.auditRefs.some((ref) => ref.id === id && ref.weight > 0),
  )
}

export function formatLighthouseRows(figures: LighthouseFigures[]): string[][] {
  return figures.map((f) => [
    f.path,
    String(f.performance),
    `${(f.lcpMs / 1000).toFixed(2)} s`,
    `${Math.round(f.tbtMs)} ms`,
    f.cls.toFixed(3),
    String(f.accessibility),
    String(f.seo),
    `${(f.jsBytes / 1000).toFixed(1)} kB`,
  ])
}

export const LIGHTHOUSE_HEAD = ['page', 'perf', 'LCP', 'TBT', 'CLS', 'a11y', 'SEO', 'JS until idle']

if (import.meta.url === `file://${process.argv[1]}`) {
  const [baseUrl, ...paths] = process.argv.slice(2)
  if (!baseUrl || paths.length === 0) {
    console.error('usage: tsx bench/lighthouse.ts <base url> <path>...')
    process.exit(2)
  }
  const figures = await runLighthouse(baseUrl, paths)
  const rows = formatLighthouseRows(figures)
  console.log(LIGHTHOUSE_HEAD.join(' | '))
  for (const row of rows) console.log(row.join(' | '))
  for (const f of figures)
    if (f.failedAudits.length) console.log(`${f.path}: failing ${f.failedAudits.join(', ')}`)
}
