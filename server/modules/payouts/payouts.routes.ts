import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { Earnings, OnboardingAnswer, PayoutAccount, PayoutAccountBody } from '#contract/payouts'
import { ERRORS } from '#server/lib/error-responses'
import { caller, role } from '#server/lib/guard'
import { getEarnings } from './earnings'
import { getPayoutAccount, setUpPayoutAccount } from './payout-accounts'

export const payoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, payments } = app.ctx

  app.get(
    '/payouts/account',
    {
      config: { guard: role('seller') },
      schema: {
        tags: ['payouts'],
        summary: 'Seller: where your sales are paid out, and whether payouts are enabled',
        response: { 200: PayoutAccount, ...ERRORS },
      },
    },
    async (req) => getPayoutAccount(db, config, caller(req)),
  )

  app.post(
    '/payouts/account',
    {
      config: { guard: role('seller'), stepUp: true },
      schema: {
        tags: ['payouts'],
        summary:
          'Seller: start or resume payout setup (Stripe: the onboarding link); in test mode, the bank account (enabled at once)',
        body: PayoutAccountBody,
        response: { 200: OnboardingAnswer, ...ERRORS },
      },
    },
    async (req) => setUpPayoutAccount(db, config, caller(req), req.body, payments.connect),
  )

  app.get(
    '/earnings',
    {
      config: { guard: role('seller') },
      schema: {
        tags: ['payouts'],
        summary: 'Seller: money held, available, on its way and paid out; fees; each sale and payout',
        response: { 200: Earnings, ...ERRORS },
      },
    },
    async (req) => getEarnings(db, config, caller(req)),
  )
}
