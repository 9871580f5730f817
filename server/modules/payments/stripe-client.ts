import Stripe from 'stripe'
import type { Config } from '#server/config'

/** The Stripe SDK, pointed at STRIPE_API_BASE when set (tests run a local fake Stripe server). */
export function createStripeClient(stripe: NonNullable<Config['stripe']>): Stripe {
  const base = stripe.apiBase ? new URL(stripe.apiBase) : undefined
  return new Stripe(stripe.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  })
}
