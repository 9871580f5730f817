// Starts the built app for the end-to-end tests on a new, empty data folder, so every run begins
// from the demo data alone; removes the folder when the server stops.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
if (!fs.existsSync(path.join(root, 'dist/web/index.html'))) {
  console.error('dist/web is missing: run `npx vite build` first (`npm run test:e2e` does).')
  process.exit(1)
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laptop-market-e2e-'))
const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    HOST: '127.0.0.1',
    PORT: process.env.E2E_PORT ?? '4173',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    SEED_DEMO: 'auto',
  },
})

function removeDataDir() {
  fs.rmSync(dataDir, { recursive: true, force: true })
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => {
  removeDataDir()
  process.exit(code ?? (signal ? 0 : 1))
})
