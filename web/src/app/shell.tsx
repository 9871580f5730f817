import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react'
import { useToastRequested } from '../lib/toast'

// No page shows a toast on first render, so the toaster's code waits until the page is up.
// Toasts raised before it mounts are kept in react-hot-toast's store and shown when it does.
const AppToaster = lazy(() => import('./toaster').then((m) => ({ default: m.AppToaster })))

function useIdle(isWanted: boolean): boolean {
  const [isIdle, setIsIdle] = useState(false)
  useEffect(() => {
    if (!isWanted) return
    const done = () => setIsIdle(true)
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(done, { timeout: 2000 })
      return () => window.cancelIdleCallback(id)
    }
    const id = window.setTimeout(done, 200)
    return () => window.clearTimeout(id)
  }, [isWanted])
  return isIdle
}

/**
 * The page, then the toaster: once the page is idle (`idle`, the full app, whose pages raise toasts), or with
 * the first toast (`on-demand`, the home page, which keeps its first download small). The full app and the
 * home page both render through it, so their trees (and the ids React derives from them) are the same.
 */
export function Shell({ children, toaster }: { children: ReactNode; toaster: 'idle' | 'on-demand' }) {
  const isIdle = useIdle(toaster === 'idle')
  const isRequested = useToastRequested()
  const isToasterShown = toaster === 'idle' ? isIdle : isRequested
  return (
    <>
      {children}
      {isToasterShown ? (
        <Suspense fallback={null}>
          <AppToaster />
        </Suspense>
      ) : null}
    </>
  )
}
