import { paths } from '#contract/pages'
import { compose, defineEmail, named } from './layout'

/** The steps of a sale's parcel the buyer is told of. */
export type ParcelStep = 'shipped' | 'out_for_delivery' | 'delivered'

const TEST_MODE = 'Test mode: this parcel was sent through the built-in test carrier; nothing really travels.'

/**
 * To the buyer, at each step of their laptop's parcel: the carrier has it (shipped, with the tracking page), it is
 * out for delivery today, it was delivered (check it, then confirm or report a problem).
 */
export default defineEmail<{
  step: ParcelStep
  productName: string
  carrier: string
  trackingCode: string
  trackingUrl?: string | null
  testMode: boolean
}>({
  topic: 'deals',
  render: ({ step, productName, carrier, trackingCode, trackingUrl, testMode }, ctx) => {
    const laptop = named(productName)
    const words = {
      shipped: {
        subject: `${laptop} has shipped`,
        preview: `${carrier} has it: tracking number ${trackingCode}.`,
        heading: 'Your laptop is on its way',
        paragraphs: [
          `${carrier} has ${laptop} and it is on its way to you. Tracking number: ${trackingCode}.`,
          ...(trackingUrl ? [`Follow it on the carrier’s page: ${trackingUrl}`] : []),
        ],
      },
      out_for_delivery: {
        subject: `${laptop} is out for delivery`,
        preview: `${carrier} is delivering it today.`,
        heading: 'Out for delivery',
        paragraphs: [`${carrier} is delivering ${laptop} today (tracking number ${trackingCode}).`],
      },
      delivered: {
        subject: `${laptop} was delivered`,
        preview: 'Check it against the listing, then tell us.',
        heading: 'Your laptop was delivered',
        paragraphs: [
          `${carrier} delivered ${laptop} (tracking number ${trackingCode}).`,
          'Check it against the listing and the handover checklist, then press “Received, as described” in My Orders. If something is wrong, report a problem there instead. The seller is paid only once the sale completes.',
        ],
      },
    }[step]
    return compose(
      {
        ...words,
        paragraphs: [...words.paragraphs, ...(testMode ? [TEST_MODE] : [])],
        action: { label: 'Open My Orders', url: `${ctx.siteUrl}${paths.myOrders()}` },
        topic: 'deals',
      },
      ctx,
    )
  },
})
