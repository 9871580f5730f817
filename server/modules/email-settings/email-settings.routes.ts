import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { EmailPreferencesUpdate, EmailSettings } from '#contract/email-preferences'
import { audited } from '#server/lib/audit'
import { errorResponses } from '#server/lib/error-responses'
import { caller, signedIn } from '#server/lib/guard'
import { getEmailSettings, updateEmailPreferences } from './email-settings.service'

export const emailSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx

  app.get(
    '/email-settings',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['email'],
        summary: 'Your address, whether it is confirmed, and which kinds of non-essential email you get',
        response: { 200: EmailSettings, ...errorResponses(401) },
      },
    },
    async (req) => getEmailSettings(db, caller(req)),
  )

  app.put(
    '/email-settings',
    {
      // A security event: which emails reach the person is theirs to see changed in their log.
      config: { guard: signedIn, audit: 'email.preferences' },
      schema: {
        tags: ['email'],
        summary: 'Turn kinds of non-essential email on or off (password and address emails always go)',
        body: EmailPreferencesUpdate,
        response: { 200: EmailSettings, ...errorResponses(400, 401) },
      },
    },
    async (req) => {
      const user = caller(req)
      return audited(req, `user:${user.id}`, (tx) => updateEmailPreferences(tx, user, req.body))
    },
  )
}
