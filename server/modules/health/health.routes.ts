import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { Health } from '#contract/health'
import { factsStatus, searchReady } from '#server/modules/search'

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database, lifecycle } = app.ctx
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary:
          'Liveness and database reachability; 503 while the database is down, search is loading its copy of the listings, or the instance drains',
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
      const ready = searchReady(database.db)
      const body: Health = {
        status: !up ? 'degraded' : ready ? 'ok' : 'loading',
        database: up ? 'up' : 'down',
        driver: database.driver,
        uptime_s: Math.round(process.uptime()),
        listing_copy: factsStatus(database.db),
      }
      return reply.code(up && ready ? 200 : 503).send(body)
    },
  )
}
