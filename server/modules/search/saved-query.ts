// A saved search's query: the `/productcard` query string parsed by the search's own rules, kept in one
// canonical spelling (so saving the same search twice finds the first), and described in words.

import { SearchQuery } from '#contract/search'
import { AppError } from '#server/lib/errors'
import { describeEach, NOT_FILTERS, SAVED_ORDER, type SavedFilters } from './filters'

/** Dropped before parsing: the non-filter parameters, and the saved search a page was opened from. */
const DROPPED = new Set<string>([...NOT_FILTERS, 'saved_search'])

/** The canonical query's order: the text, the filters in a saved search's order, the sort. */
const ORDER = ['q', ...SAVED_ORDER, 'sort']

/** Parses a `/productcard` query string; a 400 naming `query` (and the filter at fault) if it won't parse. */
export function parseSavedQuery(raw: string): { filters: SavedFilters; query: string } {
  const params = new URLSearchParams(raw.trim().replace(/^\?/, ''))
  const input: Record<string, string | string[]> = {}
  for (const [key, value] of params) {
    if (DROPPED.has(key)) continue
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
  return { filters: parsed.data, query: canonicalQuery(parsed.data) }
}

/** The filters as a query string in a fixed order, lists sorted: equal searches spell alike. */
export function canonicalQuery(filters: SavedFilters): string {
  const out = new URLSearchParams()
  for (const key of ORDER) {
    const value = (filters as Record<string, unknown>)[key]
    if (value === undefined) continue
    out.set(key, Array.isArray(value) ? [...value].map(String).sort().join(',') : String(value))
  }
  return out.toString()
}

/** "“thinkpad” · Dell · Good · up to $600 · 16 GB RAM": what a saved search looks for, in words. */
export function describeFilters(filters: SavedFilters, brandNames: Map<string, string>): string {
  const parts = [...(filters.q ? [`“${filters.q}”`] : []), ...describeEach(filters, brandNames)]
  return parts.length > 0 ? parts.join(' · ') : 'All laptops'
}
