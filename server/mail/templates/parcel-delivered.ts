import { paths } from '#contract/pages'
import { compose, defineEmail, named } from './layout'

/** To the buyer: the carrier delivered the parcel; check the laptop, then confirm or report a problem. */
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
        subject: `${named(productName)} was delivered`,
        preview: 'Check it against the listing, then tell us.',
        heading: 'Your laptop was delivered',
        paragraphs: [
          `${carrier} delivered ${named(productName)} (tracking number ${trackingCode}).`,
          'Check it against the listing and the handover checklist, then press “Received, as described” in My Orders. If something is wrong, report a problem there instead. The seller is paid only once the sale completes.',
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
