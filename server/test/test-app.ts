import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { type AppInstance, buildApp } from '#server/app'
import { loadConfig } from '#server/config'
import { type Database, type Db, openDatabase } from '#server/db/client'
import { MemoryMediaStorage } from '#server/lib/storage'

export type TestApp = {
  app: AppInstance
  db: Db
  storage: MemoryMediaStorage
  close(): Promise<void>
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or, in the `server-postgres`
 * test project (TEST_DB=postgres), a new database on TEST_DATABASE_URL's server, dropped afterwards.
 */
export async function openTestDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const url = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined
  if (!url) {
    const database = await openDatabase({ driver: 'pglite' })
    return { database, drop: async () => {} }
  }
  const name = `lm_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const dbUrl = new URL(url)
  dbUrl.pathname = `/${name}`
  const database = await openDatabase({ driver: 'postgres', url: dbUrl.toString(), max: 20 })
  return {
    database,
    drop: async () => {
      const c = new pg.Client({ connectionString: url })
      await c.connect()
      await c.query(`drop database if exists ${name} with (force)`)
      await c.end()
    },
  }
}

export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const { database, drop } = await openTestDatabase()
  const storage = new MemoryMediaStorage()
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_CACHE_TTL_MS: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    ...env,
  })
  const app = await buildApp({ config, database, storage, logger: false })
  await app.ready()
  return {
    app,
    db: database.db,
    storage,
    close: async () => {
      await app.close()
      await database.close()
      await drop()
    },
  }
}
