import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  Earnings,
  OnboardingAnswer,
  PayoutAccount,
  PayoutAccountBody,
  PayoutChangeParams,
} from '#contract/payouts'
import { auditOrigin } from '#server/lib/audit'
import { ERRORS } from '#server/lib/error-responses'
import { caller, role } from '#server/lib/guard'
import { getEarnings } from './earnings'
import { getPayoutAccount, setUpPayoutAccount, undoPayoutAccountChange } from './payout-accounts'

export const payoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, payments, mail } = app.ctx

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
    async (req) =>
      setUpPayoutAccount(db, config, caller(req), req.body, payments.connect, {
        mail,
        origin: auditOrigin(req),
      }),
  )

  app.post(
    '/payouts/account/changes/:id/undo',
    {
      config: { guard: role('seller'), stepUp: true },
      schema: {
        tags: ['payouts'],
        summary:
          'Seller: undo a change of your payout details (the link in its email): the details it replaced are back, and any later change goes too',
        params: PayoutChangeParams,
        response: { 200: PayoutAccount, ...ERRORS },
      },
    },
    async (req) => undoPayoutAccountChange(db, caller(req), req.params.id, { origin: auditOrigin(req) }),
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
