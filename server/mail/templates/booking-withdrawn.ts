import { paths } from '#contract/pages'
import { compose, defineEmail, named } from './layout'

/**
 * To the seller: a buyer cancelled their unpaid booking. Nothing was paid, so nothing changes for the seller: the
 * laptop stays on sale for everyone else.
 */
export default defineEmail<{ productName: string; buyerName: string }>({
  topic: 'deals',
  render: ({ productName, buyerName }, ctx) =>
    compose(
      {
        subject: `${buyerName} cancelled their booking of ${named(productName)}`,
        preview: 'Nothing was paid; the laptop stays on sale.',
        heading: 'A booking was cancelled',
        paragraphs: [
          `${buyerName} cancelled their booking of ${named(productName)} before paying. Nothing was paid.`,
          'Nothing to do: the laptop stays on sale, and any other buyer can book it and pay.',
        ],
        action: { label: 'Open My Product', url: `${ctx.siteUrl}${paths.myProduct()}` },
        topic: 'deals',
      },
      ctx,
    ),
})
