// Which saved searches a new listing matches, decided in memory: each search is compiled once into sets and
// bounds, and indexed by brand, so a listing is only checked against the searches of its own brand and those
// of any brand. The rules are the search's own (server/modules/products/search.queries.ts): every filter must
// hold, choices within a filter are alternatives, and the text is the search's resolved full-text query over
// the listing's words. `posted_within` and the sort do not apply: an alert is about a listing just posted.
import type { SavedFilters } from '#server/modules/saved-searches/saved-query'

export type StoredSearch = {
  id: string
  userId: string
  filters: SavedFilters
  /** The search's text as a full-text query (`thinkpad & x1:*`), or null without text. */
  textQuery: string | null
  /** When it was saved (ms): a listing posted before then is not news to its owner. */
  since?: number
}

export type ListingFacts = {
  id: string
  sellerId: string
  brandId: string
  condition: string
  priceCents: number
  ramGb: number
  storageGb: number
  screenInches: number
  processorFamily: string | null
  batteryHealthPct: number | null
  /** The words of its full-text vector (`tsvector_to_array(search_vector)`). */
  words: string[]
  /** When it was posted (ms). */
  postedAt?: number
}

type Term = { word: string; prefix: boolean; or?: string[] }

type Compiled = {
  id: string
  userId: string
  since: number
  condition?: Set<string>
  minCents?: number
  maxCents?: number
  ram?: Set<number>
  storage?: Set<number>
  screen?: Set<number>
  processor?: Set<string>
  minBattery?: number
  minRam?: number
  minStorage?: number
  /** Unsearchable text (only symbols): matches nothing, as in search. */
  never?: boolean
  terms?: Term[]
}

const setOf = <T>(values: readonly T[] | undefined) => (values ? new Set(values) : undefined)

function compile(search: StoredSearch): Compiled {
  const f = search.filters
  const c: Compiled = {
    id: search.id,
    userId: search.userId,
    since: search.since ?? 0,
    condition: setOf(f.condition),
    minCents: f.min_price === undefined ? undefined : Math.round(f.min_price * 100),
    maxCents: f.max_price === undefined ? undefined : Math.round(f.max_price * 100),
    ram: setOf(f.ram),
    storage: setOf(f.storage),
    screen: setOf(f.screen),
    processor: setOf(f.processor),
    minBattery: f.min_battery_pct,
    minRam: f.min_ram_gb,
    minStorage: f.min_storage_gb,
  }
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
  if (s.condition && !s.condition.has(l.condition)) return false
  if (s.minCents !== undefined && l.priceCents < s.minCents) return false
  if (s.maxCents !== undefined && l.priceCents > s.maxCents) return false
  if (s.ram && !s.ram.has(l.ramGb)) return false
  if (s.storage && !s.storage.has(l.storageGb)) return false
  if (s.screen && !s.screen.has(Math.floor(l.screenInches))) return false
  if (s.processor && (l.processorFamily === null || !s.processor.has(l.processorFamily))) return false
  if (s.minBattery !== undefined && (l.batteryHealthPct === null || l.batteryHealthPct < s.minBattery))
    return false
  if (s.minRam !== undefined && l.ramGb < s.minRam) return false
  if (s.minStorage !== undefined && l.storageGb < s.minStorage) return false
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
    for (const brand of new Set(search.filters.brand)) {
      const list = this.#byBrand.get(brand)
      if (list) list.push(compiled)
      else this.#byBrand.set(brand, [compiled])
    }
  }

  /** The searches the listing matches, leaving out its own seller's. */
  matchesOf(listing: ListingFacts): { searchId: string; userId: string }[] {
    const words = new Set(listing.words)
    const out: { searchId: string; userId: string }[] = []
    for (const list of [this.#anyBrand, this.#byBrand.get(listing.brandId) ?? []]) {
      for (const s of list) {
        if (s.userId !== listing.sellerId && matches(s, listing, words)) {
          out.push({ searchId: s.id, userId: s.userId })
        }
      }
    }
    return out
  }
}
