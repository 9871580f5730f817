import { useCallback, useSyncExternalStore } from 'react'

/**
 * Whether a CSS media query matches now; re-renders when it changes. Without `matchMedia` (the server,
 * old test environments) it answers `fallback`.
 */
export function useMediaQuery(query: string, fallback = true): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = typeof window === 'undefined' ? undefined : window.matchMedia?.(query)
      if (!list) return () => {}
      list.addEventListener('change', onChange)
      return () => list.removeEventListener('change', onChange)
    },
    [query],
  )
  return useSyncExternalStore(
    subscribe,
    () => (typeof window === 'undefined' ? fallback : (window.matchMedia?.(query).matches ?? fallback)),
    () => fallback,
  )
}
