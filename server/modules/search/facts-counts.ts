import { BATTERY_FACET_PCT, POSTED_WITHIN_DAYS, type SearchQuery } from '#contract/search'
import { NONE, valuesOf } from './facet-columns'
import { type Bounds, boundsOf, type CountFacet } from './filters'
import { FACETS_BYTES, KeptPerCopy, TYPED_ARRAY_BYTES } from './kept-per-copy'
import {
  comboOutcomes,
  DAY_MS,
  everyRow,
  filtersKey,
  firstOlder,
  type ListingFacts,
  narrowestChoice,
  PASSES,
  passesAll,
  priceRun,
  sumPassing,
  TOO_OLD,
} from './listing-facts'
import { firstAtLeast, type TextRows } from './listing-text'

// Total and facets in a copy (listing-facts.ts), kept per copy and search where the clock can't move them.

/** Rows read in row order costing as much as one read out of it (measured at 1,000,000 listings: 6–8). */
const OUT_OF_ORDER_COST = 8

/** A count as V8's small integer however it was summed (a count is under 2 ** 30): decision 0144. */
export const smallInteger = (n: number) => n | 0

/** Every count the copy makes is made here, of one shape, each count a small integer (0144). */
export function countsOf(
  total: number,
  values: Record<CountFacet, Map<string, number>>,
  /** Per POSTED_WITHIN_DAYS choice, in that order. */
  postedWithin: number[],
  battery80: number,
) {
  return {
    total: smallInteger(total),
    values,
    postedWithin: postedWithin.map(smallInteger),
    battery80: smallInteger(battery80),
  }
}
export type FactsFacets = ReturnType<typeof countsOf>

/** The total passes every filter; a facet or choice, every *other* (its own choices stay alternatives). */
export function factsFacets(f: ListingFacts, q: SearchQuery, nowMs: number, text?: TextRows): FactsFacets {
  // Facet filters alone (RAM and storage minimums among them, a date filter too): from the kept combinations.
  if (f.newestFirst && !text && !rowBounds(boundsOf(q))) return comboFacets(f, q, nowMs)
  if (!f.newestFirst || q.posted_within !== undefined) return countFacts(f, q, nowMs, text?.rows)
  if (!text && !rowsToCount(f, q, -Infinity)) return combosFacets(f, q, nowMs, filtersKey(q))
  // Asked once, counted as any search is; from the second ask, with the rows it counted, moved with the clock later.
  const kept = facetsIn.get(f, `${text?.key ?? ''}|${filtersKey(q)}`, (keeping) =>
    keeping ? countPassing(f, q, nowMs, text) : countFacts(f, q, nowMs, text?.rows),
  )
  if (!('passing' in kept)) return kept
  const { facets, passing } = kept
  // The first row posted before each choice's start (postedMs goes down), then the counted rows before it.
  const postedWithin = POSTED_WITHIN_DAYS.map((days) =>
    passingBefore(passing, firstOlder(f, nowMs - days * DAY_MS)),
  )
  return countsOf(facets.total, facets.values, postedWithin, facets.battery80)
}

/** countFacts with the rows it counted, a bit each, and the bits before every eight words. */
function countPassing(f: ListingFacts, q: SearchQuery, nowMs: number, text?: TextRows): KeptFacets {
  const words = new Uint32Array(Math.ceil(f.size / 32))
  const facets = countFacts(f, q, nowMs, text?.rows, words)
  const before = new Uint32Array(Math.ceil(words.length / 8) + 1)
  let sum = 0
  for (let b = 0; b < before.length; b++) {
    before[b] = sum
    for (let w = b * 8; w < Math.min(words.length, b * 8 + 8); w++) sum += bitCount(words[w] as number)
  }
  return { facets, passing: { words, before } }
}

/** No price range: a combination's whole run counts (a battery floor in it by bisection, decision 0150). */
const noPriceRange = (b: Bounds) => b.minPrice === -Infinity && b.maxPrice === Infinity

const rowBounds = (b: Bounds) => !noPriceRange(b) || b.minBattery > -Infinity

type ComboCounts = ReturnType<typeof comboCounts>
type Choice = ComboCounts['choices'][number]

/** Facet filters (and a date filter) alone. The clock moves only date counts, by the rows between ends. */
function comboCounts(f: ListingFacts, q: SearchQuery) {
  const { combos } = f
  const dated = q.posted_within !== undefined
  const outcome = comboOutcomes(f, q)
  return {
    outcome,
    /** With a date filter: `counted` is its own (else the combinations' counts). */
    dated,
    /** The rows before `end` (those the date filter lets through; every row without one) counted per combination. */
    end: dated ? 0 : f.size,
    // Without a date filter every row counts, and always will: the combinations' own counts.
    counted: dated ? new Int32Array(combos.rows.length) : combos.rows,
    /** Of them, those whose combination passes every filter with a battery at BATTERY_FACET_PCT or more. */
    battery80: dated ? 0 : sumPassing(outcome, combos.battery80),
    /** The total and each facet's counts by value, summed from `counted` (undefined once `end` moved). */
    sums: undefined as Pick<FactsFacets, 'total' | 'values'> | undefined,
    /** Each posting-date choice: its end, and the rows before it whose combination passes every filter (-1: none yet). */
    choices: POSTED_WITHIN_DAYS.map(() => ({ end: -1, n: 0 })),
  }
}

/** Outcomes counted too (comboOutcomes may drop them): else 30,000 searches of 12 KB at 100,000 listings. */
const comboCountsIn = new KeptPerCopy<ListingFacts, ComboCounts>(
  'counts by combination',
  6 * 1024 * 1024,
  (kept) => kept.outcome.byteLength + (kept.dated ? kept.counted.byteLength : 0) + 2 * FACETS_BYTES,
)

/** factsFacets of a search with facet filters alone, reading a listing only as the clock moves. */
function comboFacets(f: ListingFacts, q: SearchQuery, nowMs: number): FactsFacets {
  const { combos } = f
  const kept = comboCountsIn.get(f, filtersKey(q), () => comboCounts(f, q))
  if (q.posted_within !== undefined) moveEnd(f, kept, firstOlder(f, nowMs - q.posted_within * DAY_MS))
  const { outcome, counted } = kept
  kept.sums ??= {
    total: sumPassing(outcome, counted),
    values: valuesOf(f.columns, combos.values, outcome, counted),
  }
  const postedWithin = POSTED_WITHIN_DAYS.map((days, i) =>
    choiceCount(f, outcome, kept.choices[i] as Choice, firstOlder(f, nowMs - days * DAY_MS)),
  )
  return countsOf(kept.sums.total, kept.sums.values, postedWithin, kept.battery80)
}

function moveEnd(f: ListingFacts, kept: ComboCounts, end: number) {
  if (end === kept.end) return
  const { ofRow } = f.combos
  const { outcome, counted } = kept
  const step = end > kept.end ? 1 : -1
  let battery80 = 0
  for (let r = Math.min(end, kept.end), to = Math.max(end, kept.end); r < to; r++) {
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

/** A choice's count at `end`: the rows passed since last counted, or from the counts per block. */
function choiceCount(f: ListingFacts, outcome: Uint8Array, choice: Choice, end: number) {
  const { combos } = f
  if (choice.end === end) return choice.n
  if (choice.end >= 0 && Math.abs(end - choice.end) <= combos.block)
    choice.n += passingBetween(f, outcome, choice.end, end)
  else {
    const k = Math.min(Math.floor(end / combos.block), combos.before.length - 1)
    choice.n =
      sumPassing(outcome, combos.before[k] as Int32Array) + passingBetween(f, outcome, k * combos.block, end)
  }
  choice.end = end
  return choice.n
}

/** The rows between `a` and `b` whose combination passes every filter: negative when `b` comes first. */
function passingBetween(f: ListingFacts, outcome: Uint8Array, a: number, b: number): number {
  const { ofRow } = f.combos
  let n = 0
  for (let r = Math.min(a, b), to = Math.max(a, b); r < to; r++) if (outcome[ofRow[r] as number] === 0) n++
  return b < a ? -n : n
}

/** factsFacets in one pass over rowsToCount's rows; `passing` also marks the total's rows (a bit per row). */
export function countFacts(
  f: ListingFacts,
  q: SearchQuery,
  nowMs: number,
  given?: ArrayLike<number>,
  passing?: Uint32Array,
): FactsFacets {
  const postedAfter = q.posted_within !== undefined ? nowMs - q.posted_within * DAY_MS : -Infinity
  const since = POSTED_WITHIN_DAYS.map((days) => nowMs - days * DAY_MS)
  const outcome = comboOutcomes(f, q)
  // With a date filter, a listing older than its start and the longest choice's counts for nothing: skipped.
  const noneAfter = q.posted_within !== undefined ? Math.min(postedAfter, ...since) : -Infinity
  // Undefined only without `given` or a date filter: never when marking `passing` (factsFacets asked first).
  const read = rowsToCount(f, q, noneAfter, given)
  if (!read) return combosFacets(f, q, nowMs)
  const { rows, count, inOrder } = read
  const ofRow = f.combos.ofRow
  let total = 0
  let battery80 = 0
  // A few rows (a view's changed ones): only their noted combinations summed (and zeroed after).
  const some = count * 4 < f.combos.rows.length ? ([] as number[]) : undefined
  const counted = countsFor(f.combos.rows.length)
  // Segment i: posted within choice i, not i - 1 (the last: in none); a choice sums it and those before. Rows
  // in row order (newest first) go through them in turn, each ending at the first row older than its start.
  const segments = since.length
  const bySegment = new Int32Array(segments + 1)
  const ends = Float64Array.from(since, (start) => (inOrder ? firstOlder(f, start) : Infinity))
  let segment = 0
  const { postedMs: postedMsOf, priceCents, battery: batteryOf } = f
  const { minPrice, maxPrice, minBattery } = boundsOf(q)
  const priced = minPrice > -Infinity || maxPrice < Infinity
  // Without a date filter, rows in row order find their posting-date choice by their place alone.
  const readPosted = q.posted_within !== undefined || !inOrder
  for (let n = 0; n < count; n++) {
    const r = rows[n] as number
    const c = ofRow[r] as number
    const o = outcome[c] as number
    if (o === NONE) continue
    // Posting time and price read only when a test needs them: each array read is far from the last row's.
    const postedMs = readPosted ? (postedMsOf[r] as number) : 0
    if (postedMs < noneAfter) continue
    if (priced) {
      const price = priceCents[r] as number
      if (price < minPrice || price > maxPrice) continue
    }
    const postedFails = postedMs < postedAfter
    const battery = batteryOf[r] as number
    const batteryFails = battery < minBattery
    if (o === 0) {
      if (!batteryFails) {
        if (!inOrder) {
          segment = 0
          while (segment < segments && postedMs < (since[segment] as number)) segment++
        } else while (segment < segments && r >= (ends[segment] as number)) segment++
        bySegment[segment] = (bySegment[segment] as number) + 1
      }
      if (!postedFails && battery >= BATTERY_FACET_PCT) battery80++
    }
    // A row failing one facet's filter (o !== 0) counts for that facet alone, when it passes everything else.
    if (postedFails || batteryFails) continue
    if (some && counted[c] === 0) some.push(c)
    counted[c] = (counted[c] as number) + 1
    if (o !== 0) continue
    total++
    if (passing) passing[r >>> 5] = (passing[r >>> 5] as number) | (1 << (r & 31))
  }
  const values = valuesOf(f.columns, f.combos.values, outcome, counted, some)
  if (some) for (const c of some) counted[c] = 0
  else counted.fill(0, 0, f.combos.rows.length)
  return countsOf(total, values, choicesOf(bySegment, segments), battery80)
}

/**
 * The thread's counts by combination, all zero between counts (each count zeroes what it used): an array a count
 * was 4 bytes per combination (112 kB at 1,000,000 listings) of garbage outside V8's heap, whose growth starts
 * whole collections. Over a few rows (a view's dead rows, at every search while listings change) only theirs.
 */
let counts = new Int32Array(0)
const countsFor = (combinations: number) => {
  if (counts.length < combinations) counts = new Int32Array(combinations)
  return counts
}

function choicesOf(bySegment: Int32Array, segments: number): number[] {
  const choices = Array.from(bySegment.subarray(0, segments))
  for (let i = 1; i < segments; i++) choices[i] = (choices[i] as number) + (choices[i - 1] as number)
  return choices
}

/**
 * `given`, or a price range's run of the price order when cheaper (read out of order: OUT_OF_ORDER_COST), or
 * every row before the first older than `noneAfter`. Undefined (no date filter): combosFacets counts instead.
 */
function rowsToCount(
  f: ListingFacts,
  q: SearchQuery,
  noneAfter: number,
  given?: ArrayLike<number>,
): { rows: ArrayLike<number>; count: number; inOrder: boolean } | undefined {
  if (given) return { rows: given, count: given.length, inOrder: f.newestFirst }
  const { minPrice, maxPrice, minBattery } = boundsOf(q)
  const byCombos = f.newestFirst && q.posted_within === undefined
  const count = byCombos ? 0 : f.newestFirst ? firstOlder(f, noneAfter) : f.size
  if (minPrice > -Infinity || maxPrice < Infinity) {
    const [from, to] = priceRun(f, boundsOf(q))
    const cost = byCombos ? combosCost(f, comboOutcomes(f, q), minBattery > -Infinity) : count
    if ((to - from) * OUT_OF_ORDER_COST < cost)
      return { rows: f.byPrice.subarray(from, to), count: to - from, inOrder: false }
  }
  return byCombos ? undefined : { rows: everyRow(f), count, inOrder: f.newestFirst }
}

/** In rows read in order: RUN_COST per combination not NONE; under a battery floor, each of its rows. */
function combosCost(f: ListingFacts, outcome: Uint8Array, rowByRow: boolean): number {
  const { rows } = f.combos
  let n = 0
  for (let c = 0; c < outcome.length; c++)
    if (outcome[c] !== NONE) n += rowByRow ? (rows[c] as number) : RUN_COST
  return n
}

/** A price run counted from the counts along byCombo (two bisections and a few reads), in rows. */
const RUN_COST = 16

/**
 * countByCombos at `nowMs`: at the copy's clock (byCombo.at, where byCombo's counts hold; kept under `keep`)
 * less the rows that left a choice since; a copy so old that those are many is counted row by row at `nowMs`.
 */
function combosFacets(f: ListingFacts, q: SearchQuery, nowMs: number, keep?: string): FactsFacets {
  const outcome = comboOutcomes(f, q)
  const bounds = boundsOf(q)
  const crossed = crossedSince(f, passesAll(f, q, nowMs), nowMs)
  if (!crossed) return countByCombos(f, outcome, bounds, nowMs)
  const count = () => countByCombos(f, outcome, bounds, f.combos.byCombo.at)
  const atCopy = keep === undefined ? count() : combosIn.get(f, keep, count)
  return countsOf(
    atCopy.total,
    atCopy.values,
    atCopy.postedWithin.map((n, k) => n - (crossed[k] as number)),
    atCopy.battery80,
  )
}

/** Per copy, the counts by combination of the searches asked lately, at the copy's clock. */
const combosIn = new KeptPerCopy<ListingFacts, FactsFacets>(
  'facets by combination',
  2 * 1024 * 1024,
  () => FACETS_BYTES,
)

/**
 * Per choice, the rows passing every filter in it at byCombo.at, not at `nowMs` (posted in [at - days,
 * nowMs - days), a run of rows), negative if the clock is behind; undefined if too many to read (days old).
 */
function crossedSince(f: ListingFacts, passes: (r: number) => number, nowMs: number): number[] | undefined {
  const { at } = f.combos.byCombo
  const crossed: number[] = []
  let budget = Math.max(1_024, f.size >>> 4)
  for (const days of POSTED_WITHIN_DAYS) {
    const now = firstOlder(f, nowMs - days * DAY_MS)
    const then = firstOlder(f, at - days * DAY_MS)
    budget -= Math.abs(now - then)
    if (budget < 0) return undefined
    let n = 0
    for (let r = Math.min(now, then), to = Math.max(now, then); r < to; r++) if (passes(r) === PASSES) n++
    crossed.push(now <= then ? n : -n)
  }
  return crossed
}

/**
 * countFacts without a date filter: each combination the facet filters leave, its price run. At the copy's
 * clock without a battery floor, from the counts along byCombo; else row by row (contiguous in memory).
 */
function countByCombos(f: ListingFacts, outcome: Uint8Array, bounds: Bounds, nowMs: number): FactsFacets {
  const { battery, postedMs, at, battery80: atLeast80, within } = f.combos.byCombo
  const since = POSTED_WITHIN_DAYS.map((days) => nowMs - days * DAY_MS)
  const combinations = outcome.length
  const counted = countsFor(combinations)
  const segments = since.length
  const bySegment = new Int32Array(segments + 1)
  const { minPrice, maxPrice, minBattery } = bounds
  const byCounts = nowMs === at && minBattery === -Infinity
  // Whole runs (no price range) off the copy's clock or under a battery floor: each run's count by bisection, the
  // posting-date choices by one pass over the rows recent enough for one (decision 0150).
  const wholeRuns = !byCounts && noPriceRange(bounds)
  const oldest = since[segments - 1] ?? -Infinity
  let total = 0
  let battery80 = 0
  for (let c = 0; c < combinations; c++) {
    const o = outcome[c] as number
    if (o === NONE) continue
    if (o !== 0) {
      // Fails one facet's filter: counts for that facet alone, when it passes everything else.
      counted[c] = runCount(f, c, bounds)
      continue
    }
    const lo = runAt(f, c, minPrice)
    const hi = runAt(f, c, maxPrice + 1)
    let n = 0
    // The battery choice ignores the battery floor (it is that facet's own filter).
    battery80 += (atLeast80[hi] as number) - (atLeast80[lo] as number)
    if (byCounts) {
      for (let k = 0; k < segments; k++) {
        const counts = within[k] as Int32Array
        bySegment[k] = (bySegment[k] as number) + (counts[hi] as number) - (counts[lo] as number)
      }
      n = hi - lo
    } else if (wholeRuns) n = runCount(f, c, bounds)
    else
      for (let i = lo; i < hi; i++) {
        if ((battery[i] as number) < minBattery) continue
        const posted = postedMs[i] as number
        // Most listings are older than the longest choice: one test for them.
        let segment = posted < oldest ? segments : 0
        while (segment < segments && posted < (since[segment] as number)) segment++
        bySegment[segment] = (bySegment[segment] as number) + 1
        n++
      }
    counted[c] = n
    total += n
  }
  if (wholeRuns) recentSegments(f, outcome, minBattery, since, bySegment)
  // By the counts, each choice's own rows were summed; row by row, its segment's.
  const postedWithin = byCounts ? Array.from(bySegment.subarray(0, segments)) : choicesOf(bySegment, segments)
  const values = valuesOf(f.columns, f.combos.values, outcome, counted)
  counted.fill(0, 0, combinations)
  return countsOf(total, values, postedWithin, battery80)
}

/** Into `bySegment`, the rows posted since the oldest choice's start whose combination passes and battery is not under the floor. */
function recentSegments(
  f: ListingFacts,
  outcome: Uint8Array,
  minBattery: number,
  since: number[],
  bySegment: Int32Array,
) {
  const { ofRow } = f.combos
  const { battery, postedMs } = f
  const segments = since.length
  for (let r = 0, to = firstOlder(f, since[segments - 1] ?? -Infinity); r < to; r++) {
    if (outcome[ofRow[r] as number] !== 0 || (battery[r] as number) < minBattery) continue
    const posted = postedMs[r] as number
    let segment = 0
    while (segment < segments && posted < (since[segment] as number)) segment++
    bySegment[segment] = (bySegment[segment] as number) + 1
  }
}

/**
 * The total's rows, a bit each, and the count before each 256 rows (a rank sums at most eight words): as
 * row numbers (4 bytes a row) only two broad searches fit at 1,000,000 listings.
 */
type PassingRows = { words: Uint32Array; before: Uint32Array }

type KeptFacets = { facets: FactsFacets; passing: PassingRows }

/**
 * The counts of searches asked again and the rows each counted: the choices move with the clock. A first ask's
 * counts alone are made (and not kept): its rows would be 141 KB at 1,000,000 listings made for nothing.
 */
const facetsIn = new KeptPerCopy<ListingFacts, KeptFacets | FactsFacets>(
  'facets and their rows',
  16 * 1024 * 1024,
  (kept) =>
    'passing' in kept
      ? kept.passing.words.byteLength + kept.passing.before.byteLength + FACETS_BYTES + 2 * TYPED_ARRAY_BYTES
      : FACETS_BYTES,
  (f) => f.size,
  // From a second ask: of 943 asks in 4,000 long-tail searches, 39 found their rows kept (decisions 0168, 0169).
  true,
)

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

/** The total alone, to `cap` + 1: far cheaper than factsFacets; rows drop at the first filter they fail. */
export function factsTotal(
  f: ListingFacts,
  q: SearchQuery,
  nowMs: number,
  cap: number,
  text?: TextRows,
): number {
  const count = () => countTotal(f, q, nowMs, cap, text?.rows)
  // Without a posting date the total does not move with the clock: kept per copy and search.
  if (q.posted_within !== undefined) return count()
  return totalsIn.get(f, `${cap}|${text?.key ?? ''}|${filtersKey(q)}`, count)
}

const totalsIn = new KeptPerCopy<ListingFacts, number>('totals', 256 * 1024, () => 0)

/** factsTotal over the rows `given` (a text's matches, a view's changed rows), else over every row. */
export function countTotal(
  f: ListingFacts,
  q: SearchQuery,
  nowMs: number,
  cap: number,
  given?: ArrayLike<number>,
): number {
  let total = 0
  // Without text or a date filter: each combination passing every facet filter, its run of the price range.
  if (!given && f.newestFirst && q.posted_within === undefined) {
    const outcome = comboOutcomes(f, q)
    const bounds = boundsOf(q)
    for (let c = 0; c < outcome.length; c++) {
      if (outcome[c] !== 0) continue
      total += runCount(f, c, bounds)
      if (total > cap) return cap + 1
    }
    return total
  }
  const passes = passesAll(f, q, nowMs)
  const driving = given ? [given] : (narrowestChoice(f, q)?.lists ?? [everyRow(f)])
  for (const rows of driving) {
    for (let n = 0; n < rows.length; n++) {
      const pass = passes(rows[n] as number)
      // Newest first: the rest of this list is older still.
      if (pass === TOO_OLD && f.newestFirst) break
      if (pass === PASSES && ++total > cap) return total
    }
  }
  return total
}

/** c's rows in a price range with a battery at a floor or more: a row is read only for the floor. */
function runCount(f: ListingFacts, c: number, bounds: Bounds): number {
  const { minPrice, maxPrice, minBattery } = bounds
  const lo = runAt(f, c, minPrice)
  const hi = runAt(f, c, maxPrice + 1)
  if (minBattery === -Infinity) return hi - lo
  const { battery, batteryAscending } = f.combos.byCombo
  if (noPriceRange(bounds)) return hi - firstAtLeast(batteryAscending, lo, hi, minBattery)
  let n = 0
  for (let i = lo; i < hi; i++) if ((battery[i] as number) >= minBattery) n++
  return n
}

/** The first place in c's run of byCombo (cheapest first) priced `cents` or more; an open bound's end. */
export function runAt(f: ListingFacts, c: number, cents: number): number {
  const { start, price } = f.combos.byCombo
  if (cents === -Infinity) return start[c] as number
  if (cents === Infinity) return start[c + 1] as number
  return firstAtLeast(price, start[c] as number, start[c + 1] as number, cents)
}
