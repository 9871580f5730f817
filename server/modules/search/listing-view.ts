import type { SearchQuery } from '#contract/search'
import {
  countFacts,
  countsOf,
  countTotal,
  type FactsFacets,
  factsFacets,
  factsTotal,
  smallInteger,
} from './facts-counts'
import { type DeadMarks, type PageAsk, pageHits, sortColumn, sortKeyAt } from './facts-pages'
import { perCountFacet } from './filters'
import { everyRow, factsFromRows, idAt, inOrder, type ListingFacts } from './listing-facts'
import { descending, firstAtLeast, type TextRows } from './listing-text'
import { sharedArray } from './shared-texts'

// A view: the copy last made whole (read, or made from a view: facts-rebase.ts), the parts listing-feed.ts added since (each less its dead rows), the
// delta. Search reads only views: counts sum over listings, so a view sums its parts' (kept per copy).

/** A copy in a view, less the rows of its listings changed since it was made. */
export type MarkedPart = {
  facts: ListingFacts
  /** Its rows whose listings changed since it was made, up to this view (DeadMarks: one array per copy). */
  dead: DeadMarks
  /** The same rows, ascending. */
  deadRows: Int32Array
}

export type FactsView = {
  /** The version of the listings this view is at: every change committed up to it is applied. */
  version: string
  /** The base, then (once changes settled) a copy of the listings changed since, as they were then. */
  parts: MarkedPart[]
  /** The listings changed since the last part was made that are on sale, as they are now. */
  delta: ListingFacts
  /** Listings on sale in the view. */
  size: number
}

/** The copy as last made whole. */
export const baseOf = (view: FactsView): ListingFacts => (view.parts[0] as MarkedPart).facts

/** A copy less its `dead` rows (marked at 1); marks shared with every later view and the search threads. */
export function markedPart(facts: ListingFacts, dead = new Set<number>()): MarkedPart {
  const at = sharedArray(Int32Array, facts.size)
  for (const r of dead) Atomics.store(at, r, 1)
  return partWithDead(facts, at, dead.size > 0 ? 1 : 0, Int32Array.from(dead).sort())
}

/** A part from its marks and its dead rows, ascending: the marks' count taken from the rows (the one place it is set). */
export const partWithDead = (
  facts: ListingFacts,
  at: Int32Array,
  upTo: number,
  deadRows: Int32Array,
): MarkedPart => ({
  facts,
  dead: { at, upTo, rows: deadRows.length },
  deadRows,
})

export const wholeView = (base: ListingFacts): FactsView => ({
  version: base.version,
  parts: [markedPart(base)],
  delta: factsFromRows(base.version, []),
  size: base.size,
})

/** A text's matches in each part of a view, or undefined when a part cannot match it. */
type TextOf = (part: ListingFacts) => TextRows | undefined

/**
 * A part's dead rows as a copy of their own, row j being deadRows[j]: the arrays a count reads per row gathered
 * (a pass over a few kilobytes), not read across the whole copy's (a cache miss a row and array: 100 ns a row at
 * 1,000,000 listings, 0.25 ms a search at 2,400 dead rows). The rest is the part's, indexed by its rows: only
 * for counting given rows (countFacts, countTotal with `given`). Per thread, once per dead rows (a view's).
 */
function deadCopy(part: MarkedPart): ListingFacts {
  const { facts: f, deadRows: rows } = part
  let copy = deadCopies.get(rows)
  if (!copy) {
    copy = {
      ...f,
      size: rows.length,
      // The thread's own arrays: this copy is never handed to another thread.
      postedMs: inOrder(f.postedMs, rows, false),
      priceCents: inOrder(f.priceCents, rows, false),
      battery: inOrder(f.battery, rows, false),
      combos: { ...f.combos, ofRow: inOrder(f.combos.ofRow, rows, false) },
    }
    deadCopies.set(rows, copy)
  }
  return copy
}
const deadCopies = new WeakMap<Int32Array, ListingFacts>()

/** The dead copy's rows (deadCopy) whose listings match `text`, if any: both ascending, merged by galloping. */
function deadAmong(part: MarkedPart, text: TextRows | undefined): Int32Array {
  const { deadRows } = part
  if (deadRows.length === 0) return deadRows
  if (!text) return everyRow(deadCopy(part))
  const matches = text.rows
  const among: number[] = []
  let at = 0
  for (let j = 0; j < deadRows.length && at < matches.length; j++) {
    const r = deadRows[j] as number
    // Steps of 1, 2, 4… from the last place until one reaches r, then a bisection of the last step (its end, if none
    // before it is r or more): the cost of the gap, not of every match.
    let step = 1
    while (at + step < matches.length && (matches[at + step] as number) < r) step *= 2
    at = firstAtLeast(matches, at, Math.min(matches.length, at + step), r)
    if (matches[at] === r) among.push(j)
  }
  return Int32Array.from(among)
}

/** factsFacets over a view: each part's, less its dead rows', plus the delta's. */
export function viewFacets(view: FactsView, q: SearchQuery, nowMs: number, textOf?: TextOf): FactsFacets {
  // Each a part's counts (1) or its dead rows' (-1, after the part's: its values are among the part's).
  const terms: [FactsFacets, number][] = []
  for (const part of view.parts) {
    const text = textOf?.(part.facts)
    terms.push([factsFacets(part.facts, q, nowMs, text), 1])
    if (part.deadRows.length > 0)
      terms.push([countFacts(deadCopy(part), q, nowMs, deadAmong(part, text)), -1])
  }
  if (view.delta.size > 0) terms.push([countFacts(view.delta, q, nowMs, textOf?.(view.delta)?.rows), 1])
  const [first] = terms[0] as [FactsFacets, number]
  if (terms.length === 1) return first
  const total = (pick: (f: FactsFacets) => number) => terms.reduce((t, [f, sign]) => t + sign * pick(f), 0)
  return countsOf(
    total((f) => f.total),
    perCountFacet((name) => {
      const sum = new Map<string, number>()
      for (const [f, sign] of terms)
        for (const [v, n] of f.values[name]) sum.set(v, (sum.get(v) ?? 0) + sign * n)
      for (const [v, n] of sum) if (n <= 0) sum.delete(v)
      return sum
    }),
    first.postedWithin.map((_, i) => total((f) => f.postedWithin[i] as number)),
    total((f) => f.battery80),
  )
}

/** factsTotal over a view: exact up to `cap`, more than `cap` past it. */
export function viewTotal(
  view: FactsView,
  q: SearchQuery,
  nowMs: number,
  cap: number,
  textOf?: TextOf,
): number {
  let total = view.delta.size > 0 ? countTotal(view.delta, q, nowMs, cap, textOf?.(view.delta)?.rows) : 0
  for (const part of view.parts) {
    const text = textOf?.(part.facts)
    const dead = deadAmong(part, text)
    // With dead rows, counted far enough that they cannot bring it under the cap; a power of two, so the
    // count kept per copy is found again while the dead rows grow.
    const reach =
      part.deadRows.length === 0 ? cap : cap + 2 ** Math.ceil(Math.log2(Math.max(1_024, dead.length)))
    total += factsTotal(part.facts, q, nowMs, reach, text)
    if (dead.length > 0) total -= countTotal(deadCopy(part), q, nowMs, Number.POSITIVE_INFINITY, dead)
  }
  return smallInteger(total)
}

/**
 * pageHits over a view, as ids: parts' pages (dead rows skipped) and the delta's, merged in sort order. The
 * largest source gives its matches up to the page's end first: the view's are no later than its last, so the
 * smaller give only theirs up to it (m of them; a deep page walked them whole). The largest's match at place i is
 * at i to i + m in the view, so it gives from offset - m on: the merge is exact. Undefined if one can't say.
 */
export function viewPage(
  view: FactsView,
  ask: Omit<PageAsk, 'text' | 'dead' | 'until'>,
  textOf?: TextOf,
): string[] | undefined {
  const { sort, paging } = ask
  const sources: [ListingFacts, Partial<PageAsk>][] = view.parts.map((part) => [
    part.facts,
    { text: textOf?.(part.facts), dead: part.dead },
  ])
  if (view.delta.size > 0) sources.push([view.delta, { text: textOf?.(view.delta) }])
  const largest = sources.reduce((best, [f], i) => (f.size > (sources[best]?.[0].size ?? 0) ? i : best), 0)
  const [big, bigOwn] = sources.splice(largest, 1)[0] as (typeof sources)[number]
  if (sources.length === 0) return pageHits(big, { ...ask, ...bigOwn })?.map((h) => idAt(big, h.r))
  const end = paging.offset + paging.pageSize
  const bigFirst = pageHits(big, { ...ask, paging: { pageSize: end, offset: 0 }, ...bigOwn })
  if (!bigFirst) return undefined
  // Best match orders by tier first, which a walk in row order cannot stop at: its sources are not bounded.
  const last = bigFirst[end]
  const until = last && sort !== 'relevance' ? sortKeyAt(big, last.r, sort) : undefined
  type Entry = { f: ListingFacts; r: number; tier: number }
  const entries: Entry[] = []
  for (const [f, own] of sources) {
    const hits = pageHits(f, { ...ask, paging: { pageSize: end, offset: 0 }, until, ...own })
    if (!hits) return undefined
    for (const h of hits) entries.push({ f, r: h.r, tier: h.tier })
  }
  const from = Math.max(0, paging.offset - entries.length)
  const bigHits = bigFirst.slice(from)
  const id = (e: Entry) => idAt(e.f, e.r)
  // Best match: tier (0 in other sorts), then newest; by price: price. Ties by id (ascending: all reversed).
  const key = sortColumn(sort)
  const sign = sort === 'price_asc' ? -1 : 1
  const order = (a: Entry, b: Entry) =>
    sign *
    (b.tier - a.tier || (b.f[key][b.r] as number) - (a.f[key][a.r] as number) || descending(id(a), id(b)))
  // Past the largest's first `from` matches: the smaller sources' matches before its first one given are
  // before them too (under the page), and that one is at place `from` plus how many they are.
  const first = bigHits[0] ? { f: big, r: bigHits[0].r, tier: bigHits[0].tier } : undefined
  if (from > 0 && !first) return []
  const after = from > 0 && first ? entries.filter((e) => order(e, first) > 0) : entries
  const start = from + entries.length - after.length
  for (const h of bigHits) after.push({ f: big, r: h.r, tier: h.tier })
  after.sort(order)
  return after.slice(paging.offset - start, end + 1 - start).map(id)
}
