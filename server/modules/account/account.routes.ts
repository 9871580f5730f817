import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { Ended, SessionList, SessionParams } from '#contract/account'
import { ErrorBody } from '#contract/errors'
import { auditedAfter } from '#server/lib/audit'
import { caller, signedIn } from '#server/lib/guard'
import { endOtherSessions, endSession, findSessions } from './sessions.service'

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody }

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, auth } = app.ctx

  app.get(
    '/me/sessions',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['account'],
        summary: 'Where you are signed in: browser, rough place, last seen (yours is marked current)',
        response: { 200: SessionList, ...errors },
      },
    },
    async (req) => ({ items: await findSessions(db, caller(req)) }),
  )

  app.delete(
    '/me/sessions/:id',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['account'],
        summary: 'Sign out one of your sessions (your current one signs you out here)',
        params: SessionParams,
        response: { 200: Ended, ...errors },
      },
    },
    async (req) => {
      const endedCount = await auditedAfter(req, 'session.end', `session:${req.params.id}`, () =>
        endSession(db, auth, caller(req), req.params.id),
      )
      return { acknowledged: true as const, endedCount }
    },
  )

  app.delete(
    '/me/sessions',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['account'],
        summary: 'Sign out everywhere else (every session but the one you are using)',
        response: { 200: Ended, ...errors },
      },
    },
    async (req) => {
      const endedCount = await auditedAfter(req, 'session.end_others', null, () =>
        endOtherSessions(db, auth, caller(req)),
      )
      return { acknowledged: true as const, endedCount }
    },
  )
}
