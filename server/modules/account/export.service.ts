import { type SQL, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import { findSecurityEvents } from '#server/modules/audit'

/** Columns that hold a secret (a password hash, a session or OAuth token, an authenticator secret): never exported. */
const SECRET_COLUMN = /password|token|secret|backup_codes/i

async function rowsOf<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows
}

/** Tables whose rows point at a person through a foreign key to users, and the column that does. */
export async function tablesReferencingUsers(db: Db): Promise<{ table: string; column: string }[]> {
  const found = await rowsOf<{ table: string; column: string }>(
    db,
    sql`
    select c.conrelid::regclass::text as "table", a.attname as "column"
    from pg_constraint c
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
    where c.contype = 'f' and c.confrelid = 'users'::regclass
    order by 1, 2`,
  )
  return found.filter((f) => /^[a-z_][a-z0-9_]*$/.test(f.table) && /^[a-z_][a-z0-9_]*$/.test(f.column))
}

function clean(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(row)) {
    if (SECRET_COLUMN.test(key)) continue
    out[key] = value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? Number(value) : value
  }
  return out
}

export type AccountExport = {
  format: 'laptop-market-export/1'
  exported_at: string
  profile: Record<string, unknown>
  /** Every row that points at the person, by table and by the column that points (`bookings.buyer_id`). */
  records: Record<string, Record<string, unknown>[]>
  security_events: Awaited<ReturnType<typeof findSecurityEvents>>
}

/**
 * Everything held about a person: their user row, and every row of every table whose foreign key points at
 * them (found from the database's own catalogue, so a new table is in the export the day it is added),
 * with secrets left out; and their security events from the audit log.
 */
export async function exportAccount(db: Db, userId: string): Promise<AccountExport> {
  const [profile] = await rowsOf(db, sql`select * from users where id = ${userId}`)
  const records: AccountExport['records'] = {}
  for (const { table, column } of await tablesReferencingUsers(db)) {
    const rows = await rowsOf(
      db,
      sql`select * from ${sql.identifier(table)} where ${sql.identifier(column)} = ${userId}`,
    )
    if (rows.length > 0) records[`${table}.${column}`] = rows.map(clean)
  }
  return {
    format: 'laptop-market-export/1',
    exported_at: new Date().toISOString(),
    profile: clean(profile ?? {}),
    records,
    security_events: await findSecurityEvents(db, userId, 1000),
  }
}
