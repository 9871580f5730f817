// Every filter of a search, declared once: its query parameter (the key, as `contract/search.ts` parses it), how it
// selects listings in SQL, which facet it is (a facet's counts apply every *other* facet's filter), how a saved
// search's alert matches a new listing against it, and how a saved search describes it in words. The search's SQL,
// its facets, the alert matcher and the saved search read this table; a filter missing from it does not compile.
// The per-instance copy of the listings (listing-facts.ts) and the kept counts (counts-snapshot.ts) answer
// the same filters from their own columns, for speed; `filters.test.ts` checks every path agrees with this table.
//
// A new filter: its parameter in contract/search.ts and its row here, and it is searched, narrows the facets, is kept
// by saved searches and matched by alerts (an alert reading a column AlertListing lacks names it in `alertColumns`
// of an added filter, or in alerts.jobs.ts). Without `counts` and `copy` it is answered by SQL, even when the copy is
// current. `copy: true` asks for its column in the copy (listing-facts.ts) and in the change feed's trigger
// (migration 0027's listing_changes_note, which notes a listing only when a column search reads changes); `counts`
// for a column of listing_counts. A filter added at run time (`addFilter`, added-filter.test.ts) has neither.
import { and, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import {
  BATTERY_FACET_PCT,
  type Facets,
  PROCESSOR_FAMILY_LABELS,
  type ProcessorFamily,
  SearchQuery,
} from '#contract/search'
import { products } from '#server/db/schema'

/** What a saved search keeps: the filters (paging, facets and the page's own markers dropped). */
export type SavedFilters = Omit<SearchQuery, 'page' | 'page_size' | 'limit' | 'cursor' | 'facets'>

/** The filters proper: everything a search narrows by except its text and its order. */
export type FilterKey = Exclude<keyof SavedFilters, 'q' | 'sort'>

/** The facets that are filters (every facet is). */
export type FacetName = keyof Facets

/** A new listing as an alert sees it (server/modules/search/matcher.ts). */
export type AlertListing = {
  brandId: string
  condition: string
  priceCents: number
  ramGb: number
  storageGb: number
  screenInches: number
  processorFamily: string | null
  batteryHealthPct: number | null
}

type Filter<K extends FilterKey> = {
  /** The condition on `products` for the filter's value. */
  sql: (value: NonNullable<SavedFilters[K]>) => SQL
  /** The facet the filter is, when it is one. */
  facet?: FacetName
  /** Whether a new listing passes the filter, for alerts; undefined: the filter does not apply to alerts. */
  alert?: (value: NonNullable<SavedFilters[K]>) => (l: AlertListing) => boolean
  /**
   * Whether the kept counts (`listing_counts`, counts-snapshot.ts) can answer a search setting it to this value; and
   * whether the in-memory copy of the listings (listing-facts.ts) can. A search setting a filter either cannot
   * answer is answered by SQL: a new filter is right before it is fast.
   */
  counts?: (value: NonNullable<SavedFilters[K]>) => boolean
  copy?: boolean
  /** The filter in words for a saved search's description; undefined: said by another filter (a price range). */
  describe: (
    value: NonNullable<SavedFilters[K]>,
    all: SavedFilters,
    brandNames: Map<string, string>,
  ) => string | undefined
}

const cents = (dollars: number) => Math.round(dollars * 100)
const money = (dollars: number) => `$${dollars.toLocaleString('en-US', { maximumFractionDigits: 2 })}`
const storage = (gb: number) => (gb >= 1024 && gb % 1024 === 0 ? `${gb / 1024} TB` : `${gb} GB`)
const oneOf = <T>(values: readonly T[]) => {
  const set = new Set(values)
  return (v: T) => set.has(v)
}

/**
 * The table. Its order is the order a saved search lists its filters in (its canonical query, after the text) and
 * describes them in.
 */
export const FILTERS: { [K in FilterKey]: Filter<K> } = {
  brand: {
    counts: () => true,
    copy: true,
    sql: (ids) => inArray(products.brandId, ids),
    facet: 'brand',
    alert: (ids) => {
      const has = oneOf(ids)
      return (l) => has(l.brandId)
    },
    describe: (ids, _all, names) => ids.map((id) => names.get(id) ?? 'a brand').join(' or '),
  },
  condition: {
    counts: () => true,
    copy: true,
    sql: (values) => inArray(products.condition, values),
    facet: 'condition',
    alert: (values) => {
      const has = oneOf<string>(values)
      return (l) => has(l.condition)
    },
    describe: (values) => values.join(' or '),
  },
  min_price: {
    copy: true,
    sql: (dollars) => gte(products.resalePriceCents, cents(dollars)),
    alert: (dollars) => (l) => l.priceCents >= cents(dollars),
    describe: (min, all) =>
      all.max_price !== undefined ? `${money(min)}–${money(all.max_price)}` : `from ${money(min)}`,
  },
  max_price: {
    copy: true,
    sql: (dollars) => lte(products.resalePriceCents, cents(dollars)),
    alert: (dollars) => (l) => l.priceCents <= cents(dollars),
    describe: (max, all) => (all.min_price !== undefined ? undefined : `up to ${money(max)}`),
  },
  ram: {
    counts: () => true,
    copy: true,
    sql: (gb) => inArray(products.ramGb, gb),
    facet: 'ram',
    alert: (gb) => {
      const has = oneOf(gb)
      return (l) => has(l.ramGb)
    },
    describe: (gb) => `${gb.join(' or ')} GB RAM`,
  },
  storage: {
    counts: () => true,
    copy: true,
    sql: (gb) => inArray(products.storageGb, gb),
    facet: 'storage',
    alert: (gb) => {
      const has = oneOf(gb)
      return (l) => has(l.storageGb)
    },
    describe: (gb) => gb.map(storage).join(' or '),
  },
  screen: {
    counts: () => true,
    copy: true,
    // A class is the whole inches: `13` is 13.0 to 13.9.
    sql: (classes) =>
      or(
        ...classes.map((s) => and(gte(products.screenInches, s), sql`${products.screenInches} < ${s + 1}`)),
      ) as SQL,
    facet: 'screen',
    alert: (classes) => {
      const has = oneOf(classes)
      return (l) => has(Math.floor(l.screenInches))
    },
    describe: (classes) => `${classes.join(' or ')}-inch`,
  },
  processor: {
    counts: () => true,
    copy: true,
    sql: (families) => inArray(products.processorFamily, families),
    facet: 'processor',
    alert: (families) => {
      const has = oneOf<string>(families)
      return (l) => l.processorFamily !== null && has(l.processorFamily)
    },
    describe: (families) => families.map((p) => PROCESSOR_FAMILY_LABELS[p as ProcessorFamily]).join(' or '),
  },
  min_battery_pct: {
    // The counts know "80% or more" (the facet's choice), not other floors.
    counts: (pct) => pct === BATTERY_FACET_PCT,
    copy: true,
    // A listing reporting no battery health fails any floor.
    sql: (pct) => gte(products.batteryHealthPct, pct),
    facet: 'battery',
    alert: (pct) => (l) => l.batteryHealthPct !== null && l.batteryHealthPct >= pct,
    describe: (pct) => `Battery ${pct}% or more`,
  },
  min_ram_gb: {
    counts: () => true,
    copy: true,
    sql: (gb) => gte(products.ramGb, gb),
    alert: (gb) => (l) => l.ramGb >= gb,
    describe: (gb) => `at least ${gb} GB RAM`,
  },
  min_storage_gb: {
    counts: () => true,
    copy: true,
    sql: (gb) => gte(products.storageGb, gb),
    alert: (gb) => (l) => l.storageGb >= gb,
    describe: (gb) => `at least ${storage(gb)}`,
  },
  posted_within: {
    copy: true,
    // The clock is the database's, read once per statement.
    sql: (days) => sql`${products.postedOn} >= (select now() - make_interval(days => ${days}))`,
    facet: 'posted_within',
    // An alert is about a listing just posted: "posted within" always holds.
    describe: (days) => `posted within ${days} days`,
  },
}

export const FILTER_KEYS = Object.keys(FILTERS) as FilterKey[]

// ---------------------------------------------------------------------------------------------
// A filter added to the table at run time: one row, with its query parameter's schema (the table's own filters have
// theirs in contract/search.ts), and it is searched, narrows the facets' counts, is kept by a saved search and
// matched by alerts. Without `counts` and `copy` it is answered by SQL alone: right before it is fast.
// ---------------------------------------------------------------------------------------------

/** A new listing as an alert reads it, with the columns added filters ask for (`alertColumns`). */
export type AlertRow = AlertListing & { readonly [column: string]: unknown }

export type AddedFilter<V> = {
  /** The query parameter's schema (optional: a search need not set it). */
  param: z.ZodType<V | undefined>
  sql: (value: V) => SQL
  alert?: (value: V) => (l: AlertRow) => boolean
  /** What `alert` reads of a new listing beyond AlertListing, by name: alerts select these columns too. */
  alertColumns?: Record<string, SQL>
  describe: (value: V, all: SavedFilters, brandNames: Map<string, string>) => string | undefined
}

const added = new Map<string, AddedFilter<unknown>>()

/**
 * Adds a filter after the table's own (a test's, or a feature's before the app is built: the search route reads the
 * query's schema when it is registered). Returns its removal.
 */
export function addFilter<V>(key: string, filter: AddedFilter<V>): () => void {
  if (key in FILTERS || added.has(key) || key in SearchQuery.shape)
    throw new Error(`${key} is already a parameter`)
  added.set(key, filter as AddedFilter<unknown>)
  return () => {
    added.delete(key)
  }
}

/** Every filter's key, in the table's order, added filters last. */
export function filterKeys(): string[] {
  return [...FILTER_KEYS, ...added.keys()]
}

/** The search's query schema: contract/search.ts's, with the parameters of any added filter. */
export function searchQuerySchema(): typeof SearchQuery {
  if (added.size === 0) return SearchQuery
  return SearchQuery.extend(
    Object.fromEntries([...added].map(([key, f]) => [key, f.param])),
  ) as unknown as typeof SearchQuery
}

/** The columns alerts read of a new listing for added filters. */
export function alertColumns(): Record<string, SQL> {
  return Object.assign({}, ...[...added.values()].map((f) => f.alertColumns ?? {}))
}

type Entry = { [K in FilterKey]: [K, NonNullable<SavedFilters[K]>, Filter<K>] }[FilterKey]

/** The filters a search sets, in the table's order, each with its value (added filters last). */
export function filtersOf(q: SavedFilters): Entry[] {
  const out: Entry[] = []
  for (const key of FILTER_KEYS) {
    const value = q[key]
    if (value !== undefined) out.push([key, value, FILTERS[key]] as Entry)
  }
  for (const [key, filter] of added) {
    const value = (q as Record<string, unknown>)[key]
    // An added filter has no facet, no kept counts and no column in the copy: SQL answers it.
    if (value !== undefined) out.push([key, value, filter] as unknown as Entry)
  }
  return out
}

const sqlOf = ([, value, filter]: Entry) => (filter.sql as (v: typeof value) => SQL)(value)

/** The SQL of each facet's filter (undefined when the search does not set it). */
export function facetConditions(q: SavedFilters): Record<FacetName, SQL | undefined> {
  const out = {} as Record<FacetName, SQL | undefined>
  for (const key of FILTER_KEYS) {
    const facet = FILTERS[key].facet
    if (facet) out[facet] = undefined
  }
  for (const entry of filtersOf(q)) {
    const facet = entry[2].facet
    if (facet) out[facet] = sqlOf(entry)
  }
  return out
}

/** The SQL of the filters that are no facet (a price, a floor), in the table's order. */
export function plainConditions(q: SavedFilters): SQL[] {
  return filtersOf(q)
    .filter((entry) => !entry[2].facet)
    .map(sqlOf)
}

/** A saved search's alert test for a new listing: every filter that applies to alerts, compiled once. */
export function alertTest(q: SavedFilters): (l: AlertRow) => boolean {
  const tests: ((l: AlertRow) => boolean)[] = []
  for (const [, value, filter] of filtersOf(q)) {
    const alert = filter.alert as ((v: typeof value) => (l: AlertRow) => boolean) | undefined
    if (alert) tests.push(alert(value))
  }
  return (l) => tests.every((test) => test(l))
}

/** The filters in words, in the table's order (the text is the caller's). */
export function describeEach(q: SavedFilters, brandNames: Map<string, string>): string[] {
  const parts: string[] = []
  for (const [, value, filter] of filtersOf(q)) {
    const said = (
      filter.describe as (v: typeof value, all: SavedFilters, n: Map<string, string>) => string | undefined
    )(value, q, brandNames)
    if (said) parts.push(said)
  }
  return parts
}

/** Whether the kept counts can answer every filter the search sets (the text aside). */
export function countsAnswer(q: SavedFilters): boolean {
  return filtersOf(q).every(
    ([, value, filter]) => (filter.counts as ((v: typeof value) => boolean) | undefined)?.(value) ?? false,
  )
}

/** Whether the in-memory copy of the listings can answer every filter the search sets. */
export function copyAnswers(q: SavedFilters): boolean {
  return filtersOf(q).every(([, , filter]) => filter.copy === true)
}
