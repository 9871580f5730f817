import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { compose, defineEmail } from './layout'

/** To a seller when a payout of their balance leaves for their bank. Essential: it is their money. */
export default defineEmail<{ amountCents: number; last4: string; testMode: boolean }>({
  topic: null,
  render: ({ amountCents, last4, testMode }, ctx) =>
    compose(
      {
        subject: `Your payout of ${formatMoney(amountCents)} is on its way`,
        preview: last4 ? `To the account ending ${last4}.` : 'To your bank account.',
        heading: 'Your payout is on its way',
        paragraphs: [
          `We sent ${formatMoney(amountCents)} from your sales on Laptop Market to ${
            last4 ? `your bank account ending ${last4}` : 'your bank account'
          }.`,
          testMode
            ? 'This marketplace runs in test mode: no real money moves, and the payout lands within seconds.'
            : 'Banks usually show it within two business days.',
        ],
        action: { label: 'See your earnings', url: `${ctx.siteUrl}${paths.earnings()}` },
        topic: null,
      },
      ctx,
    ),
})
