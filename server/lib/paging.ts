import type { FastifyReply, FastifyRequest } from 'fastify'
import { PAGING_HEADERS } from '#contract/paging'

/** Sets the paging headers of a list answered as a plain array (see docs/decisions/0011-search-api.md). */
export function setPagingHeaders(
  req: FastifyRequest,
  reply: FastifyReply,
  page: { total: number; isEstimate: boolean; nextCursor: string | null },
) {
  reply.header(PAGING_HEADERS.total, String(page.total))
  reply.header(PAGING_HEADERS.totalIsEstimate, String(page.isEstimate))
  if (!page.nextCursor) return
  reply.header(PAGING_HEADERS.nextCursor, page.nextCursor)
  const url = new URL(req.url, 'http://local')
  url.searchParams.delete('page')
  url.searchParams.set('cursor', page.nextCursor)
  reply.header(PAGING_HEADERS.link, `<${url.pathname}${url.search}>; rel="next"`)
}
