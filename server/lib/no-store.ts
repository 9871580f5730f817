import type { FastifyInstance } from 'fastify'

/** A request that carries a session: the session cookie (either name form) or a bearer token. */
function carriesSession(headers: { cookie?: string; authorization?: string }): boolean {
  if (headers.authorization !== undefined) return true
  return /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/.test(headers.cookie ?? '')
}

/**
 * Every /api answer to a request with a session says `Cache-Control: no-store`: what a signed-in person reads
 * (their orders, messages, payout details) stays out of the browser's cache and any shared one, for the next
 * person at the same computer. A visitor's answers keep their own caching (public listings, the search).
 */
export function installNoStore(app: FastifyInstance) {
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.url.startsWith('/api/') && carriesSession(req.headers)) {
      const current = reply.getHeader('cache-control')
      if (typeof current !== 'string' || !/\bno-store\b/.test(current))
        reply.header('cache-control', 'no-store')
    }
    done(null, payload)
  })
}
