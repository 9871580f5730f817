// A backup of a running marketplace (listings, completed and paid sales, payouts, messages, a photo) restored into
// an empty database and data folder: the restored app starts and shows the same listings, the same balances and a
// balanced ledger. PGlite in the default test run; PostgreSQL in the server-postgres project (TEST_DB=postgres).
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { type AppInstance, buildApp } from './app'
import { BackupError, backup, restore } from './backup'
import { openDatabase } from './database'
import { PGLITE_EXTENSIONS } from './db/client'
import { LocalMediaStorage } from './lib/storage'
import { ledgerCheck, rowsOf } from './modules/ledger'
import { runPayouts } from './modules/payouts'
import { bearerFor } from './test/auth-helpers'
import { dealAt } from './test/deals'
import { createBrand, createUser, type UserRow } from './test/factories'
import { testConfig } from './test/test-app'

const ON_POSTGRES = process.env.TEST_DB === 'postgres' && Boolean(process.env.TEST_DATABASE_URL)
const SERVER = process.env.TEST_DATABASE_URL ?? ''
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined)
})

/** An empty PostgreSQL database of its own (dropped after the file). */
async function emptyPostgres(): Promise<string> {
  const name = `lm_backup_${randomUUID().replace(/-/g, '').slice(0, 12)}`
  const admin = new pg.Client({ connectionString: SERVER })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: SERVER })
    await c.connect()
    await c.query(`drop database if exists ${name} with (force)`)
    await c.end()
  })
  const url = new URL(SERVER)
  url.pathname = `/${name}`
  return url.toString()
}

function tempDir(label: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lm-backup-${label}-`))
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A product instance on its own data folder (and database): the config, the opened database and the app. */
async function start(dataDir: string, databaseUrl: string | undefined) {
  const config = testConfig({
    DATA_DIR: dataDir,
    MEDIA_STORAGE: 'local',
    TEST_PAYOUT_SECONDS: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  })
  const database = databaseUrl
    ? await openDatabase({ driver: 'postgres', url: databaseUrl, max: 5 })
    : await openDatabase({ driver: 'pglite', dataDir })
  const app = await buildApp({
    config,
    database,
    storage: new LocalMediaStorage(path.join(dataDir, 'media')),
    logger: false,
    mailTransport: { kind: 'smtp', send: async () => ({}), close() {} },
  })
  await app.ready()
  return {
    config,
    app,
    db: database.db,
    close: async () => {
      await app.close()
      await database.close()
    },
  }
}

const PAYS = { account_holder: 'Sam Seller', routing_number: '110000000', account_number: '000123456789' }

async function what(app: AppInstance, seller: UserRow, buyer: UserRow) {
  const db = app.ctx.db
  const listings = await rowsOf<{ id: string; name: string; price: number; sold: boolean }>(
    db,
    sql`select id, name, resale_price_cents::int as price, is_sold as sold from products order by id`,
  )
  const earnings = await app.inject({
    method: 'GET',
    url: '/api/earnings',
    headers: await bearerFor(app, seller),
  })
  expect(earnings.statusCode).toBe(200)
  const orders = await app.inject({
    method: 'GET',
    url: '/api/bookings',
    headers: await bearerFor(app, buyer),
  })
  const counts = await rowsOf<{ payouts: number; messages: number; entries: number }>(
    db,
    sql`select (select count(*) from payouts)::int as payouts, (select count(*) from messages)::int as messages,
          (select count(*) from ledger_entries)::int as entries`,
  )
  const { balanced } = await ledgerCheck(db)
  return { listings, earnings: earnings.json(), orders: orders.statusCode, counts: counts[0], balanced }
}

describe(`backup and restore (${ON_POSTGRES ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('brings back the same listings, balances, payouts and messages into an empty database', async () => {
    const dataA = tempDir('a')
    let urlA: string | undefined
    if (ON_POSTGRES) urlA = await emptyPostgres()
    else {
      // The migrated template of the test run, written into the data folder (migrations then find nothing to do).
      const image = new Blob([fs.readFileSync(inject('pgliteImage') as string)])
      const seedClient = new PGlite(path.join(dataA, 'pg'), {
        loadDataDir: image,
        extensions: PGLITE_EXTENSIONS,
      })
      await seedClient.waitReady
      await seedClient.close()
    }
    const a = await start(dataA, urlA)
    const brand = await createBrand(a.db)
    const seller = await createUser(a.db, { role: 'seller' })
    const buyer = await createUser(a.db, { role: 'buyer' })
    const sellerHeaders = await bearerFor(a.app, seller, { steppedUp: true })
    const account = await a.app.inject({
      method: 'POST',
      url: '/api/payouts/account',
      headers: sellerHeaders,
      payload: PAYS,
    })
    expect(account.statusCode, account.body).toBeLessThan(300)
    await dealAt(a, 'completed', { buyer, seller, brand, priceCents: 50_000 })
    await dealAt(a, 'completed', { buyer, seller, brand, priceCents: 30_000 })
    const paid = await dealAt(a, 'paid', { buyer, seller, brand, priceCents: 20_000 })
    const message = await a.app.inject({
      method: 'POST',
      url: `/api/bookings/${paid.booking.id}/messages`,
      headers: await bearerFor(a.app, buyer),
      payload: { body: 'Is the charger included?' },
    })
    expect(message.statusCode, message.body).toBe(201)
    await runPayouts({ db: a.db, mail: a.app.ctx.mail, jobs: a.app.ctx.jobs, config: a.config })
    await a.app.ctx.jobs.drain('payouts.settle')
    await a.app.ctx.storage.put('photos/backup-test.webp', Buffer.from('a photo'))
    const before = await what(a.app, seller, buyer)
    expect(before.counts).toMatchObject({ payouts: 1, messages: 1 })
    expect(before.listings).toHaveLength(3)
    expect(before.balanced).toBe(true)
    await a.close()

    // Outside tests the app keeps the AUTH_SECRET it generated in the data folder: it travels with the backup.
    fs.writeFileSync(path.join(dataA, 'auth-secret'), 'a-secret-generated-by-the-first-instance', {
      mode: 0o600,
    })
    const backups = tempDir('out')
    const folder = await backup(a.config, backups)
    expect(fs.readdirSync(folder).sort()).toEqual(
      ['auth-secret', ON_POSTGRES ? 'database.pgdump' : 'database.tar.gz', 'manifest.json', 'media'].sort(),
    )

    // Into an empty database and data folder; then the restored product starts and shows the same.
    const dataB = tempDir('b')
    const urlB = ON_POSTGRES ? await emptyPostgres() : undefined
    const configB = testConfig({
      DATA_DIR: dataB,
      MEDIA_STORAGE: 'local',
      ...(urlB ? { DATABASE_URL: urlB } : {}),
    })
    await restore(configB, folder)
    const b = await start(dataB, urlB)
    try {
      const after = await what(b.app, seller, buyer)
      expect(after).toEqual(before)
      expect(await b.app.ctx.storage.exists('photos/backup-test.webp')).toBe(true)
      expect(fs.readFileSync(path.join(dataB, 'auth-secret'), 'utf8')).toBe(
        fs.readFileSync(path.join(dataA, 'auth-secret'), 'utf8'),
      )
      const listing = await b.app.inject({ method: 'GET', url: `/api/products/${paid.product.id}` })
      expect(listing.statusCode).toBe(200)
    } finally {
      await b.close()
    }

    // A second restore into what is now a product: refused, and nothing changed.
    const refused = await restore(configB, folder).catch((err) => err)
    expect(refused).toBeInstanceOf(BackupError)
    expect(refused.message).toMatch(/is not empty.*restore only into an empty/)
  }, 240_000)
})
