// `npm run admin` as a real child process, against a database of its own: a PGlite data folder, or a
// fresh PostgreSQL database in the server-postgres project. The app then opens that database and the
// admin signs in through it.

import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { and, eq } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppInstance, buildApp } from '#server/app'
import { loadConfig } from '#server/config'
import { openDatabase } from '#server/database'
import type { Database } from '#server/db/client'
import { verifyPassword } from '#server/db/password-hash'
import { accounts, users } from '#server/db/schema'
import { MemoryMediaStorage } from '#server/lib/storage'
import { cookieFrom, postSignIn, signUp } from '#server/test/auth-helpers'
import { migratedDataDir } from '#server/test/test-app'

const ROOT = path.resolve(import.meta.dirname, '..')
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx')
const postgresUrl = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined

let dataDir: string
let databaseUrl: string | undefined
let dropDatabase = async () => {}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-admin-cli-'))
  if (!postgresUrl) await migratedDataDir(dataDir)
  if (postgresUrl) {
    const name = `lm_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`
    const admin = new pg.Client({ connectionString: postgresUrl })
    await admin.connect()
    await admin.query(`create database ${name}`)
    await admin.end()
    const url = new URL(postgresUrl)
    url.pathname = `/${name}`
    databaseUrl = url.toString()
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: postgresUrl })
      await c.connect()
      await c.query(`drop database if exists ${name} with (force)`)
      await c.end()
    }
  }
})

afterAll(async () => {
  await dropDatabase()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

type Run = { code: number; stdout: string; stderr: string }

function runAdmin(args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    REDIS_URL: '',
  }
  return new Promise((resolve) => {
    execFile(
      TSX,
      ['server/admin-cli.ts', ...args],
      { cwd: ROOT, env, timeout: 120_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0
        resolve({ code, stdout, stderr })
      },
    )
  })
}

/** Opens the database the command wrote to, with the app on it, for one block of checks. */
async function withApp<T>(use: (app: AppInstance, database: Database) => Promise<T>): Promise<T> {
  const database = databaseUrl
    ? await openDatabase({ driver: 'postgres', url: databaseUrl })
    : await openDatabase({ driver: 'pglite', dataDir })
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_CACHE_TTL_MS: '0',
  })
  const app = await buildApp({ config, database, storage: new MemoryMediaStorage(), logger: false })
  try {
    await app.ready()
    return await use(app, database)
  } finally {
    await app.close()
    await database.close()
  }
}

async function signInAs(app: AppInstance, email: string, password: string) {
  const res = await postSignIn(app, { email, password })
  if (res.statusCode !== 200) return { status: res.statusCode, me: undefined }
  const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: cookieFrom(res) } })
  return { status: res.statusCode, me: me.json() as { id: string; name: string; role: string } }
}

describe('npm run admin', { timeout: 180_000 }, () => {
  const promoteEmail = `promote-${randomUUID().slice(0, 8)}@example.test`

  it('creates an admin who signs in through the app', async () => {
    const run = await runAdmin([
      '--email',
      'Root@Example.test',
      '--password',
      'cobalt-orchard-63',
      '--name',
      'Root Admin',
    ])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout.trim()).toMatch(/^Created admin root@example\.test$/i)

    await withApp(async (app) => {
      const signedIn = await signInAs(app, 'root@example.test', 'cobalt-orchard-63')
      expect(signedIn.status).toBe(200)
      expect(signedIn.me).toMatchObject({ name: 'Root Admin', role: 'admin' })

      // Someone who signed up and was later deleted, for the next test.
      const person = await signUp(app, { role: 'buyer', email: promoteEmail, password: 'quartz-lamp-71' })
      await app.ctx.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, person.user.id))
    })
  })

  it('makes an existing account an admin, re-enabled, with the new password', async () => {
    const run = await runAdmin(['--email', promoteEmail, '--password', 'violet-kettle-42'])
    expect(run.code).toBe(0)
    expect(run.stdout.trim()).toBe(`${promoteEmail} is now an admin (password updated)`)

    await withApp(async (app, database) => {
      expect((await signInAs(app, promoteEmail, 'quartz-lamp-71')).status).toBe(401)
      const signedIn = await signInAs(app, promoteEmail, 'violet-kettle-42')
      expect(signedIn.status).toBe(200)
      expect(signedIn.me?.role).toBe('admin')
      const rows = await database.db.select().from(users).where(eq(users.email, promoteEmail))
      expect(rows).toHaveLength(1)
      expect(rows[0]?.name).toMatch(/^Test buyer/)
      const credentials = await database.db
        .select()
        .from(accounts)
        .where(and(eq(accounts.userId, signedIn.me?.id ?? ''), eq(accounts.providerId, 'credential')))
      expect(credentials).toHaveLength(1)
    })
  })

  it('names a new admin "Administrator" unless told otherwise', async () => {
    const email = `plain-${randomUUID().slice(0, 8)}@example.test`
    const run = await runAdmin(['--email', email, '--password', 'mossy-harbor-29'])
    expect(run.code).toBe(0)
    await withApp(async (_app, database) => {
      const [row] = await database.db.select().from(users).where(eq(users.email, email))
      expect(row).toMatchObject({ name: 'Administrator', role: 'admin', disabledAt: null })
      const [credential] = await database.db
        .select()
        .from(accounts)
        .where(eq(accounts.userId, row?.id ?? ''))
      expect(await verifyPassword({ hash: credential?.password ?? '', password: 'mossy-harbor-29' })).toBe(
        true,
      )
    })
  })

  it.each([
    [['--email', 'x@example.test'], '--password is required'],
    [['--email', 'x@example.test', '--password', '12345'], '--password must be 6 characters or longer'],
    [['--email', 'not-an-email', '--password', 'long-enough'], '--email must be an email address'],
    [['--email', 'x@example.test', '--password', '123456'], 'one of the most common ones'],
    [['--email', 'xavier@example.test', '--password', 'xavier2026'], 'built from your name or email'],
  ])('refuses %j with a usage message and exit code 2', async (args, message) => {
    const run = await runAdmin(args)
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(
      'Usage: npm run admin -- --email E --password P [--name N] [--remove-demo | --keep-demo]',
    )
    expect(run.stderr).toContain(message)
  })

  it.skipIf(Boolean(databaseUrl ?? postgresUrl))('refuses a data folder the app has open', async () => {
    await withApp(async () => {
      const run = await runAdmin(['--email', 'late@example.test', '--password', 'quiet-heron-77'])
      expect(run.code).toBe(1)
      expect(run.stderr).toContain('is in use by another process')
    })
  })
})

describe.skipIf(Boolean(postgresUrl))('demo accounts beside a real admin', { timeout: 180_000 }, () => {
  let demoDir: string
  beforeAll(async () => {
    demoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-demo-accounts-'))
    await migratedDataDir(demoDir)
    const database = await openDatabase({ driver: 'pglite', dataDir: demoDir })
    const { createUser } = await import('#server/db/factories')
    await createUser(database.db, { id: 'demo-admin', role: 'admin', email: 'admin@laptopmarket.test' })
    await database.close()
  })
  afterAll(() => fs.rmSync(demoDir, { recursive: true, force: true }))

  function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
    return new Promise((resolve) => {
      execFile(
        TSX,
        [file, ...args],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            LOG_LEVEL: 'silent',
            DATA_DIR: demoDir,
            DATABASE_URL: '',
            REDIS_URL: '',
            ...env,
          },
          timeout: 120_000,
        },
        (err, stdout, stderr) =>
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
      )
    })
  }

  it('a production server refuses to start while one exists, naming the command that removes them', async () => {
    const started = await run('server/main.ts', [], {
      NODE_ENV: 'production',
      AUTH_SECRET: 'p'.repeat(40),
      PORT: '0',
      PUBLIC_URL: 'https://laptops.example.test',
    })
    expect(started.code).toBe(1)
    expect(started.stderr).toContain('Refusing to start in production')
    expect(started.stderr).toContain('npm run demo:remove')
    expect(started.stderr).toContain('admin@laptopmarket.test')
  })

  it('npm run admin -- … --remove-demo makes the real admin and removes them', async () => {
    const made = await run(
      'server/admin-cli.ts',
      ['--email', 'real-admin@example.test', '--password', 'amber-lantern-58', '--remove-demo'],
      { NODE_ENV: 'test' },
    )
    expect(made.stderr).toBe('')
    expect(made.code).toBe(0)
    expect(made.stdout).toContain('Created admin real-admin@example.test')
    expect(made.stdout).toContain('Removed 1 demo account (admin@laptopmarket.test)')
    const again = await run('server/demo-remove-cli.ts', [], { NODE_ENV: 'test' })
    expect(again.code).toBe(0)
    expect(again.stdout.trim()).toBe('No demo accounts to remove.')
    const database = await openDatabase({ driver: 'pglite', dataDir: demoDir })
    try {
      const [demo] = await database.db.select().from(users).where(eq(users.id, 'demo-admin'))
      expect(demo?.disabledAt).not.toBeNull()
      expect(await database.db.select().from(accounts).where(eq(accounts.userId, 'demo-admin'))).toEqual([])
    } finally {
      await database.close()
    }
  })
})
