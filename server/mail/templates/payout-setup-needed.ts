import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { compose, defineEmail } from './layout'

/** To a seller whose completed sales wait for a payout account. Essential: it is their money. */
export default defineEmail<{ amountCents: number }>({
  topic: null,
  render: ({ amountCents }, ctx) =>
    compose(
      {
        subject: `Set up payouts to receive ${formatMoney(amountCents)}`,
        preview: 'Your money is waiting for you.',
        heading: `${formatMoney(amountCents)} is waiting for you`,
        paragraphs: [
          `Your completed sales on Laptop Market left ${formatMoney(amountCents)} in your balance, after the marketplace fee.`,
          'Tell us where to pay you and we send it with the next payout. It takes a minute.',
        ],
        action: { label: 'Set up payouts', url: `${ctx.siteUrl}${paths.earnings()}` },
        topic: null,
      },
      ctx,
    ),
})
