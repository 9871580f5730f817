// What an operator watches, read from the database when Prometheus scrapes /metrics (server/plugins/metrics.ts),
// never on a request's path: the job queues (pg-boss's table), the email backlog, payouts, the ledger's own
// check, the photos stored, and how far this instance's copy of the listings is behind the change feed.
import { sql } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import { QUEUES, type QueueName } from '#server/jobs/queues'
import { ledgerIntegrity, rowsOf } from '#server/modules/ledger'
import { factsStatus } from '#server/modules/search'

export type QueueFigures = {
  queue: QueueName
  /** Due and waiting for a worker (new or to be retried). */
  waiting: number
  active: number
  /** Given up after their last attempt, in the last hour. */
  failedLastHour: number
  /** Seconds the longest-waiting due job has waited (0 when none waits). */
  oldestWaitingSeconds: number
}

export type Figures = {
  queues: QueueFigures[]
  /** Emails queued and not yet sent: due, held back (grouped or delayed), being sent, or waiting for a retry. */
  emailBacklog: number
  payouts: { state: 'pending' | 'in_transit' | 'paid' | 'failed'; count: number; amountCents: number }[]
  ledger: { balanced: boolean; unbalancedTransactions: number }
  /** Bytes of every photo uploaded (both sizes kept), as each upload recorded them. */
  photoBytes: number
  /** This instance's copy of the listings: whether it has loaded, and versions behind the database. */
  listingCopy: { loaded: boolean; lagVersions: number }
}

const PAYOUT_STATES = ['pending', 'in_transit', 'paid', 'failed'] as const

export async function readFigures(db: Db): Promise<Figures> {
  const [jobs, payouts, ledger, photos, version] = await Promise.all([
    rowsOf<{
      name: string
      queued: number
      waiting: number
      active: number
      failed: number
      oldest: number | null
    }>(
      db,
      sql`select name,
            count(*) filter (where state in ('created', 'retry', 'active'))::int as queued,
            count(*) filter (where state in ('created', 'retry') and start_after <= now())::int as waiting,
            count(*) filter (where state = 'active')::int as active,
            count(*) filter (where state = 'failed' and completed_on > now() - interval '1 hour')::int as failed,
            extract(epoch from now() - min(start_after) filter (
              where state in ('created', 'retry') and start_after <= now()))::float8 as oldest
          from pgboss.job
          where state in ('created', 'retry', 'active', 'failed')
          group by name`,
    ),
    rowsOf<{ state: string; n: number; cents: string | number }>(
      db,
      sql`select state, count(*)::int as n, coalesce(sum(amount_cents), 0)::bigint as cents
          from payouts group by state`,
    ),
    ledgerIntegrity(db),
    rowsOf<{ bytes: string | number }>(db, sql`select coalesce(sum(bytes), 0)::bigint as bytes from uploads`),
    rowsOf<{ version: string | number }>(db, sql`select version from listing_counts_version`),
  ])
  const byQueue = new Map(jobs.map((j) => [j.name, j]))
  const queues = (Object.keys(QUEUES) as QueueName[]).map((queue) => {
    const row = byQueue.get(queue)
    return {
      queue,
      waiting: row?.waiting ?? 0,
      active: row?.active ?? 0,
      failedLastHour: row?.failed ?? 0,
      oldestWaitingSeconds: Math.max(0, row?.oldest ?? 0),
    }
  })
  const byState = new Map(payouts.map((p) => [p.state, p]))
  const copy = factsStatus(db)
  const databaseVersion = Number(version[0]?.version ?? 0)
  return {
    queues,
    emailBacklog: byQueue.get('email')?.queued ?? 0,
    payouts: PAYOUT_STATES.map((state) => ({
      state,
      count: byState.get(state)?.n ?? 0,
      amountCents: Number(byState.get(state)?.cents ?? 0),
    })),
    ledger: {
      balanced: ledger.unbalancedTransactions === 0 && ledger.total === 0,
      unbalancedTransactions: ledger.unbalancedTransactions,
    },
    photoBytes: Number(photos[0]?.bytes ?? 0),
    listingCopy: {
      loaded: copy !== null,
      lagVersions: copy ? Math.max(0, databaseVersion - Number(copy.version)) : 0,
    },
  }
}
