import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { defineConfig, devices } from '@playwright/test'

const port = Number(process.env.E2E_PORT ?? 4173)
// The server's data folder, named here so the tests can read what it writes there (the emails it saves as
// .eml files without SMTP). Set once in the runner; its workers inherit it.
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `laptop-market-e2e-${port}-${Date.now().toString(36)}`)
// The run's seeded data folder: the shared server makes it (scripts/e2e-server.mjs), and it and the journeys that
// start a server of their own (through that script) each start on a copy instead of seeding one of their own.
process.env.E2E_TEMPLATE_DIR ??= path.join(
  os.tmpdir(),
  `laptop-market-e2e-seeded-${port}-${Date.now().toString(36)}`,
)
const baseURL = `http://127.0.0.1:${port}`
const ci = Boolean(process.env.CI)

// Debian's Chromium: its headless shell (package chromium-headless-shell) when installed, which runs the journeys in
// about 60% of the time and half the CPU of the whole browser (decisions 0140 and 0136), else the browser itself; the
// runner says so once when it falls back (its workers load this file too), so a slow run has its reason on screen.
// The machine has no network but the package registries, so everything that phones home is off.
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell'
const hasHeadlessShell = fs.existsSync(HEADLESS_SHELL)
if (!process.env.CHROMIUM_PATH && !hasHeadlessShell && process.env.TEST_WORKER_INDEX === undefined) {
  console.warn(
    `${HEADLESS_SHELL} is missing: the journeys run in the whole browser (/usr/bin/chromium), which is slower. ` +
      'Install the shell with `apt-get install -y chromium-headless-shell`.',
  )
}
const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? (hasHeadlessShell ? HEADLESS_SHELL : '/usr/bin/chromium'),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
}

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  forbidOnly: ci,
  retries: ci ? 1 : 0,
  // Four journeys at once on two cores: a journey spends most of its time waiting (for the server's job workers,
  // its clocks, the page's requests), so two workers left the cores idle over half the run (decision 0126).
  workers: Number(process.env.E2E_WORKERS ?? 4),
  // A journey takes 10–30 s on a quick machine and twice that on a slow one (CI's, or a two-core machine running the
  // whole browser for want of the shell: a fresh clone's `npm test` that way pushed the longest journeys past 60 s with
  // four at once). Every run gives each step and journey the time a slow machine needs: a journey that hangs still
  // fails within two minutes.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  outputDir: 'test-results',
  use: {
    baseURL,
    // Tracing slows every step (an axe scan several times over), so only a retried test records one.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions,
  },
  projects: [
    {
      name: 'desktop',
      grepInvert: /@phone/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions },
    },
    {
      name: 'phone',
      grep: /@phone|@both/,
      use: {
        viewport: { width: 360, height: 740 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        launchOptions,
      },
    },
  ],
  webServer: {
    // The built app (dist/web, made by `vite build` in `npm run test:e2e`) on a new data folder, a copy of the seeded one.
    command: 'node scripts/e2e-server.mjs',
    url: `${baseURL}/api/health`,
    // PUBLIC_URL: sign-in checks the browser's Origin against it, and the browser is on 127.0.0.1.
    // First listings are reviewed only in the journey about review (e2e/listing-trust.spec.ts starts its own server):
    // the other journeys' new sellers list laptops that must be on sale at once.
    // Payouts every 5 s, landing 2 s later, so the seller's journey sees its payout arrive.
    // The test carrier moves a parcel a step every 2 s (20 s by default), so the return journey's parcels (out and
    // back, four steps each) arrive in seconds instead of two minutes; e2e/shipping.spec.ts's own server does the same.
    env: {
      E2E_PORT: String(port),
      PUBLIC_URL: baseURL,
      E2E_DATA_DIR: process.env.E2E_DATA_DIR,
      E2E_TEMPLATE_DIR: process.env.E2E_TEMPLATE_DIR,
      LISTING_REVIEW_FIRST: '0',
      PAYOUT_INTERVAL_SECONDS: '5',
      TEST_PAYOUT_SECONDS: '2',
      TEST_CARRIER_SECONDS: '2',
    },
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
})
