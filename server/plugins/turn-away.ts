import type { FastifyInstance } from 'fastify'
import { sendError } from '#server/lib/error-handler'

/**
 * The last step of draining (server/main.ts): reads answer 503, which nginx resends to another instance and counts
 * as this one failing, so it stops choosing it; writes are still served, since nothing resends them. Likewise behind
 * a balancer (TURN_AWAY_WHILE_LOADING) while search has not read its copy of the listings: `loading` says so
 * (app.ts asks the search module; plugins import no module).
 */
export function turnAwayPlugin(app: FastifyInstance, loading: () => boolean): void {
  app.addHook('onRequest', (req, reply, done) => {
    const { lifecycle } = app.ctx
    const stillLoading = loading()
    if (
      (lifecycle.turningAway || stillLoading) &&
      (req.method === 'GET' || req.method === 'HEAD') &&
      !req.url.startsWith('/api/health') &&
      !req.url.startsWith('/metrics')
    ) {
      reply.header('connection', 'close').header('retry-after', '1')
      sendError(
        reply,
        503,
        'INTERNAL',
        stillLoading
          ? 'This server is starting. Please try again.'
          : 'This server is shutting down. Please try again.',
      )
      return
    }
    done()
  })
}
