import type { SQL } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import { alertEvents } from '#server/db/schema'
import type { Jobs } from '#server/jobs/jobs'

// What a change to a listing tells the alerts, in its own transaction: an event the matching pass reads
// (server/modules/alerts/alerts.jobs.ts). Here, below the features, so a listing's use cases (products, offers,
// bookings, listing reviews) record it without importing the alerts, which read search, which reads products.

/** Asks for a matching pass soon (after a change commits); the minute's sweep would find the events anyway. */
export async function kickAlertMatching(jobs: Jobs): Promise<void> {
  await jobs.send('alerts.match', {}, { singletonKey: 'alerts.match' })
}

export async function recordListed(tx: Db, productId: string): Promise<void> {
  await tx.insert(alertEvents).values({ kind: 'listed', productId })
}

export async function recordPriceChange(tx: Db, productId: string, oldPriceCents: number): Promise<void> {
  await tx.insert(alertEvents).values({ kind: 'price', productId, oldPriceCents })
}

/** A hold ends at `at` unless paid: then the listing may be free again. */
export async function recordHoldEnd(tx: Db, productId: string, at: Date | SQL): Promise<void> {
  await tx.insert(alertEvents).values({ kind: 'available', productId, dueAt: at })
}
