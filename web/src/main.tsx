import { StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { App } from './app/app'
import { PAGE_STATE_ID, type PageState } from './app/page-state'
import { preloadPage } from './app/router'
import './index.css'

const root = document.getElementById('root')
if (!root) throw new Error('No #root element')

// A page the server rendered carries its query cache as JSON; the browser takes over that HTML.
// Without it (the Vite dev server, or a page the server left to the browser) the app renders from scratch.
const stateElement = document.getElementById(PAGE_STATE_ID)
if (stateElement && root.firstElementChild) {
  const state = JSON.parse(stateElement.textContent || '{}') as PageState
  // The page's code first, so it hydrates with the very state the server rendered it from.
  preloadPage(window.location.pathname, state.isNotFound)
    .catch(() => undefined)
    .then(() =>
      hydrateRoot(
        root,
        <StrictMode>
          <App dehydratedState={state.queries} />
        </StrictMode>,
      ),
    )
} else {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
}
