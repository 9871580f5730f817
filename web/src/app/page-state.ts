import type { DehydratedState } from '@tanstack/react-query'

/** The id of the `<script type="application/json">` that carries the server's page state to the browser. */
export const PAGE_STATE_ID = 'page-state'

/** The server's query cache for the page it rendered, and whether that page is the 404 page. */
export type PageState = { queries: DehydratedState; isNotFound: boolean }
