import { mergedColumn } from './facet-columns'
import { perCountFacet } from './filters'
import { copyOf, type FactRow, factsFromRows, ID_LENGTH, type ListingFacts } from './listing-facts'
import type { Postings, TextIndex } from './listing-text'
import type { MarkedPart } from './listing-view'
import { firstAppearance, sharedArray, textAt, textCount, textsOf } from './shared-texts'

// A whole copy made again from a view in memory (decision 0162): the parts read from the database less their dead
// rows, and the listings changed since as they are now, merged newest first. It is what a whole read at the view's
// version gives (or a little after: a bulk load's changes are read as they are now, and loadFacts chases the feed),
// without reading every listing's words from the database again (about 25 s of the machine's CPU at 1,000,000
// listings, for a pile of a few thousand changes). Each sorted thing is merged, not sorted again: the rows, the price
// order, each word's rows.

/** What a copy is made again from: a view's parts read from the database, and the changed listings on sale. */
export type Rebase = {
  version: string
  /** Each part read, and its rows whose listings changed since (ascending). */
  parts: Pick<MarkedPart, 'facts' | 'deadRows'>[]
  /** Every listing changed since the first part was read that is on sale, as it is now. */
  records: FactRow[]
}

/** A copy merged: its rows, and each row's place in the new copy (-1: dead). */
type Source = { facts: ListingFacts; newRow: Int32Array }

export function rebaseCopy({ version, parts, records }: Rebase): ListingFacts {
  const changed = { facts: factsFromRows(version, records), deadRows: new Int32Array(0) }
  const { sources, from, rows } = newestFirst([...parts, changed])
  const size = rows.length
  const each = <A extends Float64Array | Int32Array | Int16Array>(to: A, of: (f: ListingFacts) => A) => {
    for (let n = 0; n < size; n++)
      to[n] = of((sources[from[n] as number] as Source).facts)[rows[n] as number] as number
    return to
  }
  const ids = sharedArray(Uint8Array, size * ID_LENGTH)
  for (let n = 0; n < size; n++) {
    const { facts } = sources[from[n] as number] as Source
    const r = rows[n] as number
    ids.set(facts.ids.subarray(r * ID_LENGTH, (r + 1) * ID_LENGTH), n * ID_LENGTH)
  }
  const priceCents = each(sharedArray(Int32Array, size), (f) => f.priceCents)
  return copyOf({
    version,
    facets: perCountFacet((name) =>
      mergedColumn(
        sources.map(({ facts }) => facts.columns[name]),
        from,
        rows,
      ),
    ),
    postedUs: each(sharedArray(Float64Array, size), (f) => f.postedUs),
    priceCents,
    battery: each(sharedArray(Int16Array, size), (f) => f.battery),
    ids,
    text: mergedText(sources, from, rows),
    byPrice: mergedByPrice(sources, priceCents, ids, size),
  })
}

/** The sources' rows but their dead ones, merged as a whole read orders them: newest first, then by id, down. */
function newestFirst(parts: Rebase['parts']) {
  const sources: Source[] = parts.map(({ facts, deadRows }) => {
    const newRow = new Int32Array(facts.size)
    for (const r of deadRows) newRow[r] = -1
    return { facts, newRow }
  })
  const size = parts.reduce((n, p) => n + p.facts.size - p.deadRows.length, 0)
  const from = new Uint8Array(size)
  const rows = new Int32Array(size)
  const next = sources.map(() => 0)
  const live = (s: number) => {
    const { facts, newRow } = sources[s] as Source
    let r = next[s] as number
    while (r < facts.size && newRow[r] === -1) r++
    next[s] = r
    return r < facts.size
  }
  // Whether source a's next row comes before source b's: posted later, or at once with a greater id.
  const before = (a: number, b: number) => {
    const { facts: fa } = sources[a] as Source
    const { facts: fb } = sources[b] as Source
    const ra = next[a] as number
    const rb = next[b] as number
    const d = (fa.postedUs[ra] as number) - (fb.postedUs[rb] as number)
    return d !== 0 ? d > 0 : compareIds(fa.ids, ra, fb.ids, rb) > 0
  }
  for (let n = 0; n < size; n++) {
    let best = -1
    for (let s = 0; s < sources.length; s++) if (live(s) && (best < 0 || before(s, best))) best = s
    const r = next[best] as number
    from[n] = best
    rows[n] = r
    ;(sources[best] as Source).newRow[r] = n
    next[best] = r + 1
  }
  return { sources, from, rows }
}

/** Ids' order, as bytes (PostgreSQL's text order of a uuid): row a of `x` against row b of `y`. */
function compareIds(x: Uint8Array, a: number, y: Uint8Array, b: number): number {
  for (let i = 0, p = a * ID_LENGTH, q = b * ID_LENGTH; i < ID_LENGTH; i++, p++, q++)
    if (x[p] !== y[q]) return (x[p] as number) - (y[q] as number)
  return 0
}

/** The new rows by price, cheapest first, ties by id: each source's price order, its live rows, merged. */
function mergedByPrice(sources: Source[], price: Int32Array, ids: Uint8Array, size: number): Int32Array {
  const lists = sources.map(({ facts, newRow }) => {
    const list = new Int32Array(facts.size)
    let n = 0
    for (const r of facts.byPrice) if ((newRow[r] as number) >= 0) list[n++] = newRow[r] as number
    return list.subarray(0, n)
  })
  const cheaper = (a: number, b: number) =>
    (price[a] as number) - (price[b] as number) || compareIds(ids, a, ids, b)
  const out = sharedArray(Int32Array, size)
  const at = lists.map(() => 0)
  for (let n = 0; n < size; n++) {
    let best = -1
    for (let l = 0; l < lists.length; l++) {
      const list = lists[l] as Int32Array
      const i = at[l] as number
      if (i < list.length && (best < 0 || cheaper(list[i] as number, out[n] as number) < 0)) {
        best = l
        out[n] = list[i] as number
      }
    }
    at[best] = (at[best] as number) + 1
  }
  return out
}

/** The merged rows' words and titles: the sources' words merged in text order, each word's new rows merged. */
function mergedText(sources: Source[], from: Uint8Array, rows: Int32Array): TextIndex {
  const texts = sources.map(({ facts }) => facts.text)
  // Every source's words, each once, in order; and per source, each word's place in it (-1: not there).
  const lists = texts.map(({ words }) => Array.from({ length: textCount(words) }, (_, w) => textAt(words, w)))
  const words: string[] = []
  const localOf: number[][] = texts.map(() => [])
  const at = lists.map(() => 0)
  for (;;) {
    let least: string | undefined
    for (let s = 0; s < lists.length; s++) {
      const w = (lists[s] as string[])[at[s] as number]
      if (w !== undefined && (least === undefined || w < least)) least = w
    }
    if (least === undefined) break
    words.push(least)
    for (let s = 0; s < lists.length; s++) {
      const here = (lists[s] as string[])[at[s] as number] === least
      ;(localOf[s] as number[]).push(here ? (at[s] as number) : -1)
      if (here) at[s] = (at[s] as number) + 1
    }
  }
  const all = mergedPostings(sources, localOf, words.length, (t) => t.all)
  const title = mergedPostings(sources, localOf, words.length, (t) => t.title)
  // A word only dead rows had is gone, as from a read.
  const kept: number[] = []
  for (let w = 0; w < words.length; w++)
    if (
      (all.start[w + 1] as number) > (all.start[w] as number) ||
      (title.start[w + 1] as number) > (title.start[w] as number)
    )
      kept.push(w)
  const dropped = (p: Postings): Postings => {
    if (kept.length === words.length) return p
    const start = new Int32Array(kept.length + 1)
    kept.forEach((w, i) => {
      start[i + 1] = (start[i] as number) + (p.start[w + 1] as number) - (p.start[w] as number)
    })
    return { start, rows: p.rows }
  }
  // Titles in order of first appearance, as a read gives them.
  const { values: titles, placeOf } = firstAppearance()
  const titleOf = sharedArray(Int32Array, rows.length)
  const seen = texts.map((text) => new Int32Array(textCount(text.titles)).fill(-1))
  for (let n = 0; n < rows.length; n++) {
    const s = from[n] as number
    const text = texts[s] as TextIndex
    const local = text.titleOf[rows[n] as number] as number
    const known = seen[s] as Int32Array
    if ((known[local] as number) < 0) known[local] = placeOf(textAt(text.titles, local))
    titleOf[n] = known[local] as number
  }
  return {
    words: textsOf(kept.map((w) => words[w] as string)),
    all: dropped(all),
    title: dropped(title),
    titles: textsOf(titles),
    titleOf,
  }
}

/** Each word's rows in the new copy, in row order: each source's rows of it renumbered (dead ones left out), merged. */
function mergedPostings(
  sources: Source[],
  localOf: number[][],
  count: number,
  postingsOf: (text: TextIndex) => Postings,
): Postings {
  const of = sources.map(({ facts }) => postingsOf(facts.text))
  const start = new Int32Array(count + 1)
  const rows = sharedArray(
    Int32Array,
    of.reduce((n, p) => n + p.rows.length, 0),
  )
  // A run being merged in, held apart (grown as needed).
  let held = new Int32Array(0)
  let end = 0
  for (let w = 0; w < count; w++) {
    const begin = end
    for (let s = 0; s < sources.length; s++) {
      const local = (localOf[s] as number[])[w] as number
      if (local < 0) continue
      const { start: from, rows: posted } = of[s] as Postings
      const { newRow } = sources[s] as Source
      const mid = end
      for (let p = from[local] as number; p < (from[local + 1] as number); p++) {
        const r = newRow[posted[p] as number] as number
        if (r >= 0) rows[end++] = r
      }
      // After the first source: merged into those before (each run ascending), in place from the end, the new run
      // held apart (a merge into a new array and back cost a third of the copy's making at 1,000,000 listings).
      if (mid > begin && end > mid) {
        if (held.length < end - mid) held = new Int32Array(2 * (end - mid))
        held.set(rows.subarray(mid, end))
        let i = mid - 1
        for (let j = end - mid - 1, k = end - 1; j >= 0; k--)
          rows[k] =
            i >= begin && (rows[i] as number) > (held[j] as number)
              ? (rows[i--] as number)
              : (held[j--] as number)
      }
    }
    start[w + 1] = end
  }
  // The dead rows' places at its end are left unused (a copy of the rest cost as much again).
  return { start, rows: rows.subarray(0, end) }
}
