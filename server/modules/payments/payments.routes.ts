import { z } from 'zod'
import { ErrorBody } from '#contract/errors'
import {
  BookingRef,
  PaymentConfig,
  PaymentIntentAnswer,
  PaymentResult,
  TestPayment,
} from '#contract/payments'
import type { AppInstance } from '#server/app'
import { AppError } from '#server/lib/errors'
import { requireUser } from '#server/lib/session'
import { createStripeIntent, handleStripeWebhook, payWithTestCard } from './payments.service'
import { createStripeClient } from './stripe-client'

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  402: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
}

export async function paymentRoutes(app: AppInstance) {
  const { db, config, cache } = app.ctx
  const stripe = config.stripe ? createStripeClient(config.stripe) : undefined

  app.get(
    '/payments/config',
    {
      schema: {
        tags: ['payments'],
        summary: 'How cards are taken: Stripe, or the built-in test processor ("Test mode")',
        response: { 200: PaymentConfig },
      },
    },
    async () =>
      config.stripe
        ? { mode: 'stripe' as const, publishableKey: config.stripe.publishableKey }
        : { mode: 'test' as const },
  )

  app.post(
    '/payments/intent',
    {
      schema: {
        tags: ['payments'],
        summary: 'Stripe: a PaymentIntent for your booking, for the listing’s price',
        body: BookingRef,
        response: { 200: PaymentIntentAnswer, ...errors },
      },
    },
    async (req) => {
      const buyer = await requireUser(req)
      if (!stripe) throw new AppError('NOT_FOUND', 'Card payments run in test mode here')
      return createStripeIntent(db, stripe, buyer, req.body.bookingId)
    },
  )

  app.post(
    '/payments/test',
    {
      schema: {
        tags: ['payments'],
        summary: 'Test mode: pay for your booking with a test card (4242 4242 4242 4242 succeeds)',
        body: TestPayment,
        response: { 200: PaymentResult, ...errors },
      },
    },
    async (req) => {
      const buyer = await requireUser(req)
      if (stripe) throw new AppError('NOT_FOUND', 'Card payments go through Stripe here')
      const { transactionId, amountCents } = await payWithTestCard(
        db,
        buyer,
        req.body.bookingId,
        req.body.card.number,
      )
      cache.clear()
      return { status: 'succeeded' as const, transactionId, amount_cents: amountCents }
    },
  )

  // Stripe signs the exact bytes it sent, so this route gets the raw body.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers()
    webhook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) =>
      done(null, body),
    )
    webhook.post(
      '/payments/webhook',
      {
        schema: {
          tags: ['payments'],
          summary: 'Stripe webhook (signature, age and event id checked)',
          response: {
            200: z.object({ received: z.boolean(), outcome: z.string() }),
            400: ErrorBody,
            404: ErrorBody,
          },
        },
      },
      async (req) => {
        if (!stripe || !config.stripe) throw new AppError('NOT_FOUND', 'Stripe is not configured')
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
        const signature = req.headers['stripe-signature']
        const outcome = await handleStripeWebhook(
          db,
          stripe,
          config.stripe.webhookSecret,
          body,
          typeof signature === 'string' ? signature : undefined,
        )
        if (outcome === 'paid' || outcome === 'refunded') cache.clear()
        return { received: true, outcome }
      },
    )
  })
}
