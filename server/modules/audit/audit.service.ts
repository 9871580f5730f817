import { and, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm'
import type { AuditEntry, AuditPage, AuditQuery, AuditResult, SecurityEvent } from '#contract/audit'
import { SECURITY_KINDS } from '#contract/audit'
import type { Db } from '#server/db/client'
import { auditEvents, users } from '#server/db/schema'

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
    ip: row.ip,
    user_agent: row.userAgent,
    result: row.result,
    detail: row.detail,
  }
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
  return {
    items: rows.slice(0, query.page_size).map(toEntry),
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
