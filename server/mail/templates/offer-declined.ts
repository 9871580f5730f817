import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { compose, defineEmail } from './layout'

/** To the buyer: the seller declined their offer, or the laptop sold to someone else. */
export default defineEmail<{
  offerId: string
  productId: string
  productName: string
  amountCents: number
  reason: string | null
  sold: boolean
}>({
  topic: 'deals',
  render: ({ offerId, productId, productName, amountCents, reason, sold }, ctx) =>
    compose(
      {
        subject: sold ? `"${productName}" has sold` : `Your offer for "${productName}" was declined`,
        preview: sold ? 'Your offer is closed.' : 'You can still book it at its price.',
        heading: sold ? 'The laptop sold to another buyer' : 'Your offer was declined',
        paragraphs: sold
          ? [
              `"${productName}" sold to another buyer, so your offer of ${formatMoney(amountCents)} is closed. Nothing was charged.`,
            ]
          : [
              `The seller declined your offer of ${formatMoney(amountCents)} for "${productName}".`,
              ...(reason ? [`Their reason: “${reason}”`] : []),
              'The laptop is still on sale at its price if you would like to book it.',
            ],
        action: sold
          ? { label: 'See your offer', url: `${ctx.siteUrl}${paths.offer(offerId)}` }
          : { label: 'See the laptop', url: `${ctx.siteUrl}${paths.product(productId)}` },
        topic: 'deals',
      },
      ctx,
    ),
})
