import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { ErrorBody } from '#contract/errors'
import { Finance } from '#contract/payouts'
import { role } from '#server/lib/guard'
import { getFinance } from './finance.service'

const errors = { 401: ErrorBody, 403: ErrorBody }

export const financeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx

  app.get(
    '/finance',
    {
      config: { guard: role('admin') },
      schema: {
        tags: ['finance'],
        summary:
          "Admin: money held for buyers, sellers' balances, payouts, fees, refunds, and the ledger's check",
        response: { 200: Finance, ...errors },
      },
    },
    async () => getFinance(db),
  )
}
