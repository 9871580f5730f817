// `npm run backup` and `npm run restore`: one folder holds the database (PostgreSQL: `pg_dump` custom format, a
// consistent snapshot taken while the app runs; the embedded PGlite: its own data-folder dump, taken with the app
// stopped, since only one process may open that folder), the photos folder and the generated AUTH_SECRET when
// they live in DATA_DIR, and a manifest. A restore goes only into an empty database and an empty data folder.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { Config } from './config'
import { PGLITE_EXTENSIONS } from './db/client'
import { acquireDataDirLock } from './db/lock'

export class BackupError extends Error {
  override name = 'BackupError'
}

export type Manifest = {
  format: 1
  app: 'laptop-market'
  createdAt: string
  driver: 'postgres' | 'pglite'
  /** The database's file in the backup folder. */
  database: 'database.pgdump' | 'database.tar.gz'
  /** Whether the photos folder (DATA_DIR/media) is in the backup (not when photos live in the database or a bucket). */
  photos: boolean
  authSecret: boolean
}

const MEDIA = 'media'
const AUTH_SECRET_FILE = 'auth-secret'

function run(command: string, args: string[], what: string) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (result.error) {
    throw new BackupError(
      `${what}: could not run ${command} (${(result.error as NodeJS.ErrnoException).code}); install PostgreSQL's client tools`,
    )
  }
  if (result.status !== 0) throw new BackupError(`${what}: ${command} failed:\n${result.stderr.trim()}`)
}

/** Writes a backup into a new folder under `into` and returns that folder. */
export async function backup(config: Config, into: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const dir = path.resolve(into, `laptop-market-${stamp}`)
  fs.mkdirSync(dir, { recursive: true })
  const manifest: Manifest = {
    format: 1,
    app: 'laptop-market',
    createdAt: new Date().toISOString(),
    driver: config.databaseUrl ? 'postgres' : 'pglite',
    database: config.databaseUrl ? 'database.pgdump' : 'database.tar.gz',
    photos: false,
    authSecret: false,
  }
  try {
    if (config.databaseUrl) {
      // One transaction at one snapshot: consistent while the app keeps writing.
      run(
        'pg_dump',
        [
          '--format=custom',
          '--no-owner',
          '--no-privileges',
          '--file',
          path.join(dir, manifest.database),
          config.databaseUrl,
        ],
        'Backing up the database',
      )
    } else {
      // Taking the data folder's lock refuses, with a clear message, while the app has it open.
      const release = acquireDataDirLock(config.dataDir)
      try {
        const client = new PGlite(path.join(config.dataDir, 'pg'), { extensions: PGLITE_EXTENSIONS })
        await client.waitReady
        const dump = await client.dumpDataDir('gzip')
        await client.close()
        fs.writeFileSync(path.join(dir, manifest.database), Buffer.from(await dump.arrayBuffer()))
      } finally {
        release()
      }
    }
    const media = path.join(config.dataDir, MEDIA)
    if (config.media.store === 'local' && fs.existsSync(media)) {
      fs.cpSync(media, path.join(dir, MEDIA), { recursive: true })
      manifest.photos = true
    }
    const secret = path.join(config.dataDir, AUTH_SECRET_FILE)
    if (!config.authSecret && fs.existsSync(secret)) {
      fs.copyFileSync(secret, path.join(dir, AUTH_SECRET_FILE))
      manifest.authSecret = true
    }
    fs.writeFileSync(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
    return dir
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true })
    throw err
  }
}

function readManifest(from: string): Manifest {
  const file = path.join(from, 'manifest.json')
  if (!fs.existsSync(file)) throw new BackupError(`${from} is not a backup: it has no manifest.json`)
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest
  if (manifest.app !== 'laptop-market' || manifest.format !== 1)
    throw new BackupError(`${from} is not a Laptop Market backup this version can read`)
  return manifest
}

function isEmptyFolder(dir: string): boolean {
  return !fs.existsSync(dir) || fs.readdirSync(dir).length === 0
}

/** Brings a backup folder back into the configured database and DATA_DIR, both of which must be empty. */
export async function restore(config: Config, from: string): Promise<Manifest> {
  const manifest = readManifest(path.resolve(from))
  const target = config.databaseUrl ? 'postgres' : 'pglite'
  if (manifest.driver !== target) {
    throw new BackupError(
      manifest.driver === 'postgres'
        ? 'This backup is of a PostgreSQL database: set DATABASE_URL to an empty PostgreSQL database to restore it'
        : 'This backup is of the embedded database (PGlite): unset DATABASE_URL and set DATA_DIR to an empty folder to restore it',
    )
  }
  // Refuse before changing anything.
  for (const sub of [MEDIA, AUTH_SECRET_FILE, ...(target === 'pglite' ? ['pg'] : [])]) {
    if (!isEmptyFolder(path.join(config.dataDir, sub))) {
      throw new BackupError(
        `The data folder ${config.dataDir} is not empty (${sub} is there): restore only into an empty data folder (set DATA_DIR to a new one)`,
      )
    }
  }
  const dumpFile = path.join(from, manifest.database)
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl })
    await client.connect()
    try {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
      )
      if ((rows[0]?.n ?? 0) > 0) {
        throw new BackupError(
          `The database in DATABASE_URL is not empty (${rows[0]?.n} tables): restore only into an empty database (e.g. createdb laptop_market_restored)`,
        )
      }
    } finally {
      await client.end()
    }
    run(
      'pg_restore',
      [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        '--dbname',
        config.databaseUrl,
        dumpFile,
      ],
      'Restoring the database',
    )
  } else {
    const release = acquireDataDirLock(config.dataDir)
    try {
      const client = new PGlite(path.join(config.dataDir, 'pg'), {
        loadDataDir: new Blob([fs.readFileSync(dumpFile)]),
        extensions: PGLITE_EXTENSIONS,
      })
      await client.waitReady
      await client.close()
    } finally {
      release()
    }
  }
  if (manifest.photos)
    fs.cpSync(path.join(from, MEDIA), path.join(config.dataDir, MEDIA), { recursive: true })
  if (manifest.authSecret) {
    fs.copyFileSync(path.join(from, AUTH_SECRET_FILE), path.join(config.dataDir, AUTH_SECRET_FILE))
    fs.chmodSync(path.join(config.dataDir, AUTH_SECRET_FILE), 0o600)
  }
  return manifest
}
