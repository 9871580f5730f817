import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'

/** The request being served, wherever its work goes on (database calls, emails, jobs queued, awaited promises). */
const requestScope = new AsyncLocalStorage<{ reqId: string }>()

/** An id a balancer in front made (nginx's $request_id) is kept when it looks like one; otherwise a new one. */
const PASSED_ID = /^[A-Za-z0-9._:-]{8,64}$/

export function requestIdOf(req: IncomingMessage): string {
  const passed = req.headers['x-request-id']
  return typeof passed === 'string' && PASSED_ID.test(passed) ? passed : randomUUID()
}

/**
 * Pino's mixin: a line logged while a request is served carries its id, also when it is logged through the
 * app's own logger or a module's child of it (which, unlike `req.log`, do not know the request).
 */
export function requestIdMixin(_merge: object, _level: number, logger: Logger): object {
  const scope = requestScope.getStore()
  if (!scope || 'reqId' in logger.bindings()) return {}
  return { reqId: scope.reqId }
}

/** The first hook: everything a request leads to runs in its scope, and the answer names its id. */
export function installRequestScope(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id)
    requestScope.run({ reqId: req.id }, done)
  })
}
