// Turning an alert off from its email, without signing in: the signed token names what (readUnsubscribeToken).
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { UnsubscribeInfo } from '#contract/saved-searches'
import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import { emailPreferences, savedSearches } from '#server/db/schema'
import { AppError } from '#server/lib/errors'
import { brandNamesOf, describeFilters, type SavedFilters } from '#server/modules/search'
import { readUnsubscribeToken, type UnsubscribeTarget } from './unsubscribe-token'

function targetOf(config: Config, token: string): UnsubscribeTarget {
  const target = readUnsubscribeToken(config, token)
  if (!target) {
    const message =
      'This unsubscribe link is not valid. Copy the whole link from the email, or turn alerts off in your settings.'
    throw new AppError('VALIDATION', message, { token: message })
  }
  return target
}

async function favouriteAlertOf(db: Db, userId: string) {
  const [row] = await db
    .select({ alert: emailPreferences.favouriteAlerts })
    .from(emailPreferences)
    .where(eq(emailPreferences.userId, userId))
  return row?.alert ?? 'instant'
}

/** What the link would turn off, for the confirmation page. */
export async function describeUnsubscribe(db: Db, config: Config, token: string): Promise<UnsubscribeInfo> {
  const target = targetOf(config, token)
  if (target.kind === 'search') {
    const [search] = await db.select().from(savedSearches).where(eq(savedSearches.id, target.searchId))
    if (!search)
      return {
        kind: 'search',
        description: 'Alerts for a saved search that has since been deleted',
        alreadyOff: true,
      }
    const names = await brandNamesOf(db)
    return {
      kind: 'search',
      description: `Emails about new laptops matching your saved search: ${describeFilters(search.filters as SavedFilters, names)}`,
      alreadyOff: search.alert === 'off',
    }
  }
  if (target.kind === 'favourites') {
    return {
      kind: 'favourites',
      description: 'Emails when a laptop in your favourites gets cheaper or is available again',
      alreadyOff: (await favouriteAlertOf(db, target.userId)) === 'off',
    }
  }
  const [daily] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(savedSearches)
    .where(and(eq(savedSearches.userId, target.userId), eq(savedSearches.alert, 'daily')))
  return {
    kind: 'digest',
    description: 'The daily digest of your saved searches and favourites',
    alreadyOff: (daily?.n ?? 0) === 0 && (await favouriteAlertOf(db, target.userId)) !== 'daily',
  }
}

/** Turns it off; a repeat changes nothing. Returns how many alerts changed. */
export async function unsubscribe(db: Db, config: Config, token: string): Promise<number> {
  const target = targetOf(config, token)
  if (target.kind === 'search') {
    const rows = await db
      .update(savedSearches)
      .set({ alert: 'off' })
      .where(and(eq(savedSearches.id, target.searchId), inArray(savedSearches.alert, ['instant', 'daily'])))
      .returning({ id: savedSearches.id })
    return rows.length
  }
  const setFavourites = (from: ('instant' | 'daily')[]) =>
    db
      .insert(emailPreferences)
      .values({ userId: target.userId, favouriteAlerts: 'off' })
      .onConflictDoUpdate({
        target: emailPreferences.userId,
        set: { favouriteAlerts: 'off', updatedAt: new Date() },
        setWhere: inArray(emailPreferences.favouriteAlerts, from),
      })
      .returning({ id: emailPreferences.userId })
  if (target.kind === 'favourites') {
    if ((await favouriteAlertOf(db, target.userId)) === 'off') return 0
    return (await setFavourites(['instant', 'daily'])).length
  }
  return db.transaction(async (tx) => {
    const searches = await tx
      .update(savedSearches)
      .set({ alert: 'off' })
      .where(and(eq(savedSearches.userId, target.userId), eq(savedSearches.alert, 'daily')))
      .returning({ id: savedSearches.id })
    const favouritesDaily = (await favouriteAlertOf(tx, target.userId)) === 'daily'
    if (favouritesDaily) {
      await tx
        .update(emailPreferences)
        .set({ favouriteAlerts: 'off', updatedAt: new Date() })
        .where(eq(emailPreferences.userId, target.userId))
    }
    return searches.length + (favouritesDaily ? 1 : 0)
  })
}

/** Whose alert the link turns off (for their security log), or null when the search is gone. */
export async function unsubscribeOwner(db: Db, config: Config, token: string): Promise<string | null> {
  const target = targetOf(config, token)
  if (target.kind !== 'search') return target.userId
  const [row] = await db
    .select({ userId: savedSearches.userId })
    .from(savedSearches)
    .where(eq(savedSearches.id, target.searchId))
  return row?.userId ?? null
}
