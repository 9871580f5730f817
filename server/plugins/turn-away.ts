import type { FastifyInstance } from 'fastify'
import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import { sendError } from '#server/lib/error-handler'
import { searchReady } from '#server/modules/search/listing-feed'

/**
 * The last step of draining (server/main.ts): reads answer 503, which nginx resends to another instance and counts
 * as this one failing, so it stops choosing it; writes are still served, since nothing resends them. Likewise behind
 * a balancer (TURN_AWAY_WHILE_LOADING) while search has not read its copy of the listings.
 */
export function turnAwayPlugin(app: FastifyInstance, db: Db, config: Config): void {
  app.addHook('onRequest', (req, reply, done) => {
    const { lifecycle } = app.ctx
    const loading = config.turnAwayWhileLoading && !searchReady(db)
    if (
      (lifecycle.turningAway || loading) &&
      (req.method === 'GET' || req.method === 'HEAD') &&
      !req.url.startsWith('/api/health')
    ) {
      reply.header('connection', 'close').header('retry-after', '1')
      sendError(
        reply,
        503,
        'INTERNAL',
        loading
          ? 'This server is starting. Please try again.'
          : 'This server is shutting down. Please try again.',
      )
      return
    }
    done()
  })
}
