import type { FastifyInstance } from 'fastify'
import { sendError } from '#server/lib/error-handler'

/**
 * The last step of draining (server/main.ts): reads answer 503, which nginx resends to another instance and counts
 * as this one failing, so it stops choosing it; writes are still served, since nothing resends them. Likewise behind
 * a balancer (TURN_AWAY_WHILE_LOADING) while search has not read its copy of the listings: `loading` says so
 * (app.ts asks the search module; plugins import no module). While draining, every answer closes its connection.
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
  // Once the instance drains, every answer closes its connection: a balancer or client that keeps connections
  // open would otherwise send its next request, even a payment, on one the instance is about to close, and a
  // request lost that way is not resent.
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (app.ctx.lifecycle.draining) reply.header('connection', 'close')
    done(null, payload)
  })
}
