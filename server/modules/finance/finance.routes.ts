import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { Finance } from '#contract/payouts'
import { errorResponses } from '#server/lib/error-responses'
import { role } from '#server/lib/guard'
import { getFinance } from './finance.service'

export const financeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx

  app.get(
    '/finance',
    {
      config: { guard: role('admin') },
      schema: {
        tags: ['finance'],
        summary:
          "Admin: money held for buyers, sellers' balances, payouts, fees, refunds, and the ledger's check",
        response: { 200: Finance, ...errorResponses(401, 403) },
      },
    },
    async () => getFinance(db, { stripeConfigured: config.stripe !== null }),
  )
}
