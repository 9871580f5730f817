import { COUNT_FACETS, type CountFacet, type CountQuery, perCountFacet } from './filters'
import { firstAppearance, sharedArray } from './shared-texts'

// The copy's facet columns (listing-facts.ts) and the facet filters over their rows.

/** One facet's column: its distinct values (as search sends them) and each row's index into them. */
export type Column = { values: string[]; index: Uint16Array }
type Columns = Record<CountFacet, Column>

/** A column from each row's value: the distinct values in order of first appearance, and each row's index. */
export function dictionaryColumn(rowValues: string[]): Column {
  const { values, placeOf } = firstAppearance()
  const index = sharedArray(Uint16Array, rowValues.length)
  rowValues.forEach((value, i) => {
    index[i] = placeOf(value)
  })
  return { values, index }
}

/**
 * Columns' rows merged into one (row n is row rows[n] of columns[from[n]]), as dictionaryColumn would make it from
 * their values: each column's value looked up once, not each row's (a copy made from a view: facts-rebase.ts).
 */
export function mergedColumn(columns: Column[], from: Uint8Array, rows: Int32Array): Column {
  const { values, placeOf } = firstAppearance()
  const placed = columns.map((column) => new Int32Array(column.values.length).fill(-1))
  const index = sharedArray(Uint16Array, rows.length)
  for (let n = 0; n < rows.length; n++) {
    const s = from[n] as number
    const column = columns[s] as Column
    const local = column.index[rows[n] as number] as number
    const known = placed[s] as Int32Array
    if ((known[local] as number) < 0) known[local] = placeOf(column.values[local] as string)
    index[n] = known[local] as number
  }
  return { values, index }
}

/** A row (or combination) that fails two facet filters or more, or a floor: it counts for nothing. */
export const NONE = 255

/**
 * Per row (`values[facet][row]` indexes the column's values): 0 passes every facet filter and floor; 1 + the
 * facet's place in COUNT_FACETS fails that facet's filter alone (counts for it only); else NONE.
 */
export function outcomesOf(columns: Columns, values: Uint16Array[], size: number, query: CountQuery) {
  const outcome = new Uint8Array(size)
  // A filter at a time over every row (a tight loop each, not the filters per row): failing a first facet
  // filter counts for that facet alone; failing a second, or a floor (at least this much RAM), for none.
  const floors = valueFilters(columns, query.floors, (min, v) => Number(v) >= min, true)
  for (const { facet, allowed, fails } of [...floors, ...facetFilters(columns, query)]) {
    const of = values[facet] as Uint16Array
    for (let c = 0; c < size; c++)
      if (allowed[of[c] as number] === 0) outcome[c] = outcome[c] === 0 ? fails : NONE
  }
  return outcome
}

/** Each facet's counts by value (`values` as for outcomesOf), without zero counts or '' (no family named). */
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

/** Per facet tested in `of` (COUNT_FACETS' order): values accepted, failing's outcome (NONE for `floor`). */
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

export const facetFilters = (columns: Columns, q: CountQuery) =>
  valueFilters(columns, q.sets, (set, v) => set.has(v))
