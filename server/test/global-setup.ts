// Runs once per Vitest run, before any server test file, in the main process. Creating and migrating a
// database is the slow part of a test file's setup (PGlite's initdb alone takes seconds of CPU), so it is
// done once here; each test file then starts from a copy:
// - PGlite: a migrated data folder dumped to a file, which each file's in-memory PGlite loads;
// - PostgreSQL (server-postgres): a migrated template database, which each file's database is created from.
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { MIGRATIONS_DIR, PGLITE_EXTENSIONS } from '#server/db/client'
import { installJobQueues } from '#server/jobs/install'
import { clientExecutor } from '#server/jobs/sql-executor'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a migrated PGlite data folder (`dumpDataDir`), for the server project. */
    pgliteImage?: string
    /** A migrated database on TEST_DATABASE_URL's server to create each test database from. */
    postgresTemplate?: string
  }
}

const started = (label: string) => {
  const t = performance.now()
  return () => console.log(`${label} in ${((performance.now() - t) / 1000).toFixed(1)} s`)
}

export default async function setup(project: TestProject) {
  const postgresUrl = project.config.env?.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined
  if (postgresUrl) return setupPostgresTemplate(project, postgresUrl)
  return setupPgliteImage(project)
}

async function setupPgliteImage(project: TestProject) {
  const done = started('Migrated PGlite image built')
  const client = new PGlite({ extensions: PGLITE_EXTENSIONS })
  await client.waitReady
  await migratePglite(drizzlePglite({ client }), { migrationsFolder: MIGRATIONS_DIR })
  await installJobQueues(clientExecutor(client))
  await lightenForTests(client)
  // Uncompressed: loading skips a gunzip per test file, and the file lives only for this run.
  const image = await client.dumpDataDir('none')
  await client.close()
  const file = path.join(os.tmpdir(), `lm-pglite-image-${process.pid}-${randomUUID().slice(0, 8)}.tar`)
  fs.writeFileSync(file, Buffer.from(await image.arrayBuffer()))
  project.provide('pgliteImage', file)
  done()
  return () => fs.rmSync(file, { force: true })
}

/**
 * Every server test file opens a database from the image: most of its opening is PGlite writing the image's files
 * and starting on them (about 0.9 s of a core, 136 times a run). The tests use the one database, never a template:
 * without template0 and template1 the image has half the files; with 16 MB of shared buffers (128 MB by default)
 * there is less memory to set up. Together they halve an opening (decision 0142).
 */
async function lightenForTests(client: PGlite) {
  for (const statement of [
    'alter database template0 is_template false',
    'drop database template0',
    'alter database template1 is_template false',
    'drop database template1',
    "alter system set shared_buffers = '16MB'",
  ])
    await client.exec(statement)
}

async function setupPostgresTemplate(project: TestProject, url: string) {
  const done = started('Migrated PostgreSQL template built')
  const name = `lm_template_${randomUUID().replace(/-/g, '').slice(0, 16)}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const templateUrl = new URL(url)
  templateUrl.pathname = `/${name}`
  // A template must have no open connection when databases are created from it: this pool ends first.
  const pool = new pg.Pool({ connectionString: templateUrl.toString(), max: 1 })
  try {
    await migrateNodePg(drizzleNodePg({ client: pool }), { migrationsFolder: MIGRATIONS_DIR })
    await installJobQueues(clientExecutor(pool))
  } finally {
    await pool.end()
  }
  project.provide('postgresTemplate', name)
  done()
  return async () => {
    const c = new pg.Client({ connectionString: url })
    await c.connect()
    await c.query(`drop database if exists ${name} with (force)`)
    await c.end()
  }
}
