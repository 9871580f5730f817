import { z } from 'zod'
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_DEPTH,
  pagingFields,
  TOTAL_THRESHOLD,
  unsetWhenEmpty,
  wholeNumber,
} from './paging'
import { Condition, ProductList } from './products'

export { DEFAULT_PAGE_SIZE, MAX_PAGE_DEPTH, TOTAL_THRESHOLD }

// Discovery: the search page, its facets, the navbar's suggestions, and the paging every growing list shares.
// docs/decisions/0011-search-api.md describes the parameters, answers and headers.

/** Processor families a buyer filters by; each listing's family is derived from its processor text. */
export const PROCESSOR_FAMILIES = [
  'intel-core-i3',
  'intel-core-i5',
  'intel-core-i7',
  'intel-core-i9',
  'amd-ryzen-3',
  'amd-ryzen-5',
  'amd-ryzen-7',
  'amd-ryzen-9',
  'apple-m',
] as const
export const ProcessorFamily = z.enum(PROCESSOR_FAMILIES)
export type ProcessorFamily = z.infer<typeof ProcessorFamily>

export const PROCESSOR_FAMILY_LABELS: Record<ProcessorFamily, string> = {
  'intel-core-i3': 'Intel Core i3',
  'intel-core-i5': 'Intel Core i5',
  'intel-core-i7': 'Intel Core i7',
  'intel-core-i9': 'Intel Core i9',
  'amd-ryzen-3': 'AMD Ryzen 3',
  'amd-ryzen-5': 'AMD Ryzen 5',
  'amd-ryzen-7': 'AMD Ryzen 7',
  'amd-ryzen-9': 'AMD Ryzen 9',
  'apple-m': 'Apple M-series',
}

/** The battery health the page offers as one choice: "Battery 80% or more". */
export const BATTERY_FACET_PCT = 80

/** `relevance` needs text (`q`); without text it falls back to `newest`. */
export const SearchSort = z.enum(['relevance', 'newest', 'price_asc', 'price_desc'])
export type SearchSort = z.infer<typeof SearchSort>
/** The sorts of the earlier browse endpoint; still accepted. */
export const SortOrder = z.enum(['newest', 'price_asc', 'price_desc'])

/** "Posted within" choices shown on the page; any whole number of days from 1 to 3650 is accepted. */
export const POSTED_WITHIN_DAYS = [1, 7, 30, 90] as const

/**
 * A filter that takes several choices: `brand=a,b` or `brand=a&brand=b` (either form; empty parts ignored).
 * Choices of one filter are alternatives (OR); different filters all apply (AND).
 */
const listOf = <T extends z.ZodType>(item: T, max = 20) =>
  z.preprocess((v) => {
    if (v === undefined || v === null) return undefined
    const parts = (Array.isArray(v) ? v : [v])
      .flatMap((x) => (typeof x === 'string' ? x.split(',') : [x]))
      .map((x) => (typeof x === 'string' ? x.trim() : x))
      .filter((x) => x !== '')
    return parts.length === 0 ? undefined : parts
  }, z.array(item).max(max, `At most ${max} choices`).optional())

const dollars = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(1_000_000, `${label} must be at most 1,000,000`)

/** `GET /api/search`: every filter a buyer uses, each in the URL so a search can be shared. */
export const SearchQuery = z.strictObject({
  /** Words, a model, a processor; typos are forgiven. Longer text is refused with 400. */
  q: unsetWhenEmpty(z.string().trim().max(200, 'Search text must be at most 200 characters')),
  brand: listOf(z.uuid({ message: 'Must be a valid id' })),
  condition: listOf(Condition, 3),
  min_price: unsetWhenEmpty(dollars('Minimum price')),
  max_price: unsetWhenEmpty(dollars('Maximum price')),
  /** RAM in GB, one or more exact sizes (the facet's choices). */
  ram: listOf(wholeNumber(1, 1024, 'RAM')),
  /** Storage in GB, one or more exact sizes. */
  storage: listOf(wholeNumber(1, 65_536, 'Storage')),
  /** Screen size classes: `13` is 13.0 to 13.9 inches; 10 to 21. */
  screen: listOf(wholeNumber(10, 21, 'Screen size')),
  processor: listOf(ProcessorFamily, PROCESSOR_FAMILIES.length),
  /** Posted in the last N days. */
  posted_within: unsetWhenEmpty(wholeNumber(1, 3650, 'Posted within')),
  /** Battery health of at least this percentage (listings that report none are left out). */
  min_battery_pct: unsetWhenEmpty(wholeNumber(1, 100, 'Minimum battery health')),
  /** Kept from the earlier browse page: at least this much RAM / storage. */
  min_ram_gb: unsetWhenEmpty(wholeNumber(0, 1024, 'Minimum RAM')),
  min_storage_gb: unsetWhenEmpty(wholeNumber(0, 65_536, 'Minimum storage')),
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
export const Facets = z.object({
  brand: z.array(FacetChoice),
  condition: z.array(FacetChoice),
  ram: z.array(FacetChoice),
  storage: z.array(FacetChoice),
  screen: z.array(FacetChoice),
  processor: z.array(FacetChoice),
  posted_within: z.array(FacetChoice),
  /** "Battery 80% or more" (BATTERY_FACET_PCT) with its count. */
  battery: z.array(FacetChoice),
})
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
