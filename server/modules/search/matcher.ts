// Which saved searches a new listing matches, decided in memory: each search is compiled once into sets and
// bounds, and indexed by brand, so a listing is only checked against the searches of its own brand and those
// of any brand. The rules are the search's own (the one table, server/modules/search/filters.ts): every filter must
// hold, choices within a filter are alternatives, and the text is the search's resolved full-text query over
// the listing's words. `posted_within` and the sort do not apply: an alert is about a listing just posted.
import { type AlertListing, alertTest, type SavedFilters } from './filters'

type StoredSearch = {
  id: string
  userId: string
  filters: SavedFilters
  /** The search's text as a full-text query (`thinkpad & x1:*`), or null without text. */
  textQuery: string | null
  /** When it was saved (ms): a listing posted before then is not news to its owner. */
  since?: number
}

export type ListingFacts = AlertListing & {
  id: string
  sellerId: string
  /** The words of its full-text vector (`tsvector_to_array(search_vector)`). */
  words: string[]
  /** When it came on sale (ms): posted live, approved after review or renewed after expiring. */
  postedAt?: number
}

type Term = { word: string; prefix: boolean; or?: string[] }

type Compiled = {
  id: string
  userId: string
  since: number
  /** Every filter that applies to alerts, from the one table of filters. */
  passes: (l: ListingFacts) => boolean
  /** Unsearchable text (only symbols): matches nothing, as in search. */
  never?: boolean
  terms?: Term[]
}

function compile(search: StoredSearch): Compiled {
  const f = search.filters
  const c: Compiled = { id: search.id, userId: search.userId, since: search.since ?? 0, passes: alertTest(f) }
  if (f.q) {
    if (!search.textQuery) c.never = true
    // Each term a word, the start of one (`x1:*`), or alternatives (`book3|book4`: a word corrected at saving, and
    // as it was typed).
    else
      c.terms = search.textQuery.split(' & ').map((t) => {
        const prefix = t.endsWith(':*')
        const word = prefix ? t.slice(0, -2) : t
        return { word, prefix, or: prefix ? undefined : word.split('|') }
      })
  }
  return c
}

function hasTerm(words: Set<string>, list: string[], term: Term): boolean {
  if (term.or) return term.or.some((w) => words.has(w))
  if (!term.prefix) return words.has(term.word)
  for (const w of list) if (w.startsWith(term.word)) return true
  return false
}

function matches(s: Compiled, l: ListingFacts, words: Set<string>): boolean {
  if (s.never) return false
  if (l.postedAt !== undefined && l.postedAt < s.since) return false
  if (!s.passes(l)) return false
  if (s.terms) for (const t of s.terms) if (!hasTerm(words, l.words, t)) return false
  return true
}

/** Saved searches compiled and indexed by brand; `matchesOf` lists the searches a listing matches. */
export class SearchIndex {
  readonly #anyBrand: Compiled[] = []
  readonly #byBrand = new Map<string, Compiled[]>()
  size = 0

  add(search: StoredSearch): void {
    const compiled = compile(search)
    this.size++
    if (!search.filters.brand) {
      this.#anyBrand.push(compiled)
      return
    }
    // Ids as the database prints them (lower case), whatever case the address used.
    for (const brand of new Set(search.filters.brand.map((id) => id.toLowerCase()))) {
      const list = this.#byBrand.get(brand)
      if (list) list.push(compiled)
      else this.#byBrand.set(brand, [compiled])
    }
  }

  /** The searches the listing matches, leaving out its own seller's. */
  matchesOf(listing: ListingFacts): { searchId: string; userId: string }[] {
    const words = new Set(listing.words)
    return [this.#anyBrand, this.#byBrand.get(listing.brandId) ?? []]
      .flatMap((list) => list.filter((s) => s.userId !== listing.sellerId && matches(s, listing, words)))
      .map((s) => ({ searchId: s.id, userId: s.userId }))
  }
}
