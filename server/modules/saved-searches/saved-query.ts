// A saved search's query: the `/productcard` query string parsed by the search's own rules, kept in one
// canonical spelling (so saving the same search twice finds the first), and described in words.
import { PROCESSOR_FAMILY_LABELS, type ProcessorFamily, SearchQuery } from '#contract/search'
import { AppError } from '#server/lib/errors'

/** What a saved search keeps: the filters (paging, facets and the page's own markers dropped). */
export type SavedFilters = Omit<SearchQuery, 'page' | 'page_size' | 'limit' | 'cursor' | 'facets'>

/** Parameters of the page that are not filters: dropped before parsing. */
const NOT_FILTERS = new Set(['page', 'page_size', 'limit', 'cursor', 'facets', 'saved_search'])

/** The order the canonical query lists its filters in. */
const ORDER = [
  'q',
  'brand',
  'condition',
  'min_price',
  'max_price',
  'ram',
  'storage',
  'screen',
  'processor',
  'min_battery_pct',
  'min_ram_gb',
  'min_storage_gb',
  'posted_within',
  'sort',
] as const satisfies readonly (keyof SavedFilters)[]

export type ParsedQuery = { filters: SavedFilters; query: string }

/** Parses a `/productcard` query string; a 400 naming `query` (and the filter at fault) when it does not parse. */
export function parseSavedQuery(raw: string): ParsedQuery {
  const params = new URLSearchParams(raw.trim().replace(/^\?/, ''))
  const input: Record<string, string | string[]> = {}
  for (const [key, value] of params) {
    if (NOT_FILTERS.has(key)) continue
    const had = input[key]
    input[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value]
  }
  const parsed = SearchQuery.safeParse(input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const field = issue?.path[0]
    const message =
      issue?.code === 'unrecognized_keys'
        ? `The search has a filter we do not know: ${issue.keys.join(', ')}`
        : `${issue?.message ?? 'The search could not be read'}${field ? ` (${String(field)})` : ''}`
    throw new AppError('VALIDATION', message, { query: message })
  }
  const { page, page_size, limit, cursor, facets, ...filters } = parsed.data
  return { filters, query: canonicalQuery(filters) }
}

/** The filters as a query string in a fixed order, lists sorted: equal searches spell alike. */
export function canonicalQuery(filters: SavedFilters): string {
  const out = new URLSearchParams()
  for (const key of ORDER) {
    const value = filters[key]
    if (value === undefined) continue
    out.set(key, Array.isArray(value) ? [...value].map(String).sort().join(',') : String(value))
  }
  return out.toString()
}

const money = (dollars: number) => `$${dollars.toLocaleString('en-US', { maximumFractionDigits: 2 })}`
const storage = (gb: number) => (gb >= 1024 && gb % 1024 === 0 ? `${gb / 1024} TB` : `${gb} GB`)

/** "“thinkpad” · Dell · Good · up to $600 · 16 GB RAM": what a saved search looks for, in words. */
export function describeFilters(filters: SavedFilters, brandNames: Map<string, string>): string {
  const parts: string[] = []
  if (filters.q) parts.push(`“${filters.q}”`)
  if (filters.brand) parts.push(filters.brand.map((id) => brandNames.get(id) ?? 'a brand').join(' or '))
  if (filters.condition) parts.push(filters.condition.join(' or '))
  const { min_price: min, max_price: max } = filters
  if (min !== undefined && max !== undefined) parts.push(`${money(min)}–${money(max)}`)
  else if (max !== undefined) parts.push(`up to ${money(max)}`)
  else if (min !== undefined) parts.push(`from ${money(min)}`)
  if (filters.ram) parts.push(`${filters.ram.join(' or ')} GB RAM`)
  if (filters.storage) parts.push(filters.storage.map(storage).join(' or '))
  if (filters.screen) parts.push(`${filters.screen.join(' or ')}-inch`)
  if (filters.processor) {
    parts.push(filters.processor.map((p) => PROCESSOR_FAMILY_LABELS[p as ProcessorFamily]).join(' or '))
  }
  if (filters.min_battery_pct !== undefined) parts.push(`Battery ${filters.min_battery_pct}% or more`)
  if (filters.min_ram_gb !== undefined) parts.push(`at least ${filters.min_ram_gb} GB RAM`)
  if (filters.min_storage_gb !== undefined) parts.push(`at least ${storage(filters.min_storage_gb)}`)
  if (filters.posted_within !== undefined) parts.push(`posted within ${filters.posted_within} days`)
  return parts.length > 0 ? parts.join(' · ') : 'All laptops'
}
