// The shape of the payment provider alone, apart from its making (server/modules/payments/payment-provider.ts,
// Stripe Connect's in server/modules/payouts/stripe-connect.ts). It sits below the modules because the app's
// context (server/app-context.ts), which every module reads, names it: the context imports no module.
import type { PaymentConfig } from '#contract/payments'
import type { Db } from '#server/db/client'
import type { SessionUser } from '#server/lib/session'

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

/** Stripe Connect: the calls the payouts make (server/modules/payouts/stripe-connect.ts makes them). */
export type ConnectAccountState = { status: 'pending' | 'enabled' | 'restricted' }

export type ConnectTransfer = {
  id: string
  amountCents: number
  reversedCents: number
  destination: string
  payoutId: string | null
  bookingId: string | null
}

export type Connect = {
  createAccount(seller: { id: string; email: string }): Promise<string>
  accountLink(accountId: string, urls: { refresh: string; return: string }): Promise<string>
  /** The account as Stripe has it now: events may come late or out of order, so their content is not trusted. */
  accountState(accountId: string): Promise<ConnectAccountState>
  /** The charge a succeeded PaymentIntent made (what a transfer's `source_transaction` names). */
  chargeOf(paymentIntentId: string): Promise<string | null>
  transfer(input: {
    payoutId: string
    bookingId: string
    amountCents: number
    destination: string
    sourceTransaction: string | null
  }): Promise<{ id: string }>
  /** The transfer made for one of our payouts, if Stripe has one (`transfer_group` is the payout's id). */
  findTransfer(payoutId: string): Promise<ConnectTransfer | null>
  /** Every transfer the platform made, newest first. */
  transfers(): AsyncIterable<ConnectTransfer>
  reverseTransfer(transferId: string, amountCents: number, key: string): Promise<{ id: string }>
  /** Stripe's payout from the connected account to the seller's bank. */
  payout(accountId: string, amountCents: number, payoutId: string): Promise<{ id: string }>
}
