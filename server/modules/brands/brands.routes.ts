import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { BrandList } from '#contract/brands'
import { sendJson } from '#server/lib/error-handler'
import { SENDS_KEPT_JSON } from '#server/lib/kept-json'
import { findBrands } from './brands.service'

export const brandRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, cache } = app.ctx
  app.get(
    '/brands',
    {
      ...SENDS_KEPT_JSON,
      schema: {
        tags: ['brands'],
        summary: 'Every brand, with how many laptops it has for sale',
        response: { 200: BrandList },
      },
    },
    async (_req, reply) => sendJson(reply, await cache.get('brands', () => findBrands(db))),
  )
}
