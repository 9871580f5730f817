import { paths } from '#contract/pages'
import { compose, defineEmail, named } from './layout'

/** To both sides: the carrier could not deliver the parcel (failure, or sent back); an admin looks at the sale. */
export default defineEmail<{
  role: 'buyer' | 'seller'
  productName: string
  carrier: string
  trackingCode: string
  what: string
}>({
  topic: null,
  render: ({ role, productName, carrier, trackingCode, what }, ctx) =>
    compose(
      {
        subject: `${named(productName)} could not be delivered`,
        preview: 'The money waits while an admin looks at the sale.',
        heading: 'The parcel did not arrive',
        paragraphs: [
          `${carrier} reports that the parcel with ${named(productName)} (tracking number ${trackingCode}) ${what}.`,
          role === 'buyer'
            ? 'The money stays with us meanwhile. An admin looks at the sale and either refunds you or lets it go ahead; we email you either way.'
            : 'The money waits until an admin has looked at the sale. They either refund the buyer or release the sale to you; we email you either way.',
        ],
        action:
          role === 'buyer'
            ? { label: 'Open My Orders', url: `${ctx.siteUrl}${paths.myOrders()}` }
            : { label: 'Open My Product', url: `${ctx.siteUrl}${paths.myProduct()}` },
        topic: null,
      },
      ctx,
    ),
})
