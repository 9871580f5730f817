import { z } from 'zod'
import { MAX_PAGE_DEPTH, MAX_PAGE_SIZE } from './paging-limits'

// Paging shared by every list that can grow without bound: see docs/decisions/0011-search-api.md.

export { DEFAULT_PAGE_SIZE, MAX_PAGE_DEPTH, MAX_PAGE_SIZE, TOTAL_THRESHOLD } from './paging-limits'

/** An empty query value (`?max_price=`) means the filter is not set. */
export const unsetWhenEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional())

export const wholeNumber = (min: number, max: number, label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`)

/** An opaque position handed back as `next_cursor` / `X-Next-Cursor`; only the server reads it. */
export const Cursor = z
  .string()
  .max(512, 'This cursor is not valid')
  .regex(/^[A-Za-z0-9_-]+$/, 'This cursor is not valid')

/** Paging shared by every list: a cursor (any depth, stable while listings are added) or a page number. */
export const pagingFields = {
  cursor: unsetWhenEmpty(Cursor),
  page: unsetWhenEmpty(wholeNumber(1, MAX_PAGE_DEPTH, 'Page')),
  /** Listings per page; `limit` is accepted as another name for it. */
  page_size: unsetWhenEmpty(wholeNumber(1, MAX_PAGE_SIZE, 'Page size')),
  limit: unsetWhenEmpty(wholeNumber(1, MAX_PAGE_SIZE, 'Limit')),
}

/** `GET /api/category/{id}`, `GET /api/products?email=`, `GET /api/bookings?email=`: paging only. */
export const ListPageQuery = z.strictObject(pagingFields)
export type ListPageQuery = z.infer<typeof ListPageQuery>

/** Response headers of the paged list endpoints (the body stays a plain array). */
export const PAGING_HEADERS = {
  /** Listings in the whole list (exact, or at least this many when `X-Total-Is-Estimate: true`). */
  total: 'x-total-count',
  totalIsEstimate: 'x-total-is-estimate',
  /** The cursor of the next page; absent on the last page. */
  nextCursor: 'x-next-cursor',
  /** `<url of the next page>; rel="next"` (RFC 8288); absent on the last page. */
  link: 'link',
} as const
