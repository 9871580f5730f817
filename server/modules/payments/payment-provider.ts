import type { PaymentConfig } from '#contract/payments'
import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import { AppError } from '#server/lib/errors'
import type { SessionUser } from '#server/lib/session'
import type { DealMail } from '#server/modules/bookings/deal-emails'
import {
  createStripeIntent,
  handleStripeWebhook,
  payWithTestCard,
  refundIntent,
  type WebhookOutcome,
} from './payments.service'
import { createStripeClient } from './stripe-client'

/**
 * How cards are taken here, chosen once from the configuration: Stripe when its keys are set, else the
 * built-in test processor. Each call the other one would answer is a 404 naming the mode in use.
 */
export type PaymentProvider = {
  describe(): PaymentConfig
  createIntent(
    db: Db,
    buyer: SessionUser,
    bookingId: string,
  ): Promise<{ clientSecret: string; amount_cents: number }>
  payWithTestCard(
    db: Db,
    buyer: SessionUser,
    bookingId: string,
    cardNumber: string,
  ): Promise<{ transactionId: string; amountCents: number }>
  handleWebhook(db: Db, rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome>
  /**
   * Gives a succeeded payment's money back through the processor that took it: nothing to call for the
   * test processor, Stripe's refund call for a PaymentIntent (idempotent, so a retry refunds once).
   */
  refund(payment: { provider: 'stripe' | 'test'; transactionId: string }): Promise<void>
}

async function refundTestPayment(payment: { provider: 'stripe' | 'test' }) {
  if (payment.provider === 'stripe') {
    throw new Error('This payment went through Stripe, which is not configured: it cannot be refunded here')
  }
}

/** `mail` queues the sale's emails in the payment's transaction. */
export function choosePaymentProvider(config: Config, mail: DealMail): PaymentProvider {
  const settings = config.stripe
  const { fee } = config.payouts
  const feeOnTheWire = { basis_points: fee.basisPoints, min_cents: fee.minCents }
  if (!settings) {
    return {
      describe: () => ({ mode: 'test', fee: feeOnTheWire }),
      createIntent: async () => {
        throw new AppError('NOT_FOUND', 'Card payments run in test mode here')
      },
      payWithTestCard: (db, buyer, bookingId, cardNumber) =>
        payWithTestCard(db, buyer, bookingId, cardNumber, mail, fee),
      handleWebhook: async () => {
        throw new AppError('NOT_FOUND', 'Stripe is not configured')
      },
      refund: refundTestPayment,
    }
  }
  const stripe = createStripeClient(settings)
  return {
    describe: () => ({ mode: 'stripe', publishableKey: settings.publishableKey, fee: feeOnTheWire }),
    createIntent: (db, buyer, bookingId) => createStripeIntent(db, stripe, buyer, bookingId),
    payWithTestCard: async () => {
      throw new AppError('NOT_FOUND', 'Card payments go through Stripe here')
    },
    handleWebhook: (db, rawBody, signature) =>
      handleStripeWebhook(db, stripe, settings.webhookSecret, rawBody, signature, mail, fee),
    refund: (payment) =>
      payment.provider === 'stripe'
        ? refundIntent(stripe, payment.transactionId)
        : refundTestPayment(payment),
  }
}
