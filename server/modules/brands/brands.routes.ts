import { BrandList } from '#contract/brands'
import type { AppInstance } from '#server/app'
import { sendJson } from '#server/lib/error-handler'
import { findBrands } from './brands.service'

export async function brandRoutes(app: AppInstance) {
  const { db, cache } = app.ctx
  app.get(
    '/brands',
    {
      schema: {
        tags: ['brands'],
        summary: 'Every brand, with how many laptops it has for sale',
        response: { 200: BrandList },
      },
    },
    async (_req, reply) => sendJson(reply, await cache.get('brands', () => findBrands(db))),
  )
}
