import type { SearchQuery, SearchSort } from '#contract/search'
import type { CursorKey, Paging } from '#server/lib/paging'
import { countTotal, runAt } from './facts-counts'
import { boundsOf } from './filters'
import { KeptPerCopy, onceEach, TYPED_ARRAY_BYTES, withMarks } from './kept-per-copy'
import {
  comboOutcomes,
  DAY_MS,
  everyRow,
  filtersKey,
  firstOlder,
  idAt,
  type ListingFacts,
  narrowestChoice,
  PASSES,
  passesAll,
  priceRun,
  sumPassing,
  TOO_OLD,
} from './listing-facts'
import { firstAtLeast, lowerBound, type TextRows } from './listing-text'

// A page of a search from a copy of the listings (listing-facts.ts), its first hits kept per copy and search.

/** `pageSize` hits after `offset` (one more is asked, to know there is more). */
export type PageSpan = Pick<Paging, 'pageSize' | 'offset'>

/** A page asked of a copy; `nowMs`: the clock "posted within" counts from. */
export type PageAsk = {
  query: SearchQuery
  sort: SearchSort
  paging: PageSpan
  cursor?: Pick<CursorKey, 'k' | 'id'> | undefined
  nowMs: number
  text?: TextRows | undefined
  dead?: DeadMarks | undefined
  /** Matches after this one in the sort (its price or posting time, and id) may be left out: none is on the page. */
  until?: SortKey | undefined
}

/** Where a listing falls in a sort by price or newest first: its price (cents) or posting time (µs), then its id. */
type SortKey = { k: number; id: string }

/** The column a sort orders by (best match: within a tier, newest first); ties by id, as the sort goes. */
export const sortColumn = (sort: SearchSort) =>
  sort === 'price_asc' || sort === 'price_desc' ? 'priceCents' : 'postedUs'

/** Row r's place in the sort. */
export const sortKeyAt = (f: ListingFacts, r: number, sort: SearchSort): SortKey => ({
  k: f[sortColumn(sort)][r] as number,
  id: idAt(f, r),
})

/**
 * Rows changed since the copy was read: `at[r]` is the feed's application that found row r changed (0: not),
 * one array per copy marked in place and shared by its views; a view skips those up to its `upTo`, `rows` of them.
 */
export type DeadMarks = { at: Int32Array; upTo: number; rows: number }

export const isDead = (dead: DeadMarks | undefined, r: number): boolean =>
  dead !== undefined && dead.at[r] !== 0 && (dead.at[r] as number) <= dead.upTo

/** A row of a page, with its best-match tier (0 unless the sort is best match). */
type Hit = { r: number; tier: number }

/**
 * A page's rows (best match: by tier, then newest), `pageSize` + 1 if more, skipping `dead`; read in sort
 * order, a page costs at most the matches before it. Pages by number: kept per search (hitsIn), walked twice
 * as far when a page passes them. Undefined: not in posting order, or a cursor the database didn't write.
 */
export function pageHits(f: ListingFacts, ask: PageAsk): Hit[] | undefined {
  const { query: q, sort, paging, cursor, text, dead } = ask
  if (!f.newestFirst) return undefined
  // Found afresh: a cursor starts at its listing, a date filter moves, a view's small delta keeps changing.
  if (cursor || q.posted_within !== undefined || f.size < NARROW_FROM) return walkHits(f, ask)
  const wanted = paging.offset + paging.pageSize + 1
  const key = `${sort}|${text?.key ?? ''}|${filtersKey(q)}`
  let kept = hitsIn.get(f, key, () => NO_HITS)
  let page = keptPage(kept, paging, dead)
  while (!page) {
    // First as far as the page and the dead rows likely among it (most searches are asked once), then twice as far
    // as last time: a paged search is walked a few times, not once per page, and again while changed matches leave
    // the page short.
    const reach =
      kept.rows.length === 0
        ? wanted + deadAmongFirst(f, dead, wanted)
        : Math.max(2 * kept.rows.length, 2 * wanted)
    // Kept for every later view of this copy: rows changed since are skipped as a page is taken (keptPage).
    const hits = walkHits(f, {
      ...ask,
      paging: { offset: 0, pageSize: reach - 1 },
      dead: undefined,
      until: undefined,
    })
    if (!hits) return undefined
    kept = hitsIn.set(f, key, {
      rows: Int32Array.from(hits, (h) => h.r),
      tiers: Uint8Array.from(hits, (h) => h.tier),
      complete: hits.length < reach,
    })
    page = keptPage(kept, paging, dead)
  }
  return page
}

/**
 * How far past its first `wanted` matches a walk goes so that dead rows among them rarely leave a page short: the
 * expected count and three deviations (a match is dead as often as a row). Short, a page is walked again at twice the
 * reach: under writes, with 2,000 rows dead at 1,000,000, one first search in six was walked three times as far.
 */
function deadAmongFirst(f: ListingFacts, dead: DeadMarks | undefined, wanted: number): number {
  const rows = dead?.rows ?? 0
  const expected = (wanted * rows) / Math.max(1, f.size)
  return expected < 0.01 ? 0 : Math.min(rows, Math.ceil(expected + 3 * Math.sqrt(expected)))
}

/** A search's first hits in its order (all of them when `complete`), by page number: kept per copy. */
type KeptHits = { rows: Int32Array; tiers: Uint8Array; complete: boolean }
const NO_HITS: KeptHits = { rows: new Int32Array(0), tiers: new Uint8Array(0), complete: false }

const hitsIn = new KeptPerCopy<ListingFacts, KeptHits>(
  'first hits',
  16 * 1024 * 1024,
  (k) => 5 * k.rows.length + 2 * TYPED_ARRAY_BYTES + 64,
  (f) => f.size,
)

/** A page from kept hits, skipping dead rows; undefined if they miss the page's end and are not all. */
function keptPage(kept: KeptHits, paging: PageSpan, dead: DeadMarks | undefined): Hit[] | undefined {
  const hits: Hit[] = []
  let skip = paging.offset
  for (let i = 0; i < kept.rows.length && hits.length <= paging.pageSize; i++) {
    const r = kept.rows[i] as number
    if (isDead(dead, r)) continue
    if (skip > 0) skip--
    else hits.push({ r, tier: kept.tiers[i] as number })
  }
  return hits.length > paging.pageSize || kept.complete ? hits : undefined
}

/** pageHits, found by reading the copy (one in posting order). */
function walkHits(f: ListingFacts, ask: PageAsk): Hit[] | undefined {
  const { query: q, sort, paging, cursor, nowMs, text, dead, until } = ask
  // No combination of facet values passes (a RAM choice under the RAM minimum, say): nothing to walk for.
  if (!comboOutcomes(f, q).includes(0)) return []
  if (sort === 'relevance') return text ? relevancePage(f, ask, text) : undefined
  const byPrice = sort !== 'newest'
  // Rows in row order holding every match (and more): the text's matches, or the narrowest facet filter's
  // rows (a brand's listings), only those a date filter lets through. Newest first walks them alone; by price,
  // every row, skipping the others.
  const wanted = paging.offset + paging.pageSize + 1
  // Listings passing the facet filters (from the combinations' counts), summed once for the estimates below.
  let facetPassing: number | undefined
  const passing = () => (facetPassing ??= sumPassing(comboOutcomes(f, q), f.combos.rows))
  const few = postedWithin(f, q, nowMs, text ? text.rows : narrowestRows(f, q, wanted, passing))
  const matches = !byPrice ? few : undefined
  const n = matches ? matches.length : f.size
  const backwards = sort === 'price_desc'
  const rowAt = (i: number) =>
    byPrice ? (f.byPrice[backwards ? f.size - 1 - i : i] as number) : matches ? (matches[i] as number) : i
  // Whether row r comes after a listing in the sort: price_asc goes up by (price, id), the others down.
  const keys = f[sortColumn(sort)]
  const after = (r: number, { k, id }: SortKey) => {
    const v = keys[r] as number
    if (v !== k) return sort === 'price_asc' ? v > k : v < k
    return sort === 'price_asc' ? idAt(f, r) > id : idAt(f, r) < id
  }
  // Past `until`: a row matching every filter there ends a walk (the rest come later still), is left out of a pick.
  const beyond = (r: number) => until !== undefined && after(r, until)
  let start = 0
  if (cursor) {
    const k = byPrice ? Number(cursor.k[0]) : timestampMicros(cursor.k[0])
    if (k === undefined || !Number.isFinite(k)) return undefined
    const at = { k, id: cursor.id.toLowerCase() }
    start = lowerBound(n, (i) => after(rowAt(i), at))
  }
  let end = n
  if (byPrice && (q.min_price !== undefined || q.max_price !== undefined)) {
    const [from, to] = priceRun(f, boundsOf(q))
    start = Math.max(start, backwards ? f.size - to : from)
    end = backwards ? f.size - from : to
  }
  const passes = passesAll(f, q, nowMs)
  // By price, picking candidates (`few`) by their place in byPrice costs a look at each: a walk over byPrice
  // gives up after twice as many listings as candidates (a filter few pass would cross most of the copy).
  const pick = (candidates: ArrayLike<number>): Hit[] => {
    const rank = byPrice ? priceRanks(f) : undefined
    // Only the first `wanted` places are kept: a full room is sorted, the rest dropped, later places past the
    // last kept skipped (sorting every passing candidate of 100,000 cost as much as the rest).
    const room = Math.min(candidates.length, Math.max(4 * wanted, 1_024))
    const picked = new Int32Array(room)
    let count = 0
    let before = Number.POSITIVE_INFINITY
    for (let c = 0; c < candidates.length; c++) {
      const r = candidates[c] as number
      // The filters first: most candidates fail them, and each other test reads memory of its own.
      if (passes(r) !== PASSES || isDead(dead, r) || beyond(r)) continue
      const at = rank ? (rank[r] as number) : r
      const i = backwards ? f.size - 1 - at : at
      // Before the cursor's listing (a row passing a price range is within its run of byPrice).
      if (i < start || i >= before) continue
      if (count === room) {
        picked.sort()
        count = wanted
        before = picked[wanted - 1] as number
        if (i >= before) continue
      }
      picked[count++] = i
    }
    const inOrder = picked.subarray(0, count).sort().subarray(paging.offset, wanted)
    return Array.from(inOrder, (i) => ({ r: byPrice ? rowAt(i) : i, tier: 0 }))
  }
  // Few matches among many rows (a brand in a narrow price range, rare filters): from the combinations' runs.
  if (!text && !cursor && f.size >= NARROW_FROM) {
    const rows = fewRows(f, q, byPrice ? end - start : n, wanted, passing())
    if (rows) return pick(rows)
  }
  const pickable = byPrice && few !== undefined && f.size >= NARROW_FROM ? few : undefined
  // A text is picked at once when its matches are few (walking needs a mark per listing) or a walk would read
  // more rows than there are matches: about the page's end times the listings per match passing the filters.
  const walked =
    byPrice && text ? (wanted * f.size) / Math.max(1, text.rows.length * (passing() / f.size)) : 0
  if (pickable && text) {
    // Its matches passing the filters, counted only as far as a walk would read fewer rows than it picks: none
    // (a model's name with another brand: a walk read the whole price order) is an empty page at once.
    const enough = Math.ceil((wanted * f.size) / Math.max(1, pickable.length))
    const passing = countTotal(f, q, nowMs, enough - 1, pickable)
    if (passing === 0) return []
    if (pickable.length * 64 <= f.size || passing < enough || walked > pickable.length) return pick(pickable)
  }
  const budget = pickable ? 2 * pickable.length : Number.POSITIVE_INFINITY
  // `has`: a row holds the text's words; `costly`: it costs more (a bisection): made after the filters.
  const walk = (has: ((r: number) => boolean) | undefined, costly = false): Hit[] | undefined => {
    const hits: Hit[] = []
    let skip = paging.offset
    for (let i = start; i < end && hits.length <= paging.pageSize; i++) {
      if (pickable && i - start > budget) return undefined
      const r = rowAt(i)
      if (has && !costly && !has(r)) continue
      const pass = passes(r)
      // Newest first: every later row is older still.
      if (pass === TOO_OLD && !byPrice) break
      if (pass !== PASSES || isDead(dead, r) || (costly && !has?.(r))) continue
      if (beyond(r)) break
      if (skip > 0) skip--
      else hits.push({ r, tier: 0 })
    }
    return hits
  }
  // By price with text, the walk knows the text's matches by a mark each (unmarked again after), or, when it
  // reads fewer rows than marking every match would write, each by a bisection of the matches.
  const hits = !(byPrice && text)
    ? walk(undefined)
    : walked * Math.log2(text.rows.length + 1) < 2 * text.rows.length
      ? walk((r) => hasRow(text.rows, r), true)
      : withMarks(f.size, (has) => {
          const { rows } = text
          for (let i = 0; i < rows.length; i++) has[rows[i] as number] = 1
          const found = walk((r) => has[r] === 1)
          for (let i = 0; i < rows.length; i++) has[rows[i] as number] = 0
          return found
        })
  return hits ?? pick(pickable as Int32Array)
}

/** Whether ascending `rows` hold `r` (by bisection). */
const hasRow = (rows: Int32Array, r: number) => rows[firstAtLeast(rows, 0, rows.length, r)] === r

/** How many rows of a walk in row order cost as much as one row picked out of it, then sorted into place. */
const PICK_COST = 8

/**
 * Rows of the combinations passing the facet filters, each one's price run, when picking them costs less than
 * walking `walk` rows for `wanted` matches (estimated from the combinations and the price range's share).
 */
function fewRows(
  f: ListingFacts,
  q: SearchQuery,
  walk: number,
  wanted: number,
  passing: number,
): number[] | undefined {
  const outcome = comboOutcomes(f, q)
  const { minPrice, maxPrice } = boundsOf(q)
  const [from, to] = priceRun(f, boundsOf(q))
  const estimate = (passing * (to - from)) / Math.max(1, f.size)
  // A walk stops at `wanted` matches: spread over its `walk` rows, about wanted / estimate of them.
  const walked = estimate > 0 ? Math.min(walk, (wanted * walk) / estimate) : walk
  if (estimate * PICK_COST >= walked) return undefined
  const order = f.combos.byCombo.rows
  const rows: number[] = []
  for (let c = 0; c < outcome.length; c++) {
    if (outcome[c] !== 0) continue
    const hi = runAt(f, c, maxPrice + 1)
    for (let i = runAt(f, c, minPrice); i < hi; i++) rows.push(order[i] as number)
  }
  return rows
}

/** Copies smaller than this (a view's delta) are walked whole: finding a filter's rows would cost more. */
const NARROW_FROM = 4_096

/**
 * `rows` (every row if none) posted within the search's date filter: newest first, those before the first row
 * too old. A day's listings were 0.4% of the bench's 1,000,000: by price, a walk for them read most of the copy.
 */
function postedWithin(f: ListingFacts, q: SearchQuery, nowMs: number, rows: Int32Array | undefined) {
  if (q.posted_within === undefined || f.size < NARROW_FROM) return rows
  const end = firstOlder(f, nowMs - q.posted_within * DAY_MS)
  return rows ? rows.subarray(0, firstAtLeast(rows, 0, rows.length, end)) : everyRow(f).subarray(0, end)
}

/**
 * Several choices of one facet, their rows merged (when first needed, the latest kept). Bounded in bytes like
 * every kept map: 64 lists could hold over 100 MB at 1,000,000 listings (two conditions' rows: megabytes).
 */
const mergedIn = new KeptPerCopy<ListingFacts, Int32Array>(
  'merged rows of choices',
  16 * 1024 * 1024,
  (rows) => rows.byteLength + TYPED_ARRAY_BYTES,
  (f) => f.size,
)

/**
 * The rows of the choices of a search's narrowest facet filter, in row order; undefined without one, or when
 * merging several choices' rows (MERGE_COST a row) costs more than walking the copy for `wanted` matches.
 */
function narrowestRows(
  f: ListingFacts,
  q: SearchQuery,
  wanted: number,
  passing: () => number,
): Int32Array | undefined {
  if (f.size < NARROW_FROM) return undefined
  const best = narrowestChoice(f, q)
  // A filter allowing every listing narrows nothing: the copy is walked as it is.
  if (!best || best.size >= f.size) return undefined
  if (best.lists.length === 1) return best.lists[0]
  const walked = (wanted * f.size) / Math.max(1, passing())
  if (walked < MERGE_COST * best.size) return undefined
  return mergedIn.get(f, best.key, () => mergeInOrder(best.lists))
}

/** Rows of a walk costing as much as one row merged (a row of each choice's list written into one). */
const MERGE_COST = 2

/** Lists in row order as one in row order: merged two at a time (not put together and sorted). */
export function mergeInOrder(lists: Int32Array[]): Int32Array {
  if (lists.length < 2) return lists[0] ?? new Int32Array(0)
  const a = mergeInOrder(lists.slice(0, lists.length >> 1))
  const b = mergeInOrder(lists.slice(lists.length >> 1))
  const out = new Int32Array(a.length + b.length)
  let x = 0
  let y = 0
  let at = 0
  while (x < a.length && y < b.length)
    out[at++] = (a[x] as number) <= (b[y] as number) ? (a[x++] as number) : (b[y++] as number)
  out.set(x < a.length ? a.subarray(x) : b.subarray(y), at)
  return out
}

const priceRanks = onceEach((f: ListingFacts) => {
  const rank = new Int32Array(f.size)
  for (let i = 0; i < f.size; i++) rank[f.byPrice[i] as number] = i
  return rank
})

/**
 * Best match: the text's matches passing every filter by tier, then in row order (newest first, ties by id,
 * as in SQL); a cursor's listing by tier, time and id. Stops once the best tier left (`top`) fills the page.
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
    if (passes(r) !== PASSES || isDead(dead, r)) continue
    const tier = text.tierAt(i)
    if (after) {
      // After the cursor's listing: a lower tier, or the same tier and older (or as old with a lower id).
      if (tier > after.tier) continue
      // Tested here, not by a function shared with walkHits: this runs for every match in the cursor's tier.
      if (tier === after.tier) {
        const us = f.postedUs[r] as number
        if (us !== after.us ? us > (after.us as number) : idAt(f, r) >= after.id) continue
      }
    }
    const bucket = tiers[tier] as Hit[]
    // A tier's rows past `wanted` come after as many others: never on the page.
    if (bucket.length < wanted) bucket.push({ r, tier })
    if (tier === top && bucket.length >= wanted) break
  }
  return tiers.reverse().flat().slice(paging.offset, wanted)
}

const PG_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?)?$/

/** A timestamptz as PostgreSQL writes it (`2026-07-16 19:14:19.322248+00`), in microseconds since 1970. */
export function timestampMicros(text: string | number | undefined): number | undefined {
  const m = typeof text === 'string' ? PG_TIMESTAMP.exec(text) : null
  if (!m) return undefined
  const part = (i: number) => Number(m[i] ?? 0)
  const seconds = Date.UTC(part(1), part(2) - 1, part(3), part(4), part(5), part(6)) / 1000
  const offset = (m[8] === '-' ? -1 : 1) * (part(9) * 3600 + part(10) * 60 + part(11))
  return (seconds - offset) * 1_000_000 + Number((m[7] ?? '').padEnd(6, '0'))
}
