// `npm run bench:crash`: kills the app with SIGKILL in the middle of 5,000 concurrent writes (listings and
// bookings), starts it again on the same data, and looks for every write that had been acknowledged.
// Runs on PostgreSQL (CRASH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test; a throwaway
// database is made and dropped) and on PGlite (a data folder in a temporary directory, whose lock file the
// killed process leaves behind). Ports 4480-4481 unless CRASH_PORT says otherwise.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { type Account, call, LISTING, signUp } from '../cluster/client'
import { assertPortFree } from '../cluster/ports'
import { openDatabase } from '../server/database'
import type { Database } from '../server/db/client'
import { DRILL_ENV } from './drill-env'

const ROOT = path.resolve(import.meta.dirname, '..')
const WRITES = Number(process.env.CRASH_WRITES ?? 5000)
const IN_FLIGHT = Number(process.env.CRASH_CONCURRENCY ?? 200)
const BASE_PORT = Number(process.env.CRASH_PORT ?? 4480)
const PG_URL = process.env.CRASH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

type Target = {
  name: string
  env: Record<string, string>
  open(): Promise<Database>
  cleanup(): Promise<void>
}

// An app still running when the drill stops on an error is killed with it, not left holding the port.
const children = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
})

async function startApp(port: number, env: Record<string, string>, logFile: string) {
  await assertPortFree(port)
  const log = fs.openSync(logFile, 'a')
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', log, log],
  })
  fs.closeSync(log)
  children.add(child)
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  return { child, exited }
}

async function healthy(url: string, child: ChildProcess) {
  // CLUSTER_START_TIMEOUT_S (90 s here) allows for a busy machine, as for the cluster's instances.
  const until = Date.now() + Number(process.env.CLUSTER_START_TIMEOUT_S ?? 90) * 1000
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${url}/api/health`)).status === 200) return
    } catch {}
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error('the app did not become healthy (a busy machine? raise CLUSTER_START_TIMEOUT_S)')
}

async function run(target: Target, port: number) {
  const url = `http://127.0.0.1:${port}`
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-crash-log-'))
  const logFile = path.join(dir, 'app.log')
  const env = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    PUBLIC_URL: url,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'never',
    ...DRILL_ENV,
    ...target.env,
  }
  let app = await startApp(port, env, logFile)
  await healthy(url, app.child)

  // Sellers, buyers, a brand and the listings the bookings are for.
  const seller = await signUp(url, url, 'seller')
  const buyers: Account[] = []
  for (let i = 0; i < 20; i++) buyers.push(await signUp(url, url, 'buyer', `crash${i}`))
  const brandRes = await call(url, 'GET', '/api/brands')
  const brandId = (brandRes.body as { _id: string }[])[0]?._id
  if (!brandId) throw new Error('no brand to list under')
  const listFor = (name: string) =>
    call(url, 'POST', '/api/products', {
      cookie: seller.cookie,
      origin: url,
      body: { ...LISTING, name, category_id: brandId },
    })
  const products: string[] = []
  const bookingsPerProduct = buyers.length
  const bookingCount = Math.floor(WRITES / 2)
  for (let i = 0; i < Math.ceil(bookingCount / bookingsPerProduct); i++) {
    const res = await listFor(`Crash target ${i}`)
    products.push((res.body as { insertedId: string }).insertedId)
  }

  // 5,000 writes: half new listings, half bookings (each buyer once per listing), IN_FLIGHT at a time.
  type Write = { kind: 'listing' | 'booking'; send(): Promise<string | undefined> }
  const writes: Write[] = []
  for (let i = 0; i < WRITES; i++) {
    if (i % 2 === 0) {
      writes.push({
        kind: 'listing',
        send: async () => {
          const res = await listFor(`Crash listing ${i}`)
          return res.status === 201 ? (res.body as { insertedId: string }).insertedId : undefined
        },
      })
    } else {
      const n = (i - 1) / 2
      const buyer = buyers[n % buyers.length] as Account
      const productId = products[Math.floor(n / buyers.length)] as string
      writes.push({
        kind: 'booking',
        send: async () => {
          const res = await call(url, 'POST', '/api/bookings', {
            cookie: buyer.cookie,
            origin: url,
            body: { productId, phoneNumber: '(512) 555-0100', location: 'Austin, TX' },
          })
          return res.status === 201 ? (res.body as { insertedId: string }).insertedId : undefined
        },
      })
    }
  }
  const acknowledged: { kind: string; id: string }[] = []
  let sent = 0
  let failed = 0
  let next = 0
  const killAt = Math.floor(WRITES * 0.4)
  let killed = false
  const killedAt = { acknowledged: 0, sent: 0 }
  const worker = async () => {
    while (next < writes.length) {
      const write = writes[next++] as Write
      sent += 1
      try {
        const id = await write.send()
        if (id) acknowledged.push({ kind: write.kind, id })
        else failed += 1
      } catch {
        failed += 1
      }
      if (!killed && acknowledged.length >= killAt) {
        killed = true
        killedAt.acknowledged = acknowledged.length
        killedAt.sent = sent
        app.child.kill('SIGKILL')
      }
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
  await app.exited
  const seconds = ((performance.now() - started) / 1000).toFixed(1)

  // Start again on the same data; the app must open it and answer.
  app = await startApp(port, env, logFile)
  const restartStarted = performance.now()
  await healthy(url, app.child)
  const restartSeconds = ((performance.now() - restartStarted) / 1000).toFixed(1)
  const listingIds = acknowledged.filter((a) => a.kind === 'listing').map((a) => a.id)
  const bookingIds = acknowledged.filter((a) => a.kind === 'booking').map((a) => a.id)
  // Every acknowledged listing answers through the API after the restart.
  let listingsByApi = 0
  for (const id of listingIds)
    if ((await call(url, 'GET', `/api/products/${id}`)).status === 200) listingsByApi += 1
  app.child.kill('SIGTERM')
  await app.exited
  // And every acknowledged row is in the database, opened directly once the app has stopped.
  const database = await target.open()
  const count = async (table: 'products' | 'bookings', ids: string[]) => {
    if (ids.length === 0) return 0
    const found = await database.db.execute(
      sql`select count(*)::int as n from ${sql.identifier(table)} where id in ${ids}`,
    )
    return ((found as unknown as { rows: unknown[] }).rows[0] as { n: number } | undefined)?.n ?? 0
  }
  const listingsFound = await count('products', listingIds)
  const bookingsFound = await count('bookings', bookingIds)
  await database.close()
  await target.cleanup()
  fs.rmSync(dir, { recursive: true, force: true })
  return {
    target: target.name,
    writes: WRITES,
    sent,
    'killed after acknowledged': killedAt.acknowledged,
    acknowledged: acknowledged.length,
    'failed (cut off)': failed,
    'acknowledged listings found': `${listingsFound} / ${listingIds.length} (API ${listingsByApi})`,
    'acknowledged bookings found': `${bookingsFound} / ${bookingIds.length}`,
    lost: listingIds.length - listingsFound + (bookingIds.length - bookingsFound),
    'writes phase s': seconds,
    'restart to healthy s': restartSeconds,
  }
}

async function postgresTarget(): Promise<Target> {
  const name = `lm_crash_${randomUUID().replace(/-/g, '').slice(0, 12)}`
  const admin = new pg.Client({ connectionString: PG_URL })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(PG_URL)
  url.pathname = `/${name}`
  const databaseUrl = url.toString()
  // A brand to list under (the demo seed is off).
  const db = await openDatabase({ driver: 'postgres', url: databaseUrl, max: 1 })
  await db.db.execute(
    sql`insert into brands (name, image_url) values ('Crash Brand', 'https://x.example/b.png')`,
  )
  await db.close()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-crash-pg-'))
  return {
    name: 'PostgreSQL',
    env: { DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
    open: () => openDatabase({ driver: 'postgres', url: databaseUrl, max: 1 }),
    cleanup: async () => {
      const c = new pg.Client({ connectionString: PG_URL })
      await c.connect()
      await c.query(`drop database if exists ${name} with (force)`)
      await c.end()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

async function pgliteTarget(): Promise<Target> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-crash-pglite-'))
  const db = await openDatabase({ driver: 'pglite', dataDir })
  await db.db.execute(
    sql`insert into brands (name, image_url) values ('Crash Brand', 'https://x.example/b.png')`,
  )
  await db.close()
  return {
    name: 'PGlite',
    env: { DATA_DIR: dataDir },
    open: () => openDatabase({ driver: 'pglite', dataDir }),
    cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  }
}

const only = process.argv[2]
const results = []
if (!only || only === 'postgres') results.push(await run(await postgresTarget(), BASE_PORT))
if (!only || only === 'pglite') results.push(await run(await pgliteTarget(), BASE_PORT + 1))
console.log(
  `\nSIGKILL in the middle of ${WRITES} writes (${IN_FLIGHT} in flight), then a restart on the same data`,
)
console.table(results)
const lost = results.reduce((sum, r) => sum + r.lost, 0)
if (lost > 0) {
  console.error(`${lost} acknowledged writes were not found after the restart`)
  process.exit(1)
}
