// Each filter's SQL, alert test, use by the copy and saved-search words come from contract/filters.ts.
// Nothing here names a filter: one declared there is searched, counted, alerted and described from here.
import { and, getTableColumns, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm'
import {
  choiceOf,
  FILTER_KEYS,
  type FILTERS,
  type FilterDeclaration,
  type FilterKey,
  filterOf,
  labelOf,
} from '#contract/filters'
import type { SearchQuery } from '#contract/search'
import { products } from '#server/db/schema'

/** A search's parameters that are not filters (paging, facets): a saved search keeps the rest. */
export const NOT_FILTERS = ['page', 'page_size', 'limit', 'cursor', 'facets'] as const
export type SavedFilters = Omit<SearchQuery, (typeof NOT_FILTERS)[number]>

const COLUMNS = getTableColumns(products)
// Indexed by the declared columns: a misspelt one does not compile.
const columnOf = (f: FilterDeclaration) => COLUMNS[f.column as (typeof FILTERS)[FilterKey]['column']]
/** The column's name in `products`, for statements written as text (the copy's columns). */
export const columnName = (f: FilterDeclaration) => columnOf(f).name

type OpKeys<Op> = { [K in FilterKey]: (typeof FILTERS)[K]['op'] extends Op ? K : never }[FilterKey]
/** A new listing as an alert reads it: the columns the filters read (all but a posting date). */
type AlertColumn = (typeof FILTERS)[Exclude<FilterKey, OpKeys<'withinDays'>>]['column']
export type AlertListing = Pick<typeof products.$inferSelect, AlertColumn>

export function alertColumns() {
  return Object.fromEntries(
    FILTER_KEYS.map(filterOf)
      .filter((f) => f.op !== 'withinDays')
      .map((f) => [f.column, columnOf(f)]),
  ) as Pick<typeof COLUMNS, AlertColumn>
}

/** The `in` filters (key = facet name), in table order: the copy answers them from a column of choices. */
export const COUNT_FACETS = FILTER_KEYS.filter((k) => filterOf(k).op === 'in') as CountFacet[]
export type CountFacet = OpKeys<'in'>

export const perCountFacet = <T>(make: (name: CountFacet, facet: number) => T) =>
  Object.fromEntries(COUNT_FACETS.map((name, facet) => [name, make(name, facet)])) as Record<CountFacet, T>

/** A listing's facet choice in SQL, as text ('' for none): what the copy holds and SQL facets group by. */
export function choiceSql(name: CountFacet): string {
  const f = filterOf(name)
  const column = columnName(f)
  if (f.values === 'whole') return `floor(${column})::int::text`
  if (f.values)
    return `case ${f.values.map((b) => (b.below !== undefined ? `when ${column} < ${b.below} then '${b.value}'` : `else '${b.value}'`)).join(' ')} end`
  return `coalesce(${column}::text, '')`
}

/** The `in` filter whose values are its column's own: a floor on the column is one on its choices. */
export const floorFacet = (f: FilterDeclaration) =>
  COUNT_FACETS.find((k) => filterOf(k).column === f.column && filterOf(k).values === undefined)

/** The copy's per-listing arrays a bound applies to, by the bound's name. */
export type Row = NonNullable<FilterDeclaration['row']>
export type Bounds = Record<`${'min' | 'max'}${Capitalize<Row>}`, number>
const boundName = (f: FilterDeclaration) =>
  `${f.op === 'atLeast' ? 'min' : 'max'}${(f.row as Row).replace(/^./, (c) => c.toUpperCase())}` as keyof Bounds

/** By place in COUNT_FACETS (arrays, not records: decision 0144): choices as text, floors (RAM at least). */
export type CountQuery = {
  sets: (ReadonlySet<string> | undefined)[]
  floors: (number | undefined)[]
}

const scaled = (f: FilterDeclaration, value: number) => (f.scale ? Math.round(value * f.scale) : value)
/** A choice as the copy holds it: text (an id as the database prints it, lower case). */
const choiceText = (f: FilterDeclaration, v: unknown) =>
  columnOf(f).columnType === 'PgUUID' ? String(v).toLowerCase() : String(v)
const acceptedOf = (f: FilterDeclaration, value: unknown) =>
  new Set((value as unknown[]).map((v) => choiceText(f, v)))

type Entry = [FilterKey, unknown, FilterDeclaration]

/** The filters set, in the table's order (or `keys`'). */
function filtersOf(q: SavedFilters, keys: readonly FilterKey[] = FILTER_KEYS): Entry[] {
  const out: Entry[] = []
  for (const key of keys) {
    const value = (q as Record<string, unknown>)[key]
    if (value !== undefined) out.push([key, value, filterOf(key)])
  }
  return out
}

export function conditionOf(f: FilterDeclaration, value: unknown): SQL {
  const column = columnOf(f)
  switch (f.op) {
    case 'atLeast':
    case 'atMost':
      return (f.op === 'atLeast' ? gte : lte)(column, scaled(f, value as number))
    // The clock is the database's, read once per statement.
    case 'withinDays':
      return sql`${column} >= (select now() - make_interval(days => ${value as number}))`
  }
  const values = value as (string | number)[]
  if (f.values === undefined) return inArray(column, values)
  // A whole number or a bucket is a range of the column: `13` is 13.0 to 13.9.
  const buckets = f.values === 'whole' ? undefined : f.values
  const ranges = values.map((v) => {
    const at = buckets?.findIndex((b) => b.value === v) ?? -1
    const [from, below] = buckets
      ? [buckets[at - 1]?.below, buckets[at]?.below]
      : [v as number, (v as number) + 1]
    return and(
      from !== undefined ? gte(column, from) : undefined,
      below !== undefined ? sql`${column} < ${below}` : undefined,
    )
  })
  return or(...ranges) as SQL
}

/** Whether a new listing passes; undefined: the filter does not apply to alerts (a posting date). */
export function alertOf(f: FilterDeclaration, value: unknown): ((l: AlertListing) => boolean) | undefined {
  const read = (l: AlertListing) => (l as Record<string, unknown>)[f.column] as number | string | null
  switch (f.op) {
    case 'atLeast':
    case 'atMost': {
      const bound = scaled(f, value as number)
      const atLeast = f.op === 'atLeast'
      return (l) =>
        read(l) !== null && (atLeast ? (read(l) as number) >= bound : (read(l) as number) <= bound)
    }
    // An alert is about a listing just posted: "posted within" always holds.
    case 'withinDays':
      return undefined
  }
  const accepted = acceptedOf(f, value)
  return (l) => {
    const choice = choiceOf(f, read(l))
    return choice !== undefined && accepted.has(choiceText(f, choice))
  }
}

/** The search's filters as SQL: each facet's by its key, the rest (a price, a floor) in the table's order. */
export function conditionsOf(q: SavedFilters) {
  const facets: Partial<Record<FilterKey, SQL>> = {}
  const plain: SQL[] = []
  for (const [key, value, f] of filtersOf(q)) {
    if (f.facet) facets[key] = conditionOf(f, value)
    else plain.push(conditionOf(f, value))
  }
  return { facets, plain }
}

/** A saved search's alert test for a new listing: every filter that applies to alerts, compiled once. */
export function alertTest(q: SavedFilters): (l: AlertListing) => boolean {
  const tests = filtersOf(q).flatMap(([, value, f]) => alertOf(f, value) ?? [])
  return (l) => tests.every((test) => test(l))
}

/** The filters in a saved search's order: the table's, those it lists last at the end. */
export const SAVED_ORDER = [
  ...FILTER_KEYS.filter((k) => filterOf(k).savedLast !== true),
  ...FILTER_KEYS.filter((k) => filterOf(k).savedLast === true),
]

/** The filters in words, in a saved search's order (the text is the caller's). */
export function describeEach(q: SavedFilters, names: ReadonlyMap<string, string>): string[] {
  return filtersOf(q, SAVED_ORDER).flatMap(([key, value, f]) => {
    const said = f.words
      ? f.words(value as never, q, names)
      : (value as unknown[]).map((v) => labelOf(key, String(v), names)).join(' or ')
    return said ? [said] : []
  })
}

/** Whether the in-memory copy of the listings can answer every filter the search sets. */
export function copyAnswers(q: SavedFilters): boolean {
  return filtersOf(q).every(
    ([, , f]) => f.op === 'in' || f.op === 'withinDays' || f.row !== undefined || floorFacet(f) !== undefined,
  )
}

export function countQueryOf(q: SavedFilters): CountQuery {
  const out: CountQuery = {
    sets: COUNT_FACETS.map(() => undefined),
    floors: COUNT_FACETS.map(() => undefined),
  }
  for (const [key, value, f] of filtersOf(q)) {
    if (f.op === 'in') out.sets[COUNT_FACETS.indexOf(key as CountFacet)] = acceptedOf(f, value)
    const facet = f.op === 'atLeast' ? floorFacet(f) : undefined
    if (facet) out.floors[COUNT_FACETS.indexOf(facet)] = value as number
  }
  return out
}

/** The bounds the copy applies to each listing (absent: any): the filters on a per-listing array. */
export function boundsOf(q: SavedFilters): Bounds {
  const out: Bounds = { minPrice: -Infinity, maxPrice: Infinity, minBattery: -Infinity, maxBattery: Infinity }
  for (const [, value, f] of filtersOf(q)) if (f.row) out[boundName(f)] = scaled(f, value as number)
  return out
}
