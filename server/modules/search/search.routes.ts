import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { IdParams } from '#contract/common'
import { ListPageQuery } from '#contract/paging'
import { ProductList } from '#contract/products'
import { SearchQuery, SearchResult, Suggestions, SuggestQuery } from '#contract/search'
import { sendJson } from '#server/lib/error-handler'
import { KeptJson, SENDS_KEPT_JSON } from '#server/lib/kept-json'
import { pagingHeaders } from '#server/lib/paging'
import { getBrand } from '#server/modules/brands'
import { findBrandProducts } from './brand-products'
import { searchProducts, suggest } from './search.queries'

export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, cache } = app.ctx

  app.get(
    '/category/:id',
    {
      ...SENDS_KEPT_JSON,
      schema: {
        tags: ['products'],
        summary:
          "A brand's available laptops, newest first, a page at a time (paging headers: X-Total-Count, Link)",
        params: IdParams,
        querystring: ListPageQuery,
        response: { 200: ProductList },
      },
    },
    async (req, reply) => {
      const key = `category:${req.params.id}:${req.url.split('?')[1] ?? ''}`
      // Kept serialized with paging headers, compressed once per encoding (KeptJson): hits send them as kept.
      const page = await cache.remember(key, async () => {
        await getBrand(db, req.params.id)
        const found = await findBrandProducts(db, req.params.id, req.query)
        return { headers: pagingHeaders(req.url, found), body: new KeptJson(JSON.stringify(found.items)) }
      })
      reply.headers(page.headers)
      return sendJson(reply, page.body)
    },
  )

  app.get(
    '/search',
    {
      schema: {
        tags: ['products'],
        summary: 'Search and browse available laptops: text, filters, sorts, facets, cursor or page paging',
        querystring: SearchQuery,
        response: { 200: SearchResult },
      },
    },
    // Written as it is (the contract's own shape), not checked against the schema first: one walk over it, not two.
    async (req, reply) => sendJson(reply, JSON.stringify(await searchProducts(db, req.query))),
  )

  app.get(
    '/search/suggest',
    {
      schema: {
        tags: ['products'],
        summary: 'Brands and model names matching what is typed (typos forgiven), for the search box',
        querystring: SuggestQuery,
        response: { 200: Suggestions },
      },
    },
    async (req) => suggest(db, req.query.q),
  )
}
