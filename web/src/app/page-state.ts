import type { DehydratedState } from '@tanstack/react-query'

/** The id of the `<script type="application/json">` that carries the server's page state to the browser. */
export const PAGE_STATE_ID = 'page-state'

/** Dispatched on `document` once React has hydrated a rendered page (layouts/public-frame.tsx); src/boot.ts spells it out too. */
export const PAGE_LIVE_EVENT = 'page-live'

/** The server's query cache for the page it rendered, and whether that page is the 404 page. */
export type PageState = { queries: DehydratedState; isNotFound: boolean }
