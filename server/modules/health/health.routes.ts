import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { Health } from '#contract/health'
import { factsStatus } from '#server/modules/products/listing-facts'

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database, lifecycle } = app.ctx
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database reachability; 503 while the database is down or the instance drains',
        response: { 200: Health, 503: Health },
      },
    },
    async (_req, reply) => {
      if (lifecycle.draining) {
        const body: Health = {
          status: 'draining',
          database: 'up',
          driver: database.driver,
          uptime_s: Math.round(process.uptime()),
          listing_copy: factsStatus(database.db),
        }
        return reply.code(503).header('connection', 'close').send(body)
      }
      const up = await database.ping()
      const body: Health = {
        status: up ? 'ok' : 'degraded',
        database: up ? 'up' : 'down',
        driver: database.driver,
        uptime_s: Math.round(process.uptime()),
        listing_copy: factsStatus(database.db),
      }
      return reply.code(up ? 200 : 503).send(body)
    },
  )
}
