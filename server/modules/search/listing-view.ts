import type { SearchQuery } from '#contract/search'
import { countFacts, countTotal, type FactsFacets, factsFacets, factsTotal } from './facts-counts'
import { type PageAsk, pageHits } from './facts-pages'
import { COUNT_FACETS, type CountFacet } from './filters'
import { factsFromRows, idAt, type ListingFacts } from './listing-facts'
import { lowerBound, type TextRows } from './listing-text'

// A view: the copy as last read whole (`base`), less the rows of listings changed since (`dead`), plus those
// listings as they are now (`delta`, a small copy). listing-feed.ts keeps it current by applying the change feed;
// search reads only views. Every count is a sum over listings, so a view's counts are the base's (kept per base,
// which never changes), less its dead rows', plus the delta's; a page merges the base's and the delta's in order.

export type FactsView = {
  /** The version of the listings this view is at: every change committed up to it is applied. */
  version: string
  base: ListingFacts
  /** 1 for each row of `base` whose listing changed since `base` was read (it is in `delta` if still on sale). */
  dead: Uint8Array
  /** The same rows, ascending. */
  deadRows: Int32Array
  /** The listings changed since `base` was read that are on sale, as they are now. */
  delta: ListingFacts
  /** Listings on sale in the view. */
  size: number
}

/** A view of a copy just read whole. */
export function wholeView(base: ListingFacts): FactsView {
  return {
    version: base.version,
    base,
    dead: new Uint8Array(base.size),
    deadRows: new Int32Array(0),
    delta: factsFromRows(base.version, []),
    size: base.size,
  }
}

/** A text's matches in each part of a view, or undefined when a part cannot match it. */
export type TextOf = (part: ListingFacts) => TextRows | undefined

/** The dead rows among a text's matches (both ascending: each found by bisection), or every dead row without text. */
function deadAmong(view: FactsView, text: TextRows | undefined): Int32Array {
  if (!text || view.deadRows.length === 0) return view.deadRows
  const { rows } = text
  return view.deadRows.filter((r) => rows[lowerBound(rows.length, (j) => (rows[j] as number) >= r)] === r)
}

const isWhole = (view: FactsView) => view.deadRows.length === 0 && view.delta.size === 0

/** factsFacets over a view. */
export function viewFacets(view: FactsView, q: SearchQuery, nowMs: number, textOf?: TextOf): FactsFacets {
  const text = textOf?.(view.base)
  const whole = factsFacets(view.base, q, nowMs, text)
  if (isWhole(view)) return whole
  const less = countFacts(view.base, q, nowMs, undefined, undefined, deadAmong(view, text)).facets
  const more = countFacts(view.delta, q, nowMs, textOf?.(view.delta)).facets
  const values = {} as Record<CountFacet, Map<string, number>>
  for (const name of COUNT_FACETS) {
    const sum = new Map(whole.values[name])
    for (const [v, n] of less.values[name]) sum.set(v, (sum.get(v) ?? 0) - n)
    for (const [v, n] of more.values[name]) sum.set(v, (sum.get(v) ?? 0) + n)
    for (const [v, n] of sum) if (n <= 0) sum.delete(v)
    values[name] = sum
  }
  return {
    total: whole.total - less.total + more.total,
    values,
    postedWithin: whole.postedWithin.map(
      (n, i) => n - (less.postedWithin[i] as number) + (more.postedWithin[i] as number),
    ),
    battery80: whole.battery80 - less.battery80 + more.battery80,
  }
}

/** factsTotal over a view: exact up to `cap`, more than `cap` past it. */
export function viewTotal(
  view: FactsView,
  q: SearchQuery,
  nowMs: number,
  cap: number,
  textOf?: TextOf,
): number {
  const text = textOf?.(view.base)
  if (isWhole(view)) return factsTotal(view.base, q, nowMs, cap, text)
  const dead = deadAmong(view, text)
  // The base counted far enough that its dead rows cannot bring it under the cap; a power of two, so the count kept
  // per base is found again while the dead rows grow.
  const reach = cap + 2 ** Math.ceil(Math.log2(Math.max(1_024, dead.length)))
  const whole = factsTotal(view.base, q, nowMs, reach, text)
  const less = countTotal(view.base, q, nowMs, Number.POSITIVE_INFINITY, undefined, dead)
  const more = countTotal(view.delta, q, nowMs, cap, textOf?.(view.delta))
  return whole - less + more
}

/**
 * pageHits over a view, as ids: the base's page (its dead rows skipped) and the delta's, merged in the sort's order. Each
 * part gives the matches up to the page's end, so the merge is exact; undefined when a part cannot say.
 */
export function viewPage(
  view: FactsView,
  ask: Omit<PageAsk, 'text' | 'dead' | 'deadCount'>,
  textOf?: TextOf,
): string[] | undefined {
  const { base, delta, dead } = view
  const { sort, paging } = ask
  const baseText = textOf?.(base)
  const skipDead = { dead, deadCount: view.deadRows.length }
  if (delta.size === 0)
    return pageHits(base, { ...ask, text: baseText, ...skipDead })?.map((h) => idAt(base, h.r))
  const upTo = { pageSize: paging.offset + paging.pageSize, offset: 0 }
  const fromBase = pageHits(base, { ...ask, paging: upTo, text: baseText, ...skipDead })
  const fromDelta = pageHits(delta, { ...ask, paging: upTo, text: textOf?.(delta) })
  if (!fromBase || !fromDelta) return undefined
  type Entry = { f: ListingFacts; r: number; tier: number }
  const entries: Entry[] = [
    ...fromBase.map((h) => ({ f: base, ...h })),
    ...fromDelta.map((h) => ({ f: delta, ...h })),
  ]
  const id = (e: Entry) => idAt(e.f, e.r)
  const compare = (a: Entry, b: Entry): number => {
    if (sort === 'price_asc')
      return (a.f.priceCents[a.r] as number) - (b.f.priceCents[b.r] as number) || -descending(id(a), id(b))
    if (sort === 'price_desc')
      return (b.f.priceCents[b.r] as number) - (a.f.priceCents[a.r] as number) || descending(id(a), id(b))
    return (
      b.tier - a.tier ||
      descending(a.f.postedUs[a.r] as number, b.f.postedUs[b.r] as number) ||
      descending(id(a), id(b))
    )
  }
  entries.sort(compare)
  return entries.slice(paging.offset, paging.offset + paging.pageSize + 1).map(id)
}

/** Descending order (ids, posting times): negative when `a` comes first. */
const descending = <T extends string | number>(a: T, b: T) => (a > b ? -1 : a < b ? 1 : 0)
