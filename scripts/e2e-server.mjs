// Starts the built app for the end-to-end tests on a new, empty data folder, so every run begins from the demo data
// alone; removes the folder when the server stops. The server is the compiled one (dist/app/main.js) with the flags
// `npm start` and the image give it, so the journeys run what production runs.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { SERVER_NODE_FLAGS, serverEnv } from './server-runtime.mjs'

const root = path.resolve(import.meta.dirname, '..')
if (
  !fs.existsSync(path.join(root, 'dist/web/index.html')) ||
  !fs.existsSync(path.join(root, 'dist/app/main.js'))
) {
  console.error('dist/ is missing: run `npm run build` first (`npm run test:e2e` does).')
  process.exit(1)
}

const PREFIX = 'laptop-market-e2e-'

function isAlive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return err.code === 'EPERM'
  }
}

// A run stopped the hard way leaves its folder behind: sweep those older than an hour whose server is gone.
for (const name of fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(PREFIX))) {
  const dir = path.join(os.tmpdir(), name)
  try {
    if (Date.now() - fs.statSync(dir).mtimeMs < 60 * 60 * 1000) continue
    const lock = path.join(dir, 'laptop-market.lock')
    const holder = fs.existsSync(lock) ? Number.parseInt(fs.readFileSync(lock, 'utf8'), 10) : Number.NaN
    if (Number.isInteger(holder) && isAlive(holder)) continue
    fs.rmSync(dir, { recursive: true, force: true })
  } catch {
    // Another run may be sweeping the same folder.
  }
}

// The folder the test run named (its tests read the emails saved there), or a new one.
const named = process.env.E2E_DATA_DIR
const isFresh = named && path.basename(named).startsWith(PREFIX) && !fs.existsSync(named)
if (isFresh) fs.mkdirSync(named, { recursive: true })
const dataDir = isFresh ? named : fs.mkdtempSync(path.join(os.tmpdir(), PREFIX))
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/app/main.js'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...serverEnv(),
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    HOST: '127.0.0.1',
    PORT: process.env.E2E_PORT ?? '4173',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    SEED_DEMO: 'auto',
    // Every journey signs up its own accounts, and holds laptops, from this one address.
    SIGNUPS_PER_ADDRESS_PER_HOUR: '0',
    LIVE_HOLDS_PER_ADDRESS: '1000',
    UPLOADS_PER_MINUTE: '0',
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
