import { z } from 'zod'
import { filterFields } from './filter-schemas'
import { FACETS, type FacetName } from './filters'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_DEPTH, pagingFields, TOTAL_THRESHOLD, unsetWhenEmpty } from './paging'
import { ProductList } from './products'

export { DEFAULT_PAGE_SIZE, MAX_PAGE_DEPTH, TOTAL_THRESHOLD }

// Discovery: the search page, its facets, the navbar's suggestions, and the paging every growing list shares.
// docs/decisions/0011-search-api.md describes the parameters, answers and headers.

export { ProcessorFamily } from './filter-schemas'
export {
  BATTERY_FACET_PCT,
  POSTED_WITHIN_DAYS,
  PROCESSOR_FAMILIES,
  PROCESSOR_FAMILY_LABELS,
} from './filters'

/** `relevance` needs text (`q`); without text it falls back to `newest`. */
export const SearchSort = z.enum(['relevance', 'newest', 'price_asc', 'price_desc'])
export type SearchSort = z.infer<typeof SearchSort>
/** The sorts of the earlier browse endpoint; still accepted. */
export const SortOrder = z.enum(['newest', 'price_asc', 'price_desc'])

/** `GET /api/search`: every filter a buyer uses, each in the URL so a search can be shared. */
export const SearchQuery = z.strictObject({
  /** Words, a model, a processor; typos are forgiven. Longer text is refused with 400. */
  q: unsetWhenEmpty(z.string().trim().max(200, 'Search text must be at most 200 characters')),
  /** Every filter, as contract/filters.ts declares it. */
  ...filterFields,
  /** Default: `relevance` when there is text, else `newest`. */
  sort: unsetWhenEmpty(SearchSort),
  /** `1`/`true` adds facet counts to the answer (ask on the first page; "next page" calls can skip them). */
  facets: unsetWhenEmpty(z.enum(['0', '1', 'true', 'false'])),
  ...pagingFields,
})
export type SearchQuery = z.infer<typeof SearchQuery>

/** One choice of a facet with the number of listings it would show. */
export const FacetChoice = z.object({ value: z.string(), label: z.string(), count: z.number().int() })
export type FacetChoice = z.infer<typeof FacetChoice>

/**
 * Counts per choice. Each facet counts the listings that match every OTHER filter (and the text), so
 * picking one brand still shows what the other brands hold; choices with no listing are left out.
 */
export const Facets = z.object(
  Object.fromEntries(FACETS.map((f) => [f.name, z.array(FacetChoice)])) as Record<
    FacetName,
    z.ZodArray<typeof FacetChoice>
  >,
)
export type Facets = z.infer<typeof Facets>

export const SearchResult = z.object({
  items: ProductList,
  /** Exact when `total_is_estimate` is false; otherwise more than this many (show "10,000+", or "1,000+" for a text). */
  total: z.number().int(),
  total_is_estimate: z.boolean(),
  /** The page number this answer is, when paged by number (1 for the first page); null when paged by cursor. */
  page: z.number().int().nullable(),
  page_size: z.number().int(),
  /** Pass as `cursor` (with the same filters and sort) for the next page; null on the last page. */
  next_cursor: z.string().nullable(),
  /** The sort applied (`relevance` only with text). */
  sort: SearchSort,
  /** Present when `facets=1`. */
  facets: Facets.optional(),
})
export type SearchResult = z.infer<typeof SearchResult>

/** The names the browse page used before; same shapes. */
export const ProductSearchQuery = SearchQuery
export type ProductSearchQuery = SearchQuery
export const ProductPage = SearchResult
export type ProductPage = SearchResult

/** `GET /api/search/suggest?q=`: what the navbar offers while typing (at least one character). */
export const SuggestQuery = z.strictObject({
  q: z
    .string({ error: 'Type something to search' })
    .trim()
    .min(1, 'Type something to search')
    .max(100, 'Search text must be at most 100 characters'),
})
export type SuggestQuery = z.infer<typeof SuggestQuery>

export const Suggestions = z.object({
  /** Brands whose name matches; open `/category/{_id}` or search with `brand=`. */
  brands: z.array(z.object({ _id: z.string(), brand_name: z.string(), product_count: z.number().int() })),
  /** Model names of available listings; search with `q=<name>`. */
  models: z.array(z.object({ name: z.string(), brand_name: z.string(), count: z.number().int() })),
})
export type Suggestions = z.infer<typeof Suggestions>
