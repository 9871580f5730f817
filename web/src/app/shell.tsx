import { lazy, type ReactNode, Suspense, useEffect } from 'react'
import { ConfirmItsYouHost } from '../features/step-up/confirm-its-you-host'
import { useToastRequested } from '../lib/toast'

// No page shows a toast on first render, so the toaster's code loads with the first toast (lib/toast.ts).
// Toasts raised before it mounts are kept in react-hot-toast's store and shown when it does.
const AppToaster = lazy(() => import('./toaster').then((m) => ({ default: m.AppToaster })))

/**
 * The page, the "Confirm it's you" dialog when a change asks for it, then the toaster once a toast is raised. The full app and the home page both render through it, so
 * their trees (and the ids React derives from them) are the same.
 */
export function Shell({ children }: { children: ReactNode }) {
  const isRequested = useToastRequested()
  // The page answers input from here on (its scripts took over the server's HTML): `<html data-interactive>`.
  useEffect(() => {
    document.documentElement.dataset.interactive = 'true'
  }, [])
  return (
    <>
      {children}
      <ConfirmItsYouHost />
      {isRequested ? (
        <Suspense fallback={null}>
          <AppToaster />
        </Suspense>
      ) : null}
    </>
  )
}
