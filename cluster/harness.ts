// Several app instances on one PostgreSQL and one Redis, behind nginx (deploy/nginx.conf): what the
// cluster test and the load and crash benchmarks start. Every server listens on 127.0.0.1 only.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Redis } from 'ioredis'
import pg from 'pg'
import { openDatabase } from '#server/database'
import { SERVER_NODE_FLAGS, serverEnv } from '../scripts/server-runtime.mjs'
import { assertPortFree } from './ports'

export const ROOT = path.resolve(import.meta.dirname, '..')

export type Instance = {
  name: string
  port: number
  url: string
  process: ChildProcess
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>
  logFile: string
}

export type Cluster = {
  balancerUrl: string
  databaseUrl: string
  redisUrl: string
  redisPrefix: string
  runDir: string
  instances: Instance[]
  env: Record<string, string>
  /**
   * Starts (or restarts) an instance on its port: by default from this checkout with the cluster's environment;
   * `appDir` starts another checkout (a new release, with its own node_modules), `env` adds to the environment.
   */
  startInstance(index: number, release?: Release): Promise<Instance>
  close(): Promise<void>
}

export type Release = { appDir?: string; env?: Record<string, string> }

export type ClusterOptions = {
  /** First port of the range: the balancer takes it, the instances the next ones. */
  basePort: number
  instances?: number
  pgUrl?: string
  redisUrl?: string
  /** More environment for every instance. */
  env?: Record<string, string>
}

/** How long an instance may take to answer health 200: CLUSTER_START_TIMEOUT_S (60 s), more on a busy machine. */
const START_TIMEOUT_MS = Number(process.env.CLUSTER_START_TIMEOUT_S ?? 60) * 1000

/**
 * What an instance runs: the TypeScript server through tsx, or with CLUSTER_SERVER=dist the compiled one production
 * runs (`node dist/app/main.js`, after `npm run build:server`), which also starts in a fraction of the time.
 */
const SERVER_ARGS = [
  ...SERVER_NODE_FLAGS,
  ...(process.env.CLUSTER_SERVER === 'dist' ? ['dist/app/main.js'] : ['--import', 'tsx', 'server/main.ts']),
]

async function waitForHealth(
  url: string,
  process: ChildProcess,
  timeoutMs = START_TIMEOUT_MS,
): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (process.exitCode !== null) throw new Error(`${url}: the instance exited with ${process.exitCode}`)
    try {
      const res = await fetch(`${url}/api/health`)
      if (res.status === 200) return
    } catch {}
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${url}: no healthy answer within ${timeoutMs / 1000} s`)
}

/**
 * How long nginx sets an instance aside after a refused connection, a timeout or a 503 (`fail_timeout` of the
 * upstream `server` lines, with `max_fails=1`): the drain relies on it, and a rolling deploy must wait it out.
 */
export const NGINX_FAIL_TIMEOUT_S = 5

export function nginxConfig(runDir: string, listen: string, upstreams: string[]): string {
  const template = fs.readFileSync(path.join(ROOT, 'deploy', 'nginx.conf'), 'utf8')
  const servers = upstreams
    .map((u) => `server ${u} max_fails=1 fail_timeout=${NGINX_FAIL_TIMEOUT_S}s;`)
    .join('\n    ')
  return template
    .replaceAll('{{RUN_DIR}}', runDir)
    .replaceAll('{{LISTEN}}', listen)
    .replaceAll('{{UPSTREAM_SERVERS}}', servers)
}

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const pgUrl = opts.pgUrl ?? process.env.CLUSTER_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  const redisUrl = opts.redisUrl ?? process.env.CLUSTER_REDIS_URL ?? 'redis://127.0.0.1:6379'
  const count = opts.instances ?? 2
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-cluster-'))
  const redisPrefix = `lm-cluster:${randomUUID().slice(0, 8)}:`

  // A database of its own, migrated once before any instance starts.
  const dbName = `lm_cluster_${randomUUID().replace(/-/g, '').slice(0, 12)}`
  const admin = new pg.Client({ connectionString: pgUrl })
  await admin.connect()
  await admin.query(`create database ${dbName}`)
  await admin.end()
  const dbUrl = new URL(pgUrl)
  dbUrl.pathname = `/${dbName}`
  const databaseUrl = dbUrl.toString()
  const migrated = await openDatabase({ driver: 'postgres', url: databaseUrl, max: 1 })
  await migrated.close()

  const balancerPort = opts.basePort
  const balancerUrl = `http://127.0.0.1:${balancerPort}`
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: redisPrefix,
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    PUBLIC_URL: balancerUrl,
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'never',
    SHUTDOWN_DELAY_MS: '1000',
    // As deploy/nginx.conf says: reads go to another instance while this one's search copy loads.
    TURN_AWAY_WHILE_LOADING: 'true',
    ...opts.env,
  }

  const instances: Instance[] = []
  const startInstance = async (index: number, release: Release = {}): Promise<Instance> => {
    const port = balancerPort + 1 + index
    const name = `app${index + 1}`
    const logFile = path.join(runDir, `${name}.log`)
    await assertPortFree(port)
    const log = fs.openSync(logFile, 'a')
    const child = spawn(process.execPath, SERVER_ARGS, {
      cwd: release.appDir ?? ROOT,
      env: {
        ...serverEnv(),
        ...env,
        ...release.env,
        PORT: String(port),
        DATA_DIR: path.join(runDir, name),
      },
      stdio: ['ignore', log, log],
    })
    fs.closeSync(log)
    const exited = new Promise<number | string>((resolve) =>
      child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
    )
    const instance = { name, port, url: `http://127.0.0.1:${port}`, process: child, exited, logFile }
    instances[index] = instance
    await waitForHealth(instance.url, child)
    return instance
  }
  const dropDatabase = async () => {
    const c = new pg.Client({ connectionString: pgUrl })
    await c.connect()
    await c.query(`drop database if exists ${dbName} with (force)`)
    await c.end()
  }
  const stopAll = async (andDrop = false) => {
    for (const instance of instances)
      if (instance && instance.process.exitCode === null) instance.process.kill('SIGTERM')
    await Promise.all(instances.filter(Boolean).map((i) => i.exited))
    if (andDrop) {
      await dropDatabase()
      fs.rmSync(runDir, { recursive: true, force: true })
    }
  }
  try {
    await Promise.all(Array.from({ length: count }, (_, i) => startInstance(i)))
  } catch (err) {
    await stopAll(true)
    throw err
  }

  fs.writeFileSync(
    path.join(runDir, 'nginx.conf'),
    nginxConfig(
      runDir,
      `127.0.0.1:${balancerPort}`,
      instances.map((i) => `127.0.0.1:${i.port}`),
    ),
  )
  const nginx = spawn('nginx', ['-p', runDir, '-c', path.join(runDir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const nginxExited = new Promise<void>((resolve) => nginx.on('exit', () => resolve()))
  const until = Date.now() + 10_000
  for (;;) {
    try {
      if ((await fetch(`${balancerUrl}/api/health`)).status === 200) break
    } catch {}
    if (Date.now() > until || nginx.exitCode !== null) {
      nginx.kill('SIGTERM')
      const log = readIfThere(path.join(runDir, 'error.log'))
      await stopAll(true)
      throw new Error(`nginx did not answer on ${balancerUrl}: ${log}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }

  return {
    balancerUrl,
    databaseUrl,
    redisUrl,
    redisPrefix,
    runDir,
    instances,
    env,
    startInstance,
    async close() {
      nginx.kill('SIGTERM')
      await Promise.all([nginxExited, stopAll()])
      await dropDatabase()
      const redis = new Redis(redisUrl)
      const keys = await redis.keys(`${redisPrefix}*`)
      if (keys.length) await redis.del(...keys)
      await redis.quit()
      if (!process.env.KEEP_CLUSTER_LOGS) fs.rmSync(runDir, { recursive: true, force: true })
    },
  }
}

function readIfThere(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return '(no log)'
  }
}

/** True when nginx, PostgreSQL and Redis can be reached from here. */
export function clusterPrerequisites(): string[] {
  const missing: string[] = []
  if (spawnSync('nginx', ['-v']).error) missing.push('nginx (apt-get install -y nginx)')
  return missing
}
