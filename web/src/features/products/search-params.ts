import { PROCESSOR_FAMILIES, PROCESSOR_FAMILY_LABELS, SearchQuery } from '#contract/search'
import type { ProductFilters } from './products-api'

export const SORTS = [
  { value: 'relevance', label: 'Best match' },
  { value: 'newest', label: 'Newest first' },
  { value: 'price_asc', label: 'Price: low to high' },
  { value: 'price_desc', label: 'Price: high to low' },
] as const
/** The choices offered before the server has counted them (then the facets' own choices are shown). */
export const RAM_CHOICES = [8, 16, 32, 64] as const
export const STORAGE_CHOICES = [256, 512, 1024, 2048] as const
/** Screen size classes: 14 is 14.0 to 14.9 inches. */
export const SCREEN_CHOICES = [13, 14, 15, 16, 17] as const
export const PROCESSOR_CHOICES = PROCESSOR_FAMILIES.map((value) => ({
  value,
  label: PROCESSOR_FAMILY_LABELS[value],
}))
export const POSTED_CHOICES = [
  { value: 1, label: 'Last 24 hours' },
  { value: 7, label: 'Last 7 days' },
  { value: 30, label: 'Last 30 days' },
  { value: 90, label: 'Last 90 days' },
] as const

/** The default sort: best match when there is text to match, otherwise newest first. */
export function defaultSort(filters: Pick<ProductFilters, 'q'>): string {
  return filters.q ? 'relevance' : 'newest'
}

export const PAGE_SIZES = [12, 24, 48, 96] as const

const CURSOR = /^[A-Za-z0-9_-]{1,512}$/

function toNumber(value: string | null, { min = 0, integer = false } = {}): number | undefined {
  if (value === null || value.trim() === '') return undefined
  const n = Number(value)
  if (!Number.isFinite(n) || n < min) return undefined
  return integer ? Math.floor(n) : n
}

const oneOf = <T extends string | number>(value: T | undefined, choices: readonly T[]) =>
  value !== undefined && choices.includes(value) ? value : undefined

/** The filters the page reads from its URL, each parsed by the search API's own rule for it (contract/search.ts). */
const FILTER_PARAMS = [
  'brand',
  'condition',
  'min_price',
  'max_price',
  'ram',
  'storage',
  'screen',
  'processor',
  'posted_within',
  'min_battery_pct',
  'min_ram_gb',
  'min_storage_gb',
] as const satisfies readonly (keyof ProductFilters & keyof SearchQuery)[]

/** One filter's value as the API would read it; undefined when the API would refuse it (or it is unset). */
function readFilter<K extends (typeof FILTER_PARAMS)[number]>(
  params: URLSearchParams,
  key: K,
): ProductFilters[K] | undefined {
  const raw = params.get(key)
  if (raw === null) return undefined
  const parsed = SearchQuery.shape[key].safeParse(raw)
  if (!parsed.success || parsed.data === undefined) return undefined
  // The page offers one choice per filter: the first of a list.
  return (Array.isArray(parsed.data) ? parsed.data[0] : parsed.data) as ProductFilters[K]
}

/**
 * Reads the browse filters from the URL. Anything the server would refuse is dropped here, so a
 * hand-edited or stale link still shows results instead of an error.
 */
export function readFilters(params: URLSearchParams): ProductFilters {
  const filters: ProductFilters = {}
  const q = params.get('q')?.trim().slice(0, 100)
  if (q) filters.q = q
  for (const key of FILTER_PARAMS) {
    const value = readFilter(params, key)
    if (value !== undefined) (filters as Record<string, unknown>)[key] = value
  }
  const sort = oneOf(
    params.get('sort') ?? undefined,
    SORTS.map((s) => s.value),
  )
  // Best match needs text to match; without it the default order stands.
  if (sort && sort !== defaultSort(filters) && !(sort === 'relevance' && !filters.q)) filters.sort = sort
  const cursor = params.get('cursor')
  if (cursor && CURSOR.test(cursor)) filters.cursor = cursor
  const page = toNumber(params.get('page'), { min: 1, integer: true })
  if (page !== undefined && page > 1 && page <= 10_000) filters.page = page
  filters.page_size = oneOf(toNumber(params.get('page_size'), { integer: true }), PAGE_SIZES)
  for (const key of Object.keys(filters) as (keyof ProductFilters)[]) {
    if (filters[key] === undefined) delete filters[key]
  }
  return filters
}

const ORDER: (keyof ProductFilters)[] = [
  'q',
  'brand',
  'condition',
  'min_price',
  'max_price',
  'ram',
  'storage',
  'screen',
  'processor',
  'posted_within',
  'min_battery_pct',
  'min_ram_gb',
  'min_storage_gb',
  'sort',
  'page_size',
  'cursor',
  'page',
]

/** The URL query for a set of filters, in a stable order, leaving defaults out. */
export function writeFilters(filters: ProductFilters): URLSearchParams {
  const params = new URLSearchParams()
  for (const key of ORDER) {
    const value = filters[key]
    if (value === undefined || value === '') continue
    if (key === 'sort' && value === defaultSort(filters)) continue
    if (key === 'page' && value === 1) continue
    params.set(key, String(value))
  }
  return params
}

/** Filters that narrow the list (not the order, page size or position). */
const NARROWING = ORDER.filter((k) => !['sort', 'page', 'cursor', 'page_size'].includes(k))

export function hasActiveFilters(filters: ProductFilters): boolean {
  return NARROWING.some((key) => filters[key] !== undefined && filters[key] !== '')
}

/** How many narrowing filters are set, for the phone's "Filters (3)" button. */
export function countActiveFilters(filters: ProductFilters): number {
  return NARROWING.filter((key) => filters[key] !== undefined && filters[key] !== '').length
}

/** The same filters without any, keeping order and page size: what "Clear filters" leads to. */
export function clearedFilters(filters: ProductFilters): ProductFilters {
  return { sort: filters.sort === 'relevance' ? undefined : filters.sort, page_size: filters.page_size }
}

/** A change of filter or order starts again from the first page. */
export function withChange(filters: ProductFilters, change: Partial<ProductFilters>): ProductFilters {
  const next: ProductFilters = { ...filters, ...change, page: undefined, cursor: undefined }
  if (next.sort === 'relevance' && !next.q) next.sort = undefined
  return next
}
