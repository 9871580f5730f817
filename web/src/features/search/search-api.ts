import type { Brand } from '#contract/brands'
import { api, isApiError } from '../../lib/api-client'
import { useAnswer } from '../../lib/bindings'
import { brandKeys, productKeys } from '../../lib/query-keys'

/** One suggestion under the navbar's search box: a brand (opens its results) or a model name. */
export type Suggestion = { kind: 'brand' | 'model'; label: string; brandId?: string }

const MAX_SUGGESTIONS = 8

/** Reads the suggestion endpoint's answer, whichever of the usual shapes it has. */
export function readSuggestions(body: unknown): Suggestion[] {
  const out: Suggestion[] = []
  const add = (item: unknown, fallbackKind: Suggestion['kind']) => {
    if (typeof item === 'string') {
      out.push({ kind: fallbackKind, label: item })
      return
    }
    if (!item || typeof item !== 'object') return
    const o = item as Record<string, unknown>
    const label = [o.label, o.text, o.name, o.brand_name, o.value].find((v) => typeof v === 'string') as
      | string
      | undefined
    if (!label) return
    const kindField = String(o.kind ?? o.type ?? fallbackKind)
    const kind: Suggestion['kind'] = kindField === 'brand' ? 'brand' : 'model'
    const brandId = [
      o.brand_id,
      o.brandId,
      o.category_id,
      kind === 'brand' ? (o._id ?? o.id) : undefined,
    ].find((v) => typeof v === 'string') as string | undefined
    out.push({ kind, label, brandId: kind === 'brand' ? brandId : undefined })
  }
  if (Array.isArray(body)) for (const item of body) add(item, 'model')
  else if (body && typeof body === 'object') {
    const o = body as Record<string, unknown>
    for (const item of Array.isArray(o.brands) ? o.brands : []) add(item, 'brand')
    for (const item of Array.isArray(o.models) ? o.models : []) add(item, 'model')
    for (const key of ['suggestions', 'items']) {
      const list = o[key]
      if (Array.isArray(list)) for (const item of list) add(item, 'model')
    }
  }
  const seen = new Set<string>()
  return out
    .filter((s) => {
      const key = `${s.kind}:${s.label.toLowerCase()}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    .slice(0, MAX_SUGGESTIONS)
}

/**
 * Brands and models that match what is typed (GET /api/search/suggest). Where the server has no
 * suggestions, the brand list (already cached for the home page) still offers the matching brands.
 */
export function useSuggestions(q: string) {
  const text = q.trim()
  const query = useAnswer({
    queryKey: productKeys.suggestions(text.toLowerCase()),
    queryFn: async ({ signal }) => {
      try {
        return readSuggestions(await api.get<unknown>('/search/suggest', { q: text }, signal))
      } catch (err) {
        if (isApiError(err) && err.status === 404) return null
        throw err
      }
    },
    enabled: text.length >= 2,
    staleTime: 60_000,
    retry: false,
  })
  const brands = useAnswer({
    queryKey: brandKeys.list(),
    queryFn: ({ signal }) => api.get<Brand[]>('/brands', undefined, signal),
    staleTime: 5 * 60_000,
    enabled: query.data === null,
  })
  if (text.length < 2) return { suggestions: [] as Suggestion[], isFetching: false }
  if (query.data === null) {
    const lower = text.toLowerCase()
    const matching = (brands.data ?? [])
      .filter((b) => b.brand_name.toLowerCase().includes(lower))
      .map((b): Suggestion => ({ kind: 'brand', label: b.brand_name, brandId: b._id }))
    return { suggestions: matching.slice(0, MAX_SUGGESTIONS), isFetching: false }
  }
  return { suggestions: query.data ?? [], isFetching: query.isFetching }
}
