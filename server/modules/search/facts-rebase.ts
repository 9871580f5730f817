import { perCountFacet } from './filters'
import { copyOf, type FactRow, factsFromRows, ID_LENGTH, type ListingFacts } from './listing-facts'
import { indexWords, type RowWords } from './listing-text'
import { textAt, textCount } from './shared-texts'

// A whole copy made again from a view in memory (decision 0162): the parts read from the database less their dead
// rows, and the listings changed since as they are now, merged newest first. It is what a whole read at the view's
// version gives, without reading every listing's words from the database again (about 20 s of the machine's CPU
// at 1,000,000 listings, for a pile of a few thousand changes).

/** What a copy is made again from: a view's parts read from the database, and the changed listings on sale. */
export type Rebase = {
  version: string
  /** Each part read, and its rows whose listings changed since (ascending). */
  parts: { facts: ListingFacts; deadRows: Int32Array }[]
  /** Every listing changed since the first part was read that is on sale, as it is now. */
  records: FactRow[]
}

export function rebaseCopy({ version, parts, records }: Rebase): ListingFacts {
  const sources = [...parts, { facts: factsFromRows(version, records), deadRows: new Int32Array(0) }]
  const { from, rows } = newestFirst(sources)
  const size = rows.length
  const facts = (n: number) => (sources[from[n] as number] as (typeof sources)[number]).facts
  const each = <A extends Float64Array | Int32Array | Int16Array>(
    Kind: new (n: number) => A,
    of: (f: ListingFacts) => A,
  ) => {
    const to = new Kind(size)
    for (let n = 0; n < size; n++) to[n] = of(facts(n))[rows[n] as number] as number
    return to
  }
  const ids = new Uint8Array(size * ID_LENGTH)
  for (let n = 0; n < size; n++) {
    const r = rows[n] as number
    ids.set(facts(n).ids.subarray(r * ID_LENGTH, (r + 1) * ID_LENGTH), n * ID_LENGTH)
  }
  return copyOf({
    version,
    facets: perCountFacet((name) => {
      const values = new Array<string>(size)
      for (let n = 0; n < size; n++) {
        const { index, values: of } = facts(n).columns[name]
        values[n] = of[index[rows[n] as number] as number] as string
      }
      return values
    }),
    postedUs: each(Float64Array, (f) => f.postedUs),
    priceCents: each(Int32Array, (f) => f.priceCents),
    battery: each(Int16Array, (f) => f.battery),
    ids,
    text: mergedText(
      sources.map((s) => s.facts),
      from,
      rows,
    ),
  })
}

/** The sources' rows but their dead ones, merged as a whole read orders them: newest first, then by id, down. */
function newestFirst(sources: Rebase['parts']): { from: Uint8Array; rows: Int32Array } {
  const total = sources.reduce((n, s) => n + s.facts.size - s.deadRows.length, 0)
  const from = new Uint8Array(total)
  const rows = new Int32Array(total)
  const next = sources.map(() => 0)
  const nextDead = sources.map(() => 0)
  // Past the source's dead rows from its next row on.
  const skipDead = (s: number) => {
    const { deadRows } = sources[s] as Rebase['parts'][number]
    while (deadRows[nextDead[s] as number] === next[s]) {
      next[s] = (next[s] as number) + 1
      nextDead[s] = (nextDead[s] as number) + 1
    }
  }
  for (let s = 0; s < sources.length; s++) skipDead(s)
  const before = (a: number, b: number) => {
    const fa = (sources[a] as Rebase['parts'][number]).facts
    const fb = (sources[b] as Rebase['parts'][number]).facts
    const ra = next[a] as number
    const rb = next[b] as number
    const d = (fa.postedUs[ra] as number) - (fb.postedUs[rb] as number)
    if (d !== 0) return d > 0
    for (let i = 0; i < ID_LENGTH; i++) {
      const x = fa.ids[ra * ID_LENGTH + i] as number
      const y = fb.ids[rb * ID_LENGTH + i] as number
      if (x !== y) return x > y
    }
    return false
  }
  for (let n = 0; n < total; n++) {
    let best = -1
    for (let s = 0; s < sources.length; s++)
      if (
        (next[s] as number) < (sources[s] as Rebase['parts'][number]).facts.size &&
        (best < 0 || before(s, best))
      )
        best = s
    from[n] = best
    rows[n] = next[best] as number
    next[best] = (next[best] as number) + 1
    skipDead(best)
  }
  return { from, rows }
}

/** The merged rows' words and titles: each source's index turned back into its rows' words, then indexed anew. */
function mergedText(copies: ListingFacts[], from: Uint8Array, rows: Int32Array) {
  const found: string[] = []
  const idOf = new Map<string, number>()
  const global = (text: string) => {
    let id = idOf.get(text)
    if (id === undefined) {
      id = found.push(text) - 1
      idOf.set(text, id)
    }
    return id
  }
  const byCopy = copies.map(({ size, text }) => {
    const ids = Int32Array.from({ length: textCount(text.words) }, (_, w) => global(textAt(text.words, w)))
    return { all: wordsByRow(size, text.all, ids), title: wordsByRow(size, text.title, ids) }
  })
  const merged = (which: 'all' | 'title'): RowWords => {
    let length = 0
    for (let n = 0; n < rows.length; n++) {
      const { start } = (byCopy[from[n] as number] as (typeof byCopy)[number])[which]
      const r = rows[n] as number
      length += (start[r + 1] as number) - (start[r] as number)
    }
    const rowEnd = new Int32Array(rows.length)
    const flat = new Int32Array(length)
    let at = 0
    for (let n = 0; n < rows.length; n++) {
      const { start, flat: of } = (byCopy[from[n] as number] as (typeof byCopy)[number])[which]
      const r = rows[n] as number
      flat.set(of.subarray(start[r] as number, start[r + 1] as number), at)
      at += (start[r + 1] as number) - (start[r] as number)
      rowEnd[n] = at
    }
    return { rowEnd, flat }
  }
  // Titles in order of first appearance, as a read gives them.
  const titles: string[] = []
  const titleAt = new Map<string, number>()
  const titleOf = new Int32Array(rows.length)
  const seen = copies.map(({ text }) => new Int32Array(textCount(text.titles)).fill(-1))
  for (let n = 0; n < rows.length; n++) {
    const c = from[n] as number
    const { text } = copies[c] as ListingFacts
    const local = text.titleOf[rows[n] as number] as number
    const known = seen[c] as Int32Array
    if ((known[local] as number) < 0) {
      const title = textAt(text.titles, local)
      let at = titleAt.get(title)
      if (at === undefined) {
        at = titles.push(title) - 1
        titleAt.set(title, at)
      }
      known[local] = at
    }
    titleOf[n] = known[local] as number
  }
  return indexWords(found, merged('all'), merged('title'), titles, titleOf)
}

/** A copy's postings turned back into each row's words, as ids (`ids`: each word's): row r's are start[r] .. start[r + 1] - 1. */
function wordsByRow(size: number, { start, rows }: { start: Int32Array; rows: Int32Array }, ids: Int32Array) {
  const rowStart = new Int32Array(size + 1)
  for (const r of rows) rowStart[r + 1] = (rowStart[r + 1] as number) + 1
  for (let r = 0; r < size; r++) rowStart[r + 1] = (rowStart[r + 1] as number) + (rowStart[r] as number)
  const fill = rowStart.slice(0, size)
  const flat = new Int32Array(rows.length)
  for (let w = 0; w + 1 < start.length; w++)
    for (let p = start[w] as number; p < (start[w + 1] as number); p++) {
      const r = rows[p] as number
      flat[fill[r] as number] = ids[w] as number
      fill[r] = (fill[r] as number) + 1
    }
  return { start: rowStart, flat }
}
