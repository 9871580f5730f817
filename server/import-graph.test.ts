// What a server process loads at start: the modules server/main.ts reaches through static imports (type-only
// imports are erased and load nothing). Test code never belongs there, nor the demo seed's picture drawing,
// which is loaded on demand only to fill an empty database. And who may import whom: the database layer (db/)
// knows no feature and nothing above it; no two feature modules import each other; a module is used only through
// its front door, its index.ts, and the layers below the modules reach none of them (docs/decisions/0054).
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '..')

/** package.json's `imports` (`#server/modules/*` → a module's index.ts, `#server/*`, `#contract/*`), longest first. */
const ALIASES = Object.entries(
  (
    JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      imports: Record<string, string>
    }
  ).imports,
)
  .map(([key, target]) => ({ prefix: key.slice(0, key.indexOf('*')), target }))
  .sort((a, b) => b.prefix.length - a.prefix.length)

function resolveImport(from: string, spec: string): string | undefined {
  const tried = (file: string) => fs.existsSync(file) && fs.statSync(file).isFile()
  if (spec.startsWith('#')) {
    // As Node resolves it: the longest matching pattern, its `*` replaced, no extension or index guessed.
    const alias = ALIASES.find((a) => spec.startsWith(a.prefix))
    const file = alias && path.join(ROOT, alias.target.replace('*', spec.slice(alias.prefix.length)))
    if (file && tried(file)) return file
  } else if (spec.startsWith('.')) {
    const base = path.resolve(path.dirname(from), spec)
    for (const file of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')])
      if (tried(file)) return file
  } else return undefined // a package
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

/**
 * Every source file under server/, and of the scripts beside it (bench/, cluster/, e2e/), with what it imports,
 * types included. Tests are left out: they may reach inside a module for their setup.
 */
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
  for (const dir of ['server', 'bench', 'cluster', 'e2e']) walk(path.join(ROOT, dir))
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

/**
 * Imports of a module from outside it that miss its front door: anything but `server/modules/<name>/index.ts`
 * (a file inside it, by `#server/modules/<name>/…` or a relative path).
 */
function pastFrontDoor(graph: Graph): string[] {
  const found: string[] = []
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const b = moduleOf(to)
      if (b && b !== moduleOf(from) && to !== `server/modules/${b}/index.ts`) found.push(`${from} -> ${to}`)
    }
  }
  return found.sort()
}

/** What sits below the modules: every module reads it, so it may reach no module, not even through others. */
const BELOW_MODULES = /^server\/(db|lib|plugins|mail)\/|^server\/(config|app-context)\.ts$/

/** Files below the modules that reach a module (directly or through other files), with the path that does. */
function belowReachingModules(graph: Graph): string[] {
  const found: string[] = []
  for (const start of graph.keys()) {
    if (!BELOW_MODULES.test(start)) continue
    const via = new Map<string, string>([[start, '']])
    const queue = [start]
    while (queue.length > 0) {
      const file = queue.shift() as string
      if (moduleOf(file)) {
        const chain = [file]
        for (let at = via.get(file); at; at = via.get(at)) chain.unshift(at)
        found.push(chain.join(' -> '))
        break
      }
      for (const next of graph.get(file) ?? []) {
        if (!via.has(next)) {
          via.set(next, file)
          queue.push(next)
        }
      }
    }
  }
  return found.sort()
}

/** Module folders without their front door. */
function modulesWithoutIndex(): string[] {
  const dir = path.join(ROOT, 'server/modules')
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !fs.existsSync(path.join(dir, e.name, 'index.ts')))
    .map((e) => e.name)
    .sort()
}

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

  it('every module has its front door, and the others (app.ts, main.ts, jobs, CLIs, demo, bench) come in by it', () => {
    expect(modulesWithoutIndex()).toEqual([])
    expect(pastFrontDoor(graph)).toEqual([])
  })

  it('db/, lib/, plugins/, mail/, config.ts and app-context.ts reach no module, not even through another file', () => {
    expect(belowReachingModules(graph)).toEqual([])
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
    const doors: Graph = new Map([
      [
        'server/modules/payments/payments.service.ts',
        ['server/modules/payouts/index.ts', 'server/modules/payments/payment-provider.ts'],
      ],
      ['server/modules/payments/refunds.ts', ['server/modules/payouts/stripe-connect.ts']],
      ['server/app.ts', ['server/modules/search/index.ts', 'server/modules/search/listing-feed.ts']],
      ['bench/alerts.ts', ['server/modules/alerts/alerts.jobs.ts']],
      ['server/modules/payouts/payouts.service.ts', ['server/modules/payouts/earnings.ts']],
      ['server/lib/audit.ts', ['server/lib/errors.ts']],
      ['server/lib/errors.ts', []],
      ['server/lib/guard.ts', ['server/lib/session.ts']],
      ['server/lib/session.ts', ['server/jobs/jobs.ts']],
      ['server/jobs/jobs.ts', ['server/modules/audit/index.ts']],
      ['server/plugins/turn-away.ts', ['server/modules/search/index.ts']],
      ['server/app-context.ts', ['server/lib/errors.ts']],
    ])
    expect(pastFrontDoor(doors)).toEqual([
      'bench/alerts.ts -> server/modules/alerts/alerts.jobs.ts',
      'server/app.ts -> server/modules/search/listing-feed.ts',
      'server/modules/payments/refunds.ts -> server/modules/payouts/stripe-connect.ts',
    ])
    expect(belowReachingModules(doors)).toEqual([
      'server/lib/guard.ts -> server/lib/session.ts -> server/jobs/jobs.ts -> server/modules/audit/index.ts',
      'server/lib/session.ts -> server/jobs/jobs.ts -> server/modules/audit/index.ts',
      'server/plugins/turn-away.ts -> server/modules/search/index.ts',
    ])
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
