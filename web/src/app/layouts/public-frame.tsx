import { type ReactNode, Suspense, useEffect } from 'react'
import { Spinner } from '../../components/ui/spinner'
import { useLocation } from '../../lib/bindings'
import { PAGE_LIVE_EVENT } from '../page-state'
import { RouteErrorBoundary } from '../route-error'
import { Footer } from './footer'
import { Navbar } from './navbar'

/** Whether the page the browser loaded has been shown: every page after it starts at the top. */
let isLoadedPagePlaced = false

/**
 * Navbar, page, footer; a skip link first so keyboard users can jump past the navigation. Without the router,
 * so the home page hydrates with the very same tree (app/home-app.tsx).
 */
export function PublicFrame({ children }: { children: ReactNode }) {
  const { pathname, hash } = useLocation()

  // A new page starts at the top; an in-page link (#section) is left to the browser. Not the page the browser
  // loaded: it placed that one itself, and a visitor who scrolled before the page hydrated stays where they are.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every page change on purpose
  useEffect(() => {
    if (!isLoadedPagePlaced) {
      isLoadedPagePlaced = true
      return
    }
    if (!hash) window.scrollTo(0, 0)
  }, [pathname, hash])

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-accent shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:px-4 focus:py-2"
      >
        Skip to content
      </a>
      <Navbar />
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-6xl flex-1 scroll-mt-16 px-4 py-8 outline-none sm:px-6"
      >
        <RouteErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageFallback />}>
            <PageLive>{children}</PageLive>
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <Footer />
    </div>
  )
}

/**
 * Says on `document` that the page is live once React has hydrated it: the page hydrates in a pass of its own,
 * after the frame, so this sits inside its boundary. The boot script (src/boot.ts) then makes again the button
 * clicks it held until now.
 */
function PageLive({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.dispatchEvent(new Event(PAGE_LIVE_EVENT))
  }, [])
  return children
}

/** First visit to a page whose code is still on its way. */
function PageFallback() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner label="Loading page" />
    </div>
  )
}
