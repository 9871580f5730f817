import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SERVER_ENTRIES } from '../../scripts/build-server.mjs'
import { workerScript } from './worker-script'

// Every worker thread the server starts runs in the compiled server too: the build writes each one's script beside
// the compiled code (a searcher missing from the build once left every search of a compiled server on its main thread).

const root = path.resolve(import.meta.dirname, '../..')

/** The server's own source files (not tests), with their text. */
function serverSources(): { file: string; text: string }[] {
  const found: { file: string; text: string }[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(file)
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
        found.push({ file, text: fs.readFileSync(file, 'utf8') })
    }
  }
  walk(path.join(root, 'server'))
  return found
}

/** Each workerScript('name', import.meta.url) in the server's sources, with the folder of the file that starts it. */
const workersStarted = () =>
  serverSources().flatMap(({ file, text }) =>
    [...text.matchAll(/workerScript\('([\w-]+)', import\.meta\.url\)/g)].map((m) => ({
      name: m[1] as string,
      dir: path.dirname(file),
    })),
  )

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

  it('are started only through workerScript, never from a path written by hand', () => {
    const starting = serverSources().filter(({ text }) => /new Worker\(/.test(text))
    expect(starting.length).toBeGreaterThan(0)
    for (const { file, text } of starting) expect(text, path.relative(root, file)).toMatch(/workerScript\(/)
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
