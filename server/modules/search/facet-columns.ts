import { sql } from 'drizzle-orm'
import { choiceOf, filterOf } from '#contract/filters'
import type { Db } from '#server/db/client'
import { rowsOf } from '#server/lib/paging'
import { COUNT_FACETS, COUNTS_FLAG, type CountFacet, type CountQuery } from './filters'
import { FACETS_BYTES, KeptPerCopy } from './kept-per-copy'

// The facet counts and totals of a search without text, price or date are sums over `listing_counts` (one row per
// combination of the facets' columns declared `counts` (contract/filters.ts) and battery ≥ 80%, with its number
// of available listings). Each instance keeps a copy of that table and sums it in memory; one row,
// `listing_counts_version`, which every change to the counts moves on as it commits, tells whether the copy is
// current. So every answer is as exact as a sum in SQL, and costs one indexed row read instead of a pass over
// tens of thousands of rows per facet: docs/decisions/0029-facet-counts-in-memory.md.

/** One facet's column: its distinct values (as search sends them) and, per row, the index of the row's value. */
export type Column = { values: string[]; index: Uint16Array }

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

/** The copy, by column: row r has `n[r]` listings with the values `columns[f].values[columns[f].index[r]]`. */
export type CountsSnapshot = {
  version: string
  size: number
  n: Int32Array
  battery80: Uint8Array
  columns: Record<CountFacet, Column>
}

export type FacetSums = Record<CountFacet, Map<string, number>> & { total: number; battery80: number }

/**
 * One pass over the copy: the total of the rows passing every filter; each facet's counts by value over the rows
 * passing every *other* facet's choices (a facet's own choices stay alternatives); and the rows with a battery of
 * 80% or more passing every filter but the battery's. A row failing exactly one facet's filter counts for that facet
 * alone; failing two, for none.
 */
export function facetSums(s: CountsSnapshot, f: CountQuery): FacetSums {
  return sumsOf.get(s, countKey(f), () => sumFacets(s, f))
}

function sumFacets(s: CountsSnapshot, f: CountQuery): FacetSums {
  const values = COUNT_FACETS.map((name) => s.columns[name].index)
  const outcome = outcomesOf(s.columns, values, s.size, f)
  // A row without the kept flag fails the battery's filter: it counts for no facet, nor for the battery's own count
  // (only rows with the flag are in it).
  if (f.flag) for (let r = 0; r < s.size; r++) if (s.battery80[r] === 0) outcome[r] = NONE
  let total = 0
  let battery80 = 0
  for (let r = 0; r < s.size; r++) {
    if (outcome[r] !== 0) continue
    total += s.n[r] as number
    if (s.battery80[r] === 1) battery80 += s.n[r] as number
  }
  return { total, battery80, ...valuesOf(s.columns, values, outcome, s.n) }
}

/** A row (or combination) that fails two facet filters or more, or a floor: it counts for nothing. */
export const NONE = 255

/**
 * Per row of `size` rows, whose value of each facet is `values[facet][row]` (an index into the column's values), what
 * a query's facet filters and floors make of it: 0 when it passes them all, 1 + the facet's place in COUNT_FACETS when
 * it fails that facet's filter alone (it counts for that facet only), NONE otherwise.
 */
export function outcomesOf(
  columns: Record<CountFacet, Column>,
  values: Uint16Array[],
  size: number,
  query: CountQuery,
) {
  const outcome = new Uint8Array(size)
  // A filter at a time over every row (one tight loop each, not a loop over the filters per row).
  for (const floor of floorFilters({ columns }, query)) {
    const of = values[floor.facet] as Uint16Array
    const { allowed } = floor
    for (let c = 0; c < size; c++) if (allowed[of[c] as number] === 0) outcome[c] = NONE
  }
  for (const filter of facetFilters({ columns }, query)) {
    const of = values[filter.facet] as Uint16Array
    const { allowed } = filter
    const failsThis = filter.facet + 1
    // Failing a first filter counts for that facet alone; failing a second (or a floor), for none.
    for (let c = 0; c < size; c++)
      if (allowed[of[c] as number] === 0) outcome[c] = outcome[c] === 0 ? failsThis : NONE
  }
  return outcome
}

/**
 * Each facet's counts by value, from the rows (or combinations) counted (`counted`, `values` as for outcomesOf) and
 * their outcomes: values counted none are left out, and so is an empty value (a processor that names no family is no
 * choice).
 */
export function valuesOf(
  columns: Record<CountFacet, Column>,
  values: Uint16Array[],
  outcome: Uint8Array,
  counted: Int32Array,
  /** The rows counted, when few (else every one is looked at). */
  some?: number[],
): Record<CountFacet, Map<string, number>> {
  const acc = COUNT_FACETS.map((name) => new Float64Array(columns[name].values.length))
  for (let i = 0, length = some ? some.length : outcome.length; i < length; i++) {
    const c = some ? (some[i] as number) : i
    const o = outcome[c] as number
    const n = counted[c] as number
    if (o === NONE || n === 0) continue
    if (o === 0) {
      for (let facet = 0; facet < acc.length; facet++) {
        const sums = acc[facet] as Float64Array
        const at = (values[facet] as Uint16Array)[c] as number
        sums[at] = (sums[at] as number) + n
      }
    } else {
      const sums = acc[o - 1] as Float64Array
      const at = (values[o - 1] as Uint16Array)[c] as number
      sums[at] = (sums[at] as number) + n
    }
  }
  const out = {} as Record<CountFacet, Map<string, number>>
  COUNT_FACETS.forEach((name, facet) => {
    const map = new Map<string, number>()
    const sums = acc[facet] as Float64Array
    columns[name].values.forEach((value, i) => {
      if (sums[i] && value !== '') map.set(value, sums[i] as number)
    })
    out[name] = map
  })
  return out
}

/**
 * Sums of one copy, by query, for the queries asked lately: a copy never changes, so neither do its sums, and the
 * same few (no filter, each brand) are asked for on most requests.
 */
const sumsOf = new KeptPerCopy<CountsSnapshot, FacetSums>('facet sums', 1024 * 1024, () => FACETS_BYTES)

/** A query as text, the same whatever order its choices came in. */
function countKey(f: CountQuery): string {
  const set = (values: ReadonlySet<string> | undefined) => (values ? [...values].sort().join(',') : '*')
  return [
    ...COUNT_FACETS.map((name) => `${set(f.sets[name])}${f.floors[name] ?? ''}`),
    f.flag ? 'b' : '',
  ].join('|')
}

type Columns = { columns: Record<CountFacet, Column> }

/** Per facet `accepts` tests (in COUNT_FACETS' order), the values' indexes it accepts, with the rows' value indexes. */
function valueFilters(s: Columns, accepts: (name: CountFacet) => ((value: string) => boolean) | undefined) {
  return COUNT_FACETS.flatMap((name, facet) => {
    const test = accepts(name)
    if (!test) return []
    const { values, index } = s.columns[name]
    return [{ facet, index, allowed: Uint8Array.from(values, (v) => (test(v) ? 1 : 0)) }]
  })
}

/** Each facet filter of the query as the values' indexes it accepts, with the rows' value indexes. */
export const facetFilters = (s: Columns, f: CountQuery) =>
  valueFilters(s, (name) => {
    const accepted = f.sets[name]
    return accepted && ((v) => accepted.has(v))
  })

/** Each floor of the query (at least this much RAM) as the facet's values it accepts: a row failing one counts for none. */
export const floorFilters = (s: Columns, f: CountQuery) =>
  valueFilters(s, (name) => {
    const min = f.floors[name]
    return min === undefined ? undefined : (v) => Number(v) >= min
  })

/**
 * A version of the version row: `version` moves on at every change to the counts or to a listing's facts search
 * filters on, `terms_version` at every change to the titles' vocabulary, `brands_version` at every change to the brands.
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

type Held = { version: string; snapshot: Promise<CountsSnapshot> }
/** Per database (tests open many in one process); a transaction is another key and loads its own. */
const held = new WeakMap<Db, Held>()

/**
 * The counts as of now: the copy when its version is the database's, else a fresh one. `known`: the version a
 * statement of this request has just read (saves reading it again).
 */
export async function countsSnapshot(db: Db, known?: string): Promise<CountsSnapshot> {
  const version = known ?? (await readVersion(db))
  const mine = held.get(db)
  if (mine && mine.version === version) return mine.snapshot
  const snapshot: Promise<CountsSnapshot> = loadSnapshot(db, version).then((loaded) => {
    // Known by the version it was read at, which may be newer than the one read first.
    if (held.get(db)?.snapshot === snapshot) held.set(db, { version: loaded.version, snapshot })
    return loaded
  })
  held.set(db, { version, snapshot })
  snapshot.catch(() => {
    if (held.get(db)?.snapshot === snapshot) held.delete(db)
  })
  return snapshot
}

async function loadSnapshot(db: Db, versionRead: string): Promise<CountsSnapshot> {
  // The version and the rows in one statement, so they come from one moment of the database.
  // Each facet's column as declared, and the kept flag.
  const counted = COUNT_FACETS.map((name) => filterOf(name).counts as string)
  const rows = await rowsOf<Record<string, string | number | boolean>>(
    db,
    sql`select (select version::text from listing_counts_version where id) as version, ${sql.raw(
      [...new Set(counted)].map((c) => `${c}::text as ${c}`).join(', '),
    )}, ${sql.raw(COUNTS_FLAG.flag)} as flag, n
    from listing_counts where n > 0`,
  )
  return {
    // With rows, their own version (a commit may have come between the two reads; the next request reloads).
    version: (rows[0]?.version as string | undefined) ?? versionRead,
    size: rows.length,
    n: Int32Array.from(rows, (r) => Number(r.n)),
    battery80: Uint8Array.from(rows, (r) => (r.flag === true ? 1 : 0)),
    columns: Object.fromEntries(
      COUNT_FACETS.map((name, i) => {
        const column = counted[i] as string
        return [
          name,
          dictionaryColumn(rows.map((r) => String(choiceOf(filterOf(name), r[column] as string) ?? ''))),
        ]
      }),
    ) as Record<CountFacet, Column>,
  }
}
