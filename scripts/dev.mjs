// `npm run dev`: the API server (restarted on change) and Vite's dev server with /api proxied to it.
import './node-check.mjs'
import { spawn } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'server/main.ts'], { cwd: root, stdio: 'inherit' }),
  spawn(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js')], {
    cwd: root,
    stdio: 'inherit',
  }),
]
console.log('API on http://localhost:3000, web app with hot reload on http://localhost:5173')
const stop = (signal) => {
  for (const child of children) child.kill(signal)
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal))
for (const child of children)
  child.on('exit', (code) => {
    stop('SIGTERM')
    process.exit(code ?? 0)
  })
