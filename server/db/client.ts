import { AsyncLocalStorage } from 'node:async_hooks'
import crypto from 'node:crypto'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
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
  /**
   * Calls `onNotify` with each notification's payload on `channel` (PostgreSQL's LISTEN, on a connection of its
   * own that is opened again when it drops). Resolves once listening; the result stops it.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onError?: (err: Error) => void,
  ): Promise<() => void>
  close(): Promise<void>
}

/** Extensions the migrations create (search), loaded into every embedded database. */
export const PGLITE_EXTENSIONS = { pg_trgm }

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, 'migrations')

/** The driver's client the migrations ran on (a PGlite, or a pg client holding the migration lock). */
export type MigrationClient = PGlite | pg.PoolClient

export type OpenOptions = (
  | {
      driver: 'postgres'
      url: string
      max?: number
      /** Statements outside a transaction in the database at once (STATEMENTS_AT_ONCE when absent). */
      statementsAtOnce?: number
    }
  /** `image`: start from a `dumpDataDir` image instead of an empty database (in memory, or in a new `dataDir`). */
  | { driver: 'pglite'; dataDir?: string; image?: Blob }
) & {
  /** Runs right after the migrations, on their client and under their lock (the job queues: server/database.ts). */
  afterMigrate?: (client: MigrationClient) => Promise<void>
}

/**
 * Opens the database, applies every committed migration, then `afterMigrate`. `dataDir` absent means in memory.
 * The app opens it through server/database.ts, which adds the job queues.
 */
export async function openMigratedDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.driver === 'postgres') {
    // A connection is replaced after MAX_USES checkouts, which also bounds the statements it keeps prepared.
    // No JIT compilation: the planner's cost of a statement grows with the tables' statistics, and past
    // jit_above_cost PostgreSQL compiled statements that run in a millisecond: search's feed statement spent 24 ms
    // of its 30 compiling at every commit at 1,000,000 listings. The app's statements are short, and the few long ones
    // (a count by SQL, the price guide's sums) gain little from compiling.
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.max ?? 10,
      maxUses: MAX_USES,
      options: '-c jit=off',
    })
    prepareReads(pool)
    takeTurns(pool, opts.statementsAtOnce ?? STATEMENTS_AT_ONCE)
    // An idle connection that the server drops (restart, failover, a dropped test database) must not crash
    // the process: the pool replaces it on the next query. Anything else is worth a line in the log.
    pool.on('error', (err: Error & { code?: string }) => {
      if (err.code !== '57P01') console.error('PostgreSQL pool error:', err.message)
    })
    const db = drizzleNodePg({ client: pool, schema }) as unknown as Db
    await migrateOnce(pool, opts.afterMigrate)
    return {
      db,
      driver: 'postgres',
      ping: () => ping(db),
      listen: (channel, onNotify, onError) => listenOn(opts.url, channel, onNotify, onError),
      close: () => pool.end(),
    }
  }
  const release = opts.dataDir ? acquireDataDirLock(opts.dataDir) : () => {}
  try {
    const options = { loadDataDir: opts.image, extensions: PGLITE_EXTENSIONS }
    const client = opts.dataDir ? new PGlite(path.join(opts.dataDir, 'pg'), options) : new PGlite(options)
    await client.waitReady
    const pgliteDb = drizzlePglite({ client, schema })
    await migratePglite(pgliteDb, { migrationsFolder: MIGRATIONS_DIR })
    await opts.afterMigrate?.(client)
    const db = pgliteDb as unknown as Db
    return {
      db,
      driver: 'pglite',
      ping: () => ping(db),
      listen: async (channel, onNotify) => {
        const stop = await client.listen(channel, onNotify)
        return () => void stop().catch(() => undefined)
      },
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

const MAX_USES = 20_000

/**
 * Statements through the pool that start with `select` or `with` are prepared, named by a hash of their text:
 * each connection parses and analyses one once, and PostgreSQL can keep its plan, instead of planning the same
 * search statement on every request (planning took as long as running a page of listings). Other statements are
 * used too rarely to gain, and a migration changes the tables plans depend on.
 */
function prepareReads(pool: pg.Pool) {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown
  const prepared = (...args: unknown[]) => {
    const [config] = args
    if (config && typeof config === 'object' && !('name' in config && config.name)) {
      const text = (config as { text?: unknown }).text
      if (typeof text === 'string' && READ.test(text)) args[0] = { ...config, name: statementName(text) }
    }
    return query(...args)
  }
  pool.query = prepared as typeof pool.query
}

const READ = /^\s*(select|with)\s/i

/**
 * How many of an instance's statements outside a transaction (a search's page, a count, a lookup) PostgreSQL has at
 * once; the others wait their turn in the order they came. On 2 cores shared with the database, ten at once had each
 * statement cost twice its CPU alone (backends taking turns on the cores); four at once cut the database's CPU a
 * long-tail search by a fifth to a half (docs/decisions/0141-*). Transactions take their connection as before.
 */
const STATEMENTS_AT_ONCE = 4

const pastTurns = new AsyncLocalStorage<true>()

/**
 * Runs `read` with its statements sent straight to the database, past the turns: for a one-row read that many
 * requests share and wait on before sending their own statement (the listings' version under writes, decision
 * 0159). In turn, each of those requests would wait in the queue twice.
 */
export function pastTheTurns<T>(read: () => Promise<T>): Promise<T> {
  return pastTurns.run(true, read)
}

function takeTurns(pool: pg.Pool, atOnce: number) {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>
  let running = 0
  const waiting: (() => void)[] = []
  // An ending statement hands its turn to the first one waiting, if any.
  const release = () => {
    const first = waiting.shift()
    if (first) first()
    else running--
  }
  const inTurn = (...args: unknown[]) => {
    // The callback form (not used by the app's drivers) goes straight on, as do statements sent past the turns.
    if (typeof args[args.length - 1] === 'function' || pastTurns.getStore()) return query(...args)
    const send = () => {
      let sent: Promise<unknown>
      try {
        sent = query(...args)
      } catch (err) {
        release()
        throw err
      }
      sent.then(release, release)
      return sent
    }
    if (running < atOnce) {
      running++
      return send()
    }
    return new Promise<void>((resolve) => waiting.push(resolve)).then(send)
  }
  pool.query = inTurn as typeof pool.query
}

/**
 * The names of the statements met lately, by text: a search sends the same few texts again and again, and hashing a
 * page statement's 5 KB each time cost more than the rest of sending it. Forgotten all at once when full.
 */
const names = new Map<string, string>()
const NAMES_KEPT = 2_000

function statementName(text: string): string {
  let name = names.get(text)
  if (name === undefined) {
    if (names.size >= NAMES_KEPT) names.clear()
    name = `r${crypto.createHash('sha1').update(text).digest('base64url')}`
    names.set(text, name)
  }
  return name
}

/** Any fixed number: instances starting together take turns, and the later ones find nothing left to apply. */
const MIGRATION_LOCK = 7_140_431_151

/**
 * Applies the migrations and then `afterMigrate` under a PostgreSQL advisory lock, so several instances may start
 * at once.
 */
async function migrateOnce(pool: pg.Pool, afterMigrate: OpenOptions['afterMigrate']): Promise<void> {
  const client = await pool.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
    try {
      await migrateNodePg(drizzleNodePg({ client, schema }), { migrationsFolder: MIGRATIONS_DIR })
      await afterMigrate?.(client)
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK])
    }
  } finally {
    client.release()
  }
}

/** LISTEN on a connection of its own; a dropped connection is opened again (backing off to 5 s), and says so. */
async function listenOn(
  url: string,
  channel: string,
  onNotify: (payload: string) => void,
  onError: (err: Error) => void = (err) => console.error(`Listening on ${channel}:`, err.message),
): Promise<() => void> {
  let stopped = false
  let client: pg.Client | undefined
  let retry: NodeJS.Timeout | undefined
  let failures = 0
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url })
    client = c
    c.on('notification', (m) => {
      if (m.channel === channel) onNotify(m.payload ?? '')
    })
    const reconnect = (err: Error) => {
      if (stopped || client !== c) return
      client = undefined
      onError(err)
      c.end().catch(() => undefined)
      retry = setTimeout(() => void connect().catch(() => undefined), Math.min(5_000, 100 * 2 ** failures++))
    }
    c.on('error', reconnect)
    c.on('end', () => reconnect(new Error('connection closed')))
    try {
      await c.connect()
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
      failures = 0
    } catch (err) {
      reconnect(err as Error)
    }
  }
  await connect()
  return () => {
    stopped = true
    if (retry) clearTimeout(retry)
    void client?.end().catch(() => undefined)
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
