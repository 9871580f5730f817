import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { compose, defineEmail, named } from './layout'

/** To the buyer: the seller declined their offer, the laptop sold to someone else, or it left sale (`offSale`). */
export default defineEmail<{
  offerId: string
  productId: string
  productName: string
  amountCents: number
  reason: string | null
  sold: boolean
  /** Why the listing left sale, when it did: the offer closed without the seller's answer. */
  offSale?: string
}>({
  topic: 'deals',
  render: ({ offerId, productId, productName, amountCents, reason, sold, offSale }, ctx) =>
    offSale
      ? compose(
          {
            subject: `${named(productName)} is no longer on sale`,
            preview: 'Your offer is closed.',
            heading: 'The laptop is no longer on sale',
            paragraphs: [
              `${named(productName)} is no longer on sale (${offSale}), so your offer of ${formatMoney(amountCents)} is closed. Nothing was charged.`,
            ],
            action: { label: 'See your offer', url: `${ctx.siteUrl}${paths.offer(offerId)}` },
            topic: 'deals',
          },
          ctx,
        )
      : compose(
          {
            subject: sold
              ? `${named(productName)} has sold`
              : `Your offer for ${named(productName)} was declined`,
            preview: sold ? 'Your offer is closed.' : 'You can still book it at its price.',
            heading: sold ? 'The laptop sold to another buyer' : 'Your offer was declined',
            paragraphs: sold
              ? [
                  `${named(productName)} sold to another buyer, so your offer of ${formatMoney(amountCents)} is closed. Nothing was charged.`,
                ]
              : [
                  `The seller declined your offer of ${formatMoney(amountCents)} for ${named(productName)}.`,
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
