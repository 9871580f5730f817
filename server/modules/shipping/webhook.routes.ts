import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { errorResponses } from '#server/lib/error-responses'
import { handleTrackerEvent, verifiedEvent } from './tracking'

/** EasyPost's webhooks (or the test carrier's, signed the same way). The signature is over the exact bytes sent, so the route keeps the raw body. */
export const shippingWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers()
    webhook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    )
    webhook.post(
      '/webhooks/easypost',
      {
        schema: {
          tags: ['shipping'],
          summary:
            'EasyPost webhook: tracker.updated events, signed (X-Hmac-Signature: hmac-sha256-hex=…); a bad signature, an unknown tracker or a replayed event changes nothing',
          response: {
            200: z.object({
              received: z.boolean(),
              outcome: z.enum(['updated', 'recorded', 'duplicate', 'ignored']),
            }),
            ...errorResponses(400, 404),
          },
        },
      },
      async (req) => {
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
        const event = await verifiedEvent(app.ctx, body, req.headers)
        return { received: true, outcome: await handleTrackerEvent(app.ctx, event) }
      },
    )
  })
}
