// Saved searches: a /productcard search kept by a signed-in user, with how many laptops matching it were posted
// since they last opened it, and the alert they chose (sent by server/modules/alerts). Only their owner sees them.
import { and, desc, eq, gt, sql } from 'drizzle-orm'
import type { AlertChoice } from '#contract/favourites'
import { MAX_SAVED_SEARCHES, NEW_COUNT_CAP, type SavedSearch } from '#contract/saved-searches'
import type { SearchQuery } from '#contract/search'
import type { Db } from '#server/db/client'
import { products, savedSearches, users } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import { rowsOf } from '#server/lib/paging'
import type { SessionUser } from '#server/lib/session'
import {
  brandNamesOf,
  describeFilters,
  parseSavedQuery,
  resolveText,
  type SavedFilters,
  searchCondition,
} from '#server/modules/search'

/**
 * Saves a search, or changes the alert of the same search saved before (same filters in any order). The text
 * is resolved now, against the titles' words, into the full-text query the matcher reads; a word search corrected
 * (one no listing has yet: a model about to come out, a part number) is kept as typed beside its correction
 * (`book3|book4`), so the first listing that has it is matched.
 */
export async function saveSearch(
  db: Db,
  user: SessionUser,
  input: { query: string; alert: AlertChoice },
): Promise<string> {
  const { filters, query } = parseSavedQuery(input.query)
  const text = filters.q ? await resolveText(db, filters.q) : null
  const textQuery = text
    ? text.terms
        .map((t, i) => {
          const word = text.typed[i]
          if (t.prefix) return `${t.term}:*`
          return word && word !== t.term ? `${t.term}|${word}` : t.term
        })
        .join(' & ')
    : null
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update')
    const [existing] = await tx
      .select({ id: savedSearches.id })
      .from(savedSearches)
      .where(and(eq(savedSearches.userId, user.id), eq(savedSearches.query, query)))
    if (existing) {
      await tx.update(savedSearches).set({ alert: input.alert }).where(eq(savedSearches.id, existing.id))
      return existing.id
    }
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(savedSearches)
      .where(eq(savedSearches.userId, user.id))
    if ((count?.n ?? 0) >= MAX_SAVED_SEARCHES) {
      throw new AppError(
        'CONFLICT',
        `You can keep up to ${MAX_SAVED_SEARCHES} saved searches. Delete one you no longer need, then save this one.`,
      )
    }
    const [row] = await tx
      .insert(savedSearches)
      .values({ userId: user.id, query, filters, textQuery, alert: input.alert })
      .returning({ id: savedSearches.id })
    if (!row) throw new AppError('INTERNAL', 'The search could not be saved')
    return row.id
  })
}

/** Laptops that came on sale after `since` (posted, approved after review, renewed) that match the search and are for sale, counted up to NEW_COUNT_CAP. */
async function countNew(db: Db, filters: SavedFilters, since: Date): Promise<number> {
  const where = await searchCondition(db, filters as SearchQuery)
  if (!where) return 0
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select 1 from ${products}
      where ${where} and ${products.onSaleSince} > ${since.toISOString()}::timestamptz limit ${NEW_COUNT_CAP}) capped`,
  )
  return Number(row?.n ?? 0)
}

export async function findSavedSearches(db: Db, user: SessionUser): Promise<SavedSearch[]> {
  const rows = await db
    .select()
    .from(savedSearches)
    .where(eq(savedSearches.userId, user.id))
    .orderBy(desc(savedSearches.createdAt), desc(savedSearches.id))
  const names = await brandNamesOf(db)
  return Promise.all(
    rows.map(async (r) => ({
      _id: r.id,
      query: r.query,
      label: describeFilters(r.filters as SavedFilters, names),
      alert: r.alert,
      createdAt: r.createdAt.toISOString(),
      lastVisitedAt: r.lastVisitedAt.toISOString(),
      newCount: await countNew(db, r.filters as SavedFilters, r.lastVisitedAt),
    })),
  )
}

const own = (user: SessionUser, id: string) =>
  and(eq(savedSearches.id, id), eq(savedSearches.userId, user.id))

/** Someone else's saved search is answered as missing: its existence is nobody else's business. */
export async function deleteSavedSearch(db: Db, user: SessionUser, id: string): Promise<number> {
  const deleted = await db.delete(savedSearches).where(own(user, id)).returning({ id: savedSearches.id })
  if (deleted.length === 0) throw notFound('Saved search')
  return deleted.length
}

export async function setSavedSearchAlert(db: Db, user: SessionUser, id: string, alert: AlertChoice) {
  const [row] = await db.select({ alert: savedSearches.alert }).from(savedSearches).where(own(user, id))
  if (!row) throw notFound('Saved search')
  if (row.alert === alert) return 0
  const updated = await db
    .update(savedSearches)
    .set({ alert })
    .where(own(user, id))
    .returning({ id: savedSearches.id })
  return updated.length
}

/** Opening a saved search: answers the last visit (laptops posted after it are "new") and moves it to now. */
export async function visitSavedSearch(db: Db, user: SessionUser, id: string) {
  const [row] = await db
    .select({ since: savedSearches.lastVisitedAt, query: savedSearches.query })
    .from(savedSearches)
    .where(own(user, id))
  if (!row) throw notFound('Saved search')
  await db
    .update(savedSearches)
    .set({ lastVisitedAt: sql`now()` })
    .where(and(own(user, id), gt(sql`now()`, savedSearches.lastVisitedAt)))
  return { since: row.since.toISOString(), query: row.query }
}
