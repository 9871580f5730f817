import { type SQL, sql } from 'drizzle-orm'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_DEPTH, PAGING_HEADERS, TOTAL_THRESHOLD } from '#contract/paging'
import { formatCount } from '#contract/plural'
import type { SearchSort } from '#contract/search'
import type { Db } from '#server/db/client'
import { products } from '#server/db/schema'
import { AppError } from '#server/lib/errors'

// What every paged list of listings (and bookings) shares: cursors, page numbers, capped counts, paging headers.

/** Rows of a raw statement; both drivers answer `{ rows }`. */
export async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows
}

// ---------------------------------------------------------------------------------------------
// Paging: a keyset cursor (sort key + id) or a page number mapped onto an offset within MAX_PAGE_DEPTH.
// ---------------------------------------------------------------------------------------------

export type CursorKey = { s: SearchSort | 'list'; k: (string | number)[]; id: string }

/**
 * A page's LIMIT and OFFSET written into the statement rather than bound. Reads are prepared statements
 * (server/db/client.ts); with a bound LIMIT, PostgreSQL's generic plan must guess how many rows are wanted, costs
 * more than a plan for 25, and so the statement is planned again on every execution (as long as it runs).
 */
export function limitOffset(query: SQL, limit: number, offset = 0): SQL {
  if (!Number.isSafeInteger(limit) || !Number.isSafeInteger(offset) || limit < 0 || offset < 0) {
    throw new Error(`A page's limit and offset are whole numbers, not ${limit} and ${offset}`)
  }
  return offset > 0
    ? sql`${query} limit ${sql.raw(String(limit))} offset ${sql.raw(String(offset))}`
    : sql`${query} limit ${sql.raw(String(limit))}`
}

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url')
}

const badCursor = () =>
  new AppError('VALIDATION', 'This cursor is not valid', { cursor: 'This cursor is not valid' })

export function decodeCursor(cursor: string, sort: CursorKey['s'], keyCount: number): CursorKey {
  let key: unknown
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw badCursor()
  }
  const k = key as Partial<CursorKey>
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
  if (
    !k ||
    typeof k !== 'object' ||
    typeof k.id !== 'string' ||
    !uuid.test(k.id) ||
    !Array.isArray(k.k) ||
    k.k.length !== keyCount ||
    !k.k.every(
      (v) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v.length < 64),
    )
  )
    throw badCursor()
  if (k.s !== sort) {
    throw new AppError('VALIDATION', 'This cursor belongs to another sort order', {
      cursor: 'This cursor belongs to another sort order',
    })
  }
  return k as CursorKey
}

/** A timestamp as PostgreSQL writes it (microseconds and offset), so a cursor compares exactly. */
export const timestampKey = (v: string | number | undefined) => {
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw badCursor()
  return sql`${v}::timestamptz`
}
export const intKey = (v: string | number | undefined) => {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw badCursor()
  return sql`${v}::int`
}

export type Paging = { pageSize: number; offset: number; page: number | null; cursor: string | undefined }

export function readPaging(q: {
  cursor?: string
  page?: number
  page_size?: number
  limit?: number
}): Paging {
  const pageSize = q.page_size ?? q.limit ?? DEFAULT_PAGE_SIZE
  if (q.cursor) return { pageSize, offset: 0, page: null, cursor: q.cursor }
  const page = q.page ?? 1
  if ((page - 1) * pageSize + pageSize > MAX_PAGE_DEPTH) {
    const message = `Pages reach ${formatCount(MAX_PAGE_DEPTH)} listings deep; follow next_cursor beyond`
    throw new AppError('VALIDATION', message, { page: message })
  }
  return { pageSize, offset: (page - 1) * pageSize, page, cursor: undefined }
}

/** Counts listings matching `where`, stopping at `cap` + 1 (TOTAL_THRESHOLD + 1 by default): never all of them. */
export async function countUpTo(db: Db, where: SQL, cap = TOTAL_THRESHOLD): Promise<number> {
  const result = await rowsOf<{ n: number }>(
    db,
    sql`
    select count(*)::int as n from (select 1 from ${products} where ${where} limit ${cap + 1}) capped`,
  )
  return Number(result[0]?.n ?? 0)
}

/** The planner's estimate of the listings matching `where` (no rows read): enough to know a count would pass the cap. */
export async function estimateRows(db: Db, where: SQL): Promise<number> {
  const result = await rowsOf<{ 'QUERY PLAN': unknown }>(
    db,
    sql`explain (format json) select 1 from ${products} where ${where}`,
  )
  const plan = result[0]?.['QUERY PLAN']
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan?: { 'Plan Rows'?: number } }[]
  return Number(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0)
}

export type PagedList<T> = { items: T[]; total: number; isEstimate: boolean; nextCursor: string | null }

/**
 * Paging of a list ordered newest first by (time, id): a brand's laptops, a seller's listings, a buyer's bookings.
 * The caller loads `limit` rows after `after` (skipping `offset`), selecting the time as text in `k0` so the cursor
 * compares exactly, then hands them to `finish`.
 */
export function listPaging(q: { cursor?: string; page?: number; page_size?: number; limit?: number }) {
  const paging = readPaging(q)
  const cursor = paging.cursor ? decodeCursor(paging.cursor, 'list', 1) : undefined
  return {
    after: cursor
      ? (time: SQL, id: SQL) => sql`(${time}, ${id}) < (${timestampKey(cursor.k[0])}, ${cursor.id})`
      : undefined,
    limit: paging.pageSize + 1,
    offset: paging.offset,
    pageSize: paging.pageSize,
    cursor,
    async finish<R extends { id: string; k0: string }>(
      rows: R[],
      count: () => Promise<number>,
    ): Promise<PagedList<R>> {
      const hasMore = rows.length > paging.pageSize
      const pageRows = rows.slice(0, paging.pageSize)
      const last = pageRows.at(-1)
      const n = !cursor && paging.offset === 0 && !hasMore ? pageRows.length : await count()
      return {
        items: pageRows,
        total: Math.min(n, TOTAL_THRESHOLD),
        isEstimate: n > TOTAL_THRESHOLD,
        nextCursor: hasMore && last ? encodeCursor({ s: 'list', k: [last.k0], id: last.id }) : null,
      }
    },
  }
}

/** Sets the paging headers of a list answered as a plain array (see docs/decisions/0011-search-api.md). */
export function setPagingHeaders(
  req: FastifyRequest,
  reply: FastifyReply,
  page: { total: number; isEstimate: boolean; nextCursor: string | null },
) {
  reply.headers(pagingHeaders(req.url, page))
}

/** The paging headers of a page asked for at `url` (path and query), as a value a cache can keep beside the page. */
export function pagingHeaders(
  url: string,
  page: { total: number; isEstimate: boolean; nextCursor: string | null },
): Record<string, string> {
  const headers: Record<string, string> = {
    [PAGING_HEADERS.total]: String(page.total),
    [PAGING_HEADERS.totalIsEstimate]: String(page.isEstimate),
  }
  if (!page.nextCursor) return headers
  headers[PAGING_HEADERS.nextCursor] = page.nextCursor
  const next = new URL(url, 'http://local')
  next.searchParams.delete('page')
  next.searchParams.set('cursor', page.nextCursor)
  headers[PAGING_HEADERS.link] = `<${next.pathname}${next.search}>; rel="next"`
  return headers
}
