import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { compose, defineEmail, emailDate, named } from './layout'

/** To the seller: a buyer offered a price for one of their laptops. */
export default defineEmail<{
  offerId: string
  productName: string
  amountCents: number
  askingCents: number
  buyerName: string
  note: string | null
  expiresAt: string
}>({
  topic: 'deals',
  render: ({ offerId, productName, amountCents, askingCents, buyerName, note, expiresAt }, ctx) =>
    compose(
      {
        subject: `${buyerName} offers ${formatMoney(amountCents)} for ${named(productName)}`,
        preview: 'Accept, decline or counter.',
        heading: 'You have an offer',
        paragraphs: [
          `${buyerName} offers ${formatMoney(amountCents)} for your ${named(productName)} (you ask ${formatMoney(askingCents)}).`,
          ...(note ? [`Their note: “${note}”`] : []),
          `Accept it, decline it or counter with another price before ${emailDate(expiresAt, true)}; unanswered, it expires then. Your listing's price stays as it is for everyone else.`,
        ],
        action: { label: 'Answer the offer', url: `${ctx.siteUrl}${paths.offer(offerId)}` },
        topic: 'deals',
      },
      ctx,
    ),
})
