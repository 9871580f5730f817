import { KeptPerCopy, TYPED_ARRAY_BYTES, withMarks } from './kept-per-copy'
import {
  bytesOf,
  firstAppearance,
  sharedArray,
  someTextMayInclude,
  type Texts,
  textAt,
  textCount,
  textIncludes,
  textsOf,
} from './shared-texts'

// Listings' searchable words in the copy (listing-facts.ts), inverted (per word, its rows): texts match in
// memory as search_vector does, so the copy answers them as searches without text. Decision 0031.

/** The rows having word w are rows[start[w]] .. rows[start[w + 1] - 1], in row order. */
export type Postings = { start: Int32Array; rows: Int32Array }

export type TextIndex = {
  /** The listings' distinct search_vector lexemes, sorted: a prefix is a range of them. */
  words: Texts
  all: Postings
  /** The words in a listing's brand or name (weight A). */
  title: Postings
  /**
   * The distinct search_titles (brand, name and processor, lower case), each once: 1,000,000 listings share about
   * 10,000, so a title read for every listing was 85 times the bytes (decision 0156).
   */
  titles: Texts
  /** Each row's title, as its place in `titles`. */
  titleOf: Int32Array
}

/** A search's words, as resolveText made them: whole words, or the start of one. */
export type TextTerms = { terms: { term: string; prefix: boolean }[]; phrase: string; bestTier: number }

/** Rows matching a text in one copy, in row order, and their tiers (as `relevanceTier` in SQL). */
export type TextRows = ReturnType<typeof matchText>

/** Rows end at a line feed, words at a space: neither is ever in a lexeme. */
export function buildTextIndex(size: number, words: string, titleWords: string, titles: string[]): TextIndex {
  const table = new WordTable(words.length + titleWords.length)
  const all = table.read(words, size)
  const title = table.read(titleWords, size)
  const ids = table.found
  // Ids in order of first appearance, then ranked by the word's text.
  const order = Array.from(ids, (_, id) => id).sort((a, b) => descending(ids[b] as string, ids[a] as string))
  const byText = order.map((id) => ids[id] as string)
  const rank = new Int32Array(ids.length)
  for (let i = 0; i < order.length; i++) rank[order[i] as number] = i
  const postings = ({ rowEnd, flat }: { rowEnd: Int32Array; flat: Int32Array }): Postings => {
    const start = new Int32Array(byText.length + 1)
    for (const id of flat) {
      const at = (rank[id] as number) + 1
      start[at] = (start[at] as number) + 1
    }
    for (let w = 0; w < byText.length; w++) start[w + 1] = (start[w + 1] as number) + (start[w] as number)
    const fill = start.slice(0, byText.length)
    const rows = sharedArray(Int32Array, flat.length)
    let p = 0
    for (let r = 0; r < size; r++) {
      for (const end = rowEnd[r] as number; p < end; p++) {
        const w = rank[flat[p] as number] as number
        rows[fill[w] as number] = r
        fill[w] = (fill[w] as number) + 1
      }
    }
    return { start, rows }
  }
  const distinct = firstAppearance()
  const titleOf = sharedArray(Int32Array, size)
  for (let r = 0; r < size; r++) titleOf[r] = distinct.placeOf(titles[r] ?? '')
  return {
    words: textsOf(byText),
    all: postings(all),
    title: postings(title),
    titles: textsOf(distinct.values),
    titleOf,
  }
}

/** Row r's search_title. */
export const titleOfRow = (ix: TextIndex, r: number): string => textAt(ix.titles, ix.titleOf[r] as number)

/**
 * Ids by first appearance; words hashed and compared in place, a string only when new: a string per word
 * (15,000,000 at 1,000,000 listings) was most of building the copy after the database's time. Decision 0104.
 */
class WordTable {
  /**
   * Per slot, the id of the word there plus 1 (0: empty). Sized by the texts' length (a word and its space are two
   * characters at least), up to 65,536 slots: a delta of a few listings made 256 kB of them at every change.
   */
  private slots: Int32Array

  constructor(textLength: number) {
    this.slots = new Int32Array(Math.min(1 << 16, 2 ** Math.ceil(Math.log2(Math.max(64, textLength)))))
  }
  private hashes: number[] = []
  /** Every word met, by id. */
  readonly found: string[] = []

  /** Each row's word ids one after another (`flat`) and where each row ends, cut as split('\n'), split(' ') would. */
  read(text: string, size: number): { rowEnd: Int32Array; flat: Int32Array } {
    const rowEnd = new Int32Array(size)
    // An array that doubles as it fills: 15,000,000 ids at 1,000,000 listings.
    let flat = new Int32Array(1_024)
    let count = 0
    let at = 0
    for (let r = 0; r < size; r++) {
      let end = at < text.length ? text.indexOf('\n', at) : -1
      if (end < 0) end = text.length
      // An empty row has no word (not one empty word).
      if (end > at)
        for (let start = at; ; ) {
          let hash = 0x811c9dc5
          let i = start
          for (; i < end; i++) {
            const c = text.charCodeAt(i)
            if (c === 32) break
            hash = Math.imul(hash ^ c, 0x01000193)
          }
          if (count === flat.length) {
            const grown = new Int32Array(flat.length * 2)
            grown.set(flat)
            flat = grown
          }
          flat[count++] = this.idOf(text, start, i, hash >>> 0)
          if (i >= end) break
          start = i + 1
        }
      rowEnd[r] = count
      at = end + 1
    }
    return { rowEnd, flat: flat.subarray(0, count) }
  }

  private idOf(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot] as number
      if (held === 0) break
      const id = held - 1
      if (this.hashes[id] === hash && sameText(this.found[id] as string, text, start, end)) return id
    }
    const id = this.found.length
    this.found.push(text.slice(start, end))
    this.hashes.push(hash)
    if (this.found.length * 2 > this.slots.length) this.grow()
    else this.place(id)
    return id
  }

  private place(id: number) {
    const mask = this.slots.length - 1
    let slot = (this.hashes[id] as number) & mask
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask
    this.slots[slot] = id + 1
  }

  private grow() {
    this.slots = new Int32Array(this.slots.length * 2)
    for (let id = 0; id < this.found.length; id++) this.place(id)
  }
}

function sameText(word: string, text: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) !== text.charCodeAt(start + i)) return false
  return true
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

/**
 * The first place from `lo` up to `hi` holding `value` or more, in ascending values (a combination's prices, a
 * word's rows).
 */
export function firstAtLeast(values: Int32Array, lo: number, hi: number, value: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((values[mid] as number) < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Descending order of texts (ids, words): negative when `a` comes first. */
export const descending = (a: string, b: string) => (a > b ? -1 : a < b ? 1 : 0)

/** The words a term matches, as a range of `words`: itself, or every word it starts (a prefix). */
function wordRange(words: Texts, term: string, prefix: boolean): [number, number] {
  // No word holds U+0000: `${term}\0` comes right after term.
  const atOrAfter = (text: string) => lowerBound(textCount(words), (i) => textAt(words, i) >= text)
  return [atOrAfter(term), atOrAfter(prefix ? `${term}\uffff` : `${term}\0`)]
}

/**
 * In row order: the rows of the term with the fewest, kept while each later term has them too. A later term is
 * looked up row by row (a binary search in each of its words' rows) when that reads less than its rows would:
 * a rare word and a common one ("galaxybook2 pro") read a few rows, not every listing with "pro".
 */
function rowsWithAll(size: number, postings: Postings, terms: [number, number][]): Int32Array {
  const { start } = postings
  const count = ([lo, hi]: [number, number]) => (start[hi] as number) - (start[lo] as number)
  const [first, ...later] = [...terms].sort((a, b) => count(a) - count(b))
  if (!first) return new Int32Array(0)
  let found = rowsOfTerm(size, postings, first)
  if (later.length === 0) return found
  // Later terms keep rows in place: never in the postings' own (one word's rows), in a copy of them.
  if (found.buffer === postings.rows.buffer) found = found.slice()
  let n = found.length
  for (const term of later) {
    if (n === 0) break
    n = keepHeld(size, postings, found, n, term)
  }
  if (n < found.length) found = found.slice(0, n)
  return found
}

/**
 * A term's rows, in row order, each once (a prefix's words may share a row), read only: one word's are its rows in
 * the postings, not copied (a long-tail search at 1,000,000 listings allocated 131 KB of arrays, 115 without the copy:
 * bench/README); a prefix's, a new array.
 */
function rowsOfTerm(size: number, { start, rows }: Postings, [lo, hi]: [number, number]): Int32Array {
  const from = start[lo] as number
  const to = start[hi] as number
  // One word's rows are in row order already.
  if (hi - lo === 1) return rows.subarray(from, to)
  // The first term's size, not grown: a common prefix's rows made most of a search thread's garbage.
  const found = new Int32Array(to - from)
  let n = 0
  withMarks(size, (seen) => {
    for (let p = from; p < to; p++) {
      const r = rows[p] as number
      if (seen[r] === 0) {
        seen[r] = 1
        found[n++] = r
      }
    }
    for (let i = 0; i < n; i++) seen[found[i] as number] = 0
  })
  const matches = found.subarray(0, n).sort()
  return n === found.length ? found : matches.slice()
}

/**
 * Keeps, in place, the first `n` of `found` that some word of the term has; how many. Few are looked up (a binary
 * search in each word's rows), else the term's rows are read through once against their marks.
 */
function keepHeld(
  size: number,
  { start, rows }: Postings,
  found: Int32Array,
  n: number,
  [lo, hi]: [number, number],
): number {
  const from = start[lo] as number
  const to = start[hi] as number
  let kept = 0
  if (n * (hi - lo) * (1 + Math.log2(1 + (to - from) / (hi - lo))) < to - from) {
    for (let i = 0; i < n; i++) {
      const r = found[i] as number
      for (let w = lo; w < hi; w++) {
        const end = start[w + 1] as number
        const at = firstAtLeast(rows, start[w] as number, end, r)
        if (at < end && rows[at] === r) {
          found[kept++] = r
          break
        }
      }
    }
    return kept
  }
  withMarks(size, (seen) => {
    for (let i = 0; i < n; i++) seen[found[i] as number] = 1
    for (let p = from; p < to; p++) {
      const r = rows[p] as number
      if (seen[r] === 1) seen[r] = 2
    }
    for (let i = 0; i < n; i++) {
      const r = found[i] as number
      if (seen[r] === 2) found[kept++] = r
      seen[r] = 0
    }
  })
  return kept
}

/** The rows of a copy of `size` rows matching every term, as `search_vector @@ to_tsquery(...)` would. */
export function matchText(ix: TextIndex, size: number, text: TextTerms) {
  const ranges = text.terms.map((t) => wordRange(ix.words, t.term, t.prefix))
  const rows = rowsWithAll(size, ix.all, ranges)
  const UNKNOWN = 255
  /** Per match: its tier once worked out (UNKNOWN before). */
  let tiers: Uint8Array | undefined
  /** Per match: 1 when its brand or name has every word (both lists ascending: one merge). */
  let inTitle: Uint8Array | undefined
  const phrase = bytesOf(text.phrase)
  /**
   * Per distinct title: 0 not read yet, 1 without the phrase, 2 with it (its listings share the answer). Only when
   * the matches outnumber the titles: kept with the matches, it holds no more than a byte a match (matchedIn).
   */
  const titles = textCount(ix.titles)
  let phraseIn: Uint8Array | undefined
  const holdsPhrase = (r: number) => {
    const t = ix.titleOf[r] as number
    if (rows.length < titles) return textIncludes(ix.titles, t, phrase)
    phraseIn ??= new Uint8Array(titles)
    if (phraseIn[t] === 0) phraseIn[t] = textIncludes(ix.titles, t, phrase) ? 2 : 1
    return phraseIn[t] === 2
  }
  let best: number | undefined
  return {
    rows,
    /**
     * No row has a higher tier (resolveText's `bestTier`, bounded when best match first asks: no other sort reads it,
     * and the bound reads the titles for a word new to them).
     */
    get best() {
      best ??=
        rows.length < BOUND_FROM ? text.bestTier : Math.min(text.bestTier, highestTier(ix, text, ranges))
      return best
    },
    /** The text's words (`textKey`): what anything kept from these matches is kept by. */
    key: textKey(text),
    /**
     * The tier of the i-th match, worked out when asked (a best-match page reads a few of a common word's matches): 2
     * when the title holds the words in a row, plus 1 when every word is in the brand or name.
     */
    tierAt: (i: number) => {
      tiers ??= new Uint8Array(rows.length).fill(UNKNOWN)
      const known = tiers[i] as number
      if (known !== UNKNOWN) return known
      if (!inTitle) {
        const titled = rowsWithAll(size, ix.title, ranges)
        inTitle = new Uint8Array(rows.length)
        for (let m = 0, t = 0; m < rows.length && t < titled.length; ) {
          const a = rows[m] as number
          const b = titled[t] as number
          if (a === b) inTitle[m] = 1
          if (a <= b) m++
          if (b <= a) t++
        }
      }
      const tier = (holdsPhrase(rows[i] as number) ? 2 : 0) + (inTitle[i] as number)
      tiers[i] = tier
      return tier
    },
  }
}

/**
 * From this many matches best match bounds the tier first (highestTier): ranking all of "light scratches" (in
 * no title) took 20 ms at 1,000,000 listings.
 */
const BOUND_FROM = 20_000

/** Per copy, whether some title may hold a word (someTextMayInclude), for the words asked lately. */
const inSomeTitle = new KeptPerCopy<TextIndex, boolean>('words in some title', 256 * 1024, () => 0)

/**
 * Bounds a text's tier in a copy (relevanceTier) so best match stops once it fills a page: 2 only if some
 * title may hold each word (titles read once, kept per word), 1 more only if each is a brand or name word.
 */
function highestTier(ix: TextIndex, text: TextTerms, ranges: [number, number][]): number {
  const mayHold = (term: string) =>
    inSomeTitle.get(ix, term, () => someTextMayInclude(ix.titles, bytesOf(term)))
  const named = ranges.every(([lo, hi]) => (ix.title.start[hi] as number) > (ix.title.start[lo] as number))
  return (text.terms.every((t) => mayHold(t.term)) ? 2 : 0) + (named ? 1 : 0)
}

/** A text as its words: what its matches in a copy depend on. */
const textKey = (text: TextTerms) =>
  `${text.bestTier} ${text.phrase} ${text.terms.map((t) => (t.prefix ? `${t.term}*` : t.term)).join(' ')}`

/**
 * Per copy, the matches of the texts searched lately: 48 MB at 1,000,000 listings (7 bytes a match at most: about
 * 7,000,000), in proportion below; a common word matches a good part of the listings.
 */
const matchedIn = new KeptPerCopy<TextIndex, TextRows>(
  'text matches',
  48 * 1024 * 1024,
  // The rows, and once tiers are asked their tiers, their marks of a title word and the titles' phrase tests (a
  // byte a match each at most); the object, its closure and key around them.
  (m) => 7 * m.rows.length + 4 * TYPED_ARRAY_BYTES + 2 * m.key.length + 256,
  (ix) => ix.titleOf.length,
)

/** matchText, kept per copy for the texts searched lately. */
export const textMatchesIn =
  (text: TextTerms) =>
  (copy: { text: TextIndex; size: number }): TextRows =>
    matchedIn.get(copy.text, textKey(text), () => matchText(copy.text, copy.size, text))
