import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { IdParams } from '#contract/common'
import { ErrorBody } from '#contract/errors'

export const ViewCounted = z.object({ counted: z.boolean() })

export const viewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { views } = app.ctx

  app.post(
    '/products/:id/views',
    {
      schema: {
        tags: ['products'],
        summary:
          "A visit to a listing's page, for its seller's dashboard: a visitor counts once a day, known bots never",
        params: IdParams,
        response: { 202: ViewCounted, 400: ErrorBody },
      },
    },
    async (req, reply) => {
      const counted = await views.record(req.params.id, {
        address: req.ip,
        userAgent: req.headers['user-agent'],
      })
      return reply.code(202).send({ counted })
    },
  )
}
