import { paths } from '#contract/pages'
import { compose, defineEmail, named } from './layout'

/** To the buyer: their unpaid booking was cancelled because the listing left sale (the reason says why). */
export default defineEmail<{ productName: string; reason: string }>({
  topic: 'deals',
  render: ({ productName, reason }, ctx) =>
    compose(
      {
        subject: `Booking cancelled: ${named(productName)}`,
        preview: 'Nothing was charged.',
        heading: 'Your booking is cancelled',
        paragraphs: [
          `Your booking of ${named(productName)} is cancelled: ${reason.replace(/\.$/, '')}. Nothing was charged.`,
          'If it comes back on sale you can book it again from its page.',
        ],
        action: { label: 'See your orders', url: `${ctx.siteUrl}${paths.myOrders()}` },
        topic: 'deals',
      },
      ctx,
    ),
})
