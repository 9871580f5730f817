import { randomBytes } from 'node:crypto'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { IdParams } from '#contract/common'
import { errorResponses } from '#server/lib/error-responses'

export const ViewCounted = z.object({ counted: z.boolean() })

const VISITOR_COOKIE = 'lm_visitor'

/** The visitor id from our cookie, when it is one we could have issued. */
function visitorCookie(header: string | undefined): string | undefined {
  const match = header?.match(/(?:^|;\s*)lm_visitor=([A-Za-z0-9_-]{22})(?:;|$)/)
  return match?.[1]
}

export const viewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { views, sessions, config } = app.ctx

  app.post(
    '/products/:id/views',
    {
      schema: {
        tags: ['products'],
        summary:
          "A visit to a listing's page, for its seller's dashboard: a visitor counts once a day, known bots never",
        params: IdParams,
        response: { 202: ViewCounted, ...errorResponses(400) },
      },
    },
    async (req, reply) => {
      // A visitor is the account when signed in, else the first-party cookie we issued (a new one when
      // missing): a rotated user agent is the same visitor.
      const user = await sessions.get(req).catch(() => null)
      let visitorId = visitorCookie(req.headers.cookie)
      if (!user && !visitorId) {
        visitorId = randomBytes(16).toString('base64url')
        const secure = config.publicUrl.startsWith('https://') ? '; Secure' : ''
        reply.header(
          'set-cookie',
          `${VISITOR_COOKIE}=${visitorId}; Path=/; Max-Age=${365 * 24 * 3600}; HttpOnly; SameSite=Lax${secure}`,
        )
      }
      const counted = await views.record(req.params.id, {
        address: req.ip,
        userAgent: req.headers['user-agent'],
        who: user ? `user:${user.id}` : `visitor:${req.ip}:${visitorId}`,
      })
      return reply.code(202).send({ counted })
    },
  )
}
