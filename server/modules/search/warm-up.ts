import { sql } from 'drizzle-orm'
import { FILTER_KEYS, type FilterKey, filterOf } from '#contract/filters'
import { SearchQuery, SearchSort } from '#contract/search'
import type { Db } from '#server/db/client'
import { isOnSale } from '#server/lib/on-sale'
import { readPaging, rowsOf } from '#server/lib/paging'
import { seededRandom } from '#server/lib/seeded-random'
import { type CountFacet, floorFacet } from './filters'
import { FACT_COLUMNS, type FactRow, factsFromRows, type ListingFacts } from './listing-facts'
import { holdReady, type Logger } from './listing-feed'
import { titleOfRow } from './listing-text'
import { baseOf, type FactsView, markedPart } from './listing-view'
import { searchProducts, sortOf, wantsFacets } from './search.queries'
import { askView, type PoolAsk } from './search-pool'

// An instance warms its search code before it says it is ready: on a cold instance the first few seconds of
// searches ran at half the rate of later ones (p99 182 ms against 85–105 at 1,000,000 listings) while V8
// compiled the copy's walks and counts and the search threads filled what they keep per copy. Decision 0146.

/** Below this many listings a cold search costs little: no warm-up (and none in tests, unless asked). */
const WARM_FROM = 50_000
const WARM_SEARCHES = 1_500
const WARM_MS = 3_000
/** Searches in flight at once: enough to keep the search threads and the database busy. */
const AT_ONCE = 12

/**
 * Holds `/api/health` at `loading` after the copy's first read until `count` warmUpSearches were answered by
 * the instance's own search path, or `budgetMs` passed; a failed search ends the warm-up.
 */
export function warmUpSearch(
  db: Db,
  log: Logger,
  { from = WARM_FROM, count = WARM_SEARCHES, budgetMs = WARM_MS } = {},
): Promise<void> {
  return holdReady(db, async (view) => {
    if (view.size < from) return
    const started = performance.now()
    let next = 0
    try {
      const searches = warmUpSearches(baseOf(view), count)
      // Every fourth asks a view as the feed's (rows out, a delta): else the first writes would run it first.
      const changed = await changedView(db, view)
      const searcher = async () => {
        while (next < searches.length && performance.now() - started < budgetMs) {
          const q = searches[next++] as SearchQuery
          if (next % 4 === 0) await askView(db, changed, askOf(q))
          else await searchProducts(db, q)
        }
      }
      await Promise.all(Array.from({ length: AT_ONCE }, searcher))
      log.info?.(
        { searches: next, ms: Math.round(performance.now() - started) },
        'Search warmed up on its copy of the listings',
      )
    } catch (err) {
      // Never a reason not to serve: the instance is ready without it.
      log.error({ err, searches: next }, 'Search could not warm up; ready without it')
    }
  })
}

/**
 * `count` searches from the copy's listings, varied as visitors vary them (filters, title words, sort, pages
 * 1 to 30); filters read from their declarations; the same copy gives the same searches.
 */
export function warmUpSearches(f: ListingFacts, count: number): SearchQuery[] {
  const random = seededRandom(f.size)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T
  const row = () => Math.floor(random() * f.size)
  const searches: SearchQuery[] = []
  for (let n = 0; n < count * 2 && searches.length < count && f.size > 0; n++) {
    const raw: Record<string, string> = {}
    for (const key of FILTER_KEYS) {
      if (random() < 0.2) {
        const value = valueAt(f, key, row(), random)
        if (value !== undefined) raw[key] = value
      }
    }
    if (random() < 0.5) {
      const words = titleOfRow(f.text, row()).split(' ')
      const at = Math.floor(random() * words.length)
      const typed = words.slice(at, at + 1 + Math.floor(random() * 2)).join(' ')
      raw.q = random() < 0.3 ? typed.slice(0, Math.max(3, typed.length - 2)) : typed
    }
    raw.sort = pick(SearchSort.options)
    raw.page = String(1 + Math.floor(random() * 30))
    if (random() < 0.5) raw.facets = '1'
    const parsed = SearchQuery.safeParse(raw)
    if (parsed.success) searches.push(parsed.data)
  }
  return searches
}

async function changedView(db: Db, view: FactsView): Promise<FactsView> {
  const base = baseOf(view)
  const random = seededRandom(base.size + 1)
  const dead = new Set(Array.from({ length: 64 }, () => Math.floor(random() * base.size)))
  const rows = await rowsOf<FactRow>(db, sql`select ${FACT_COLUMNS} from products where ${isOnSale} limit 32`)
  const delta = factsFromRows(view.version, rows)
  return {
    version: view.version,
    parts: [markedPart(base, dead)],
    delta,
    size: base.size - dead.size + delta.size,
  }
}

/** What the copy is asked for a search without its text (whose words the database resolves first). */
function askOf(q: SearchQuery): PoolAsk {
  const query = { ...q, q: undefined }
  return {
    query,
    sort: sortOf(query, undefined),
    paging: readPaging(q),
    nowMs: Date.now(),
    facets: wantsFacets(q),
  }
}

/** A filter's value at row r of a copy, as a query parameter; undefined when the listing has none. */
function valueAt(f: ListingFacts, key: FilterKey, r: number, random: () => number): string | undefined {
  const filter = filterOf(key)
  // A facet column's choice, or for a floor on one (RAM at least) its value.
  const facet = filter.op === 'in' ? key : floorFacet(filter)
  if (facet !== undefined) {
    const column = f.columns[facet as CountFacet]
    return column.values[column.index[r] as number] || undefined
  }
  if (filter.row === 'price') return String((f.priceCents[r] as number) / (filter.scale ?? 1))
  if (filter.row === 'battery') return (f.battery[r] as number) >= 0 ? String(f.battery[r]) : undefined
  const choices = filter.facet?.choices
  if (choices) return String(choices[Math.floor(random() * choices.length)])
  return undefined
}
