import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { compose, defineEmail } from './layout'

/** To a seller when their bank refused a payout: the money is back in their balance. Essential. */
export default defineEmail<{ amountCents: number; reason: string }>({
  topic: null,
  render: ({ amountCents, reason }, ctx) =>
    compose(
      {
        subject: `Your payout of ${formatMoney(amountCents)} did not arrive`,
        preview: 'The money is back in your balance.',
        heading: 'Your payout did not arrive',
        paragraphs: [
          `${reason}. The ${formatMoney(amountCents)} is back in your Laptop Market balance; nothing is lost.`,
          'Check your bank details on your earnings page and save them again. We pay your balance out again with the next payout after that.',
        ],
        action: { label: 'Check your bank details', url: `${ctx.siteUrl}${paths.earnings()}` },
        topic: null,
      },
      ctx,
    ),
})
