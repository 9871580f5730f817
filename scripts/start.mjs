// `npm start`: builds the web app (browser bundle and page renderer) when it is missing or older than its
// sources, then runs the server.
import './node-check.mjs'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const built = path.join(root, 'dist/web/index.html')
const renderer = path.join(root, 'dist/server/entry-server.js')

function newestMtime(dir) {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full))
    else newest = Math.max(newest, fs.statSync(full).mtimeMs)
  }
  return newest
}

const sources = ['web', 'contract'].map((d) => path.join(root, d))
const newestSource = Math.max(...sources.map(newestMtime))
const stale = [built, renderer].some(
  (file) => !fs.existsSync(file) || newestSource > fs.statSync(file).mtimeMs,
)
if (stale) {
  console.log('Building the web app…')
  for (const args of [
    ['vite', 'build'],
    ['vite', 'build', '--ssr', 'src/ssr/entry-server.tsx'],
  ]) {
    const result = spawnSync('npx', args, { cwd: root, stdio: 'inherit' })
    if (result.status !== 0) process.exit(result.status ?? 1)
  }
}

const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: root, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
