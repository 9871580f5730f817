import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { ErrorBody } from '#contract/errors'
import { Earnings, OnboardingAnswer, PayoutAccount, PayoutAccountBody } from '#contract/payouts'
import { caller, role } from '#server/lib/guard'
import { getEarnings } from './earnings'
import { getPayoutAccount, setUpPayoutAccount } from './payout-accounts'

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody }

export const payoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, payments } = app.ctx

  app.get(
    '/payouts/account',
    {
      config: { guard: role('seller') },
      schema: {
        tags: ['payouts'],
        summary: 'Seller: where your sales are paid out, and whether payouts are enabled',
        response: { 200: PayoutAccount, ...errors },
      },
    },
    async (req) => getPayoutAccount(db, config, caller(req)),
  )

  app.post(
    '/payouts/account',
    {
      config: { guard: role('seller') },
      schema: {
        tags: ['payouts'],
        summary:
          'Seller: start or resume payout setup (Stripe: the onboarding link); in test mode, the bank account (enabled at once)',
        body: PayoutAccountBody,
        response: { 200: OnboardingAnswer, ...errors },
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
        response: { 200: Earnings, ...errors },
      },
    },
    async (req) => getEarnings(db, config, caller(req)),
  )
}
