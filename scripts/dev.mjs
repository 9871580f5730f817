// `npm run dev`: the API server (restarted on change) and Vite's dev server with /api proxied to it.
import './node-check.mjs'
import { spawn } from 'node:child_process'
import path from 'node:path'
import { SERVER_NODE_FLAGS, serverEnv } from './server-runtime.mjs'

const root = path.resolve(import.meta.dirname, '..')
const children = [
  // With the node flags and glibc settings every other way of starting an instance uses (decision 0106).
  spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', '--watch', 'server/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: serverEnv(),
  }),
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
