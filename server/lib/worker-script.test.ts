import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SERVER_ENTRIES } from '../../scripts/build-server.mjs'
import { workerScript } from './worker-script'

// Every worker thread the server starts runs in the compiled server too: the build writes each one's script beside
// the compiled code (a searcher missing from the build once left every search of a compiled server on its main thread).

const root = path.resolve(import.meta.dirname, '../..')

/** Each workerScript('name', import.meta.url) in the server's sources, with the folder of the file that starts it. */
function workersStarted(): { name: string; dir: string }[] {
  const found: { name: string; dir: string }[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(file)
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        for (const m of fs
          .readFileSync(file, 'utf8')
          .matchAll(/workerScript\('([\w-]+)', import\.meta\.url\)/g))
          found.push({ name: m[1] as string, dir: path.dirname(file) })
      }
    }
  }
  walk(path.join(root, 'server'))
  return found
}

describe('worker threads', () => {
  it('are each an entry of the compiled server, built from the script beside the module starting it', () => {
    const started = workersStarted()
    expect(started.map((w) => w.name).sort()).toEqual(['facts-searcher', 'facts-worker'])
    const entries = SERVER_ENTRIES as Record<string, string>
    for (const { name, dir } of started) {
      expect(entries[name], name).toBe(path.relative(root, path.join(dir, `${name}.ts`)))
      expect(fs.existsSync(path.join(dir, `${name}.ts`)), name).toBe(true)
    }
  })

  it('runs the source through tsx, and the compiled .js beside compiled code as it is', () => {
    expect(workerScript('facts-searcher', 'file:///app/server/modules/search/search-pool.ts')).toEqual({
      url: new URL('file:///app/server/modules/search/facts-searcher.ts'),
      execArgv: ['--import', 'tsx'],
    })
    expect(workerScript('facts-searcher', 'file:///app/dist/app/chunk-ABC.js')).toEqual({
      url: new URL('file:///app/dist/app/facts-searcher.js'),
      execArgv: [],
    })
  })
})
