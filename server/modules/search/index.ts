// Front door of the search module (docs/decisions/0054): what the rest of the server may use of it.
export { factsReader, readFactsApart } from './facts-apart'
export { alertColumns, type SavedFilters } from './filters'
export { FACT_COLUMNS, type FactRow, idAt } from './listing-facts'
export { catchUp, factsStatus, keepListingsCurrent, loadFacts, searchReady } from './listing-feed'
// For bench/text-index.ts, which times it.
export { buildTextIndex } from './listing-text'
// For bench/search-cpu.ts, which times a search of a view against one of its copy alone.
export { type FactsView, wholeView } from './listing-view'
export { type MatchedListing, SearchIndex } from './matcher'
export { describeFilters, parseSavedQuery } from './saved-query'
export {
  brandNamesOf,
  resolveText,
  searchCondition,
  searchProducts,
  searchWords,
  sortOf,
  wantsFacets,
} from './search.queries'
export { searchRoutes } from './search.routes'
export { type PoolAsk, searchView, startSearchPool } from './search-pool'
export { warmUpSearch } from './warm-up'
