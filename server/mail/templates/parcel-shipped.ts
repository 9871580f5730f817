import { paths } from '#contract/pages'
import { compose, defineEmail, named } from './layout'

/** To the buyer: the carrier has the parcel (its first step past the label). */
export default defineEmail<{
  productName: string
  carrier: string
  trackingCode: string
  trackingUrl: string | null
  testMode: boolean
}>({
  topic: 'deals',
  render: ({ productName, carrier, trackingCode, trackingUrl, testMode }, ctx) =>
    compose(
      {
        subject: `${named(productName)} has shipped`,
        preview: `${carrier} has it: tracking number ${trackingCode}.`,
        heading: 'Your laptop is on its way',
        paragraphs: [
          `${carrier} has ${named(productName)} and it is on its way to you. Tracking number: ${trackingCode}.`,
          ...(trackingUrl ? [`Follow it on the carrier’s page: ${trackingUrl}`] : []),
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
