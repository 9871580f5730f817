import { sql } from 'drizzle-orm'
import { BATTERY_FACET_PCT, POSTED_WITHIN_DAYS, type SearchQuery } from '#contract/search'
import type { Db } from '#server/db/client'
import { type CursorKey, type Paging, rowsOf } from '#server/lib/paging'
import {
  COUNT_FACETS,
  type Column,
  type CountFacet,
  countQueryOf,
  countsByValue,
  dictionaryColumn,
  facetFilters,
} from './counts-snapshot'
import { type Bounds, boundsOf } from './filters'
import { KeptPerCopy } from './kept-per-copy'
import { buildTextIndex, type TextIndex, type TextRows } from './listing-text'
import { isOnSale } from './on-sale'

// The filter columns of every listing on sale, copied into each instance as arrays, so that the facet counts and the
// total of a search without text are one pass in memory whatever its filters (a price range, a posting date, a
// battery floor), instead of a statement that groups every matching listing (tens of thousands at 100,000 listings).
// The copy is used only when it is as current as the database: the version row that listing_counts keeps also moves
// on when a listing's price, date or battery changes (migration 0018). When the copy is behind, the caller answers
// from SQL and one reload starts in the background: docs/decisions/0031-listing-facts-in-memory.md.

const DAY_MS = 86_400_000

export type ListingFacts = {
  version: string
  size: number
  columns: Record<CountFacet, Column>
  ram: Int32Array
  storage: Int32Array
  /** -1: not reported. */
  battery: Int16Array
  priceCents: Int32Array
  postedMs: Float64Array
  /** The posting time to the microsecond, as the database keeps it: what a cursor compares with. */
  postedUs: Float64Array
  /** Every row's id, 36 characters each, one after the other (far less memory than a string per row). */
  ids: string
  /** Rows by price, cheapest first, ties by id: the order of `sort=price_asc` (backwards, `price_desc`). */
  byPrice: Int32Array
  /** Rows are in posting order, newest first. */
  newestFirst: boolean
  /** Every listing's searchable words (listing-text.ts). */
  text: TextIndex
  /** The rows by their facet values' combination (combosOf). */
  combos: Combos
}

/**
 * The distinct combinations of the facet columns' values among the rows (about 28,000 at 1,000,000 listings): each
 * row's combination, each combination's value of each facet, its rows, its rows with a battery at
 * BATTERY_FACET_PCT or more, and how many of its rows come before each block of `block` rows. A search's facet
 * filters (and RAM and storage minimums, which are values of facets too) are then tested once per combination
 * instead of once per listing, and a search with no other filter is counted from the combinations alone.
 */
export type Combos = {
  ofRow: Int32Array
  size: number
  /** Per facet (in COUNT_FACETS' order), each combination's value (an index into the column's values). */
  values: Uint16Array[]
  rows: Int32Array
  battery80: Int32Array
  block: number
  /** before[k][c]: the rows of combination c among rows 0 .. k * block - 1 (combinations first seen later: none). */
  before: Int32Array[]
}

/** The counts of a search without text: its total, each facet's counts by value, the posting-date and battery facets. */
export type FactsFacets = {
  total: number
  values: Record<CountFacet, Map<string, number>>
  /** Per POSTED_WITHIN_DAYS choice, in that order. */
  postedWithin: number[]
  battery80: number
}

/** What the copy holds of one listing, each column as text, as the database gives it. */
export type FactRow = {
  brand: string
  condition: string
  ram: string
  storage: string
  screen: string
  processor: string
  battery: string
  price: string
  /** Microseconds since 1970. */
  posted: string
  id: string
  words: string
  title_words: string
  title: string
}

/** The columns of FactRow, read from `products`. */
export const FACT_COLUMNS = sql`brand_id::text as brand, condition, ram_gb::text as ram, storage_gb::text as storage,
  floor(screen_inches)::int::text as screen, coalesce(processor_family, '') as processor,
  coalesce(battery_health_pct, -1)::text as battery, resale_price_cents::text as price,
  (extract(epoch from posted_on) * 1000000)::bigint::text as posted, id::text as id,
  array_to_string(tsvector_to_array(search_vector), ' ') as words,
  array_to_string(tsvector_to_array(ts_filter(search_vector, '{a}')), ' ') as title_words, search_title as title`

/** Every listing on sale, with the version it was read at. */
export async function readFacts(db: Db): Promise<ListingFacts> {
  // One statement, so the version and the columns come from one moment of the database; each column is one text
  // (split here), which is far cheaper to read than a row per listing.
  // Newest first (the order of the index it reads), so the posting-date counts can stop at the longest choice.
  const [row] = await rowsOf<AggregatedFacts>(
    db,
    sql`select (select version::text from listing_counts_version where id) as version, count(*)::text as size,
      string_agg(brand, ',') as brand, string_agg(condition, ',') as condition,
      string_agg(ram, ',') as ram, string_agg(storage, ',') as storage, string_agg(screen, ',') as screen,
      string_agg(processor, ',') as processor, string_agg(battery, ',') as battery, string_agg(price, ',') as price,
      string_agg(posted, ',') as posted, string_agg(id, '') as ids, string_agg(words, E'\n') as words,
      string_agg(title_words, E'\n') as title_words, coalesce(json_agg(title), '[]') as titles
    from (select ${FACT_COLUMNS} from products where ${isOnSale}
      order by posted_on desc nulls last, id desc nulls last) as listings`,
  )
  return factsOf(row ?? { titles: [] })
}

/** A copy of a few listings (those changed since a copy was read), in memory: rows newest first, as the database orders them. */
export function factsFromRows(version: string, rows: FactRow[]): ListingFacts {
  const sorted = rows
    .map((row) => ({ row, posted: Number(row.posted) }))
    .sort((a, b) => b.posted - a.posted || (a.row.id < b.row.id ? 1 : a.row.id > b.row.id ? -1 : 0))
    .map((keyed) => keyed.row)
  const join = (name: keyof FactRow, by = ',') => sorted.map((r) => r[name]).join(by)
  return factsOf({
    version,
    size: String(sorted.length),
    brand: join('brand'),
    condition: join('condition'),
    ram: join('ram'),
    storage: join('storage'),
    screen: join('screen'),
    processor: join('processor'),
    battery: join('battery'),
    price: join('price'),
    posted: join('posted'),
    ids: join('id', ''),
    words: join('words', '\n'),
    title_words: join('title_words', '\n'),
    titles: sorted.map((r) => r.title),
  })
}

/** Every listing's facts, each column as one text (values separated by commas; ids one after the other). */
type AggregatedFacts = { [column: string]: string | string[] | null | undefined; titles: string[] }

function factsOf(row: AggregatedFacts): ListingFacts {
  const text = (name: string) => {
    const value = row[name]
    return typeof value === 'string' ? value : ''
  }
  const size = Number(text('size') || 0)
  const split = (name: string) => (size > 0 ? text(name).split(',') : [])
  const numbers = (name: string) => split(name).map(Number)
  const column = (name: string): Column => dictionaryColumn(split(name))
  const postedUs = Float64Array.from(numbers('posted'))
  const postedMs = postedUs.map((us) => us / 1000)
  const priceCents = Int32Array.from(numbers('price'))
  const ids = text('ids')
  // An aggregate reads a sorted subquery in its order; checked, as the posting-date counts rely on it.
  let newestFirst = true
  for (let r = 1; r < postedMs.length && newestFirst; r++)
    newestFirst = (postedMs[r] as number) <= (postedMs[r - 1] as number)
  const columns = {
    brand: column('brand'),
    condition: column('condition'),
    ram: column('ram'),
    storage: column('storage'),
    screen: column('screen'),
    processor: column('processor'),
  }
  const battery = Int16Array.from(numbers('battery'))
  return {
    version: text('version') || '0',
    size,
    newestFirst,
    columns,
    ram: Int32Array.from(numbers('ram')),
    storage: Int32Array.from(numbers('storage')),
    battery,
    priceCents,
    postedMs,
    postedUs,
    ids,
    byPrice: priceOrder(priceCents, ids),
    text: buildTextIndex(size, text('words'), text('title_words'), row.titles ?? []),
    combos: combosOf(columns, battery, size),
  }
}

/** The combinations of a copy's facet values (Combos), in one pass over its rows. */
function combosOf(columns: Record<CountFacet, Column>, battery: Int16Array, size: number): Combos {
  const indexes = COUNT_FACETS.map((name) => columns[name].index)
  const radix = COUNT_FACETS.map((name) => Math.max(1, columns[name].values.length))
  // A combination's key: its values as one number, exact while the product of the facets' sizes is (else as text).
  const numeric = radix.reduce((a, b) => a * b, 1) <= Number.MAX_SAFE_INTEGER
  const idOf = new Map<number | string, number>()
  const ofRow = new Int32Array(size)
  const values: number[][] = COUNT_FACETS.map(() => [])
  const rows: number[] = []
  const battery80: number[] = []
  // About 32 blocks whatever the size: a search reads at most one block's rows beyond the counts kept per block.
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
      for (let i = 0; i < indexes.length; i++)
        (values[i] as number[]).push((indexes[i] as Uint16Array)[r] as number)
    }
    ofRow[r] = c
    rows[c] = (rows[c] as number) + 1
    if ((battery[r] as number) >= BATTERY_FACET_PCT) battery80[c] = (battery80[c] as number) + 1
  }
  before.push(Int32Array.from(rows))
  return {
    ofRow,
    size: rows.length,
    values: values.map((v) => Uint16Array.from(v)),
    rows: Int32Array.from(rows),
    battery80: Int32Array.from(battery80),
    block,
    before,
  }
}

/** The row of a copy holding listing `id` posted at `postedUs` (rows are by posting time, then id, both down), or -1. */
export function rowOf(f: ListingFacts, id: string, postedUs: number): number {
  const at = lowerBound(f.size, (r) => {
    const us = f.postedUs[r] as number
    return us < postedUs || (us === postedUs && idAt(f, r) <= id)
  })
  return at < f.size && idAt(f, at) === id ? at : -1
}

/** Rows by (price, id): sorted once per copy, in the background load, not in a request. */
function priceOrder(priceCents: Int32Array, ids: string): Int32Array {
  const id = (r: number) => ids.slice(r * ID_LENGTH, (r + 1) * ID_LENGTH)
  return Int32Array.from({ length: priceCents.length }, (_, r) => r).sort(
    (a, b) => (priceCents[a] as number) - (priceCents[b] as number) || compareText(id(a), id(b)),
  )
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const ID_LENGTH = 36

/** The id of row r (as PostgreSQL prints a uuid: lower case, so text order is the database's order). */
export const idAt = (f: ListingFacts, r: number) => f.ids.slice(r * ID_LENGTH, (r + 1) * ID_LENGTH)

const POSTED = COUNT_FACETS.length

/**
 * One pass over the copy for a search (over its text's matches, with text): the total of the listings passing every filter; each facet's
 * counts over the listings passing every *other* facet's filter (a facet's own choices stay alternatives), the
 * posting-date choices and the battery choice likewise. A listing failing exactly one facet's filter counts for that
 * facet alone; failing two, for none. `nowMs`: the clock "posted within" counts back from.
 */
export function factsFacets(f: ListingFacts, q: SearchQuery, nowMs: number, text?: TextRows): FactsFacets {
  if (!f.newestFirst) return countFacts(f, q, nowMs, text).facets
  // Facet filters alone (RAM and storage minimums among them, a date filter too): from the combinations, kept.
  if (!text && !rowBounds(boundsOf(q))) return comboFacets(f, q, nowMs)
  if (q.posted_within !== undefined) return countFacts(f, q, nowMs, text).facets
  return heldFacets(f, q, nowMs, text)
}

/** Whether a search's bounds must be tested per listing: a price range or a battery floor. */
const rowBounds = (b: Bounds) => b.minPrice > -Infinity || b.maxPrice < Infinity || b.minBattery > -Infinity

/** A combination that fails two facet filters or more, or a RAM or storage minimum: it counts for nothing. */
const NONE = 255

/**
 * Per combination of a copy, what a search's facet filters and RAM and storage minimums make of it: 0 when it passes
 * them all, 1 + the facet's place in COUNT_FACETS when it fails that facet's filter alone (it counts for that facet
 * only), NONE otherwise.
 */
function comboOutcomes(f: ListingFacts, q: SearchQuery, bounds: Bounds): Uint8Array {
  return outcomesIn.get(f, filtersKey(q), () => outcomesOf(f, q, bounds))
}

/** Per copy, the combinations' outcomes of the searches asked lately (a byte per combination: 8 MB at most). */
const outcomesIn = new KeptPerCopy<ListingFacts, Uint8Array>(8 * 1024 * 1024, (o) => o.byteLength + 256)

function outcomesOf(f: ListingFacts, q: SearchQuery, bounds: Bounds): Uint8Array {
  const { combos, columns } = f
  const filters = facetFilters(f, countQueryOf(q))
  const atLeast = (name: 'ram' | 'storage', min: number) =>
    Uint8Array.from(columns[name].values, (v) => (Number(v) >= min ? 1 : 0))
  const ramOk = atLeast('ram', bounds.minRam)
  const storageOk = atLeast('storage', bounds.minStorage)
  const ram = combos.values[COUNT_FACETS.indexOf('ram')] as Uint16Array
  const storage = combos.values[COUNT_FACETS.indexOf('storage')] as Uint16Array
  const outcome = new Uint8Array(combos.size)
  for (let c = 0; c < combos.size; c++) {
    if (ramOk[ram[c] as number] === 0 || storageOk[storage[c] as number] === 0) {
      outcome[c] = NONE
      continue
    }
    let result = 0
    for (const filter of filters) {
      if (filter.allowed[(combos.values[filter.facet] as Uint16Array)[c] as number] === 1) continue
      if (result !== 0) {
        result = NONE
        break
      }
      result = filter.facet + 1
    }
    outcome[c] = result
  }
  return outcome
}

/** Each facet's counts by value, from the listings counted per combination (`counted`) and the combinations' outcomes. */
function valuesOf(
  f: ListingFacts,
  outcome: Uint8Array,
  counted: Int32Array,
  /** The combinations counted, when few (else every one is looked at). */
  some?: number[],
): Record<CountFacet, Map<string, number>> {
  const { combos } = f
  const acc = COUNT_FACETS.map((name) => new Float64Array(f.columns[name].values.length))
  for (let i = 0, length = some ? some.length : combos.size; i < length; i++) {
    const c = some ? (some[i] as number) : i
    const o = outcome[c] as number
    const n = counted[c] as number
    if (o === NONE || n === 0) continue
    if (o === 0) {
      for (let facet = 0; facet < POSTED; facet++) {
        const sums = acc[facet] as Float64Array
        const at = (combos.values[facet] as Uint16Array)[c] as number
        sums[at] = (sums[at] as number) + n
      }
    } else {
      const sums = acc[o - 1] as Float64Array
      const at = (combos.values[o - 1] as Uint16Array)[c] as number
      sums[at] = (sums[at] as number) + n
    }
  }
  return countsByValue(f.columns, acc)
}

/**
 * What a search with facet filters alone (RAM and storage minimums among them, and a date filter) counts in a copy,
 * kept per copy and search. Only its date filter and the posting-date choices move with the clock: each lets through
 * the rows before the first one posted before its start (rows are newest first), and when that row moves, only the
 * rows it passed are read again.
 */
type ComboCounts = {
  outcome: Uint8Array
  /** With a date filter: `counted` is its own (else the combinations' counts). */
  dated: boolean
  /** The rows before `end` (those the date filter lets through; every row without one) counted per combination. */
  end: number
  counted: Int32Array
  /** Of them, those whose combination passes every filter with a battery at BATTERY_FACET_PCT or more. */
  battery80: number
  /** The total and each facet's counts by value, summed from `counted` (undefined once `end` moved). */
  sums?: { total: number; values: Record<CountFacet, Map<string, number>> }
  /** Each posting-date choice: its end, and the rows before it whose combination passes every filter (-1: none yet). */
  choices: { end: number; n: number }[]
}

const comboCountsIn = new KeptPerCopy<ListingFacts, ComboCounts>(
  16 * 1024 * 1024,
  (kept) => (kept.dated ? kept.counted.byteLength : 0) + 512,
)

/** factsFacets of a search with facet filters alone: from the combinations, reading a listing only as the clock moves. */
function comboFacets(f: ListingFacts, q: SearchQuery, nowMs: number): FactsFacets {
  const { combos } = f
  const dated = q.posted_within !== undefined
  const kept = comboCountsIn.get(f, filtersKey(q), () => {
    const outcome = comboOutcomes(f, q, boundsOf(q))
    let battery80 = 0
    if (!dated)
      for (let c = 0; c < combos.size; c++) if (outcome[c] === 0) battery80 += combos.battery80[c] as number
    return {
      outcome,
      dated,
      // Without a date filter every row counts, and always will: the combinations' own counts.
      end: dated ? 0 : f.size,
      counted: dated ? new Int32Array(combos.size) : combos.rows,
      battery80,
      choices: POSTED_WITHIN_DAYS.map(() => ({ end: -1, n: 0 })),
    }
  })
  if (q.posted_within !== undefined) moveEnd(f, kept, firstOlder(f, nowMs - q.posted_within * DAY_MS))
  const { outcome, counted } = kept
  if (!kept.sums) {
    let total = 0
    for (let c = 0; c < combos.size; c++) if (outcome[c] === 0) total += counted[c] as number
    kept.sums = { total, values: valuesOf(f, outcome, counted) }
  }
  const postedWithin = POSTED_WITHIN_DAYS.map((days, i) =>
    choiceCount(
      f,
      outcome,
      kept.choices[i] as ComboCounts['choices'][number],
      firstOlder(f, nowMs - days * DAY_MS),
    ),
  )
  return { total: kept.sums.total, values: kept.sums.values, postedWithin, battery80: kept.battery80 }
}

/** Moves the date filter's end of kept counts: the rows between the two ends counted in or out. */
function moveEnd(f: ListingFacts, kept: ComboCounts, end: number) {
  if (end === kept.end) return
  const { ofRow } = f.combos
  const { outcome, counted } = kept
  const step = end > kept.end ? 1 : -1
  const from = Math.min(end, kept.end)
  const to = Math.max(end, kept.end)
  let battery80 = 0
  for (let r = from; r < to; r++) {
    const c = ofRow[r] as number
    const o = outcome[c] as number
    if (o === NONE) continue
    counted[c] = (counted[c] as number) + step
    if (o === 0 && (f.battery[r] as number) >= BATTERY_FACET_PCT) battery80++
  }
  kept.battery80 += step * battery80
  kept.end = end
  kept.sums = undefined
}

/** A posting-date choice's count at `end`: the rows passed since it was last counted, or from the counts per block. */
function choiceCount(f: ListingFacts, outcome: Uint8Array, choice: { end: number; n: number }, end: number) {
  const { combos } = f
  if (choice.end === end) return choice.n
  if (choice.end >= 0 && Math.abs(end - choice.end) <= combos.block) {
    const passed = passingBetween(f, outcome, Math.min(end, choice.end), Math.max(end, choice.end))
    choice.n += end > choice.end ? passed : -passed
  } else {
    const k = Math.min(Math.floor(end / combos.block), combos.before.length - 1)
    const before = combos.before[k] as Int32Array
    let n = 0
    for (let c = 0; c < before.length; c++) if (outcome[c] === 0) n += before[c] as number
    choice.n = n + passingBetween(f, outcome, k * combos.block, end)
  }
  choice.end = end
  return choice.n
}

/** The rows from `from` up to `to` whose combination passes every filter. */
function passingBetween(f: ListingFacts, outcome: Uint8Array, from: number, to: number): number {
  const { ofRow } = f.combos
  let n = 0
  for (let r = from; r < to; r++) if (outcome[ofRow[r] as number] === 0) n++
  return n
}

/**
 * factsFacets in one pass over the listings that can count (a text's matches, a price range's run of the price
 * order, or those posted since the date filter's start or the longest choice); `passing` also marks the rows counted
 * in the total (a bit per row). Each listing's facet filters are its combination's outcome (comboOutcomes).
 */
export function countFacts(
  f: ListingFacts,
  q: SearchQuery,
  nowMs: number,
  text?: TextRows,
  passing?: Uint32Array,
  only?: Int32Array,
): { facets: FactsFacets } {
  const postedAfter = q.posted_within !== undefined ? nowMs - q.posted_within * DAY_MS : -Infinity
  const since = POSTED_WITHIN_DAYS.map((days) => nowMs - days * DAY_MS)
  const bounds = boundsOf(q)
  const outcome = comboOutcomes(f, q, bounds)
  const ofRow = f.combos.ofRow
  const counted = new Int32Array(f.combos.size)
  let total = 0
  let battery80 = 0
  // With a date filter, a listing older than both the filter's start and the longest choice counts for nothing (it
  // fails the filter and is in no choice): rows are newest first, so only those before the first such row are read.
  const noneAfter = q.posted_within !== undefined ? Math.min(postedAfter, ...since) : -Infinity
  // The rows read: a list given, the text's matches, a price range's run of the price order when that is far fewer
  // listings (its rows are read out of row order, each from another part of memory: several times the cost of a row
  // read in order), or every row (up to the first one older than noneAfter).
  let rows = only ?? text?.rows
  let count = rows ? rows.length : f.newestFirst ? firstOlder(f, noneAfter) : f.size
  let inOrder = f.newestFirst
  if (!rows && (bounds.minPrice > -Infinity || bounds.maxPrice < Infinity)) {
    const from = firstPriceAtLeast(f, bounds.minPrice)
    const to = firstPriceAtLeast(f, bounds.maxPrice + 1)
    if ((to - from) * OUT_OF_ORDER_COST < count) {
      rows = f.byPrice.subarray(from, to)
      count = to - from
      inOrder = false
    }
  }
  rows ??= everyRow(f)
  // A few rows (a view's changed ones): their combinations are noted, and only those are summed.
  const some = count * 4 < f.combos.size ? ([] as number[]) : undefined
  // The posting-date choices by segment: segment i holds the listings posted within choice i but not choice i - 1
  // (the last, those in none); a choice's count is the sum of its segment and the ones before. Rows read in row
  // order (newest first) go through the segments in turn, each ending at the first row older than its choice's start.
  const segments = since.length
  const bySegment = new Float64Array(segments + 1)
  const ends = Float64Array.from(since, (start) => (inOrder ? firstOlder(f, start) : Infinity))
  let segment = 0
  let segmentEnd = ends[0] ?? Infinity
  const { postedMs: postedMsOf, priceCents, battery: batteryOf } = f
  const { minPrice, maxPrice, minBattery } = bounds
  for (let n = 0; n < count; n++) {
    const r = rows[n] as number
    const c = ofRow[r] as number
    const o = outcome[c] as number
    if (o === NONE) continue
    const postedMs = postedMsOf[r] as number
    if (postedMs < noneAfter) continue
    const price = priceCents[r] as number
    if (price < minPrice || price > maxPrice) continue
    const postedFails = postedMs < postedAfter
    const battery = batteryOf[r] as number
    const batteryFails = battery < minBattery
    if (o !== 0) {
      // Fails one facet's filter: counts for that facet alone, when it passes everything else.
      if (!postedFails && !batteryFails) {
        if (some && counted[c] === 0) some.push(c)
        counted[c] = (counted[c] as number) + 1
      }
      continue
    }
    if (!batteryFails) {
      if (!inOrder) {
        segment = 0
        while (segment < segments && postedMs < (since[segment] as number)) segment++
      } else
        while (r >= segmentEnd) {
          segment++
          segmentEnd = segment < segments ? (ends[segment] as number) : Infinity
        }
      bySegment[segment] = (bySegment[segment] as number) + 1
    }
    if (!postedFails && battery >= BATTERY_FACET_PCT) battery80++
    if (postedFails || batteryFails) continue
    if (some && counted[c] === 0) some.push(c)
    counted[c] = (counted[c] as number) + 1
    total++
    if (passing) passing[r >>> 5] = (passing[r >>> 5] as number) | (1 << (r & 31))
  }
  const postedWithin: number[] = []
  let within = 0
  for (let i = 0; i < segments; i++) {
    within += bySegment[i] as number
    postedWithin.push(within)
  }
  return { facets: { total, values: valuesOf(f, outcome, counted, some), postedWithin, battery80 } }
}

/**
 * Per copy, the counts of the searches asked lately, and the rows each counted: a copy never changes, so neither do
 * they. Only the posting-date choices move with the clock: each is the counted rows posted since then, which (rows
 * being newest first) are those before the first row older than that, found by bisection.
 */
/**
 * The rows a search counted in its total, a bit per row, with the count before each block of 256 rows: how many of
 * them come before any row is a sum of at most eight words. A list of row numbers took 4 bytes a row, so at 1,000,000
 * listings the kept facets held two broad searches at a time and every other one was counted again.
 */
type PassingRows = { words: Uint32Array; before: Uint32Array }

const facetsIn = new KeptPerCopy<ListingFacts, { facets: FactsFacets; passing: PassingRows }>(
  64 * 1024 * 1024,
  (kept) => kept.passing.words.byteLength + kept.passing.before.byteLength,
)

function heldFacets(f: ListingFacts, q: SearchQuery, nowMs: number, text: TextRows | undefined) {
  const known = facetsIn.get(f, `${text?.key ?? ''}|${filtersKey(q)}`, () => {
    const words = new Uint32Array(Math.ceil(f.size / 32))
    const { facets } = countFacts(f, q, nowMs, text, words)
    const before = new Uint32Array(Math.ceil(words.length / 8) + 1)
    let sum = 0
    for (let b = 0; b < before.length; b++) {
      before[b] = sum
      for (let w = b * 8; w < Math.min(words.length, b * 8 + 8); w++) sum += bitCount(words[w] as number)
    }
    return { facets, passing: { words, before } }
  })
  const { passing } = known
  // The first row posted before each choice's start (postedMs goes down), then the counted rows before it.
  const postedWithin = POSTED_WITHIN_DAYS.map((days) =>
    passingBefore(passing, firstOlder(f, nowMs - days * DAY_MS)),
  )
  return { ...known.facets, postedWithin }
}

/** How many of the marked rows come before `row`. */
function passingBefore({ words, before }: PassingRows, row: number): number {
  const word = row >>> 5
  let n = before[word >>> 3] as number
  for (let w = word & ~7; w < word; w++) n += bitCount(words[w] as number)
  const bits = row & 31
  if (bits > 0) n += bitCount((words[word] as number) & ((1 << bits) - 1))
  return n
}

function bitCount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555)
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24
}

/** The first of n positions where `isAtOrAfter` holds (it holds from some position on). */
export function lowerBound(n: number, isAtOrAfter: (i: number) => boolean): number {
  let lo = 0
  let hi = n
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (isAtOrAfter(mid)) hi = mid
    else lo = mid + 1
  }
  return lo
}

/** The first row posted before `sinceMs`, or the copy's size. */
const firstOlder = (f: ListingFacts, sinceMs: number) =>
  lowerBound(f.size, (r) => (f.postedMs[r] as number) < sinceMs)

/** The fields of a search that are no filter (the text is keyed by its words, resolved). */
const NOT_FILTERS = new Set(['q', 'sort', 'facets', 'page', 'page_size', 'limit', 'cursor'])

/**
 * A search's filters as text, the same whatever order its choices came in: every field but the text, sort and
 * paging, so a filter added to the search is part of the key without a change here. Made once per search: a request
 * keys its page, counts and total by it, and a parsed search is never changed afterwards.
 */
function filtersKey(q: SearchQuery): string {
  let key = filtersKeyOf.get(q)
  if (key === undefined) {
    key = filtersText(q)
    filtersKeyOf.set(q, key)
  }
  return key
}

const filtersKeyOf = new WeakMap<SearchQuery, string>()

function filtersText(q: SearchQuery): string {
  return Object.entries(q)
    .filter(([name, value]) => !NOT_FILTERS.has(name) && value !== undefined)
    .map(([name, value]) => {
      const text = Array.isArray(value)
        ? value
            .map((v) => String(v).toLowerCase())
            .sort()
            .join(',')
        : String(value)
      return `${name}=${text}`
    })
    .sort()
    .join('&')
}

export type FactsSort = 'newest' | 'price_asc' | 'price_desc' | 'relevance'

/**
 * The ids of a page of a search, in the search's order: `pageSize` + 1 of them when there are more (the first
 * `offset` matches skipped, or those up to the cursor's key). The listings are read in the sort's order from the
 * copy (posting order, or by price; with text, only its matches), so a page costs the matches before it at most, and
 * its rows are then one read by id. Best match (`relevance`, with text) orders the matches by tier, then newest.
 * Undefined when the copy cannot say: it is not in posting order, or the cursor's key is not one the database wrote.
 */
export function factsPage(f: ListingFacts, ask: Omit<PageAsk, 'dead' | 'deadCount'>): string[] | undefined {
  return pageHits(f, ask)?.map((h) => idAt(f, h.r))
}

/** Which of a search's hits a page is: `pageSize` of them after `offset` (one more is asked, to know there is more). */
export type PageSpan = Pick<Paging, 'pageSize' | 'offset'>

/** Where a page asked by cursor starts: after the listing `id` with the sort's keys `k`. */
export type PageCursor = Pick<CursorKey, 'k' | 'id'>

/**
 * What a page of a search asks of a copy: the search (`query`) in the sort's order, the page (`paging`, or the
 * listing a cursor follows), the clock "posted within" counts back from, the text's matches in this copy (with
 * text), and the rows to skip (`dead`: listings changed since the copy was read, `deadCount` of them).
 */
export type PageAsk = {
  query: SearchQuery
  sort: FactsSort
  paging: PageSpan
  cursor?: PageCursor | undefined
  nowMs: number
  text?: TextRows | undefined
  dead?: Uint8Array | undefined
  deadCount?: number
}

/** A row of a page, with its best-match tier (0 unless the sort is best match). */
type Hit = { r: number; tier: number }

/**
 * factsPage as rows, skipping the rows `dead` marks (listings that changed since the copy was read). A copy's pages
 * by page number are found once per search and kept (keptHits), so the next page, or the same search again, reads no
 * listing.
 */
export function pageHits(f: ListingFacts, ask: PageAsk): Hit[] | undefined {
  const { query: q, sort, paging, cursor, text, dead, deadCount = 0 } = ask
  // A cursor starts where its listing is, a date filter moves with the clock, a small copy (a view's delta) changes
  // at every change: found afresh.
  if (cursor || q.posted_within !== undefined || f.size < NARROW_FROM || !f.newestFirst)
    return walkHits(f, ask)
  const wanted = paging.offset + paging.pageSize + 1
  const key = `${sort}|${text?.key ?? ''}|${filtersKey(q)}`
  let kept = hitsIn.get(f, key, () => ({
    rows: new Int32Array(0),
    tiers: new Uint8Array(0),
    complete: false,
  }))
  let page = keptPage(kept, paging, dead)
  if (!page) {
    // Found again for at least twice as many listings as last time (and as the changed rows in the way), so a
    // search paged through is walked a few times, not once per page.
    const reach = Math.max(64, 2 * kept.rows.length, 2 * wanted + deadCount)
    // Kept for every later view of this copy: the rows changed since are skipped as a page is taken (keptPage).
    const hits = walkHits(f, {
      ...ask,
      paging: { offset: 0, pageSize: reach - 1 },
      cursor: undefined,
      dead: undefined,
    })
    if (!hits) return undefined
    kept = {
      rows: Int32Array.from(hits, (h) => h.r),
      tiers: Uint8Array.from(hits, (h) => h.tier),
      complete: hits.length < reach,
    }
    hitsIn.set(f, key, kept)
    page = keptPage(kept, paging, dead)
  }
  return page
}

/** A search's first hits in a copy, in its order (all of them when `complete`), by page number: kept per copy. */
type KeptHits = { rows: Int32Array; tiers: Uint8Array; complete: boolean }

const hitsIn = new KeptPerCopy<ListingFacts, KeptHits>(16 * 1024 * 1024, (k) => 5 * k.rows.length + 64)

/** A page from kept hits, skipping dead rows; undefined when they do not reach the page's end and are not all. */
function keptPage(kept: KeptHits, paging: PageSpan, dead: Uint8Array | undefined): Hit[] | undefined {
  const hits: Hit[] = []
  let skip = paging.offset
  for (let i = 0; i < kept.rows.length && hits.length <= paging.pageSize; i++) {
    const r = kept.rows[i] as number
    if (dead && dead[r] === 1) continue
    if (skip > 0) skip--
    else hits.push({ r, tier: kept.tiers[i] as number })
  }
  return hits.length > paging.pageSize || kept.complete ? hits : undefined
}

/** pageHits, found by reading the copy. */
function walkHits(f: ListingFacts, ask: PageAsk): Hit[] | undefined {
  const { query: q, sort, paging, cursor, nowMs, text, dead } = ask
  if (!f.newestFirst) return undefined
  // Filters no combination of facet values passes (a RAM choice under the RAM minimum, say): nothing to walk for.
  if (noneCombines(f, q)) return []
  if (sort === 'relevance') return text ? relevancePage(f, ask, text) : undefined
  const byPrice = sort !== 'newest'
  // Newest first walks the text's matches alone (in row order), or without text the rows of its narrowest facet
  // filter's choices (a brand's listings, not every listing); by price, every row, skipping the others.
  const narrow = !text && f.size >= NARROW_FROM ? narrowestRows(f, q) : undefined
  /** Rows in row order holding every match (and more): the text's matches, or the narrowest filter's rows. */
  const few = text ? text.rows : narrow
  const matches = !byPrice ? few : undefined
  const n = matches ? matches.length : f.size
  const backwards = sort === 'price_desc'
  const rowAt = (i: number) =>
    byPrice ? (f.byPrice[backwards ? f.size - 1 - i : i] as number) : matches ? (matches[i] as number) : i
  let start = 0
  if (cursor) {
    const key = byPrice ? Number(cursor.k[0]) : timestampMicros(cursor.k[0])
    if (key === undefined || !Number.isFinite(key)) return undefined
    const id = cursor.id.toLowerCase()
    const value = (r: number) => (byPrice ? (f.priceCents[r] as number) : (f.postedUs[r] as number))
    // Whether row r comes after the cursor's listing: price_asc goes up by (price, id), the others down.
    const isAfter = (r: number) => {
      const v = value(r)
      if (v !== key) return sort === 'price_asc' ? v > key : v < key
      return sort === 'price_asc' ? idAt(f, r) > id : idAt(f, r) < id
    }
    let lo = 0
    let hi = n
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (isAfter(rowAt(mid))) hi = mid
      else lo = mid + 1
    }
    start = lo
  }
  // By price, a price range is a run of byPrice: the walk starts at its first row and ends past its last, instead of
  // stepping over every cheaper (or dearer) listing.
  let end = n
  if (byPrice && (q.min_price !== undefined || q.max_price !== undefined)) {
    const { minPrice, maxPrice } = boundsOf(q)
    const from = firstPriceAtLeast(f, minPrice)
    const to = firstPriceAtLeast(f, maxPrice + 1)
    start = Math.max(start, backwards ? f.size - to : from)
    end = backwards ? f.size - from : to
  }
  const passes = passesAll(f, q, nowMs)
  // By price with candidates (a text's matches, a narrow facet filter's rows): those that pass, picked by their place
  // in byPrice, cost one look at each candidate; the walk over byPrice costs every listing it passes on the way. The
  // walk is tried first and gives up after twice as many listings as there are candidates (a filter that few of them
  // pass sends it over most of the copy); a text with very few matches is picked at once (walking it needs a mark per
  // listing).
  const wanted = paging.offset + paging.pageSize + 1
  const pick = (candidates: Int32Array): Hit[] => {
    const rank = priceRanks(f)
    const picked = new Int32Array(candidates.length)
    let count = 0
    for (const r of candidates) {
      if (dead && dead[r] === 1) continue
      const at = rank[r] as number
      const i = backwards ? f.size - 1 - at : at
      if (i < start || i >= end || passes(r) !== PASSES) continue
      picked[count++] = i
    }
    const inOrder = picked.subarray(0, count).sort()
    return Array.from(inOrder.subarray(paging.offset, wanted), (i) => ({ r: rowAt(i), tier: 0 }))
  }
  const pickable = byPrice && few !== undefined && f.size >= NARROW_FROM ? few : undefined
  if (pickable && text && pickable.length * 64 <= f.size) return pick(pickable)
  const budget = pickable ? 2 * pickable.length : Number.POSITIVE_INFINITY
  let has: Uint8Array | undefined
  if (byPrice && text) {
    has = new Uint8Array(f.size)
    for (const r of text.rows) has[r] = 1
  }
  const hits: Hit[] = []
  let skip = paging.offset
  for (let i = start; i < end && hits.length <= paging.pageSize; i++) {
    if (pickable && i - start > budget) return pick(pickable)
    const r = rowAt(i)
    if (has && has[r] === 0) continue
    if (dead && dead[r] === 1) continue
    const pass = passes(r)
    // Newest first: every later row is older still.
    if (pass === TOO_OLD && !byPrice) break
    if (pass !== PASSES) continue
    if (skip > 0) skip--
    else hits.push({ r, tier: 0 })
  }
  return hits
}

/** How many rows read in row order cost as much as one read out of it (measured at 1,000,000 listings: 6–8). */
const OUT_OF_ORDER_COST = 8

/** Copies smaller than this (a view's delta) are walked whole: finding a filter's rows would cost more. */
const NARROW_FROM = 4_096

/** Per copy, the lists of rows of several choices of one facet, merged (made when first needed, the latest kept). */
const mergedRows = new WeakMap<ListingFacts, Map<string, Int32Array>>()
const MERGED_KEPT = 64

/**
 * The rows of the choices of a search's narrowest facet filter (the one allowing fewest rows), in row order: a
 * superset of its matches. Undefined when it has no facet filter.
 */
function narrowestRows(f: ListingFacts, q: SearchQuery): Int32Array | undefined {
  const best = narrowestChoice(f, facetFilters(f, countQueryOf(q)))
  // A filter allowing every listing narrows nothing: the copy is walked as it is.
  if (!best || best.size >= f.size) return undefined
  if (best.lists.length === 1) return best.lists[0]
  let kept = mergedRows.get(f)
  if (!kept) {
    kept = new Map()
    mergedRows.set(f, kept)
  }
  let rows = kept.get(best.key)
  if (!rows) {
    rows = new Int32Array(best.size)
    let at = 0
    for (const list of best.lists) {
      rows.set(list, at)
      at += list.length
    }
    rows.sort()
    if (kept.size >= MERGED_KEPT) kept.delete(kept.keys().next().value as string)
    kept.set(best.key, rows)
  }
  return rows
}

/** Per copy, each row's place in byPrice (made when first needed). */
const priceRankOf = new WeakMap<ListingFacts, Int32Array>()

function priceRanks(f: ListingFacts): Int32Array {
  let rank = priceRankOf.get(f)
  if (!rank) {
    rank = new Int32Array(f.size)
    for (let i = 0; i < f.size; i++) rank[f.byPrice[i] as number] = i
    priceRankOf.set(f, rank)
  }
  return rank
}

/** The first position in byPrice whose price is at least `cents` (the copy's size when none is). */
function firstPriceAtLeast(f: ListingFacts, cents: number): number {
  return lowerBound(f.size, (i) => (f.priceCents[f.byPrice[i] as number] as number) >= cents)
}

const PASSES = 0
const FAILS = 1
const TOO_OLD = 2

/** Whether row r passes every filter of a search but its text: PASSES, FAILS, or TOO_OLD for "posted within". */
function passesAll(f: ListingFacts, q: SearchQuery, nowMs: number): (r: number) => number {
  const postedAfter = q.posted_within !== undefined ? nowMs - q.posted_within * DAY_MS : -Infinity
  const bounds = boundsOf(q)
  // The facet filters and RAM and storage minimums: the row's combination's outcome.
  const outcome = comboOutcomes(f, q, bounds)
  const { ofRow } = f.combos
  const { minPrice, maxPrice, minBattery } = bounds
  return (r) => {
    if ((f.postedMs[r] as number) < postedAfter) return TOO_OLD
    if (outcome[ofRow[r] as number] !== 0) return FAILS
    const price = f.priceCents[r] as number
    if (price < minPrice || price > maxPrice) return FAILS
    return (f.battery[r] as number) < minBattery ? FAILS : PASSES
  }
}

/** Whether no listing of a copy passes a search's facet filters and RAM and storage minimums (they contradict). */
function noneCombines(f: ListingFacts, q: SearchQuery): boolean {
  const outcome = comboOutcomes(f, q, boundsOf(q))
  return !outcome.includes(0)
}

/**
 * Best match from the copy: the text's matches passing every filter, by tier (best first), then in row order (newest
 * first, ties by id, as in SQL); a cursor's listing is found by its tier, time and id. The matches are read in row
 * order and stop as soon as the page is filled from the best tier left (`top`): nothing can come before those.
 */
function relevancePage(f: ListingFacts, ask: PageAsk, text: TextRows): Hit[] | undefined {
  const { query: q, paging, cursor, nowMs, dead } = ask
  const after = cursor
    ? { tier: Number(cursor.k[0]), us: timestampMicros(cursor.k[1]), id: cursor.id.toLowerCase() }
    : undefined
  if (after && (after.us === undefined || !Number.isInteger(after.tier) || after.tier < 0 || after.tier > 3))
    return undefined
  const top = after ? after.tier : text.best
  const wanted = paging.offset + paging.pageSize + 1
  const passes = passesAll(f, q, nowMs)
  const tiers: Hit[][] = [[], [], [], []]
  for (let i = 0; i < text.rows.length; i++) {
    const r = text.rows[i] as number
    if (dead && dead[r] === 1) continue
    if (passes(r) !== PASSES) continue
    const tier = text.tierAt(i)
    if (after) {
      // Rows after the cursor's listing: a lower tier, or the same tier and older (or as old with a lower id).
      if (tier > after.tier) continue
      if (tier === after.tier) {
        const us = f.postedUs[r] as number
        if (us > (after.us as number) || (us === after.us && idAt(f, r) >= after.id)) continue
      }
    }
    const bucket = tiers[tier] as Hit[]
    bucket.push({ r, tier })
    if (tier === top && bucket.length >= wanted) break
  }
  const ordered = tiers.reverse().flat()
  return ordered.slice(paging.offset, wanted)
}

const PG_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?)?$/

/** A time as PostgreSQL writes a timestamptz (`2026-07-16 19:14:19.322248+00`), in microseconds since 1970. */
export function timestampMicros(text: string | number | undefined): number | undefined {
  const m = typeof text === 'string' ? PG_TIMESTAMP.exec(text) : null
  if (!m) return undefined
  const part = (i: number) => Number(m[i] ?? 0)
  const seconds = Date.UTC(part(1), part(2) - 1, part(3), part(4), part(5), part(6)) / 1000
  const offset = (m[8] === '-' ? -1 : 1) * (part(9) * 3600 + part(10) * 60 + part(11))
  return (seconds - offset) * 1_000_000 + Number((m[7] ?? '').padEnd(6, '0'))
}

/**
 * The total alone of a search (no facets asked for): the listings passing every filter, counted up to `cap` + 1 and
 * no further. Far cheaper than `factsFacets`: only the text's matches are read, or without text the listings of the
 * narrowest facet filter's choices (a brand's, say), and each is dropped at the first filter it fails.
 */
export function factsTotal(
  f: ListingFacts,
  q: SearchQuery,
  nowMs: number,
  cap: number,
  text?: TextRows,
): number {
  // Without a posting date the total does not move with the clock: kept per copy and search.
  if (q.posted_within !== undefined) return countTotal(f, q, nowMs, cap, text)
  return totalsIn.get(f, `${cap}|${text?.key ?? ''}|${filtersKey(q)}`, () =>
    countTotal(f, q, nowMs, cap, text),
  )
}

const totalsIn = new KeptPerCopy<ListingFacts, number>(1_024)

export function countTotal(
  f: ListingFacts,
  q: SearchQuery,
  nowMs: number,
  cap: number,
  text?: TextRows,
  only?: ArrayLike<number>,
): number {
  const passes = passesAll(f, q, nowMs)
  let total = 0
  for (const rows of only ? [only] : text ? [text.rows] : drivingRows(f, facetFilters(f, countQueryOf(q)))) {
    for (let n = 0; n < rows.length; n++) {
      const pass = passes(rows[n] as number)
      if (pass === TOO_OLD) {
        // Newest first: the rest of this list is older still.
        if (f.newestFirst) break
        continue
      }
      if (pass === PASSES && ++total > cap) return total
    }
  }
  return total
}

type FacetFilter = ReturnType<typeof facetFilters>[number]

/** Every row, as a list of row numbers (made once per copy). */
const allRows = new WeakMap<ListingFacts, Int32Array>()
/** Per facet, each value's rows in row order (made once per copy and facet, when first needed). */
const rowsByValue = new WeakMap<Column, Int32Array[]>()

function valueRows(column: Column): Int32Array[] {
  let lists = rowsByValue.get(column)
  if (!lists) {
    const sizes = new Int32Array(column.values.length)
    for (const v of column.index) sizes[v] = (sizes[v] as number) + 1
    const built = Array.from(sizes, (n) => new Int32Array(n))
    const filled = new Int32Array(column.values.length)
    column.index.forEach((v, r) => {
      ;(built[v] as Int32Array)[filled[v] as number] = r
      filled[v] = (filled[v] as number) + 1
    })
    lists = built
    rowsByValue.set(column, lists)
  }
  return lists
}

/** A search's narrowest facet filter (the one allowing fewest rows): its choices' row lists, their size, a key. */
function narrowestChoice(
  f: ListingFacts,
  filters: FacetFilter[],
): { lists: Int32Array[]; size: number; key: string } | undefined {
  let best: { lists: Int32Array[]; size: number; key: string } | undefined
  for (const filter of filters) {
    const name = COUNT_FACETS[filter.facet] as CountFacet
    const lists = valueRows(f.columns[name]).filter((_, v) => filter.allowed[v] === 1)
    const size = lists.reduce((n, l) => n + l.length, 0)
    if (size <= (best?.size ?? f.size)) best = { lists, size, key: `${name}:${filter.allowed.join('')}` }
  }
  return best
}

/**
 * The rows a search must read: those of the allowed choices of its narrowest facet filter (fewest rows), each
 * list in row order; every row when it has no facet filter.
 */
function drivingRows(f: ListingFacts, filters: FacetFilter[]): Int32Array[] {
  const best = narrowestChoice(f, filters)
  return best ? best.lists : [everyRow(f)]
}

/** Every row of a copy, in order (made once per copy). */
function everyRow(f: ListingFacts): Int32Array {
  let all = allRows.get(f)
  if (!all) {
    all = Int32Array.from({ length: f.size }, (_, r) => r)
    allRows.set(f, all)
  }
  return all
}
