// The paging limits every list shares, without the schemas (paging.ts), for pages that only show them.

/** Most listings a page holds, and the paging limits every list shares. */
export const MAX_PAGE_SIZE = 100
export const DEFAULT_PAGE_SIZE = 24
/** `page=N` reads at most this many listings deep (page × page_size); past it, follow the cursor. */
export const MAX_PAGE_DEPTH = 10_000
/** Totals are exact up to this many; above it the answer says "at least" (shown as "10,000+"). */
export const TOTAL_THRESHOLD = 10_000
