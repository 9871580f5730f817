import { useQuery } from '@tanstack/react-query'
import type { AlertChoice } from '#contract/favourites'
import type { SavedSearch, SavedSearchVisit } from '#contract/saved-searches'
import { api } from '../../lib/api-client'
import { savedSearchKeys } from '../../lib/query-keys'

export function useSavedSearches() {
  return useQuery({
    queryKey: savedSearchKeys.list(),
    queryFn: ({ signal }) => api.get<SavedSearch[]>('/saved-searches', undefined, signal),
  })
}

export const saveSearch = (query: string, alert: AlertChoice) =>
  api.post<{ acknowledged: boolean; insertedId: string }>('/saved-searches', { query, alert })

export const deleteSavedSearch = (id: string) =>
  api.delete<{ deletedCount: number }>(`/saved-searches/${encodeURIComponent(id)}`)

export const setSavedSearchAlert = (id: string, alert: AlertChoice) =>
  api.put<{ modifiedCount: number }>(`/saved-searches/${encodeURIComponent(id)}/alert`, { alert })

/**
 * Opening a saved search (`?saved_search=`): once per page view, the time of the previous visit, after which
 * laptops are marked new. Asked once and kept: asking again would move the visit and unmark them.
 */
export function useSavedSearchVisit(id: string | null, enabled: boolean) {
  return useQuery({
    queryKey: savedSearchKeys.visit(id ?? ''),
    queryFn: () => api.post<SavedSearchVisit>(`/saved-searches/${encodeURIComponent(id ?? '')}/visit`),
    enabled: Boolean(id) && enabled,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
}
