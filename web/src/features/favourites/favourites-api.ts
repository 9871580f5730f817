import type { AlertChoice, Favourite, FavouriteAlertSetting, FavouriteIds } from '#contract/favourites'
import { api } from '../../lib/api-client'
import { useAnswer, useAnswerCache } from '../../lib/bindings'
import { favouriteKeys } from '../../lib/query-keys'

/** The ids of the caller's favourites, for the hearts (only asked when someone is signed in). */
export function useFavouriteIds(enabled: boolean) {
  return useAnswer({
    queryKey: favouriteKeys.ids(),
    queryFn: ({ signal }) => api.get<FavouriteIds>('/favourites/ids', undefined, signal),
    enabled,
    staleTime: 60_000,
  })
}

export function useFavourites() {
  return useAnswer({
    queryKey: favouriteKeys.list(),
    queryFn: ({ signal }) => api.get<Favourite[]>('/favourites', undefined, signal),
  })
}

export function useFavouriteAlert() {
  return useAnswer({
    queryKey: favouriteKeys.alert(),
    queryFn: ({ signal }) => api.get<FavouriteAlertSetting>('/favourites/alerts', undefined, signal),
  })
}

export const saveFavouriteAlert = (alert: AlertChoice) =>
  api.put<FavouriteAlertSetting>('/favourites/alerts', { alert })

/**
 * Saves or forgets a laptop. Plain functions rather than useMutation (the heart is on the home page, whose
 * JS budget is tight); the hearts change at once and go back if the server refuses.
 */
export function useToggleFavourite() {
  const client = useAnswerCache()
  return async (productId: string, save: boolean) => {
    const before = client.getQueryData<FavouriteIds>(favouriteKeys.ids())
    const ids = new Set(before?.ids ?? [])
    if (save) ids.add(productId)
    else ids.delete(productId)
    client.setQueryData<FavouriteIds>(favouriteKeys.ids(), { ids: [...ids] })
    try {
      if (save) await api.put<unknown>(`/favourites/${encodeURIComponent(productId)}`)
      else await api.delete<unknown>(`/favourites/${encodeURIComponent(productId)}`)
    } catch (err) {
      if (before) client.setQueryData(favouriteKeys.ids(), before)
      throw err
    } finally {
      await client.invalidateQueries({ queryKey: favouriteKeys.all })
    }
  }
}

/** A laptop a signed-out visitor wanted to save: kept across the sign-in, saved when they come back. */
const PENDING_KEY = 'laptop-market:save-after-sign-in'
export const pendingFavourite = {
  set: (productId: string) => sessionStorage.setItem(PENDING_KEY, productId),
  take: (productId: string): boolean => {
    if (typeof sessionStorage === 'undefined' || sessionStorage.getItem(PENDING_KEY) !== productId)
      return false
    sessionStorage.removeItem(PENDING_KEY)
    return true
  },
}
