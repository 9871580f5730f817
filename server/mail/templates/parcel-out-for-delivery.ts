import { paths } from '#contract/pages'
import { compose, defineEmail, named } from './layout'

/** To the buyer: the carrier is delivering the parcel today. */
export default defineEmail<{
  productName: string
  carrier: string
  trackingCode: string
  testMode: boolean
}>({
  topic: 'deals',
  render: ({ productName, carrier, trackingCode, testMode }, ctx) =>
    compose(
      {
        subject: `${named(productName)} is out for delivery`,
        preview: `${carrier} is delivering it today.`,
        heading: 'Out for delivery',
        paragraphs: [
          `${carrier} is delivering ${named(productName)} today (tracking number ${trackingCode}).`,
          ...(testMode
            ? ['Test mode: this parcel was sent through the built-in test carrier; nothing really travels.']
            : []),
        ],
        action: { label: 'Open My Orders', url: `${ctx.siteUrl}${paths.myOrders()}` },
        topic: 'deals',
      },
      ctx,
    ),
})
