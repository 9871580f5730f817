import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { EmailPreferencesUpdate, EmailSettings } from '#contract/email-preferences'
import { ErrorBody } from '#contract/errors'
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
        response: { 200: EmailSettings, 401: ErrorBody },
      },
    },
    async (req) => getEmailSettings(db, caller(req)),
  )

  app.put(
    '/email-settings',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['email'],
        summary: 'Turn kinds of non-essential email on or off (password and address emails always go)',
        body: EmailPreferencesUpdate,
        response: { 200: EmailSettings, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (req) => updateEmailPreferences(db, caller(req), req.body),
  )
}
