// Creates (or upgrades) pg-boss's own tables and every queue in QUEUES. Opening a database runs it right
// after the migrations, so the test databases (copied from one migrated once per run) already hold them
// and an app that only sends jobs never needs to start pg-boss.
import PgBoss from 'pg-boss'
import { QUEUES, type QueueOptions } from './queues'

export const JOBS_SCHEMA = 'pgboss'
/** A finished job (completed, or failed for the last time) is kept this long for a look, then deleted. */
export const DELETE_AFTER_SECONDS = 60 * 60 * 24 * 7
/** pg-boss's queue for cron schedules; created here so a worker's first start does not pay for it. */
const SCHEDULE_QUEUE = '__pgboss__send-it'

type QueueRow = {
  name: string
  retry_limit: number | null
  retry_delay: number | null
  retry_backoff: boolean | null
  expire_seconds: number | null
  deletion_seconds: number | null
}

/** Where a pg-boss 10 schema is put aside while its waiting jobs move to the new one (see moveFromPgBoss10). */
const OLD_SCHEMA = `${JOBS_SCHEMA}_v10`

type OldJob = { name: string; data: object | null; start_after: Date | string; singleton_key: string | null }

/**
 * pg-boss 11 has no migration from pg-boss 10's schema (version 24): it stores jobs in a new layout. A
 * database made with pg-boss 10 has that schema renamed aside (under a lock, so instances starting together
 * do it once); `installJobQueues` then creates the new one and moves the old schema's waiting jobs over.
 */
async function putPgBoss10Aside(db: PgBoss.Db): Promise<void> {
  await db.executeSql(
    `BEGIN;
    SELECT pg_advisory_xact_lock(hashtext('${JOBS_SCHEMA} schema move'));
    DO $$
    BEGIN
      -- Nested: the inner condition names the table, so it is planned only once the table is known to exist.
      IF to_regclass('${JOBS_SCHEMA}.version') IS NOT NULL AND to_regnamespace('${OLD_SCHEMA}') IS NULL THEN
        IF (SELECT version::int FROM ${JOBS_SCHEMA}.version LIMIT 1) < 25 THEN
          ALTER SCHEMA ${JOBS_SCHEMA} RENAME TO ${OLD_SCHEMA};
        END IF;
      END IF;
    END
    $$;
    COMMIT;`,
    [],
  )
}

/**
 * Moves the jobs still to run (waiting, waiting for a retry, or cut off while running) from a pg-boss 10
 * schema put aside into the new queues, then drops the old schema. Jobs run twice without harm, so an
 * interruption between the two only means a job may run again. Cron schedules are set again by `start()`.
 */
async function moveFromPgBoss10(db: PgBoss.Db, boss: PgBoss): Promise<number> {
  const { rows: aside } = await db.executeSql(
    `select to_regnamespace('${OLD_SCHEMA}') is not null as aside`,
    [],
  )
  if (!aside[0]?.aside) return 0
  const { rows } = await db.executeSql(
    `select name, data, start_after, singleton_key from ${OLD_SCHEMA}.job
      where state in ('created', 'retry', 'active') order by created_on`,
    [],
  )
  const byQueue = new Map<string, PgBoss.JobInsert[]>()
  for (const job of rows as OldJob[]) {
    if (!(job.name in QUEUES)) continue
    const list = byQueue.get(job.name) ?? []
    list.push({
      name: job.name,
      data: job.data ?? {},
      startAfter: new Date(job.start_after),
      ...(job.singleton_key ? { singletonKey: job.singleton_key } : {}),
    })
    byQueue.set(job.name, list)
  }
  let moved = 0
  for (const [name, jobs] of byQueue) {
    await boss.insert(name, jobs)
    moved += jobs.length
  }
  await db.executeSql(`DROP SCHEMA ${OLD_SCHEMA} CASCADE`, [])
  return moved
}

export async function installJobQueues(db: PgBoss.Db): Promise<void> {
  await putPgBoss10Aside(db)
  const boss = new PgBoss({ db, schema: JOBS_SCHEMA, supervise: false, schedule: false, migrate: true })
  boss.on('error', () => {})
  await boss.start()
  try {
    const { rows } = await db.executeSql(
      `select name, retry_limit, retry_delay, retry_backoff, expire_seconds, deletion_seconds from ${JOBS_SCHEMA}.queue`,
      [],
    )
    const existing = new Map((rows as QueueRow[]).map((row) => [row.name, row]))
    const wanted: [string, QueueOptions | undefined][] = [
      ...(Object.entries(QUEUES) as [string, QueueOptions][]),
      [SCHEDULE_QUEUE, undefined],
    ]
    for (const [name, options] of wanted) {
      const row = existing.get(name)
      const wantedOptions = { ...options, deleteAfterSeconds: DELETE_AFTER_SECONDS }
      if (!row) {
        await boss.createQueue(name, wantedOptions)
      } else if (options && !sameOptions(row, options)) {
        await boss.updateQueue(name, wantedOptions)
      }
    }
    await moveFromPgBoss10(db, boss)
  } finally {
    await boss.stop({ graceful: false, close: false })
  }
}

function sameOptions(row: QueueRow, options: QueueOptions): boolean {
  return (
    row.retry_limit === options.retryLimit &&
    row.retry_delay === options.retryDelay &&
    row.retry_backoff === options.retryBackoff &&
    row.expire_seconds === options.expireInSeconds &&
    row.deletion_seconds === DELETE_AFTER_SECONDS
  )
}
