// The job queue: pg-boss on whichever database runs (PostgreSQL, or the embedded PGlite through
// `sqlExecutor`). A use case queues a job in its own transaction (`send(..., { tx })`), so a change that
// rolls back queues nothing; workers fetch jobs with FOR UPDATE SKIP LOCKED, so among several instances
// each job runs once at a time, and a failed job is retried with backoff (QUEUES holds each queue's rules).
//
// Workers run only after `start()` (server/main.ts calls it once the app listens); tests that need a job
// done call `drain()`, which runs every job that is due, in the test's own process, and returns.

import { AsyncLocalStorage } from 'node:async_hooks'
import { sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import PgBoss from 'pg-boss'
import type { Db } from '#server/db/client'
import { JOBS_SCHEMA } from './install'
import { type JobData, QUEUES, type QueueName } from './queues'
import { sqlExecutor } from './sql-executor'

export type Job<Data> = {
  id: string
  name: string
  data: Data
  /** 0 on the first attempt. */
  retryCount: number
  /** Attempts left after this one fails. */
  retriesLeft: number
}

export type JobHandler<N extends QueueName> = (job: Job<JobData<N>>) => Promise<unknown>

export type SendOptions = {
  /** The caller's Drizzle transaction: the job exists only if it commits. */
  tx?: Db
  /** Not before then: a date, or a number of seconds from now. */
  startAfter?: Date | number
  /** At most one job with this key waiting (not yet started, or waiting for a retry); a second `send` returns null. */
  singletonKey?: string
  /**
   * With `singletonKey`: whether a job waiting under the key to start at this time still stands. One that
   * does not is deleted and this one queued in its place (a job waiting for a retry always stands).
   */
  keepWaiting?: (startAfter: Date) => boolean
}

export type WorkOptions = {
  /** Jobs fetched at once per poll (they run side by side). Default 5. */
  batchSize?: number
}

type Worker = { name: QueueName; handler: JobHandler<QueueName>; batchSize: number }

const DEFAULT_POLL_MS = 2000
/** How long `stop()` waits for running jobs before leaving them to be retried. */
const STOP_WAIT_MS = 7000

export class Jobs {
  readonly #db: Db
  readonly #log: FastifyBaseLogger
  /** Sends, fetches and settles jobs; opened on first use (it reads the queues once). */
  readonly #client: PgBoss
  /** Maintenance and cron schedules, from `start()` on. */
  readonly #boss: PgBoss
  /**
   * Where pg-boss's own queries go during one of our calls: the caller's transaction when there is one. On
   * PGlite a query outside an open transaction waits for it, so a lookup pg-boss makes for itself (the
   * queue's table, or opening the client) must run inside it. Cleared when the call returns, so a timer
   * pg-boss set meanwhile falls back to the database.
   */
  readonly #ambient = new AsyncLocalStorage<{ db: Db | undefined }>()
  #opened: Promise<unknown> | undefined
  readonly #pollMs: number
  readonly #workers = new Map<QueueName, Worker>()
  readonly #schedules = new Map<QueueName, { cron: string; data: object }>()
  readonly #atStart: (() => Promise<unknown>)[] = []
  readonly #loops = new Set<Promise<void>>()
  /** The queues whose jobs are being taken now (#takeAll), each by one loop. */
  readonly #taking = new Set<QueueName>()
  readonly #wakers = new Set<() => void>()
  #state: 'idle' | 'running' | 'stopping' | 'stopped' = 'idle'

  constructor(db: Db, log: FastifyBaseLogger, opts: { pollMs?: number } = {}) {
    this.#db = db
    this.#log = log
    this.#pollMs = opts.pollMs ?? DEFAULT_POLL_MS
    const common = {
      db: { executeSql: (text: string, values: unknown[]) => this.#executor().executeSql(text, values) },
      schema: JOBS_SCHEMA,
      // The schema and queues are made when the database is opened (installJobQueues).
      migrate: false,
    }
    // Every queue exists once the database is open, so the client's list of queues seldom needs a refresh.
    this.#client = new PgBoss({
      ...common,
      supervise: false,
      schedule: false,
      queueCacheIntervalSeconds: 600,
    })
    this.#boss = new PgBoss({
      ...common,
      // Maintenance (expiring stuck jobs, deleting finished ones after each queue's DELETE_AFTER_SECONDS)
      // and cron schedules; one instance at a time does each, through pg-boss's own timestamps.
      supervise: true,
      schedule: true,
      maintenanceIntervalSeconds: 120,
    })
    for (const boss of [this.#client, this.#boss]) {
      boss.on('error', (err) => this.#log.warn({ err }, 'Job queue error'))
    }
  }

  #executor(): PgBoss.Db {
    return sqlExecutor(this.#ambient.getStore()?.db ?? this.#db)
  }

  /** Runs a call to pg-boss with its own queries on `tx` (or the database), the client opened first. */
  #use<T>(tx: Db | undefined, call: () => Promise<T>): Promise<T> {
    const scope = { db: tx as Db | undefined }
    return this.#ambient.run(scope, async () => {
      try {
        if (!this.#opened) {
          this.#opened = this.#client.start().catch((err: unknown) => {
            this.#opened = undefined
            throw err
          })
        }
        await this.#opened
        return await call()
      } finally {
        scope.db = undefined
      }
    })
  }

  /** Queues a job; inside a transaction pass it as `tx` (on PGlite a query outside it would wait forever). */
  async send<N extends QueueName>(name: N, data: JobData<N>, opts: SendOptions = {}): Promise<string | null> {
    if (!(name in QUEUES)) throw new Error(`Jobs: no queue "${name}" in server/jobs/queues.ts`)
    const options: PgBoss.SendOptions = {}
    if (opts.startAfter !== undefined) {
      options.startAfter =
        typeof opts.startAfter === 'number' ? Math.max(0, Math.round(opts.startAfter)) : opts.startAfter
    }
    const key = opts.singletonKey
    if (!key) {
      return this.#use(opts.tx, () =>
        this.#client.send(name, data as object, { ...options, db: sqlExecutor(opts.tx ?? this.#db) }),
      )
    }
    // pg-boss's own singletons need a queue policy or a time slot; "one waiting job per key" is checked
    // here, under a transaction lock on the key, so two transactions queueing the same key take turns and
    // the second sees the first's job once it commits (and what it replaced).
    const keep = opts.keepWaiting
    const sendOnce = async (tx: Db) => {
      await this.lockSingleton(tx, name, key)
      const result = await tx.execute(
        sql`select id, state, start_after from pgboss.job
          where name = ${name} and singleton_key = ${key} and state in ('created', 'retry')`,
      )
      const waiting = (
        result as unknown as { rows: { id: string; state: string; start_after: Date | string }[] }
      ).rows
      const replaced = keep
        ? waiting
            .filter((job) => job.state === 'created' && !keep(new Date(job.start_after)))
            .map((job) => job.id)
        : []
      if (waiting.length > replaced.length) return null
      if (replaced.length > 0) {
        await tx.execute(
          sql`delete from pgboss.job where name = ${name} and id = any(${`{${replaced.join(',')}}`}::uuid[])`,
        )
      }
      return this.#use(tx, () =>
        this.#client.send(name, data as object, { ...options, singletonKey: key, db: sqlExecutor(tx) }),
      )
    }
    return opts.tx ? sendOnce(opts.tx) : this.#db.transaction(sendOnce)
  }

  /**
   * Takes, until `tx` ends, the lock `send` takes for this queue and singleton key. A job that gathers the
   * work its waiting singleton stands for (everything not yet done for the key) takes it first: a
   * transaction that found that job still waiting, and so queued none, has then committed what it added.
   */
  async lockSingleton(tx: Db, name: QueueName, key: string): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${name}:${key}`}, 0))`)
  }

  /** Queues many jobs in one statement per thousand (no singleton keys); inside a transaction pass it as `tx`. */
  async sendMany<N extends QueueName>(
    name: N,
    items: { data: JobData<N>; startAfter?: Date }[],
    opts: { tx?: Db } = {},
  ): Promise<void> {
    if (!(name in QUEUES)) throw new Error(`Jobs: no queue "${name}" in server/jobs/queues.ts`)
    for (let i = 0; i < items.length; i += 1000) {
      const chunk = items.slice(i, i + 1000).map((item) => ({
        name,
        data: item.data as object,
        ...(item.startAfter ? { startAfter: item.startAfter } : {}),
      }))
      await this.#use(opts.tx, () =>
        this.#client.insert(name, chunk, { db: sqlExecutor(opts.tx ?? this.#db) }),
      )
    }
  }

  /** Sets the handler for a queue's jobs. A job whose handler throws is retried by the queue's rules. */
  work<N extends QueueName>(name: N, handler: JobHandler<N>, opts: WorkOptions = {}): void {
    if (this.#workers.has(name)) throw new Error(`Jobs: "${name}" already has a worker`)
    const worker: Worker = { name, handler: handler as JobHandler<QueueName>, batchSize: opts.batchSize ?? 5 }
    this.#workers.set(name, worker)
    if (this.#state === 'running') this.#takeAll(worker)
  }

  /** Queues a job on `name` by a cron expression (UTC; minute precision), from `start()` on. */
  schedule<N extends QueueName>(name: N, cron: string, data?: JobData<N>): void {
    this.#schedules.set(name, { cron, data: (data ?? {}) as object })
    if (this.#state === 'running') {
      this.#boss.schedule(name, cron, data as object, { tz: 'UTC' }).catch((err) => {
        this.#log.error({ err, queue: name }, 'Could not schedule a job')
      })
    }
  }

  /**
   * Queues a job when `start()` runs: a chain of jobs that queue each other begins then, rather than at a
   * schedule's next minute. With a singleton key, instances starting together queue it once.
   */
  sendAtStart<N extends QueueName>(
    name: N,
    data: JobData<N>,
    opts: Pick<SendOptions, 'singletonKey'> = {},
  ): void {
    this.#atStart.push(() => this.send(name, data, opts))
  }

  /** Starts the workers, the schedules, the queue's maintenance, and sends the jobs for the start. */
  async start(): Promise<void> {
    if (this.#state !== 'idle') return
    this.#state = 'running'
    // The client opens first, alone: on PGlite (one connection) its opening, the maintenance instance's and the
    // workers' first fetches started together waited on one another for ever, and no query answered again.
    await this.#use(undefined, async () => undefined)
    await this.#boss.start()
    for (const [name, { cron, data }] of this.#schedules) {
      await this.#boss.schedule(name, cron, data, { tz: 'UTC' })
    }
    this.#loop(async () => {
      while (this.#state === 'running') {
        for (const name of await this.#dueQueues()) {
          const worker = this.#workers.get(name)
          if (worker) this.#takeAll(worker)
        }
        await this.#sleep(this.#pollMs)
      }
    })
    for (const send of this.#atStart) await send()
  }

  /**
   * Runs every job that is due now (on one queue, or all that have a worker) until none is left, then
   * returns how many ran. For tests and one-off scripts: no polling, nothing left running.
   */
  async drain(name?: QueueName): Promise<number> {
    const workers = name
      ? [this.#workers.get(name)].filter((w) => w !== undefined)
      : [...this.#workers.values()]
    let total = 0
    let waits = 0
    for (;;) {
      let ran = 0
      for (const worker of workers) ran += await this.#runDue(worker)
      total += ran
      if (ran > 0) continue
      // A job sent a moment ago may not be due yet by the database's clock (pg-boss takes jobs whose start is
      // before now(), and an embedded database's clock can read the same millisecond twice): wait a little.
      if (waits < 20 && (await this.#dueWithin(workers, 50))) {
        waits++
        await new Promise((resolve) => setTimeout(resolve, 5))
        continue
      }
      return total
    }
  }

  /** Whether a job of these queues waits to start within `ms` milliseconds. */
  async #dueWithin(workers: Worker[], ms: number): Promise<boolean> {
    if (workers.length === 0) return false
    const names = `{${workers.map((w) => w.name).join(',')}}`
    const rows = await this.#db.execute(
      sql`select 1 from ${sql.raw(JOBS_SCHEMA)}.job where name = any(${names}::text[])
        and state in ('created', 'retry') and start_after <= now() + make_interval(secs => ${ms / 1000}) limit 1`,
    )
    return (rows as unknown as { rows: unknown[] }).rows.length > 0
  }

  /** Stops taking jobs, lets running ones finish (up to a few seconds), and stops the schedules. */
  async stop(): Promise<void> {
    if (this.#state === 'stopped' || this.#state === 'stopping') return
    const wasRunning = this.#state === 'running'
    this.#state = 'stopping'
    for (const wake of this.#wakers) wake()
    if (this.#loops.size > 0) {
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, STOP_WAIT_MS)
      })
      await Promise.race([Promise.all(this.#loops), timeout])
      clearTimeout(timer)
      if (this.#loops.size > 0) this.#log.warn('Jobs still running at shutdown will be retried')
    }
    if (wasRunning) await this.#boss.stop({ graceful: false, close: false })
    if (this.#opened) {
      await this.#opened.catch(() => {})
      await this.#client.stop({ graceful: false, close: false })
    }
    this.#state = 'stopped'
  }

  /**
   * The queues with a job to take now, in one statement for them all: an instance with nothing to do asks once a poll,
   * not once per queue (a fetch each of 37 queues every 2 s was 5% of a core of an idle instance on PGlite).
   */
  async #dueQueues(): Promise<QueueName[]> {
    const names = [...this.#workers.keys()].filter((name) => !this.#taking.has(name))
    if (names.length === 0) return []
    try {
      const result = await this.#db.execute(
        sql`select distinct name from ${sql.raw(JOBS_SCHEMA)}.job where name = any(${`{${names.join(',')}}`}::text[])
          and state < 'active' and start_after < now()`,
      )
      return (result as unknown as { rows: { name: QueueName }[] }).rows.map((r) => r.name)
    } catch (err) {
      this.#log.warn({ err }, 'Could not look for due jobs')
      return []
    }
  }

  /** Takes a queue's jobs until none is due (one loop a queue at a time); the poll starts it again when one is. */
  #takeAll(worker: Worker): void {
    if (this.#taking.has(worker.name)) return
    this.#taking.add(worker.name)
    this.#loop(async () => {
      try {
        while (this.#state === 'running' && (await this.#runDue(worker)) > 0) {}
      } finally {
        this.#taking.delete(worker.name)
      }
    })
  }

  /** Runs `body` as one of the loops `stop()` waits for. */
  #loop(body: () => Promise<void>): void {
    const loop = body()
    this.#loops.add(loop)
    void loop.finally(() => this.#loops.delete(loop))
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        this.#wakers.delete(wake)
        resolve()
      }
      const timer = setTimeout(wake, ms)
      this.#wakers.add(wake)
    })
  }

  /** Fetches a batch of due jobs and runs them side by side; returns how many were fetched. */
  async #runDue(worker: Worker): Promise<number> {
    let jobs: PgBoss.JobWithMetadata<object>[]
    try {
      jobs = await this.#use(undefined, () =>
        this.#client.fetch<object>(worker.name, { batchSize: worker.batchSize, includeMetadata: true }),
      )
    } catch (err) {
      this.#log.warn({ err, queue: worker.name }, 'Could not fetch jobs')
      return 0
    }
    await Promise.all(jobs.map((job) => this.#runOne(worker, job)))
    return jobs.length
  }

  async #runOne(worker: Worker, job: PgBoss.JobWithMetadata<object>): Promise<void> {
    const retryCount = Number(job.retryCount)
    const retriesLeft = Math.max(0, Number(job.retryLimit) - retryCount)
    // A handler still running when its job expires counts as failed (the queue retries the job), so one
    // that hangs never holds up this worker's next jobs.
    const limitMs = Math.max(1, Number(job.expireInSeconds) || 900) * 1000
    let timer: NodeJS.Timeout | undefined
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Job ran past its ${limitMs / 1000} s`)), limitMs)
    })
    try {
      await Promise.race([
        worker.handler({ id: job.id, name: job.name, data: job.data as never, retryCount, retriesLeft }),
        expired,
      ])
    } catch (err) {
      const level = retriesLeft > 0 ? 'warn' : 'error'
      this.#log[level](
        { err, queue: worker.name, jobId: job.id, attempt: retryCount + 1 },
        retriesLeft > 0 ? 'Job failed; it will be retried' : 'Job failed for the last time',
      )
      await this.#settle(() =>
        this.#use(undefined, () => this.#client.fail(worker.name, job.id, { message: errorMessage(err) })),
      )
      return
    } finally {
      clearTimeout(timer)
    }
    await this.#settle(() => this.#use(undefined, () => this.#client.complete(worker.name, job.id)))
  }

  /** Marks a job done or failed; if that fails, the job expires and runs again, so log and go on. */
  async #settle(mark: () => Promise<unknown>): Promise<void> {
    try {
      await mark()
    } catch (err) {
      this.#log.warn({ err }, 'Could not record a job as done; it will run again after it expires')
    }
  }

  /** The database jobs are stored in (tests read the job table through it). */
  get db(): Db {
    return this.#db
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
