import { sql } from 'drizzle-orm'
import { FILTER_KEYS, filterOf } from '#contract/filters'
import { BATTERY_FACET_PCT, POSTED_WITHIN_DAYS, type SearchQuery } from '#contract/search'
import type { Db } from '#server/db/client'
import { isOnSale } from '#server/lib/on-sale'
import { rowsOf } from '#server/lib/paging'
import { type Column, dictionaryColumn, facetFilters, outcomesOf } from './facet-columns'
import {
  type Bounds,
  boundsOf,
  COUNT_FACETS,
  type CountFacet,
  choiceSql,
  columnName,
  countQueryOf,
  perCountFacet,
  type Row,
} from './filters'
import { KeptPerCopy, onceEach, TYPED_ARRAY_BYTES } from './kept-per-copy'
import { buildTextIndex, descending, lowerBound, type TextIndex } from './listing-text'
import { type ArrayKind, latin1At, latin1Bytes, sharedArray, sharedFrom } from './shared-texts'

// Every on-sale listing's filter columns, copied into each instance as arrays: a search's counts and total
// are one pass in memory, not a statement grouping every match. Used only when as current as the database
// (the version row moves at every change, migrations 0018, 0027); behind, SQL answers and a reload starts:
// docs/decisions/0031-listing-facts-in-memory.md. Here: the copy and which rows filters pass.

export const DAY_MS = 86_400_000

/** A copy: arrays (arraysOf: an item per row, a listing) and rows by facet values' combination (combosOf). */
export type ListingFacts = ReturnType<typeof arraysOf> & { combos: ReturnType<typeof combosOf> }

/** What the copy holds of one listing, each column as text, as the database gives it. */
export type FactRow = Record<CountFacet | Row, string> & {
  /** Microseconds since 1970. */
  posted: string
  id: string
  words: string
  title_words: string
  title: string
}

/** The per-listing arrays the declared bounds read (a price; a battery, -1 when not reported), by name. */
const ROW_COLUMNS = new Map(
  FILTER_KEYS.flatMap((k) => {
    const f = filterOf(k)
    return f.row ? [[f.row, `coalesce(${columnName(f)}, -1)::text as ${f.row}`] as const] : []
  }),
)

/** A posting time as FactRow holds it, in SQL: microseconds since 1970, as text (`column`: its SQL). */
export const postedUs = (column: string) => `(extract(epoch from ${column}) * 1000000)::bigint::text`

/** FactRow's columns of one value per listing (each facet's choice, each bound's value, the posting time). */
const LISTED = [...COUNT_FACETS, ...ROW_COLUMNS.keys(), 'posted'] as const

export const FACT_COLUMNS =
  sql.raw(`${COUNT_FACETS.map((name) => `${choiceSql(name)} as ${name}`).join(', ')},
  ${[...ROW_COLUMNS.values()].join(', ')},
  ${postedUs('posted_on')} as posted, id::text as id,
  array_to_string(tsvector_to_array(search_vector), ' ') as words,
  array_to_string(tsvector_to_array(ts_filter(search_vector, '{a}')), ' ') as title_words, search_title as title`)

/**
 * Listings on sale with the version read; with `commits`, those the commits changed (a bulk load's part of a
 * view: listing-feed.ts). With `words`, the words (half the database's time) are read on it at once, on
 * `db`'s exported snapshot (same listings, same order), to use two cores: docs/decisions/0105-*.
 */
export async function readFacts(db: Db, commits?: string[], words?: Db): Promise<ListingFacts> {
  const listings = listingsOf(commits)
  if (!words) {
    // One statement, so the version and the columns come from one moment of the database; each column is one
    // text (split here), far cheaper to read than a row per listing.
    const [row] = await rowsOf<AggregatedFacts>(db, sql`select ${FACTS}, ${WORDS} from ${listings}`)
    return factsOf(row ?? { titles: [] })
  }
  await db.execute(sql`begin isolation level repeatable read read only`)
  await words.execute(sql`begin isolation level repeatable read read only`)
  try {
    const [{ snapshot } = { snapshot: '' }] = await rowsOf<{ snapshot: string }>(
      db,
      sql`select pg_export_snapshot() as snapshot`,
    )
    await words.execute(sql`set transaction snapshot ${sql.raw(`'${snapshot.replace(/'/g, '')}'`)}`)
    const [rest, texts] = await Promise.all([
      rowsOf<AggregatedFacts>(db, sql`select ${FACTS} from ${listings}`),
      rowsOf<AggregatedFacts>(words, sql`select ${WORDS}, count(*)::text as words_size from ${listings}`),
    ])
    const row = { ...rest[0], ...texts[0] } as AggregatedFacts
    if (row.size !== row.words_size)
      throw new Error(`The copy's words were read for ${row.words_size} listings, its facts for ${row.size}`)
    return factsOf(row)
  } finally {
    await words.execute(sql`commit`)
    await db.execute(sql`commit`)
  }
}

/** Newest first (the order of the index read), so the posting-date counts can stop at the longest choice. */
const listingsOf = (commits?: string[]) => sql`(select ${FACT_COLUMNS} from products where ${isOnSale}
  ${commits ? sql`and products.id in (select c.product_id from listing_change_commits k join listing_changes c on c.tx = k.tx where k.version = any(${`{${commits.join(',')}}`}::bigint[]))` : sql``}
  order by posted_on desc nulls last, id desc nulls last) as listings`

/** The copy's columns but its words, each one text. */
const FACTS = sql`(select version::text from listing_counts_version where id) as version, count(*)::text as size,
  ${sql.raw(LISTED.map((name) => `string_agg(${name}, ',') as ${name}`).join(', '))},
  string_agg(id, '') as ids, coalesce(json_agg(title), '[]') as titles`

/** The copy's words and the words of its brands and names, each one text (rows by a line feed). */
const WORDS = sql`string_agg(words, E'\n') as words, string_agg(title_words, E'\n') as title_words`

/** A copy of the listings changed since a copy was read: rows newest first, as the database orders them. */
export function factsFromRows(version: string, rows: FactRow[]): ListingFacts {
  const sorted = rows
    .map((row) => ({ row, posted: Number(row.posted) }))
    .sort((a, b) => b.posted - a.posted || descending(a.row.id, b.row.id))
    .map((keyed) => keyed.row)
  const join = (name: keyof FactRow, by = ',') => sorted.map((r) => r[name]).join(by)
  return factsOf({
    version,
    size: String(sorted.length),
    ...Object.fromEntries(LISTED.map((name) => [name, join(name)])),
    ids: join('id', ''),
    words: join('words', '\n'),
    title_words: join('title_words', '\n'),
    titles: sorted.map((r) => r.title),
  })
}

/** Every listing's facts, each column as one text (values separated by commas; ids one after the other). */
type AggregatedFacts = { [column: string]: string | string[] | null | undefined; titles: string[] }

/** A copy's listings as columns, a row each, newest first: what a copy is made of (read, or merged: facts-rebase.ts). */
type CopyColumns = {
  version: string
  /** Each facet's column: its values, as search sends them, and each row's. */
  facets: Record<CountFacet, Column>
  postedUs: Float64Array
  priceCents: Int32Array
  /** -1: not reported. */
  battery: Int16Array
  /** 36 one-byte characters a row. */
  ids: Uint8Array
  text: TextIndex
  /** Rows by price (arraysOf's `byPrice`), when known: else sorted here. */
  byPrice?: Int32Array
}

function factsOf(row: AggregatedFacts): ListingFacts {
  const text = (name: string) => (row[name] as string | null | undefined) ?? ''
  const size = Number(text('size') || 0)
  const split = (name: string) => (size > 0 ? text(name).split(',') : [])
  const numbers = (name: string) => split(name).map(Number)
  return copyOf({
    version: text('version') || '0',
    facets: perCountFacet((name) => dictionaryColumn(split(name))),
    postedUs: sharedFrom(Float64Array, numbers('posted')),
    priceCents: sharedFrom(Int32Array, numbers('price')),
    battery: sharedFrom(Int16Array, numbers('battery')),
    ids: latin1Bytes(text('ids')),
    text: buildTextIndex(size, text('words'), text('title_words'), row.titles ?? []),
  })
}

export function copyOf(listed: CopyColumns): ListingFacts {
  const facts = arraysOf(listed)
  return { ...facts, combos: combosOf(facts) }
}

function arraysOf({
  version,
  facets: columns,
  postedUs,
  priceCents,
  battery,
  ids,
  text,
  byPrice,
}: CopyColumns) {
  const size = postedUs.length
  const postedMs = sharedArray(Float64Array, size)
  for (let r = 0; r < size; r++) postedMs[r] = (postedUs[r] as number) / 1000
  // An aggregate reads a sorted subquery in its order; checked, as the posting-date counts rely on it.
  let newestFirst = true
  for (let r = 1; r < postedMs.length && newestFirst; r++)
    newestFirst = (postedMs[r] as number) <= (postedMs[r - 1] as number)
  return {
    version,
    size,
    /** Rows are in posting order, newest first. */
    newestFirst,
    columns,
    /** Per facet, each value's rows in row order (narrowestChoice); shared, as each thread's own cost 115 ms, 25 MB. */
    valueRows: perCountFacet((name) => valueRowsOf(columns[name])),
    /** -1: not reported. */
    battery,
    priceCents,
    postedMs,
    /** The posting time to the microsecond, as the database keeps it: what a cursor compares with. */
    postedUs,
    /** Every row's id, 36 one-byte characters each, one after the other, as bytes (shared with the search threads). */
    ids,
    /** Rows by price, cheapest first, ties by id: the order of `sort=price_asc` (backwards, `price_desc`). */
    byPrice: byPrice ?? priceOrder(priceCents, ids),
    /** Every listing's searchable words (listing-text.ts). */
    text,
  }
}

/**
 * The distinct combinations of facet values (about 28,000 at 1,000,000 listings), in one pass: facet filters
 * are tested once per combination, not per listing; a search with no other filter counts from them alone.
 */
function combosOf(f: ReturnType<typeof arraysOf>) {
  const { columns, battery, size, byPrice, priceCents, postedMs } = f
  const indexes = COUNT_FACETS.map((name) => columns[name].index)
  const radix = COUNT_FACETS.map((name) => Math.max(1, columns[name].values.length))
  // A combination's key: its values as one number, exact while the facets' sizes' product is (else as text).
  const numeric = radix.reduce((a, b) => a * b, 1) <= Number.MAX_SAFE_INTEGER
  const idOf = new Map<number | string, number>()
  const ofRow = sharedArray(Int32Array, size)
  const firstRow: number[] = []
  const rows: number[] = []
  const battery80: number[] = []
  // About 32 blocks at any size: a search reads at most one block's rows beyond the counts kept per block.
  const block = Math.max(1_024, 2 ** Math.ceil(Math.log2(Math.max(1, size) / 32)))
  const before: Int32Array[] = []
  for (let r = 0; r < size; r++) {
    if (r % block === 0) before.push(Int32Array.from(rows))
    let key: number | string = 0
    if (numeric) {
      for (let i = 0; i < indexes.length; i++)
        key = (key as number) * (radix[i] as number) + ((indexes[i] as Uint16Array)[r] as number)
    } else key = indexes.map((index) => index[r]).join(',')
    let c = idOf.get(key)
    if (c === undefined) {
      c = rows.length
      idOf.set(key, c)
      rows.push(0)
      battery80.push(0)
      firstRow.push(r)
    }
    ofRow[r] = c
    rows[c] = (rows[c] as number) + 1
    if ((battery[r] as number) >= BATTERY_FACET_PCT) battery80[c] = (battery80[c] as number) + 1
  }
  before.push(Int32Array.from(rows))
  // Each combination's rows in price order: byPrice walked once, each row to its combination's next place.
  const start = new Int32Array(rows.length + 1)
  for (let c = 0; c < rows.length; c++) start[c + 1] = (start[c] as number) + (rows[c] as number)
  const next = start.slice(0, rows.length)
  const order = sharedArray(Int32Array, size)
  for (let i = 0; i < size; i++) {
    const r = byPrice[i] as number
    const c = ofRow[r] as number
    order[next[c] as number] = r
    next[c] = (next[c] as number) + 1
  }
  const batteryInOrder = inOrder(battery, order)
  const batteryAscending = sharedFrom(Int32Array, batteryInOrder)
  const at = Date.now()
  const since = POSTED_WITHIN_DAYS.map((days) => at - days * DAY_MS)
  const atLeast80 = sharedArray(Int32Array, size + 1)
  const within = since.map(() => sharedArray(Int32Array, size + 1))
  for (let i = 0; i < size; i++) {
    const r = order[i] as number
    atLeast80[i + 1] = (atLeast80[i] as number) + ((battery[r] as number) >= BATTERY_FACET_PCT ? 1 : 0)
    const posted = postedMs[r] as number
    for (let k = 0; k < since.length; k++) {
      const counts = within[k] as Int32Array
      counts[i + 1] = (counts[i] as number) + (posted >= (since[k] as number) ? 1 : 0)
    }
  }
  return {
    /** Each row's combination. */
    ofRow,
    /** Per facet (in COUNT_FACETS' order), each combination's value (an index into the column's values). */
    values: indexes.map((index) => Uint16Array.from(firstRow, (r) => index[r] as number)),
    /** Per combination, its rows, and those with a battery at BATTERY_FACET_PCT or more. */
    rows: Int32Array.from(rows),
    battery80: Int32Array.from(battery80),
    block,
    /** before[k][c]: the rows of combination c among rows 0 .. k * block - 1 (combinations first seen later: none). */
    before,
    /**
     * The rows grouped by combination, cheapest first within each (c's at start[c] .. start[c + 1] - 1), with their
     * price, battery and posting time in that order: a count reads a combination's price run from adjacent memory.
     * Counts along that order count a run by two reads: `battery80[i]` the rows before position i with a battery at
     * BATTERY_FACET_PCT or more, `within[k][i]` those posted within POSTED_WITHIN_DAYS[k] of `at` (the copy's clock;
     * facts-counts.ts corrects for the rows that left a choice since). A battery floor over a whole run is counted in
     * `batteryAscending` (decision 0150).
     */
    byCombo: {
      start,
      rows: order,
      price: inOrder(priceCents, order),
      battery: batteryInOrder,
      postedMs: inOrder(postedMs, order),
      at,
      battery80: atLeast80,
      within,
      /** Each combination's batteries, lowest first (c's at start[c] .. start[c + 1] - 1): a floor's count by bisection. */
      batteryAscending: ascendingRuns(start, batteryAscending),
    },
  }
}

/**
 * values[order[i]] at each i, in an array of values' kind: shared, as a copy's arrays are (handed over, not copied), or
 * with `shared` false one of the thread's own (a view's dead rows gathered: listing-view.ts). A loop:
 * `TypedArray.from(order, mapping)` took ten times as long (125–210 ms for 1,000,000 rows, four in each copy made).
 */
export function inOrder<A extends Int32Array | Int16Array | Float64Array>(
  values: A,
  order: Int32Array,
  shared = true,
): A {
  const Kind = values.constructor as unknown as ArrayKind<A> & (new (length: number) => A)
  const out = shared ? sharedArray(Kind, order.length) : new Kind(order.length)
  for (let i = 0; i < order.length; i++) out[i] = values[order[i] as number] as number
  return out
}

/** `values` with each run start[c] .. start[c + 1] - 1 sorted, lowest first. */
function ascendingRuns(start: Int32Array, values: Int32Array): Int32Array {
  for (let c = 0; c + 1 < start.length; c++) values.subarray(start[c], start[c + 1]).sort()
  return values
}

/** The row holding listing `id` posted at `postedUs` (rows go by posting time, then id, both down), or -1. */
export function rowOf(f: ListingFacts, id: string, postedUs: number): number {
  const at = lowerBound(f.size, (r) => {
    const us = f.postedUs[r] as number
    return us < postedUs || (us === postedUs && idAt(f, r) <= id)
  })
  return at < f.size && idAt(f, at) === id ? at : -1
}

/** Sorted in the background load, not a request; ids by byte (one-byte characters: byte = text order). */
function priceOrder(priceCents: Int32Array, ids: Uint8Array): Int32Array {
  const order = sharedArray(Int32Array, priceCents.length)
  for (let r = 0; r < order.length; r++) order[r] = r
  return order.sort((a, b) => {
    const d = (priceCents[a] as number) - (priceCents[b] as number)
    for (let x = a * ID_LENGTH, y = b * ID_LENGTH, i = 0; d === 0 && i < ID_LENGTH; i++, x++, y++)
      if (ids[x] !== ids[y]) return (ids[x] as number) - (ids[y] as number)
    return d
  })
}

export const ID_LENGTH = 36

/** The id of row r (as PostgreSQL prints a uuid: lower case, so text order is the database's order). */
export const idAt = (f: ListingFacts, r: number) => latin1At(f.ids, r * ID_LENGTH, (r + 1) * ID_LENGTH)

/**
 * What a search's facet filters and floors make of each combination (outcomesOf), kept per copy's combinations
 * (a view's dead rows, gathered apart, share their copy's).
 */
export function comboOutcomes(f: ListingFacts, q: SearchQuery): Uint8Array {
  return outcomesIn.get(f.combos.values, filtersKey(q), () =>
    outcomesOf(f.columns, f.combos.values, f.combos.rows.length, countQueryOf(q)),
  )
}

/** The combinations' outcomes of the searches asked lately (a byte per combination: 4 MB at most). */
const outcomesIn = new KeptPerCopy<object, Uint8Array>(
  'outcomes by combination',
  4 * 1024 * 1024,
  (o) => o.byteLength + TYPED_ARRAY_BYTES,
)

/** The sum of `counts` (one per combination) over those passing every facet filter (comboOutcomes: 0). */
export function sumPassing(outcome: Uint8Array, counts: Int32Array): number {
  let n = 0
  for (let c = 0; c < counts.length; c++) if (outcome[c] === 0) n += counts[c] as number
  return n
}

/** The first row posted before `sinceMs`, or the copy's size. */
export const firstOlder = (f: ListingFacts, sinceMs: number) =>
  lowerBound(f.size, (r) => (f.postedMs[r] as number) < sinceMs)

/**
 * A search's declared filters (not its text, sort or paging) as text, the same whatever order its choices
 * came in. Made once per search (a parsed search never changes): its page, counts and total are kept by it.
 */
export const filtersKey = onceEach((q: SearchQuery): string =>
  FILTER_KEYS.flatMap((key) => {
    const value = q[key]
    if (value === undefined) return []
    const choices = Array.isArray(value) ? value.map((v) => String(v).toLowerCase()).sort() : [value]
    return [`${key}=${choices.join(',')}`]
  }).join('&'),
)

/** The run of byPrice priced within a search's price range: its first position and the one past its last. */
export function priceRun(f: ListingFacts, { minPrice, maxPrice }: Bounds): [number, number] {
  const price = (i: number) => f.priceCents[f.byPrice[i] as number] as number
  const at = (cents: number) => lowerBound(f.size, (i) => price(i) >= cents)
  return [at(minPrice), at(maxPrice + 1)]
}

export const PASSES = 0
const FAILS = 1
export const TOO_OLD = 2

/** Whether row r passes every filter but the text: PASSES, FAILS, or TOO_OLD for "posted within". */
export function passesAll(f: ListingFacts, q: SearchQuery, nowMs: number): (r: number) => number {
  const postedAfter = nowMs - (q.posted_within ?? 0) * DAY_MS
  // The facet filters and RAM and storage minimums: the row's combination's outcome.
  const outcome = comboOutcomes(f, q)
  const { ofRow } = f.combos
  const { postedMs, priceCents, battery } = f
  const { minPrice, maxPrice, minBattery } = boundsOf(q)
  // Each test reads its own array, a row's value far from the last row's: only those a search sets are read.
  const dated = q.posted_within !== undefined
  const priced = minPrice > -Infinity || maxPrice < Infinity
  const floored = minBattery > -Infinity
  return (r) => {
    if (dated && (postedMs[r] as number) < postedAfter) return TOO_OLD
    if (outcome[ofRow[r] as number] !== 0) return FAILS
    if (priced) {
      const price = priceCents[r] as number
      if (price < minPrice || price > maxPrice) return FAILS
    }
    return floored && (battery[r] as number) < minBattery ? FAILS : PASSES
  }
}

/** A facet's value's rows in row order, each: filled from the last row back, each list from its end. */
function valueRowsOf({ index, values }: Column): Int32Array[] {
  const left = new Int32Array(values.length)
  for (const v of index) left[v] = (left[v] as number) + 1
  const lists = Array.from(left, (n) => sharedArray(Int32Array, n))
  for (let r = index.length - 1; r >= 0; r--) {
    const v = index[r] as number
    left[v] = (left[v] as number) - 1
    ;(lists[v] as Int32Array)[left[v] as number] = r
  }
  return lists
}

/** The facet filter allowing fewest rows: its choices' row lists (each in row order), their size, a key. */
type Narrowest = { lists: Int32Array[]; size: number; key: string }

export function narrowestChoice(f: ListingFacts, q: SearchQuery): Narrowest | undefined {
  let best: Narrowest | undefined
  for (const filter of facetFilters(f.columns, countQueryOf(q))) {
    const name = COUNT_FACETS[filter.facet] as CountFacet
    const lists = f.valueRows[name].filter((_, v) => filter.allowed[v] === 1)
    const size = lists.reduce((n, l) => n + l.length, 0)
    if (size <= (best?.size ?? f.size)) best = { lists, size, key: `${name}:${filter.allowed.join('')}` }
  }
  return best
}

export const everyRow = onceEach((f: ListingFacts) => {
  // A loop: Int32Array.from with a function took 23 ms at 1,000,000 listings.
  const rows = new Int32Array(f.size)
  for (let r = 0; r < f.size; r++) rows[r] = r
  return rows
})
