// What a server process loads at start: the modules server/main.ts reaches through static imports (type-only
// imports are erased and load nothing). Test code never belongs there, nor the demo seed's picture drawing,
// which is loaded on demand only to fill an empty database.
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
  for (const file of [base, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(file) && fs.statSync(file).isFile()) return file
  }
  throw new Error(`${path.relative(ROOT, from)}: cannot resolve ${spec}`)
}

/** Static `import … from` and `export … from`, leaving out `import type` / `export type`. */
function runtimeImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8')
  const specs: string[] = []
  for (const m of text.matchAll(/^(import|export)\s+(type\s)?[^'";]*?from\s+'([^']+)'/gms)) {
    if (!m[2] && m[3]) specs.push(m[3])
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
    expect(loaded.filter((f) => f.startsWith('server/db/demo/') || f === 'server/db/seed.ts')).toEqual([])
  })
})
