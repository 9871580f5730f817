// Alerts, done by jobs and never in the request that changes a listing. A change writes an `alert_events` row in
// its own transaction; the `alerts.match` job (sent after the change, and every minute as a sweep) reads the due
// events and turns them into `alert_items`: new matches of saved searches, favourites that got cheaper or are
// free again. Instant items are emailed at once (a saved search at most once an hour, a user's favourite news
// grouped over a minute); daily ones wait for the digest. docs/decisions/0028-favourites-and-saved-searches.md.
import { and, asc, desc, eq, inArray, isNull, lte, ne, sql } from 'drizzle-orm'
import { PRICE_DROP_ALERT_SHARE } from '#contract/favourites'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { alertEvents, alertItems, favourites, productHolds, products, savedSearches } from '#server/db/schema'
import { isOnSale } from '#server/lib/on-sale'
import { rowsOf } from '#server/lib/paging'
import type { MailRequest } from '#server/mail/mail'
import type { AlertFavourite, AlertListing, AlertSearch } from '#server/mail/templates/alert-types'
import {
  alertColumns,
  brandNamesOf,
  describeFilters,
  type MatchedListing,
  type SavedFilters,
  SearchIndex,
} from '#server/modules/search'
import { unsubscribeToken } from './unsubscribe-token'

type Ctx = Pick<AppContext, 'db' | 'jobs' | 'mail' | 'config'>

/** An instant saved-search alert is sent at most this often per search. */
export const SEARCH_EMAIL_GAP_MS = 60 * 60 * 1000
/** A user's favourite news waits this long for more before one email tells it all. */
export const FAVOURITES_EMAIL_DELAY_S = 60
/** Laptops listed by name in one search's email (the rest are counted). */
const LISTED_PER_SEARCH = 5
/** Events read per pass. */
const EVENT_BATCH = 2000

// ---------------------------------------------------------------------------------------------
// The matcher
// ---------------------------------------------------------------------------------------------

type IndexedSearch = {
  userId: string
  alert: 'instant' | 'daily'
  lastEmailedAt: Date | null
  query: string
  filters: SavedFilters
}

/** Every saved search that alerts, compiled (loaded once per pass, in pages so memory stays flat). */
async function loadSearchIndex(db: Db): Promise<{ index: SearchIndex; byId: Map<string, IndexedSearch> }> {
  const index = new SearchIndex()
  const byId = new Map<string, IndexedSearch>()
  let after = '00000000-0000-0000-0000-000000000000'
  for (;;) {
    const rows = await db
      .select({
        id: savedSearches.id,
        userId: savedSearches.userId,
        filters: savedSearches.filters,
        textQuery: savedSearches.textQuery,
        alert: savedSearches.alert,
        lastEmailedAt: savedSearches.lastEmailedAt,
        query: savedSearches.query,
        createdAt: savedSearches.createdAt,
      })
      .from(savedSearches)
      .where(and(ne(savedSearches.alert, 'off'), sql`${savedSearches.id} > ${after}`))
      .orderBy(asc(savedSearches.id))
      .limit(20_000)
    for (const r of rows) {
      const filters = r.filters as SavedFilters
      index.add({ id: r.id, userId: r.userId, filters, textQuery: r.textQuery, since: r.createdAt.getTime() })
      byId.set(r.id, {
        userId: r.userId,
        alert: r.alert as 'instant' | 'daily',
        lastEmailedAt: r.lastEmailedAt,
        query: r.query,
        filters,
      })
    }
    const last = rows.at(-1)
    if (!last || rows.length < 20_000) break
    after = last.id
  }
  return { index, byId }
}

type Facts = MatchedListing & { name: string; priceCents: number; location: string; cameLater: boolean }

async function listingFacts(db: Db, ids: string[]): Promise<Facts[]> {
  if (ids.length === 0) return []
  return db
    .select({
      id: products.id,
      sellerId: products.sellerId,
      // What the declared filters read of a new listing.
      ...alertColumns(),
      priceCents: products.resalePriceCents,
      words: sql<string[]>`tsvector_to_array(${products.searchVector})`,
      name: products.name,
      location: products.location,
      // A listing approved or renewed after a search was saved is news to it, however long ago it was posted.
      postedAt: sql<number>`(extract(epoch from ${products.onSaleSince}) * 1000)::float8`,
      // On sale later than posted (approved, renewed): it may have been on sale, and told, before.
      cameLater: sql<boolean>`${products.onSaleSince} > ${products.postedOn}`,
    })
    .from(products)
    .where(and(inArray(products.id, ids), isOnSale))
}

export type MatchReport = {
  events: number
  matches: number
  favouriteItems: number
  emails: number
  /** Milliseconds spent loading the saved searches, matching in memory, writing the items, queueing the emails. */
  phases: { load: number; match: number; write: number; queue: number }
}

/**
 * One matching pass: every due event, a batch at a time, each batch in one transaction (its events deleted in
 * it), so a crash repeats a batch rather than losing or doubling it (alert items are unique per search and
 * listing). Returns what it did, for the tests and the benchmark.
 */
export async function runAlertMatching(ctx: Ctx): Promise<MatchReport> {
  const report: MatchReport = {
    events: 0,
    matches: 0,
    favouriteItems: 0,
    emails: 0,
    phases: { load: 0, match: 0, write: 0, queue: 0 },
  }
  let searches: Awaited<ReturnType<typeof loadSearchIndex>> | undefined
  let brandNames: Map<string, string> | undefined
  for (;;) {
    const done = await ctx.db.transaction(async (tx) => {
      const events = await tx
        .select()
        .from(alertEvents)
        .where(lte(alertEvents.dueAt, sql`now()`))
        .orderBy(asc(alertEvents.id))
        .limit(EVENT_BATCH)
        .for('update', { skipLocked: true })
      if (events.length === 0) return true
      report.events += events.length
      const listed = [...new Set(events.filter((e) => e.kind === 'listed').map((e) => e.productId))]
      if (listed.length > 0) {
        const loadStart = performance.now()
        searches ??= await loadSearchIndex(tx)
        report.phases.load += performance.now() - loadStart
        brandNames ??= await brandNamesOf(tx)
        const found = await matchListings(ctx, tx, listed, searches, brandNames, report.phases)
        report.matches += found.matches
        report.emails += found.emails
      }
      for (const e of events) {
        if (e.kind === 'price') report.favouriteItems += await priceChanged(tx, e.productId)
        if (e.kind === 'available') report.favouriteItems += await maybeAvailable(tx, e.productId)
      }
      const favouriteUsers = await usersWithInstantFavouriteNews(
        tx,
        events.map((e) => e.productId),
      )
      for (const userId of favouriteUsers) {
        await ctx.jobs.send(
          'alerts.favourites-email',
          { userId },
          { tx, singletonKey: `favourites:${userId}`, startAfter: FAVOURITES_EMAIL_DELAY_S },
        )
      }
      await tx.delete(alertEvents).where(
        inArray(
          alertEvents.id,
          events.map((e) => e.id),
        ),
      )
      return events.length < EVENT_BATCH
    })
    if (done) return report
  }
}

async function matchListings(
  ctx: Ctx,
  tx: Db,
  listed: string[],
  searches: Awaited<ReturnType<typeof loadSearchIndex>>,
  brandNames: Map<string, string>,
  phases: MatchReport['phases'],
): Promise<{ matches: number; emails: number }> {
  let t = performance.now()
  const lap = (phase: keyof MatchReport['phases']) => {
    const now = performance.now()
    phases[phase] += now - t
    t = now
  }
  const facts = await listingFacts(tx, listed)
  // Every (search, listing) pair, grouped by search.
  const bySearch = new Map<string, Facts[]>()
  for (const listing of facts) {
    for (const m of searches.index.matchesOf(listing)) {
      const list = bySearch.get(m.searchId)
      if (list) list.push(listing)
      else bySearch.set(m.searchId, [listing])
    }
  }
  await forgetToldBefore(tx, bySearch)
  lap('match')

  // Instant searches with news are emailed now when their last email is an hour old (their items written as
  // sent), else once the hour is up; daily ones wait for the digest.
  const now = Date.now()
  const emailedNow = new Set<string>()
  const emails: MailRequest<'alert-search-matches'>[] = []
  for (const [searchId, listings] of bySearch) {
    const search = searches.byId.get(searchId)
    if (search?.alert !== 'instant') continue
    const nextAllowed = search.lastEmailedAt ? search.lastEmailedAt.getTime() + SEARCH_EMAIL_GAP_MS : 0
    if (nextAllowed > now) {
      await ctx.jobs.send(
        'alerts.search-email',
        { searchId },
        { tx, singletonKey: `search:${searchId}`, startAfter: new Date(nextAllowed) },
      )
      continue
    }
    emailedNow.add(searchId)
    search.lastEmailedAt = new Date(now)
    emails.push({
      to: { userId: search.userId },
      template: 'alert-search-matches',
      data: searchEmailData(
        ctx,
        searchId,
        search,
        brandNames,
        listings.slice(0, LISTED_PER_SEARCH),
        listings.length,
      ),
    })
  }

  // The items, written as columns of arrays (one statement per 20,000): far cheaper than rows of parameters.
  const cols = {
    user: [] as string[],
    search: [] as string[],
    product: [] as string[],
    price: [] as number[],
    delivery: [] as string[],
    sent: [] as boolean[],
  }
  let matches = 0
  const flush = async () => {
    if (cols.user.length === 0) return
    await tx.execute(sql`insert into ${alertItems} (user_id, kind, saved_search_id, product_id, new_price_cents, delivery, sent_at)
      select u, 'match', s, p, c, d, case when x then now() end
      from unnest(${pgArray(cols.user)}::text[], ${pgArray(cols.search)}::uuid[], ${pgArray(cols.product)}::uuid[],
        ${pgArray(cols.price)}::int[], ${pgArray(cols.delivery)}::text[], ${pgArray(cols.sent)}::bool[]) as t(u, s, p, c, d, x)
      on conflict do nothing`)
    for (const list of Object.values(cols)) list.length = 0
  }
  for (const [searchId, listings] of bySearch) {
    const search = searches.byId.get(searchId)
    if (!search) continue
    for (const listing of listings) {
      cols.user.push(search.userId)
      cols.search.push(searchId)
      cols.product.push(listing.id)
      cols.price.push(listing.priceCents)
      cols.delivery.push(search.alert)
      cols.sent.push(emailedNow.has(searchId))
      matches++
      if (cols.user.length >= 20_000) await flush()
    }
  }
  await flush()
  const ids = [...emailedNow]
  for (let i = 0; i < ids.length; i += 20_000) {
    await tx
      .update(savedSearches)
      .set({ lastEmailedAt: sql`now()` })
      .where(sql`${savedSearches.id} = any(${pgArray(ids.slice(i, i + 20_000))}::uuid[])`)
  }
  lap('write')
  await ctx.mail.queueMany(tx, emails)
  lap('queue')
  return { matches, emails: emails.length }
}

/**
 * Drops the pairs whose search was told of the listing before (it was on sale, left, and came back): it is new
 * to the searches saved meanwhile, not to those. Only listings that came on sale after they were posted are looked up.
 */
async function forgetToldBefore(tx: Db, bySearch: Map<string, Facts[]>): Promise<void> {
  const searchIds: string[] = []
  const productIds: string[] = []
  for (const [searchId, listings] of bySearch) {
    for (const l of listings) {
      if (!l.cameLater) continue
      searchIds.push(searchId)
      productIds.push(l.id)
    }
  }
  if (searchIds.length === 0) return
  const told = await rowsOf<{ s: string; p: string }>(
    tx,
    sql`select i.saved_search_id as s, i.product_id as p
      from unnest(${pgArray(searchIds)}::uuid[], ${pgArray(productIds)}::uuid[]) as t(s, p)
      join ${alertItems} i on i.saved_search_id = t.s and i.product_id = t.p`,
  )
  for (const { s, p } of told) {
    const left = (bySearch.get(s) ?? []).filter((l) => l.id !== p)
    if (left.length === 0) bySearch.delete(s)
    else bySearch.set(s, left)
  }
}

/** A PostgreSQL array literal (one parameter, however long the list), each element quoted. */
function pgArray(values: readonly (string | number | boolean)[]): string {
  return `{${values.map((v) => (typeof v === 'string' ? `"${v.replace(/["\\]/g, '\\$&')}"` : String(v))).join(',')}}`
}

function toAlertListing(l: { id: string; name: string; priceCents: number; location: string }): AlertListing {
  return { productId: l.id, name: l.name, priceCents: l.priceCents, location: l.location }
}

function searchEmailData(
  ctx: Ctx,
  searchId: string,
  search: { query: string; filters: SavedFilters },
  brandNames: Map<string, string>,
  listings: { id: string; name: string; priceCents: number; location: string }[],
  total: number,
): AlertSearch & { unsubscribeToken: string } {
  return {
    searchId,
    label: describeFilters(search.filters, brandNames),
    query: search.query,
    listings: listings.map(toAlertListing),
    more: Math.max(0, total - listings.length),
    unsubscribeToken: unsubscribeToken(ctx.config, { kind: 'search', searchId }),
  }
}

// ---------------------------------------------------------------------------------------------
// Favourites: a price drop of 5% or more from the price last told, or free again after a hold
// ---------------------------------------------------------------------------------------------

/** Each favourite's delivery: the user's choice (instant when they never chose). */
const deliveryOf = sql<
  'instant' | 'daily' | 'off'
>`coalesce((select ep.favourite_alerts from email_preferences ep
  where ep.user_id = "favourites"."user_id"), 'instant')`

async function priceChanged(tx: Db, productId: string): Promise<number> {
  const [product] = await tx
    .select({ price: products.resalePriceCents })
    .from(products)
    .where(and(eq(products.id, productId), isOnSale))
  if (!product) return 0
  // In whole percent, so the comparison stays in integers: price * 100 <= told * 95.
  const keepPct = Math.round((1 - PRICE_DROP_ALERT_SHARE) * 100)
  // A drop alerts only below the lowest price already announced for the favourite (raising the price and
  // lowering it again announces nothing), and at most once a day per favourite.
  const dropped = await tx
    .select({ userId: favourites.userId, oldPrice: favourites.alertPriceCents, delivery: deliveryOf })
    .from(favourites)
    .where(
      and(
        eq(favourites.productId, productId),
        sql`${product.price} * 100 <= ${favourites.alertPriceCents} * ${keepPct}`,
        sql`(${favourites.priceAlertedAt} is null or ${favourites.priceAlertedAt} <= now() - interval '1 day')`,
      ),
    )
    .for('update')
  if (dropped.length === 0) return 0
  const told = dropped.filter((d) => d.delivery !== 'off')
  if (told.length > 0) {
    await tx.insert(alertItems).values(
      told.map((d) => ({
        userId: d.userId,
        kind: 'price_drop' as const,
        productId,
        oldPriceCents: d.oldPrice,
        newPriceCents: product.price,
        delivery: d.delivery as 'instant' | 'daily',
      })),
    )
  }
  // The next drop is measured from the price announced now, never from a higher one the seller moved back to.
  await tx
    .update(favourites)
    .set({ alertPriceCents: product.price, priceAlertedAt: sql`now()` })
    .where(
      and(
        eq(favourites.productId, productId),
        inArray(
          favourites.userId,
          dropped.map((d) => d.userId),
        ),
      ),
    )
  return told.length
}

async function maybeAvailable(tx: Db, productId: string): Promise<number> {
  const [product] = await tx
    .select({
      price: products.resalePriceCents,
      held: sql<boolean>`exists (select 1 from ${productHolds} where ${productHolds.productId} = ${products.id}
        and ${productHolds.holdUntil} > now())`,
    })
    .from(products)
    .where(and(eq(products.id, productId), isOnSale))
  // Sold meanwhile, or held again (that hold has its own event): nothing to tell.
  if (!product || product.held) return 0
  const savers = await tx
    .select({ userId: favourites.userId, delivery: deliveryOf })
    .from(favourites)
    .where(eq(favourites.productId, productId))
  const told = savers.filter((s) => s.delivery !== 'off')
  if (told.length === 0) return 0
  await tx.insert(alertItems).values(
    told.map((s) => ({
      userId: s.userId,
      kind: 'available' as const,
      productId,
      newPriceCents: product.price,
      delivery: s.delivery as 'instant' | 'daily',
    })),
  )
  return told.length
}

async function usersWithInstantFavouriteNews(tx: Db, productIds: string[]): Promise<string[]> {
  if (productIds.length === 0) return []
  const rows = await tx
    .selectDistinct({ userId: alertItems.userId })
    .from(alertItems)
    .where(
      and(
        inArray(alertItems.productId, [...new Set(productIds)]),
        inArray(alertItems.kind, ['price_drop', 'available']),
        eq(alertItems.delivery, 'instant'),
        isNull(alertItems.sentAt),
      ),
    )
  return rows.map((r) => r.userId)
}

// ---------------------------------------------------------------------------------------------
// Sending
// ---------------------------------------------------------------------------------------------

type ItemRow = {
  id: string
  kind: 'match' | 'price_drop' | 'available'
  searchId: string | null
  productId: string
  oldPriceCents: number | null
  name: string
  priceCents: number
  location: string
}

/** Unsent items that pass `where`, with their listings as they are now; items of listings gone are closed too. */
async function takeItems(tx: Db, where: ReturnType<typeof and>): Promise<ItemRow[]> {
  const rows = await tx
    .select({
      id: alertItems.id,
      kind: alertItems.kind,
      searchId: alertItems.savedSearchId,
      productId: alertItems.productId,
      oldPriceCents: alertItems.oldPriceCents,
      name: products.name,
      priceCents: products.resalePriceCents,
      location: products.location,
      onSale: sql<boolean>`${isOnSale}`,
    })
    .from(alertItems)
    .innerJoin(products, eq(products.id, alertItems.productId))
    .where(and(isNull(alertItems.sentAt), where))
    .orderBy(desc(alertItems.createdAt))
    .for('update', { of: alertItems, skipLocked: true })
  if (rows.length > 0) {
    await tx
      .update(alertItems)
      .set({ sentAt: sql`now()` })
      .where(
        inArray(
          alertItems.id,
          rows.map((r) => r.id),
        ),
      )
  }
  return rows.filter((r) => r.onSale)
}

const toFavourite = (r: ItemRow): AlertFavourite => ({
  productId: r.productId,
  name: r.name,
  kind: r.kind === 'price_drop' ? 'price_drop' : 'available',
  oldPriceCents: r.oldPriceCents,
  priceCents: r.priceCents,
})

/** The delayed email of one instant saved search (its previous one went out less than an hour ago). */
export async function sendSearchAlert(ctx: Ctx, searchId: string): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [search] = await tx.select().from(savedSearches).where(eq(savedSearches.id, searchId)).for('update')
    if (search?.alert !== 'instant') return false
    if (search.lastEmailedAt && search.lastEmailedAt.getTime() + SEARCH_EMAIL_GAP_MS > Date.now() + 1000) {
      await ctx.jobs.send(
        'alerts.search-email',
        { searchId },
        {
          tx,
          singletonKey: `search:${searchId}`,
          startAfter: new Date(search.lastEmailedAt.getTime() + SEARCH_EMAIL_GAP_MS),
        },
      )
      return false
    }
    const items = await takeItems(
      tx,
      and(eq(alertItems.savedSearchId, searchId), eq(alertItems.kind, 'match')),
    )
    if (items.length === 0) return false
    await tx.update(savedSearches).set({ lastEmailedAt: sql`now()` }).where(eq(savedSearches.id, searchId))
    const listings = items.map((r) => ({
      id: r.productId,
      name: r.name,
      priceCents: r.priceCents,
      location: r.location,
    }))
    await ctx.mail.queue(tx, {
      to: { userId: search.userId },
      template: 'alert-search-matches',
      data: searchEmailData(
        ctx,
        searchId,
        { query: search.query, filters: search.filters as SavedFilters },
        await brandNamesOf(tx),
        listings.slice(0, LISTED_PER_SEARCH),
        listings.length,
      ),
    })
    return true
  })
}

/** One user's instant favourite news, gathered over a minute. */
export async function sendFavouritesAlert(ctx: Ctx, userId: string): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const items = await takeItems(
      tx,
      and(
        eq(alertItems.userId, userId),
        inArray(alertItems.kind, ['price_drop', 'available']),
        eq(alertItems.delivery, 'instant'),
      ),
    )
    if (items.length === 0) return false
    await ctx.mail.queue(tx, {
      to: { userId },
      template: 'alert-favourites',
      data: {
        items: items.map(toFavourite),
        unsubscribeToken: unsubscribeToken(ctx.config, { kind: 'favourites', userId }),
      },
    })
    return true
  })
}

/** The daily digest: one email per user with daily items waiting. Returns how many were queued. */
export async function sendDigests(ctx: Ctx): Promise<number> {
  const users = await rowsOf<{ user_id: string }>(
    ctx.db,
    sql`select distinct ${alertItems.userId} as user_id from ${alertItems}
      where ${alertItems.sentAt} is null and ${alertItems.delivery} = 'daily'`,
  )
  let sent = 0
  for (const { user_id: userId } of users) {
    const queued = await ctx.db.transaction(async (tx) => {
      const items = await takeItems(tx, and(eq(alertItems.userId, userId), eq(alertItems.delivery, 'daily')))
      if (items.length === 0) return false
      const searchIds = [
        ...new Set(items.flatMap((r) => (r.kind === 'match' && r.searchId ? [r.searchId] : []))),
      ]
      const searchRows =
        searchIds.length === 0
          ? []
          : await tx.select().from(savedSearches).where(inArray(savedSearches.id, searchIds))
      const names = await brandNamesOf(tx)
      const searchesOut = searchRows.map((s) => {
        const listings = items
          .filter((r) => r.kind === 'match' && r.searchId === s.id)
          .map((r) => ({ id: r.productId, name: r.name, priceCents: r.priceCents, location: r.location }))
        const data = searchEmailData(
          ctx,
          s.id,
          { query: s.query, filters: s.filters as SavedFilters },
          names,
          listings.slice(0, LISTED_PER_SEARCH),
          listings.length,
        )
        return {
          searchId: data.searchId,
          label: data.label,
          query: data.query,
          listings: data.listings,
          more: data.more,
        }
      })
      const favouriteNews = items.filter((r) => r.kind !== 'match').map(toFavourite)
      if (searchesOut.length === 0 && favouriteNews.length === 0) return false
      await ctx.mail.queue(tx, {
        to: { userId },
        template: 'alert-digest',
        data: {
          searches: searchesOut,
          favourites: favouriteNews,
          unsubscribeToken: unsubscribeToken(ctx.config, { kind: 'digest', userId }),
        },
      })
      return true
    })
    if (queued) sent++
  }
  return sent
}

export function registerAlertJobs(ctx: Ctx): void {
  ctx.jobs.work('alerts.match', () => runAlertMatching(ctx), { batchSize: 1 })
  ctx.jobs.schedule('alerts.match', '* * * * *')
  ctx.jobs.work('alerts.search-email', (job) => sendSearchAlert(ctx, job.data.searchId))
  ctx.jobs.work('alerts.favourites-email', (job) => sendFavouritesAlert(ctx, job.data.userId))
  ctx.jobs.work('alerts.digest', () => sendDigests(ctx), { batchSize: 1 })
  ctx.jobs.schedule('alerts.digest', '0 8 * * *')
}
