// Stripe Connect, the calls the payouts make (docs/decisions/0035, 0046): an Express account per seller, its
// onboarding link, a transfer of each completed sale's share to it (`source_transaction`: the sale's charge),
// the reversal of that transfer when the sale is refunded, Stripe's payout to the seller's bank, and the
// platform's records that reconciliation reads. Each call that moves money carries an idempotency key made from
// our own ids, so a retry after a crash makes the same transfer, reversal or payout, not a second one.
import Stripe from 'stripe'
import { AppError } from '#server/lib/errors'
import type { Connect, ConnectTransfer } from '#server/lib/payment-provider'

/** A refusal Stripe gave (4xx): trying again the same way will not help, unlike a network failure or a 5xx. */
export function isRefusal(err: unknown): err is Stripe.errors.StripeError {
  return (
    err instanceof Stripe.errors.StripeError &&
    typeof err.statusCode === 'number' &&
    err.statusCode >= 400 &&
    err.statusCode < 500 &&
    err.type !== 'StripeRateLimitError' &&
    err.type !== 'StripeIdempotencyError'
  )
}

function providerFailure(what: string, err: unknown): AppError {
  const message = err instanceof Error ? err.message : String(err)
  return new AppError('INTERNAL', `Stripe ${what} failed: ${message}`)
}

function toTransfer(t: Stripe.Transfer): ConnectTransfer {
  return {
    id: t.id,
    amountCents: t.amount,
    reversedCents: t.amount_reversed,
    destination: typeof t.destination === 'string' ? t.destination : (t.destination?.id ?? ''),
    payoutId: t.metadata?.payout_id ?? t.transfer_group ?? null,
    bookingId: t.metadata?.booking_id ?? null,
  }
}

export function createConnect(stripe: Stripe): Connect {
  return {
    async createAccount(seller) {
      const account = await stripe.accounts.create(
        {
          type: 'express',
          country: 'US',
          email: seller.email,
          capabilities: { transfers: { requested: true } },
          metadata: { seller_id: seller.id },
        },
        { idempotencyKey: `connect-account-${seller.id}` },
      )
      return account.id
    },
    async accountLink(accountId, urls) {
      const link = await stripe.accountLinks.create({
        account: accountId,
        refresh_url: urls.refresh,
        return_url: urls.return,
        type: 'account_onboarding',
      })
      return link.url
    },
    async accountState(accountId) {
      const account = await stripe.accounts.retrieve(accountId)
      if (account.payouts_enabled && account.capabilities?.transfers === 'active')
        return { status: 'enabled' }
      return { status: account.details_submitted ? 'restricted' : 'pending' }
    },
    async chargeOf(paymentIntentId) {
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId)
      const charge = intent.latest_charge
      return typeof charge === 'string' ? charge : (charge?.id ?? null)
    },
    async transfer(input) {
      const transfer = await stripe.transfers.create(
        {
          amount: input.amountCents,
          currency: 'usd',
          destination: input.destination,
          ...(input.sourceTransaction ? { source_transaction: input.sourceTransaction } : {}),
          transfer_group: input.payoutId,
          metadata: { payout_id: input.payoutId, booking_id: input.bookingId },
        },
        { idempotencyKey: `transfer-${input.payoutId}` },
      )
      return { id: transfer.id }
    },
    async findTransfer(payoutId) {
      const page = await stripe.transfers.list({ transfer_group: payoutId, limit: 1 })
      const found = page.data[0]
      return found ? toTransfer(found) : null
    },
    async *transfers() {
      for await (const t of stripe.transfers.list({ limit: 100 })) yield toTransfer(t)
    },
    async reverseTransfer(transferId, amountCents, key) {
      const reversal = await stripe.transfers.createReversal(
        transferId,
        { amount: amountCents },
        { idempotencyKey: key },
      )
      return { id: reversal.id }
    },
    async payout(accountId, amountCents, payoutId) {
      const payout = await stripe.payouts.create(
        { amount: amountCents, currency: 'usd', metadata: { payout_id: payoutId } },
        { stripeAccount: accountId, idempotencyKey: `payout-${payoutId}` },
      )
      return { id: payout.id }
    },
  }
}

export { providerFailure as connectFailure }
