import { StrictMode, startTransition } from 'react'
import { hydrateRoot, type Root } from 'react-dom/client'
import { HomePage } from '../features/home/home-page'
import { type Bindings, BindingsProvider } from '../lib/bindings'
import { AnswerStore, homeBindings } from './home-bindings'
import { PublicFrame } from './layouts/public-frame'
import type { PageState } from './page-state'
import { Shell } from './shell'

/**
 * `/` as the server rendered it, without react-router or React Query: the same frame and page as the full
 * app, bound to plain links and the page's own answers, so it hydrates the server's HTML as is.
 */
export function HomeApp({ bindings }: { bindings: Bindings }) {
  return (
    <BindingsProvider bindings={bindings}>
      <Shell>
        <PublicFrame>
          <HomePage />
        </PublicFrame>
      </Shell>
    </BindingsProvider>
  )
}

/** Loads the full app and renders it in place of the home page, at `to`, without reloading the page. */
export type LeaveHome = (root: Root, to: string, answers: AnswerStore) => Promise<void>

export const leaveHome: LeaveHome = async (root, to, answers) => {
  const { App, preloadPage } = await import('./app')
  const url = new URL(to, window.location.href)
  // The next page's code first, so it shows at once rather than after a spinner.
  await preloadPage(url.pathname, false).catch(() => undefined)
  window.history.pushState(null, '', url.pathname + url.search + url.hash)
  root.render(
    <StrictMode>
      <App answers={answers.answers()} />
    </StrictMode>,
  )
}

/** Hydrates the server-rendered home page in `container`; the first link followed loads the full app. */
export function hydrateHome(container: HTMLElement, state: PageState, leave: LeaveHome = leaveHome): Root {
  const store = new AnswerStore(
    state.queries.queries.map((query) => ({
      queryKey: query.queryKey,
      data: query.state.data,
      error: (query.state.error as Error | null) ?? null,
    })),
  )
  let isLeaving = false
  let target = ''
  const bindings = homeBindings(store, (to) => {
    target = to
    if (isLeaving) return
    isLeaving = true
    leave(root, to, store).catch(() => {
      // The app's code could not load (offline, or a new version deployed): let the browser go there.
      window.location.assign(target)
    })
  })
  // In a transition, React hydrates in slices and lets the browser handle input and paint between them.
  let root!: Root
  startTransition(() => {
    root = hydrateRoot(
      container,
      <StrictMode>
        <HomeApp bindings={bindings} />
      </StrictMode>,
    )
  })
  return root
}
