import { KeptPerCopy, TYPED_ARRAY_BYTES } from './kept-per-copy'
import { type Texts, textAt, textCount, textsOf } from './shared-texts'

// The searchable words of every listing in the facts' copy (listing-facts.ts), as an inverted index: per word, the
// rows having it. A text search is then matched in memory, as PostgreSQL would match it against search_vector, and
// the copy answers its page, total and facets like those of a search without text
// (docs/decisions/0031-listing-facts-in-memory.md).

export type TextIndex = {
  /** Every distinct word of the listings (their search_vector's lexemes), sorted: a prefix is a range of them. */
  words: Texts
  /** The rows having word w are rows[start[w]] .. rows[start[w + 1] - 1], in row order. */
  start: Int32Array
  rows: Int32Array
  /** The same for the words in a listing's brand or name (weight A). */
  titleStart: Int32Array
  titleRows: Int32Array
  /** Each row's search_title: brand, name and processor, lower case. */
  titles: Texts
}

/** A search's words, as resolveText made them: whole words, or the start of one. */
export type TextTerms = { terms: { term: string; prefix: boolean }[]; phrase: string; bestTier: number }

/** The rows matching a text in one copy, in row order, and their best-match tier (as `relevanceTier` in SQL). */
export type TextRows = {
  rows: Int32Array
  /**
   * The tier of the i-th matching row (worked out when first asked for, and kept): 3 when the title holds the words
   * in a row and every word is in the brand or name; 2 for the first alone; 1 for the second alone. A best-match page
   * asks only for the matches it reads, not for every match of a common word.
   */
  tierAt: (i: number) => number
  /** No row has a higher tier (resolveText's `bestTier`). */
  best: number
  /** The text's words (`textKey`): what anything kept from these matches is kept by. */
  key: string
}

/**
 * Builds the index from each row's words (rows separated by a line feed, words by a space: neither is ever inside
 * a lexeme the parser made), the words of its brand and name likewise, and its title.
 */
export function buildTextIndex(size: number, words: string, titleWords: string, titles: string[]): TextIndex {
  const ids = new Map<string, number>()
  const idOf = (w: string) => {
    let id = ids.get(w)
    if (id === undefined) {
      id = ids.size
      ids.set(w, id)
    }
    return id
  }
  const read = (text: string) => {
    const rowEnd = new Int32Array(size)
    // Every row's word ids one after the other, in an array that doubles as it fills: 15,000,000 ids at 1,000,000
    // listings, which a plain array held as 8-byte numbers (and briefly twice, as it grew).
    let flat = new Int32Array(1_024)
    let count = 0
    const lines = size > 0 ? text.split('\n') : []
    for (let r = 0; r < size; r++) {
      const line = lines[r] ?? ''
      if (line.length > 0)
        for (const w of line.split(' ')) {
          if (count === flat.length) {
            const grown = new Int32Array(flat.length * 2)
            grown.set(flat)
            flat = grown
          }
          flat[count++] = idOf(w)
        }
      rowEnd[r] = count
    }
    return { rowEnd, flat: flat.subarray(0, count) }
  }
  const all = read(words)
  const title = read(titleWords)
  // Ids in order of first appearance, then ranked by the word's text.
  const byText = [...ids.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const rank = new Int32Array(ids.size)
  byText.forEach((w, i) => {
    rank[ids.get(w) as number] = i
  })
  const postings = ({ rowEnd, flat }: { rowEnd: Int32Array; flat: Int32Array }) => {
    const start = new Int32Array(byText.length + 1)
    for (const id of flat) {
      const at = (rank[id] as number) + 1
      start[at] = (start[at] as number) + 1
    }
    for (let w = 0; w < byText.length; w++) start[w + 1] = (start[w + 1] as number) + (start[w] as number)
    const fill = start.slice(0, byText.length)
    const rows = new Int32Array(flat.length)
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
  const a = postings(all)
  const t = postings(title)
  return {
    words: textsOf(byText),
    start: a.start,
    rows: a.rows,
    titleStart: t.start,
    titleRows: t.rows,
    titles: textsOf(titles),
  }
}

/** The first word at or after `text` in the sorted words. */
function lowerBound(words: Texts, text: string): number {
  let lo = 0
  let hi = textCount(words)
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (textAt(words, mid) < text) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The words a term matches, as a range of `words`: itself, or every word it starts (a prefix). */
function wordRange(words: Texts, term: string, prefix: boolean): [number, number] {
  const lo = lowerBound(words, term)
  if (prefix) return [lo, lowerBound(words, `${term}\uffff`)]
  return lo < textCount(words) && textAt(words, lo) === term ? [lo, lo + 1] : [lo, lo]
}

/**
 * The rows having, for every term, one of its words, in row order. A row's count goes up by one per term only when
 * every term before matched it, so a row with several words of one prefix counts once.
 */
function rowsWithAll(
  size: number,
  start: Int32Array,
  rows: Int32Array,
  ranges: [number, number][],
): Int32Array {
  const seen = new Uint8Array(size)
  const found: number[] = []
  ranges.forEach(([lo, hi], i) => {
    const last = i === ranges.length - 1
    for (let p = start[lo] as number, end = start[hi] as number; p < end; p++) {
      const r = rows[p] as number
      if (seen[r] === i) {
        seen[r] = i + 1
        if (last) found.push(r)
      }
    }
  })
  return Int32Array.from(found).sort()
}

/** The rows of a copy of `size` rows matching every term, as `search_vector @@ to_tsquery(...)` would. */
export function matchText(ix: TextIndex, size: number, text: TextTerms): TextRows {
  const ranges = text.terms.map((t) => wordRange(ix.words, t.term, t.prefix))
  // Fewest rows first: later terms only confirm rows the earlier ones found.
  const byCount = (s: Int32Array) => (a: [number, number], b: [number, number]) =>
    (s[a[1]] as number) - (s[a[0]] as number) - ((s[b[1]] as number) - (s[b[0]] as number))
  const rows = rowsWithAll(size, ix.start, ix.rows, [...ranges].sort(byCount(ix.start)))
  const UNKNOWN = 255
  /** Per match: its tier once worked out (UNKNOWN before). */
  let tiers: Uint8Array | undefined
  /** Per match: 1 when its brand or name has every word (both lists ascending: one merge). */
  let inTitle: Uint8Array | undefined
  return {
    rows,
    best: text.bestTier,
    key: textKey(text),
    tierAt: (i) => {
      tiers ??= new Uint8Array(rows.length).fill(UNKNOWN)
      const known = tiers[i] as number
      if (known !== UNKNOWN) return known
      if (!inTitle) {
        const titled = rowsWithAll(
          size,
          ix.titleStart,
          ix.titleRows,
          [...ranges].sort(byCount(ix.titleStart)),
        )
        inTitle = new Uint8Array(rows.length)
        for (let m = 0, t = 0; m < rows.length && t < titled.length; ) {
          const a = rows[m] as number
          const b = titled[t] as number
          if (a === b) inTitle[m] = 1
          if (a <= b) m++
          if (b <= a) t++
        }
      }
      const tier =
        (textAt(ix.titles, rows[i] as number).includes(text.phrase) ? 2 : 0) + (inTitle[i] as number)
      tiers[i] = tier
      return tier
    },
  }
}

/** A text as its words: what its matches in a copy depend on. */
const textKey = (text: TextTerms) =>
  `${text.bestTier} ${text.phrase} ${text.terms.map((t) => (t.prefix ? `${t.term}*` : t.term)).join(' ')}`

/**
 * Per copy, the matches of the texts searched lately: 48 MB at 1,000,000 listings (a row number and a tier, 5 bytes,
 * per match: about 10,000,000 matching rows), and in proportion to a smaller copy's listings.
 * A common word matches a good part of the listings: at 1,000,000 listings, 2,000,000 rows kept a handful of texts
 * and the others were matched again at every search.
 */
const matchedIn = new KeptPerCopy<TextIndex, TextRows>(
  'text matches',
  48 * 1024 * 1024,
  // The rows, their tiers once asked, and the object, its closure and key around them.
  (m) => 5 * m.rows.length + 2 * TYPED_ARRAY_BYTES + 2 * m.key.length + 256,
  (ix) => ix.titles.ends.length,
)

/** matchText, kept per copy for the texts searched lately. */
export function matchTextOnce(ix: TextIndex, size: number, text: TextTerms): TextRows {
  return matchedIn.get(ix, textKey(text), () => matchText(ix, size, text))
}
