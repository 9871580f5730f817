import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { AuditPage, AuditQuery, SecurityEventList } from '#contract/audit'
import { errorResponses } from '#server/lib/error-responses'
import { caller, role, signedIn } from '#server/lib/guard'
import { findAuditEvents, findSecurityEvents } from './audit.service'

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx

  app.get(
    '/audit-log',
    {
      config: { guard: role('admin') },
      schema: {
        tags: ['audit'],
        summary:
          'Admin: the audit log, newest first, by the acting person, kind and time (since/until in ISO 8601)',
        querystring: AuditQuery,
        response: { 200: AuditPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => findAuditEvents(db, req.query),
  )

  app.get(
    '/me/security-events',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['audit'],
        summary: 'Your own security events (sign-ins, password and two-step changes, sessions), newest first',
        response: { 200: SecurityEventList, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => ({ items: await findSecurityEvents(db, caller(req).id) }),
  )
}
