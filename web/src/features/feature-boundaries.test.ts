// @vitest-environment node
// Features stay apart: one feature uses another only through that feature's index.ts (its public surface),
// no feature imports app/, and no two features need each other (the features form no circle). The first two
// are biome.json's noRestrictedImports for web/src/features, which every lint run applies; this file proves
// the rule bites, and checks the third, which no lint rule says.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../../..')
const FEATURES = path.join(ROOT, 'web/src/features')
const BIOME = path.join(ROOT, 'node_modules/.bin/biome')

/**
 * Lints each source as a file in the home feature, all in one Biome run; for each, the rules it broke ([] when
 * it passes).
 */
function lintAsHomeFiles(sources: string[]): string[][] {
  const stamp = `${process.pid}-${Date.now()}`
  const probes = sources.map((_, i) => path.join(FEATURES, 'home', `boundary-probe-${stamp}-${i}.tsx`))
  for (const [i, source] of sources.entries()) fs.writeFileSync(probes[i] as string, source)
  let out = ''
  try {
    execFileSync(BIOME, ['lint', '--max-diagnostics=100', ...probes.map((p) => path.relative(ROOT, p))], {
      cwd: ROOT,
      stdio: 'pipe',
    })
  } catch (err) {
    out =
      String((err as { stdout?: Buffer }).stdout ?? '') + String((err as { stderr?: Buffer }).stderr ?? '')
  } finally {
    for (const probe of probes) fs.rmSync(probe, { force: true })
  }
  return probes.map((probe) => {
    const name = path.basename(probe).replaceAll('.', '\\.')
    return [...out.matchAll(new RegExp(`${name}:\\d+:\\d+ lint/\\w+/(\\w+)`, 'g'))].map((m) => m[1] as string)
  })
}

const use = (line: string, name: string) => `${line}\nexport const a = ${name}\n`

describe('the lint rule that keeps features apart', () => {
  it('fails a feature that imports a file inside another feature, or app/; passes the same through the index', () => {
    const [inside, insideByLongPath, app, throughIndex] = lintAsHomeFiles([
      use("import { ProductGrid } from '../products/product-grid'", 'ProductGrid'),
      use("import { ProductGrid } from '../../features/products/product-grid'", 'ProductGrid'),
      use("import { routerBindings } from '../../app/router-bindings'", 'routerBindings'),
      [
        "import { ProductImage } from '../../components/product/product-image'",
        "import { formatMoney } from '../../lib/format'",
        "import { ProductGrid } from '../products'",
        'export const a = [ProductGrid, ProductImage, formatMoney]',
        '',
      ].join('\n'),
    ])
    expect(inside).toEqual(['noRestrictedImports'])
    expect(insideByLongPath).toEqual(['noRestrictedImports'])
    expect(app).toEqual(['noRestrictedImports'])
    expect(throughIndex).toEqual([])
  }, 120_000)
})

/** Which features each feature imports (tests included), read from the import statements. */
function featureGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>()
  for (const feature of fs.readdirSync(FEATURES, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const uses = new Set<string>()
    const dir = path.join(FEATURES, feature.name)
    for (const file of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!/\.tsx?$/.test(file)) continue
      const from = path.join(dir, file)
      const text = fs.readFileSync(from, 'utf8')
      for (const m of text.matchAll(/^(?:import|export)\s[^'";]*?from\s+'(\.[^']+)'/gms)) {
        const target = path
          .relative(FEATURES, path.resolve(path.dirname(from), m[1] as string))
          .split(path.sep)
        if (target[0] !== '..' && target[0] && target[0] !== feature.name) uses.add(target[0])
      }
    }
    graph.set(feature.name, uses)
  }
  return graph
}

/** The first circle of features found, as a path back to its start, or undefined. */
function findCircle(graph: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  function visit(node: string): string[] | undefined {
    if (state.get(node) === 'done') return undefined
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node]
    state.set(node, 'open')
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      const circle = visit(next)
      if (circle) return circle
    }
    stack.pop()
    state.set(node, 'done')
    return undefined
  }
  for (const node of graph.keys()) {
    const circle = visit(node)
    if (circle) return circle
  }
  return undefined
}

describe('the features, as the code has them', () => {
  const graph = featureGraph()

  it('reads the imports (the walk itself works)', () => {
    expect(graph.get('home')).toContain('products')
    expect(
      findCircle(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set(['a'])],
        ]),
      ),
    ).toEqual(['a', 'b', 'a'])
  })

  it('form no circle: no feature needs, through others or directly, a feature that needs it', () => {
    expect(findCircle(graph)).toBeUndefined()
  })
})
