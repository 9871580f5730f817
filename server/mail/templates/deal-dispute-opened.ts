import { paths } from '#contract/pages'
import { compose, defineEmail, named } from './layout'

/** To both sides when the buyer reports a problem with a sale: an admin looks at it. */
export default defineEmail<{
  role: 'buyer' | 'seller'
  productName: string
  buyerName: string
  reason: string
}>({
  topic: 'deals',
  render: ({ role, productName, buyerName, reason }, ctx) =>
    role === 'buyer'
      ? compose(
          {
            subject: `We got your problem report about ${named(productName)}`,
            preview: 'An admin looks at it and decides: a refund, or the sale goes ahead.',
            heading: 'We are looking into it',
            paragraphs: [
              `You reported a problem with ${named(productName)}: “${reason}”`,
              'The money stays with us meanwhile. An admin reads the history of the sale and either refunds you or releases the sale to the seller; we email you either way.',
            ],
            action: { label: 'Open My Orders', url: `${ctx.siteUrl}${paths.myOrders()}` },
            topic: 'deals',
          },
          ctx,
        )
      : compose(
          {
            subject: `${buyerName} reported a problem with ${named(productName)}`,
            preview: 'The money waits until an admin decides.',
            heading: 'The buyer reported a problem',
            paragraphs: [
              `${buyerName} reported a problem with ${named(productName)}: “${reason}”`,
              'The money waits until an admin has looked at the sale. They either refund the buyer or release the sale to you; we email you either way.',
            ],
            action: { label: 'Open My Product', url: `${ctx.siteUrl}${paths.myProduct()}` },
            topic: 'deals',
          },
          ctx,
        ),
})
