// `npm start`: builds the web app (browser bundle and page renderer) and compiles the server when either is missing
// or older than its sources, then runs the compiled server (dist/app/main.js), as the production image does.
import './node-check.mjs'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { buildServer } from './build-server.mjs'
import { runServer } from './server-runtime.mjs'

const root = path.resolve(import.meta.dirname, '..')
const built = path.join(root, 'dist/web/index.html')
const renderer = path.join(root, 'dist/server/entry-server.js')
const server = path.join(root, 'dist/app/main.js')

function newestMtime(dir) {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full))
    else newest = Math.max(newest, fs.statSync(full).mtimeMs)
  }
  return newest
}

const staleAgainst = (dirs, files) => {
  const newestSource = Math.max(...dirs.map((d) => newestMtime(path.join(root, d))))
  return files.some((file) => !fs.existsSync(file) || newestSource > fs.statSync(file).mtimeMs)
}

if (staleAgainst(['web', 'contract'], [built, renderer])) {
  console.log('Building the web app…')
  for (const args of [
    ['vite', 'build'],
    ['vite', 'build', '--ssr', 'src/ssr/entry-server.tsx'],
  ]) {
    const result = spawnSync('npx', args, { cwd: root, stdio: 'inherit' })
    if (result.status !== 0) process.exit(result.status ?? 1)
  }
}
if (staleAgainst(['server', 'contract'], [server])) {
  console.log('Compiling the server…')
  await buildServer()
}

runServer(root)
