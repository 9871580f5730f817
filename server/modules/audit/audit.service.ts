import { and, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm'
import type { AuditEntry, AuditPage, AuditQuery, AuditResult, SecurityEvent } from '#contract/audit'
import { SECURITY_KINDS } from '#contract/audit'
import type { Db } from '#server/db/client'
import { auditEvents, bookings, disputes, products, reports, reviews, users } from '#server/db/schema'

/** The account an email names, for a sign-in attempt's row (null when there is none). */
export async function findUserIdByEmail(db: Db, email: string): Promise<string | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
    .limit(1)
  return row?.id ?? null
}

function toEntry(row: {
  id: number
  at: Date
  email: string | null
  erasedAt: Date | null
  kind: string
  target: string | null
  ip: string | null
  userAgent: string | null
  result: AuditResult
  detail: string | null
}): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor_email: row.erasedAt ? 'Deleted user' : row.email,
    kind: row.kind,
    target: row.target,
    target_label: null,
    ip: row.ip,
    user_agent: row.userAgent,
    result: row.result,
    detail: row.detail,
  }
}

/** Splits `type:id` targets by type, each id once. */
function idsByType(targets: (string | null)[]): Map<string, string[]> {
  const out = new Map<string, Set<string>>()
  for (const t of targets) {
    const at = t?.indexOf(':') ?? -1
    if (!t || at <= 0) continue
    const type = t.slice(0, at)
    const set = out.get(type) ?? new Set<string>()
    set.add(t.slice(at + 1))
    out.set(type, set)
  }
  return new Map([...out].map(([type, ids]) => [type, [...ids]]))
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * What a page of the log acted on, as people read it, by `type:id`: one query per kind of target on the page. A
 * person reads "Name (address)" ("Deleted user" once erased), a listing its name, a booking, report or dispute the
 * listing it is about, a review its author and listing.
 */
async function targetLabels(db: Db, targets: (string | null)[]): Promise<Map<string, string>> {
  const labels = new Map<string, string>()
  const byType = idsByType(targets)
  const uuids = (type: string) => (byType.get(type) ?? []).filter((id) => UUID.test(id))
  const userIds = byType.get('user') ?? []
  if (userIds.length) {
    const rows = await db
      .select({ id: users.id, name: users.name, email: users.email, erasedAt: users.erasedAt })
      .from(users)
      .where(inArray(users.id, userIds))
    for (const r of rows) labels.set(`user:${r.id}`, r.erasedAt ? 'Deleted user' : `${r.name} (${r.email})`)
  }
  const productIds = uuids('product')
  if (productIds.length) {
    const rows = await db
      .select({ id: products.id, name: products.name })
      .from(products)
      .where(inArray(products.id, productIds))
    for (const r of rows) labels.set(`product:${r.id}`, r.name)
  }
  const bookingIds = uuids('booking')
  if (bookingIds.length) {
    const rows = await db
      .select({ id: bookings.id, name: products.name })
      .from(bookings)
      .innerJoin(products, eq(products.id, bookings.productId))
      .where(inArray(bookings.id, bookingIds))
    for (const r of rows) labels.set(`booking:${r.id}`, `booking of ${r.name}`)
  }
  const reportIds = uuids('report')
  if (reportIds.length) {
    const rows = await db
      .select({ id: reports.id, name: products.name })
      .from(reports)
      .innerJoin(products, eq(products.id, reports.productId))
      .where(inArray(reports.id, reportIds))
    for (const r of rows) labels.set(`report:${r.id}`, `report on ${r.name}`)
  }
  const disputeIds = uuids('dispute')
  if (disputeIds.length) {
    const rows = await db
      .select({ id: disputes.id, name: products.name })
      .from(disputes)
      .innerJoin(bookings, eq(bookings.id, disputes.bookingId))
      .innerJoin(products, eq(products.id, bookings.productId))
      .where(inArray(disputes.id, disputeIds))
    for (const r of rows) labels.set(`dispute:${r.id}`, `dispute on ${r.name}`)
  }
  const reviewIds = uuids('review')
  if (reviewIds.length) {
    const rows = await db
      .select({ id: reviews.id, name: products.name, author: users.name, erasedAt: users.erasedAt })
      .from(reviews)
      .innerJoin(bookings, eq(bookings.id, reviews.bookingId))
      .innerJoin(products, eq(products.id, bookings.productId))
      .innerJoin(users, eq(users.id, reviews.authorId))
      .where(inArray(reviews.id, reviewIds))
    for (const r of rows)
      labels.set(`review:${r.id}`, `review of ${r.name} by ${r.erasedAt ? 'a deleted user' : r.author}`)
  }
  return labels
}

/** The log for admins: newest first, filtered by the acting person's address, kind and time. */
export async function findAuditEvents(db: Db, query: AuditQuery): Promise<AuditPage> {
  const where: SQL[] = []
  if (query.actor_email) where.push(sql`lower(${users.email}) = ${query.actor_email}`)
  if (query.kind) where.push(eq(auditEvents.kind, query.kind))
  if (query.since) where.push(gte(auditEvents.at, new Date(query.since)))
  if (query.until) where.push(lte(auditEvents.at, new Date(query.until)))
  const rows = await db
    .select({
      id: auditEvents.id,
      at: auditEvents.at,
      email: users.email,
      erasedAt: users.erasedAt,
      kind: auditEvents.kind,
      target: auditEvents.target,
      ip: auditEvents.ip,
      userAgent: auditEvents.userAgent,
      result: auditEvents.result,
      detail: auditEvents.detail,
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(query.page_size + 1)
    .offset((query.page - 1) * query.page_size)
  const items = rows.slice(0, query.page_size).map(toEntry)
  const labels = await targetLabels(
    db,
    items.map((e) => e.target),
  )
  return {
    items: items.map((e) => ({ ...e, target_label: (e.target && labels.get(e.target)) || null })),
    page: query.page,
    page_size: query.page_size,
    has_more: rows.length > query.page_size,
  }
}

/** A person's own security events, newest first (what settings shows them); `limit` null: every one (their export). */
export async function findSecurityEvents(
  db: Db,
  userId: string,
  limit: number | null = 50,
): Promise<SecurityEvent[]> {
  const query = db
    .select({
      id: auditEvents.id,
      at: auditEvents.at,
      kind: auditEvents.kind,
      ip: auditEvents.ip,
      userAgent: auditEvents.userAgent,
      result: auditEvents.result,
    })
    .from(auditEvents)
    .where(and(eq(auditEvents.actorId, userId), inArray(auditEvents.kind, [...SECURITY_KINDS])))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
  const rows = limit === null ? await query : await query.limit(limit)
  return rows.map((r) => ({
    id: r.id,
    at: r.at.toISOString(),
    kind: r.kind,
    ip: r.ip,
    user_agent: r.userAgent,
    result: r.result,
  }))
}
