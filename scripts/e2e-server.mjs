// Starts the built app for the end-to-end tests on a new data folder, so every run begins from the demo data alone
// (a copy of the run's seeded folder when E2E_TEMPLATE_DIR names one, below); removes the folder when the server
// stops. The server is the compiled one (dist/app/main.js) with the flags `npm start` and the image give it, so the
// journeys run what production runs.
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

const serverSettings = (dataDir) => ({
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
})

/**
 * The run's seeded data folder (E2E_TEMPLATE_DIR, named by playwright.config.ts): migrated and filled with the demo
 * data by the compiled `npm run db:seed` (dist/app/seed-cli.js), with no server ever started on it. Creating a
 * PGlite database, migrating it and seeding it is most of a server's start (about 25 s of CPU of 35); the run's
 * first server makes the folder and every server of the run, the shared one and the journeys' own, starts on a copy
 * of it, which is what its first start would have written (the seed reads no setting). The maker removes it when it
 * stops. Returns whether this server made it.
 */
async function ensureTemplate(template) {
  if (fs.existsSync(template)) return false
  const making = `${template}.making`
  try {
    fs.mkdirSync(making)
  } catch (err) {
    if (err.code !== 'EEXIST') throw err
    // Another server of the run is making it.
    while (!fs.existsSync(template)) {
      if (!fs.existsSync(making)) throw new Error(`the seeded data folder ${template} was not made`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    return false
  }
  const code = await new Promise((resolve) => {
    const seed = spawn(process.execPath, ['dist/app/seed-cli.js'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: serverSettings(making),
    })
    seed.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)))
  })
  if (code !== 0) {
    fs.rmSync(making, { recursive: true, force: true })
    throw new Error(`seeding ${making} failed (exit code ${code})`)
  }
  fs.renameSync(making, template)
  return true
}

const template = process.env.E2E_TEMPLATE_DIR || undefined
const madeTemplate = template ? await ensureTemplate(template) : false

// The folder the test run named (its tests read the emails saved there), or a new one.
const named = process.env.E2E_DATA_DIR
const isFresh = named && path.basename(named).startsWith(PREFIX) && !fs.existsSync(named)
if (isFresh) fs.mkdirSync(named, { recursive: true })
const dataDir = isFresh ? named : fs.mkdtempSync(path.join(os.tmpdir(), PREFIX))
if (template) fs.cpSync(template, dataDir, { recursive: true })
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/app/main.js'], {
  cwd: root,
  stdio: 'inherit',
  env: serverSettings(dataDir),
})

function removeDataDir() {
  fs.rmSync(dataDir, { recursive: true, force: true })
  if (madeTemplate) fs.rmSync(template, { recursive: true, force: true })
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => {
  removeDataDir()
  process.exit(code ?? (signal ? 0 : 1))
})
