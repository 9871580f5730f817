// The shape of the payment provider alone, apart from its making (payment-provider.ts), so that what only
// names the type (the app's context, the refunds) loads none of the payment code.
import type { PaymentConfig } from '#contract/payments'
import type { Db } from '#server/db/client'
import type { SessionUser } from '#server/lib/session'
import type { Connect } from '#server/modules/payouts/stripe-connect'

export type WebhookOutcome = 'paid' | 'duplicate' | 'refunded' | 'failed' | 'ignored' | 'updated'

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
  /** Stripe Connect (sellers' accounts, transfers, reversals, payouts), or null in test mode. */
  connect: Connect | null
}
