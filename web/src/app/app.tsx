import { QueryClientProvider } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useState } from 'react'
import { BrowserRouter } from 'react-router'
import { createQueryClient } from './query-client'
import { AppRoutes } from './router'

// No page shows a toast on first render, so the toaster's code waits until the page is up.
// Toasts raised before it mounts are kept in react-hot-toast's store and shown when it does.
const AppToaster = lazy(() => import('./toaster').then((m) => ({ default: m.AppToaster })))

function useIdle(): boolean {
  const [isIdle, setIsIdle] = useState(false)
  useEffect(() => {
    const done = () => setIsIdle(true)
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(done, { timeout: 2000 })
      return () => window.cancelIdleCallback(id)
    }
    const id = window.setTimeout(done, 200)
    return () => window.clearTimeout(id)
  }, [])
  return isIdle
}

export function App() {
  const [queryClient] = useState(createQueryClient)
  const isIdle = useIdle()
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      {isIdle ? (
        <Suspense fallback={null}>
          <AppToaster />
        </Suspense>
      ) : null}
    </QueryClientProvider>
  )
}
