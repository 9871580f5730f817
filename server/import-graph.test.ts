// What a server process loads at start: the modules server/main.ts reaches through static imports (type-only
// imports are erased and load nothing). Test code never belongs there, nor the demo seed's picture drawing,
// which is loaded on demand only to fill an empty database. And who may import whom: the database layer (db/)
// knows no feature and nothing above it; no two feature modules import each other.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '..')

function resolveImport(from: string, spec: string): string | undefined {
  let base: string
  if (spec.startsWith('#server/')) base = path.join(ROOT, 'server', spec.slice('#server/'.length))
  else if (spec.startsWith('#contract/')) base = path.join(ROOT, 'contract', spec.slice('#contract/'.length))
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec)
  else return undefined // a package
  for (const file of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(file) && fs.statSync(file).isFile()) return file
  }
  throw new Error(`${path.relative(ROOT, from)}: cannot resolve ${spec}`)
}

/** Static `import … from` and `export … from`, leaving out `import type` / `export type` unless asked. */
function runtimeImports(file: string, withTypes = false): string[] {
  const text = fs.readFileSync(file, 'utf8')
  const specs: string[] = []
  for (const m of text.matchAll(/^(import|export)\s+(type\s)?[^'";]*?from\s+'([^']+)'/gms)) {
    if ((withTypes || !m[2]) && m[3]) specs.push(m[3])
  }
  for (const m of text.matchAll(/^import\s+'([^']+)'/gm)) if (m[1]) specs.push(m[1])
  return specs
}

function loadedAtStart(entry: string): string[] {
  const seen = new Set<string>()
  const queue = [entry]
  while (queue.length > 0) {
    const file = queue.pop() as string
    if (seen.has(file)) continue
    seen.add(file)
    for (const spec of runtimeImports(file)) {
      const next = resolveImport(file, spec)
      if (next) queue.push(next)
    }
  }
  return [...seen].map((f) => path.relative(ROOT, f)).sort()
}

/** Every source file under server/ (tests left out: they may reach anywhere) with what it imports, types included. */
function serverGraph(): Graph {
  const graph: Graph = new Map()
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== 'migrations') walk(file)
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const targets = runtimeImports(file, true)
          .map((spec) => resolveImport(file, spec))
          .filter((f): f is string => f !== undefined)
        graph.set(path.relative(ROOT, file), targets.map((f) => path.relative(ROOT, f)).sort())
      }
    }
  }
  walk(path.join(ROOT, 'server'))
  return graph
}

/** File → the files it imports, paths from the repository's root. */
type Graph = Map<string, string[]>

/** Imports from the database layer (server/db/) of anything in server/ outside it. */
function dbImportsOutside(graph: Graph): string[] {
  const found: string[] = []
  for (const [from, targets] of graph) {
    if (!from.startsWith('server/db/')) continue
    for (const to of targets)
      if (to.startsWith('server/') && !to.startsWith('server/db/')) found.push(`${from} -> ${to}`)
  }
  return found.sort()
}

const moduleOf = (file: string) => /^server\/modules\/([^/]+)\//.exec(file)?.[1]

/** Pairs of feature modules that import each other (either way, through any of their files), as `a <-> b`. */
function moduleCycles(graph: Graph): string[] {
  const edges = new Set<string>()
  for (const [from, targets] of graph) {
    const a = moduleOf(from)
    for (const to of targets) {
      const b = moduleOf(to)
      if (a && b && a !== b) edges.add(`${a} ${b}`)
    }
  }
  const pairs = new Set<string>()
  for (const edge of edges) {
    const [a, b] = edge.split(' ') as [string, string]
    if (edges.has(`${b} ${a}`)) pairs.add(a < b ? `${a} <-> ${b}` : `${b} <-> ${a}`)
  }
  return [...pairs].sort()
}

/** Feature modules that reach themselves through others (a → b → c → a), each circle's members sorted, as `a, b, c`. */
function moduleCircles(graph: Graph): string[] {
  const edges = new Map<string, Set<string>>()
  for (const [from, targets] of graph) {
    const a = moduleOf(from)
    for (const to of targets) {
      const b = moduleOf(to)
      if (a && b && a !== b) edges.set(a, (edges.get(a) ?? new Set()).add(b))
    }
  }
  const reach = (from: string): Set<string> => {
    const seen = new Set<string>()
    const queue = [from]
    while (queue.length > 0) {
      for (const next of edges.get(queue.pop() as string) ?? []) {
        if (!seen.has(next)) {
          seen.add(next)
          queue.push(next)
        }
      }
    }
    return seen
  }
  const circles = new Set<string>()
  for (const a of edges.keys()) {
    const fromA = reach(a)
    if (!fromA.has(a)) continue
    circles.add(
      [...fromA]
        .filter((b) => reach(b).has(a))
        .sort()
        .join(', '),
    )
  }
  return [...circles].sort()
}

/**
 * Pairs still tangled: none. The last two went as features meet from above (docs/decisions/0048's rule, on the
 * server): the ledger's own check moved into the ledger, which finance and the reconciliation both read (payouts no
 * longer reads finance); the ledger's refund takes the reversal of a Connect transfer as a function its caller
 * passes in (the ledger no longer reads payouts). A new pair fails the test; a pair left to untangle goes here.
 */
const STILL_TANGLED: string[] = []

describe('who imports whom', () => {
  const graph = serverGraph()

  it('the database layer imports no feature, no job and nothing else of the server', () => {
    expect(dbImportsOutside(graph)).toEqual([])
  })

  it('no new pair of feature modules imports each other, and the known ones are still there to untangle', () => {
    expect(moduleCycles(graph)).toEqual(STILL_TANGLED)
  })

  it('no feature module reaches itself through others either (a → b → c → a)', () => {
    expect(moduleCircles(graph)).toEqual([])
  })

  it('the checks catch a bad import (a made-up graph)', () => {
    const bad: Graph = new Map([
      ['server/db/factories.ts', ['server/db/schema.ts', 'server/modules/products/products.queries.ts']],
      ['server/db/client.ts', ['server/jobs/install.ts', 'contract/products.ts']],
      ['server/modules/products/products.service.ts', ['server/modules/reviews/reviews.service.ts']],
      ['server/modules/reviews/reviews.service.ts', ['server/modules/products/products.queries.ts']],
      ['server/modules/brands/brands.service.ts', ['server/modules/products/products.queries.ts']],
    ])
    expect(dbImportsOutside(bad)).toEqual([
      'server/db/client.ts -> server/jobs/install.ts',
      'server/db/factories.ts -> server/modules/products/products.queries.ts',
    ])
    expect(moduleCycles(bad)).toEqual(['products <-> reviews'])
    expect(moduleCircles(bad)).toEqual(['products, reviews'])
    const circle: Graph = new Map([
      ['server/modules/products/products.service.ts', ['server/modules/alerts/alerts.jobs.ts']],
      ['server/modules/alerts/alerts.jobs.ts', ['server/modules/search/matcher.ts']],
      ['server/modules/search/search.queries.ts', ['server/modules/products/products.queries.ts']],
      ['server/modules/brands/brands.service.ts', ['server/modules/products/products.queries.ts']],
    ])
    expect(moduleCycles(circle)).toEqual([])
    expect(moduleCircles(circle)).toEqual(['alerts, products, search'])
  })
})

describe('what a server process loads at start', () => {
  const loaded = loadedAtStart(path.join(ROOT, 'server/main.ts'))

  it('reaches the app and its modules (the walk itself works)', () => {
    expect(loaded).toContain('server/app.ts')
    expect(loaded).toContain('server/modules/products/products.routes.ts')
  })

  it('loads no test code', () => {
    expect(loaded.filter((f) => f.startsWith('server/test/') || /\.test\.tsx?$/.test(f))).toEqual([])
  })

  it('loads neither the demo seed nor its picture drawing', () => {
    expect(loaded.filter((f) => f.startsWith('server/demo/'))).toEqual([])
  })
})
