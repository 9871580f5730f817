import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { PriceGuide, PriceGuideQuery } from '#contract/price-guide'
import { errorResponses } from '#server/lib/error-responses'
import { getPriceGuide } from './price-guide.service'

export const priceGuideRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx

  app.get(
    '/price-guide',
    {
      schema: {
        tags: ['products'],
        summary:
          'What similar laptops sold for in the last 180 days (25th percentile, median, 75th percentile, in dollars); the figures are null below 5 sales',
        querystring: PriceGuideQuery,
        response: { 200: PriceGuide, ...errorResponses(400) },
      },
    },
    async (req) => getPriceGuide(db, req.query),
  )
}
