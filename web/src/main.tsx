import { StrictMode, startTransition } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { hydrateHome } from './app/home-app'
import { PAGE_STATE_ID, type PageState } from './app/page-state'
import './index.css'

const root = document.getElementById('root')
if (!root) throw new Error('No #root element')

// A page the server rendered carries its query cache as JSON; the browser takes over that HTML.
// Without it (the Vite dev server, or a page the server left to the browser) the app renders from scratch.
const stateElement = document.getElementById(PAGE_STATE_ID)
const state = stateElement ? (JSON.parse(stateElement.textContent || '{}') as PageState) : undefined

if (state && root.firstElementChild && window.location.pathname === '/' && !state.isNotFound) {
  // The home page hydrates without the router and the query cache; they load with the first link followed.
  hydrateHome(root, state)
} else {
  import('./app/app').then(async ({ App, preloadPage }) => {
    if (state && root.firstElementChild) {
      // The page's code first, so it hydrates with the very state the server rendered it from.
      await preloadPage(window.location.pathname, state.isNotFound).catch(() => undefined)
      // In a transition, React hydrates in slices and lets the browser handle input and paint between them.
      startTransition(() => {
        hydrateRoot(
          root,
          <StrictMode>
            <App dehydratedState={state.queries} />
          </StrictMode>,
        )
      })
    } else {
      createRoot(root).render(
        <StrictMode>
          <App />
        </StrictMode>,
      )
    }
  })
}
