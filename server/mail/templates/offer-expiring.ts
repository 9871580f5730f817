import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { compose, defineEmail, emailDate, named } from './layout'

/** To the side whose answer an offer waits for, a few hours before it expires unanswered. */
export default defineEmail<{
  offerId: string
  productName: string
  amountCents: number
  expiresAt: string
}>({
  topic: 'deals',
  render: ({ offerId, productName, amountCents, expiresAt }, ctx) =>
    compose(
      {
        subject: `An offer of ${formatMoney(amountCents)} for ${named(productName)} expires soon`,
        preview: 'It waits for your answer.',
        heading: 'An offer waits for your answer',
        paragraphs: [
          `The offer of ${formatMoney(amountCents)} for ${named(productName)} expires at ${emailDate(expiresAt, true)} if nobody answers it.`,
        ],
        action: { label: 'Answer it', url: `${ctx.siteUrl}${paths.offer(offerId)}` },
        topic: 'deals',
      },
      ctx,
    ),
})
