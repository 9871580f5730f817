import type { Config } from '#server/config'
import { AppError } from '#server/lib/errors'
import type { PaymentProvider } from '#server/lib/payment-provider'
import type { DealMail } from '#server/modules/bookings'
import { createConnect } from '#server/modules/payouts'
import { createStripeIntent, handleStripeWebhook, payWithTestCard, refundIntent } from './payments.service'
import { createStripeClient } from './stripe-client'

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
        payWithTestCard(db, buyer, bookingId, cardNumber, mail, fee, config.deal.shipWithinDays),
      handleWebhook: async () => {
        throw new AppError('NOT_FOUND', 'Stripe is not configured')
      },
      refund: refundTestPayment,
      connect: null,
    }
  }
  const stripe = createStripeClient(settings)
  const connect = createConnect(stripe)
  return {
    describe: () => ({ mode: 'stripe', publishableKey: settings.publishableKey, fee: feeOnTheWire }),
    createIntent: (db, buyer, bookingId) => createStripeIntent(db, stripe, buyer, bookingId),
    payWithTestCard: async () => {
      throw new AppError('NOT_FOUND', 'Card payments go through Stripe here')
    },
    handleWebhook: (db, rawBody, signature) =>
      handleStripeWebhook(
        db,
        stripe,
        settings.webhookSecret,
        rawBody,
        signature,
        mail,
        fee,
        connect,
        config.deal.shipWithinDays,
      ),
    refund: (payment) =>
      payment.provider === 'stripe'
        ? refundIntent(stripe, payment.transactionId)
        : refundTestPayment(payment),
    connect,
  }
}
