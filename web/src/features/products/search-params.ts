import { FILTER_KEYS, FILTERS, type FilterKey, readParam } from '#contract/filters'
import type { ProductFilters } from './products-api'

export const SORTS = [
  { value: 'relevance', label: 'Best match' },
  { value: 'newest', label: 'Newest first' },
  { value: 'price_asc', label: 'Price: low to high' },
  { value: 'price_desc', label: 'Price: high to low' },
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

/** The filters the page reads from its URL: every declared filter (contract/filters.ts), in its order. */
const FILTER_PARAMS = FILTER_KEYS

/** One filter's value as the API would read it; undefined when the API would refuse it (or it is unset). */
export function parseFilter<K extends FilterKey>(key: K, raw: string | null): ProductFilters[K] | undefined {
  if (raw === null) return undefined
  // The API's rule for the parameter (contract/filters.ts), read without the schema library the API uses.
  const value = readParam(FILTERS[key].param, raw)
  if (value === undefined) return undefined
  // The page offers one choice per filter: the first of a list.
  return (Array.isArray(value) ? value[0] : value) as ProductFilters[K]
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
    const value = parseFilter(key, params.get(key))
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

const ORDER: (keyof ProductFilters)[] = ['q', ...FILTER_PARAMS, 'sort', 'page_size', 'cursor', 'page']

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
