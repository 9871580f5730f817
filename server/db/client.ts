import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { acquireDataDirLock } from './lock'
import * as schema from './schema'

/** One type for both drivers; a transaction is also a Db, so use cases compose inside one. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

export type Database = {
  db: Db
  driver: 'pglite' | 'postgres'
  ping(): Promise<boolean>
  close(): Promise<void>
}

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, 'migrations')

export type OpenOptions =
  | { driver: 'postgres'; url: string; max?: number }
  | { driver: 'pglite'; dataDir?: string }

/** Opens the database and applies every committed migration. `dataDir` absent means in memory. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.driver === 'postgres') {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.max ?? 10 })
    // An idle connection that the server drops (restart, failover, a dropped test database) must not crash
    // the process: the pool replaces it on the next query. Anything else is worth a line in the log.
    pool.on('error', (err: Error & { code?: string }) => {
      if (err.code !== '57P01') console.error('PostgreSQL pool error:', err.message)
    })
    const db = drizzleNodePg({ client: pool, schema }) as unknown as Db
    await migrateNodePg(drizzleNodePg({ client: pool, schema }), { migrationsFolder: MIGRATIONS_DIR })
    return {
      db,
      driver: 'postgres',
      ping: () => ping(db),
      close: () => pool.end(),
    }
  }
  const release = opts.dataDir ? acquireDataDirLock(opts.dataDir) : () => {}
  try {
    const client = opts.dataDir ? new PGlite(path.join(opts.dataDir, 'pg')) : new PGlite()
    await client.waitReady
    const pgliteDb = drizzlePglite({ client, schema })
    await migratePglite(pgliteDb, { migrationsFolder: MIGRATIONS_DIR })
    const db = pgliteDb as unknown as Db
    return {
      db,
      driver: 'pglite',
      ping: () => ping(db),
      close: async () => {
        await client.close()
        release()
      },
    }
  } catch (err) {
    release()
    throw err
  }
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`)
    return true
  } catch {
    return false
  }
}
