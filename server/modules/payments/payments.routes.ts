import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { CancelSaleBody } from '#contract/bookings'
import { IdParams, Modified } from '#contract/common'
import {
  BookingRef,
  PaymentConfig,
  PaymentIntentAnswer,
  PaymentResult,
  TestPayment,
} from '#contract/payments'
import { AdminRefundBody } from '#contract/refunds'
import { audited, auditedAfter } from '#server/lib/audit'
import { errorResponses } from '#server/lib/error-responses'
import { caller, role, signedIn } from '#server/lib/guard'
import { queueDealEmails } from '#server/modules/bookings'
import { refundCompletedSaleIn } from '#server/modules/deal'
import { reverseSaleTransfer } from '#server/modules/payouts'
import { cancelSale } from './refunds'

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, mail, payments: provider } = app.ctx

  app.get(
    '/payments/config',
    {
      schema: {
        tags: ['payments'],
        summary: 'How cards are taken: Stripe, or the built-in test processor ("Test mode")',
        response: { 200: PaymentConfig },
      },
    },
    async () => provider.describe(),
  )

  app.post(
    '/payments/intent',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['payments'],
        summary: 'Stripe: a PaymentIntent for your booking, for the amount due (the booked price, or less)',
        body: BookingRef,
        response: { 200: PaymentIntentAnswer, ...errorResponses(400, 401, 402, 403, 404, 409) },
      },
    },
    async (req) =>
      auditedAfter(req, 'payment.start', `booking:${req.body.bookingId}`, () =>
        provider.createIntent(db, caller(req), req.body.bookingId),
      ),
  )

  app.post(
    '/payments/test',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['payments'],
        summary: 'Test mode: pay for your booking with a test card (4242 4242 4242 4242 succeeds)',
        body: TestPayment,
        response: { 200: PaymentResult, ...errorResponses(400, 401, 402, 403, 404, 409) },
      },
    },
    async (req) => {
      const { transactionId, amountCents } = await auditedAfter(
        req,
        'payment.pay',
        `booking:${req.body.bookingId}`,
        () => provider.payWithTestCard(db, caller(req), req.body.bookingId, req.body.card.number),
      )
      return { status: 'succeeded' as const, transactionId, amount_cents: amountCents }
    },
  )

  app.put(
    '/bookings/:id/cancel',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['bookings'],
        summary:
          "The listing's seller cancels a paid sale not yet handed over: the buyer is refunded in full, the listing is taken down",
        params: IdParams,
        body: CancelSaleBody,
        response: { 200: Modified, ...errorResponses(400, 401, 402, 403, 404, 409) },
      },
    },
    async (req) => {
      const modifiedCount = await cancelSale(
        db,
        provider,
        caller(req),
        req.params.id,
        req.body,
        mail,
        config.payouts.fee,
      )
      return { acknowledged: true, modifiedCount }
    },
  )

  app.post(
    '/bookings/:id/refund',
    {
      config: { guard: role('admin'), audit: 'sale.refund' },
      schema: {
        tags: ['bookings'],
        summary:
          "Admin: refund a completed sale to its buyer, with a reason both sides see; the seller's share comes back (Stripe: the transfer is reversed; test mode: their balance goes below zero until their next sales); the laptop is not returned through Laptop Market",
        params: IdParams,
        body: AdminRefundBody,
        response: { 200: Modified, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req) => {
      const modifiedCount = await audited(req, `booking:${req.params.id}`, async (tx) => {
        await refundCompletedSaleIn(
          tx,
          (payment) => provider.refund(payment),
          caller(req),
          req.params.id,
          config.payouts.fee,
          (tx, bookingId) => reverseSaleTransfer(tx, provider.connect, bookingId),
          req.body.reason,
        )
        await queueDealEmails(tx, mail, req.params.id, {
          kind: 'cancelled',
          by: 'refund',
          reason: req.body.reason,
        })
        return 1
      })
      return { acknowledged: true, modifiedCount }
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
            ...errorResponses(400, 404),
          },
        },
      },
      async (req) => {
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
        const signature = req.headers['stripe-signature']
        const outcome = await provider.handleWebhook(
          db,
          body,
          typeof signature === 'string' ? signature : undefined,
        )
        return { received: true, outcome }
      },
    )
  })
}
