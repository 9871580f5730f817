import { sql } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import { rowsOf } from '#server/lib/paging'
import { COUNT_FACETS, type CountFacet, type CountQuery, perCountFacet } from './filters'

// The copy's facet columns (listing-facts.ts) and what a search's facet filters make of their rows, and the version row
// every change search reads moves on.

/** One facet's column: its distinct values (as search sends them) and, per row, the index of the row's value. */
export type Column = { values: string[]; index: Uint16Array }
type Columns = Record<CountFacet, Column>

/** A column from each row's value: the distinct values in order of first appearance, and each row's index. */
export function dictionaryColumn(rowValues: string[]): Column {
  const values: string[] = []
  const position = new Map<string, number>()
  const index = new Uint16Array(rowValues.length)
  rowValues.forEach((value, i) => {
    let at = position.get(value)
    if (at === undefined) {
      at = values.push(value) - 1
      position.set(value, at)
    }
    index[i] = at
  })
  return { values, index }
}

/** A row (or combination) that fails two facet filters or more, or a floor: it counts for nothing. */
export const NONE = 255

/**
 * Per row of `size` rows, whose value of each facet is `values[facet][row]` (an index into the column's values), what
 * a query's facet filters and floors make of it: 0 when it passes them all, 1 + the facet's place in COUNT_FACETS when
 * it fails that facet's filter alone (it counts for that facet only), NONE otherwise.
 */
export function outcomesOf(columns: Columns, values: Uint16Array[], size: number, query: CountQuery) {
  const outcome = new Uint8Array(size)
  // A filter at a time over every row (one tight loop each, not a loop over the filters per row): failing a first
  // facet filter counts for that facet alone; failing a second, or a floor (at least this much RAM), for none.
  const floors = valueFilters(columns, query.floors, (min, v) => Number(v) >= min, true)
  for (const { facet, allowed, fails } of [...floors, ...facetFilters(columns, query)]) {
    const of = values[facet] as Uint16Array
    for (let c = 0; c < size; c++)
      if (allowed[of[c] as number] === 0) outcome[c] = outcome[c] === 0 ? fails : NONE
  }
  return outcome
}

/**
 * Each facet's counts by value, from the rows (or combinations) counted and their outcomes (`values` as for
 * outcomesOf): values counted none are left out, and so is an empty one (a processor that names no family).
 */
export function valuesOf(
  columns: Columns,
  values: Uint16Array[],
  outcome: Uint8Array,
  counted: Int32Array,
  /** The rows counted, when few (else every one is looked at). */
  some?: number[],
): Record<CountFacet, Map<string, number>> {
  const acc = COUNT_FACETS.map((name) => new Int32Array(columns[name].values.length))
  for (let i = 0, length = some ? some.length : outcome.length; i < length; i++) {
    const c = some ? (some[i] as number) : i
    const o = outcome[c] as number
    const n = counted[c] as number
    if (o === NONE || n === 0) continue
    // Passing every filter counts for every facet; failing one facet's alone, for that facet.
    for (let facet = o === 0 ? 0 : o - 1, end = o === 0 ? acc.length : o; facet < end; facet++) {
      const sums = acc[facet] as Int32Array
      const at = (values[facet] as Uint16Array)[c] as number
      sums[at] = (sums[at] as number) + n
    }
  }
  return perCountFacet((name, facet) => {
    const map = new Map<string, number>()
    const sums = acc[facet] as Int32Array
    columns[name].values.forEach((value, i) => {
      if (sums[i] && value !== '') map.set(value, sums[i] as number)
    })
    return map
  })
}

/**
 * Per facet given a test in `of` (in COUNT_FACETS' order), the indexes of the facet's values it accepts, and what
 * failing it makes of a row (outcomesOf): that facet's outcome, or NONE for a `floor`.
 */
function valueFilters<T>(
  columns: Columns,
  of: (T | undefined)[],
  accepts: (test: T, value: string) => boolean,
  floor = false,
) {
  return COUNT_FACETS.flatMap((name, facet) => {
    const test = of[facet]
    if (test === undefined) return []
    const allowed = Uint8Array.from(columns[name].values, (v) => (accepts(test, v) ? 1 : 0))
    return [{ facet, allowed, fails: floor ? NONE : facet + 1 }]
  })
}

/** Each facet filter of the query as the indexes of the facet's values it accepts. */
export const facetFilters = (columns: Columns, q: CountQuery) =>
  valueFilters(columns, q.sets, (set, v) => set.has(v))

/**
 * A version of the version row: `version` moves on at every change the feed notes (a listing's facts), `terms_version`
 * at every change to the titles' vocabulary, `brands_version` at every change to the brands.
 */
export async function readVersion(
  db: Db,
  which: 'version' | 'terms_version' | 'brands_version' = 'version',
): Promise<string> {
  const [row] = await rowsOf<{ v: string }>(
    db,
    sql`select ${sql.raw(which)}::text as v from listing_counts_version where id`,
  )
  return row?.v ?? '0'
}
