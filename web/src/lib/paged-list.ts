import { apiRequestWithHeaders, type QueryParams } from './api-client'

/** Where the next page of a list is: a path under /api and its query. */
export type PageRequest = { path: string; query?: QueryParams }

/** One page of a list the server answers as an array, with paging in its headers. */
export type ListPage<T> = {
  items: T[]
  /** How many there are in all, when the server says (`x-total-count`). */
  total?: number
  isEstimate: boolean
  /** The next page, or null at the end. */
  next: PageRequest | null
}

/** `<…>; rel="next"` from a Link header. */
function linkTarget(link: string | null, rel: string): string | null {
  if (!link) return null
  for (const part of link.split(',')) {
    const match = /<([^>]*)>\s*;(.*)/.exec(part.trim())
    if (match?.[1] && new RegExp(`rel="?([^"]*\\s)?${rel}(\\s[^"]*)?"?`).test(match[2] ?? '')) return match[1]
  }
  return null
}

/** A URL the server gave (absolute, or a path with or without /api) as a request for the api client. */
export function toPageRequest(target: string): PageRequest {
  const url = new URL(target, 'http://x')
  const path = url.pathname.replace(/^\/api(?=\/)/, '')
  const query: QueryParams = {}
  url.searchParams.forEach((value, key) => {
    query[key] = value
  })
  return { path, query }
}

/**
 * Reads the paging headers of a list answer: the total from `x-total-count` (an estimate when
 * `x-total-estimate` or `x-total-is-estimate` says so) and the next page from `Link: <…>; rel="next"`,
 * or else from `x-next-cursor` (sent back as `cursor`) or `x-next-page` (sent back as `page`).
 */
export function readPageHeaders(headers: Headers, request: PageRequest): Omit<ListPage<unknown>, 'items'> {
  const totalHeader = headers.get('x-total-count')
  const total = totalHeader === null || totalHeader.trim() === '' ? undefined : Number(totalHeader)
  const estimateHeader = headers.get('x-total-estimate') ?? headers.get('x-total-is-estimate')
  const isEstimate = estimateHeader === 'true' || estimateHeader === '1'
  let next: PageRequest | null = null
  const link = linkTarget(headers.get('link'), 'next')
  const cursor = headers.get('x-next-cursor')
  const page = headers.get('x-next-page')
  if (link) next = toPageRequest(link)
  else if (cursor) next = { path: request.path, query: { ...request.query, cursor } }
  else if (page) next = { path: request.path, query: { ...request.query, page } }
  return { total: Number.isFinite(total) ? total : undefined, isEstimate, next }
}

export async function fetchListPage<T>(request: PageRequest, signal?: AbortSignal): Promise<ListPage<T>> {
  const { data, headers } = await apiRequestWithHeaders<T[]>(request.path, { query: request.query, signal })
  return { items: data, ...readPageHeaders(headers, request) }
}

/** Every item of the pages loaded so far, in order. */
export function allItems<T>(pages: { pages: ListPage<T>[] } | undefined): T[] | undefined {
  return pages?.pages.flatMap((p) => p.items)
}
