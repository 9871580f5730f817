import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import pg from 'pg'
import { inject } from 'vitest'
import { type AppInstance, type BuildAppOptions, buildApp } from '#server/app'
import { loadConfig } from '#server/config'
import { openDatabase } from '#server/database'
import type { Database, Db } from '#server/db/client'
import { MemoryMediaStorage } from '#server/lib/storage'
import type { MailTransport, OutgoingEmail } from '#server/mail/transport'

export type TestApp = {
  app: AppInstance
  db: Db
  storage: MemoryMediaStorage
  /**
   * Emails the worker sent (after `app.ctx.jobs.drain('email')`), rendered, when the test named neither
   * SMTP_URL nor DATA_DIR; otherwise they go to that server or folder and this stays empty.
   */
  outbox: OutgoingEmail[]
  close(): Promise<void>
}

/**
 * The image as PGlite reads it: one ArrayBuffer that every database of the worker loads from. PGlite reads a
 * `loadDataDir` Blob whole (`arrayBuffer()`) and copies each file out of it, so the bytes are never written to; a
 * Blob of them would be copied whole (44 MB) for every test file, 0.4 s of its 1.2 s start.
 */
class SharedImage extends Blob {
  constructor(private readonly image: ArrayBuffer) {
    super()
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.image)
  }
}

/** The shared image's bytes, for the test that they stay as they were (test-app.test.ts). */
export const migratedImageBytesForTest = (): Promise<ArrayBuffer> =>
  migratedImage()?.arrayBuffer() ?? Promise.reject(new Error('no PGlite image in this run'))

let pgliteImage: SharedImage | undefined

/** The migrated PGlite data folder `global-setup.ts` dumped for the run, read once per worker. */
function migratedImage(): Blob | undefined {
  const imageFile = inject('pgliteImage')
  if (imageFile && !pgliteImage) {
    const file = fs.readFileSync(imageFile)
    pgliteImage = new SharedImage(
      file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer,
    )
  }
  return pgliteImage
}

/**
 * Makes `dataDir` a PGlite data folder started from the run's migrated image, for a test of a command or a process
 * that opens a folder itself: creating and migrating one on disk costs seconds of CPU such a test does not claim.
 */
export async function migratedDataDir(dataDir: string): Promise<void> {
  const database = await openDatabase({ driver: 'pglite', dataDir, image: migratedImage() })
  await database.close()
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or, in the `server-postgres`
 * test project (TEST_DB=postgres), a new database on TEST_DATABASE_URL's server, dropped afterwards.
 * Both start from the copy that `global-setup.ts` migrated once for the run (migrations still run, and
 * find nothing left to apply).
 */
export async function openTestDatabase(): Promise<{
  database: Database
  /** The PostgreSQL database's address (none for PGlite). */
  url?: string
  drop(): Promise<void>
}> {
  const url = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined
  if (!url) {
    const database = await openDatabase({ driver: 'pglite', image: migratedImage() })
    return { database, drop: async () => {} }
  }
  const name = `lm_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`
  const template = inject('postgresTemplate')
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`)
  await admin.end()
  const dbUrl = new URL(url)
  dbUrl.pathname = `/${name}`
  const database = await openDatabase({ driver: 'postgres', url: dbUrl.toString(), max: 20 })
  return {
    database,
    url: dbUrl.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: url })
      await c.connect()
      await c.query(`drop database if exists ${name} with (force)`)
      await c.end()
    },
  }
}

/** The configuration test apps run with: `env` over the test defaults. */
export function testConfig(env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_CACHE_TTL_MS: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    // Reviewing first listings is the point of its own tests only (server/modules/listing-reviews).
    LISTING_REVIEW_FIRST: '0',
    // Test files sign up many accounts and take many holds from one address; the limits' own tests set them.
    SIGNUPS_PER_ADDRESS_PER_HOUR: '0',
    LIVE_HOLDS_PER_ADDRESS: '1000',
    OPEN_BOOKINGS_PER_BUYER: '1000',
    UPLOADS_PER_MINUTE: '0',
    ...env,
  })
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: Pick<BuildAppOptions, 'fetchImage' | 'logger' | 'logStream' | 'pageRenderer'> = {},
): Promise<TestApp> {
  const { database, drop } = await openTestDatabase()
  const storage = new MemoryMediaStorage()
  const config = testConfig(env)
  const outbox: OutgoingEmail[] = []
  // Without SMTP_URL the app would write .eml files into ./data: tests keep their emails in memory.
  const mailTransport: MailTransport | undefined =
    env.SMTP_URL || env.DATA_DIR
      ? undefined
      : {
          kind: 'smtp',
          async send(email) {
            outbox.push(email)
            return {}
          },
          close() {},
        }
  const app = await buildApp({ config, database, storage, logger: false, mailTransport, ...options })
  await app.ready()
  return {
    app,
    db: database.db,
    storage,
    outbox,
    close: async () => {
      await app.close()
      await database.close()
      await drop()
    },
  }
}
