// Creates (or upgrades) pg-boss's own tables and every queue in QUEUES. Opening a database runs it right
// after the migrations, so the test databases (copied from one migrated once per run) already hold them
// and an app that only sends jobs never needs to start pg-boss.
import PgBoss from 'pg-boss'
import { QUEUES, type QueueOptions } from './queues'

export const JOBS_SCHEMA = 'pgboss'
/** pg-boss's queue for cron schedules; created here so a worker's first start does not pay for it. */
const SCHEDULE_QUEUE = '__pgboss__send-it'

type QueueRow = {
  name: string
  retry_limit: number | null
  retry_delay: number | null
  retry_backoff: boolean | null
  expire_seconds: number | null
}

export async function installJobQueues(db: PgBoss.Db): Promise<void> {
  const boss = new PgBoss({ db, schema: JOBS_SCHEMA, supervise: false, schedule: false, migrate: true })
  boss.on('error', () => {})
  await boss.start()
  try {
    const { rows } = await db.executeSql(
      `select name, retry_limit, retry_delay, retry_backoff, expire_seconds from ${JOBS_SCHEMA}.queue`,
      [],
    )
    const existing = new Map((rows as QueueRow[]).map((row) => [row.name, row]))
    const wanted: [string, QueueOptions | undefined][] = [
      ...(Object.entries(QUEUES) as [string, QueueOptions][]),
      [SCHEDULE_QUEUE, undefined],
    ]
    for (const [name, options] of wanted) {
      const row = existing.get(name)
      if (!row) {
        await boss.createQueue(name, options ? { name, ...options } : { name })
      } else if (options && !sameOptions(row, options)) {
        await boss.updateQueue(name, { name, ...options })
      }
    }
  } finally {
    await boss.stop({ graceful: false, close: false })
  }
}

function sameOptions(row: QueueRow, options: QueueOptions): boolean {
  return (
    row.retry_limit === options.retryLimit &&
    row.retry_delay === options.retryDelay &&
    row.retry_backoff === options.retryBackoff &&
    row.expire_seconds === options.expireInSeconds
  )
}
