import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { Modified } from '#contract/common'
import { UnsubscribeInfo, UnsubscribeParams } from '#contract/saved-searches'
import { auditOrigin, writeAudit } from '#server/lib/audit'
import { errorResponses } from '#server/lib/error-responses'
import { describeUnsubscribe, unsubscribe, unsubscribeOwner } from './unsubscribe'

/**
 * The unsubscribe link of an alert email, without signing in. GET tells the confirmation page what it would turn
 * off (a mail scanner following links changes nothing); POST turns it off. POST is also the RFC 8058 one-click
 * address of the email's `List-Unsubscribe` header, so it takes whatever body a mail provider sends
 * (`List-Unsubscribe=One-Click`, as a form or multipart) and ignores it: the token alone decides.
 */
export const unsubscribeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 4096 }, (_req, _body, done) =>
    done(null, undefined),
  )

  app.get(
    '/unsubscribe/:token',
    {
      schema: {
        tags: ['saved searches'],
        summary: 'What an alert email’s unsubscribe link turns off (anyone with the link; changes nothing)',
        params: UnsubscribeParams,
        response: { 200: UnsubscribeInfo, ...errorResponses(400) },
      },
    },
    async (req) => describeUnsubscribe(db, config, req.params.token),
  )

  app.post(
    '/unsubscribe/:token',
    {
      schema: {
        tags: ['saved searches'],
        summary: 'Turn off the alert an email’s link names (anyone with the link; RFC 8058 one-click)',
        params: UnsubscribeParams,
        response: { 200: Modified, ...errorResponses(400) },
      },
    },
    async (req) => {
      const modifiedCount = await unsubscribe(db, config, req.params.token)
      // Which emails reach a person is a security event in their own log, whoever followed the link.
      const owner = modifiedCount > 0 ? await unsubscribeOwner(db, config, req.params.token) : null
      if (owner) {
        await writeAudit(db, {
          actorId: owner,
          kind: 'email.preferences',
          target: `user:${owner}`,
          ...auditOrigin(req),
          result: 'success',
          detail: 'unsubscribe link',
        })
      }
      return { acknowledged: true, modifiedCount }
    },
  )
}
