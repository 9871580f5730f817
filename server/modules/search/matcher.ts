// Which saved searches a new listing matches, in memory: each compiled once into a filter test (filters.ts)
// and terms, indexed by brand so a listing meets only its brand's searches and those of any brand.
// `posted_within` and the sort do not apply: an alert is about a listing just posted.
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

/** A listing as saved searches match it (the in-memory copy of all listings is listing-facts.ts'). */
export type MatchedListing = AlertListing & {
  id: string
  sellerId: string
  /** The words of its full-text vector (`tsvector_to_array(search_vector)`). */
  words: string[]
  /** When it came on sale (ms): posted live, approved after review or renewed after expiring. */
  postedAt?: number
}

/** A term: a word's start (`x1:*`), a word, or alternatives (`book3|book4`: as corrected and as typed). */
type Term = { prefix: string } | { or: string[] }

function compile(search: StoredSearch) {
  const { filters: f, textQuery } = search
  const terms = f.q && textQuery ? textQuery.split(' & ') : []
  return {
    id: search.id,
    userId: search.userId,
    since: search.since ?? 0,
    // Unsearchable text (only symbols): matches nothing, as in search.
    passes: f.q && !textQuery ? () => false : alertTest(f),
    terms: terms.map((t): Term => (t.endsWith(':*') ? { prefix: t.slice(0, -2) } : { or: t.split('|') })),
  }
}
type Compiled = ReturnType<typeof compile>

function matches(s: Compiled, l: MatchedListing, words: Set<string>): boolean {
  if (l.postedAt !== undefined && l.postedAt < s.since) return false
  // The filters first: the terms' test is made only for a listing passing them.
  return (
    s.passes(l) &&
    s.terms.every((t) =>
      'prefix' in t ? l.words.some((w) => w.startsWith(t.prefix)) : t.or.some((w) => words.has(w)),
    )
  )
}

export class SearchIndex {
  readonly #anyBrand: Compiled[] = []
  readonly #byBrand = new Map<string, Compiled[]>()

  add(search: StoredSearch): void {
    const compiled = compile(search)
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
  matchesOf(listing: MatchedListing): { searchId: string; userId: string }[] {
    const words = new Set(listing.words)
    return [this.#anyBrand, this.#byBrand.get(listing.brandId) ?? []]
      .flatMap((list) => list.filter((s) => s.userId !== listing.sellerId && matches(s, listing, words)))
      .map((s) => ({ searchId: s.id, userId: s.userId }))
  }
}
