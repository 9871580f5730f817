import { Health } from '#contract/health'
import type { AppInstance } from '#server/app'

export async function healthRoutes(app: AppInstance) {
  const { database } = app.ctx
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database reachability',
        response: { 200: Health, 503: Health },
      },
    },
    async (_req, reply) => {
      const up = await database.ping()
      const body: Health = {
        status: up ? 'ok' : 'degraded',
        database: up ? 'up' : 'down',
        driver: database.driver,
        uptime_s: Math.round(process.uptime()),
      }
      return reply.code(up ? 200 : 503).send(body)
    },
  )
}
