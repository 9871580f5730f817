import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { compose, defineEmail, emailDate, named } from './layout'

/** To the other side: the buyer or the seller countered with another price. */
export default defineEmail<{
  offerId: string
  productName: string
  amountCents: number
  fromName: string
  role: 'buyer' | 'seller'
  note: string | null
  expiresAt: string
  lastRound: boolean
}>({
  topic: 'deals',
  render: ({ offerId, productName, amountCents, fromName, role, note, expiresAt, lastRound }, ctx) =>
    compose(
      {
        subject: `${fromName} counters with ${formatMoney(amountCents)} for ${named(productName)}`,
        preview: 'The offer waits for your answer.',
        heading: 'A counter-offer',
        paragraphs: [
          `${fromName} answers with ${formatMoney(amountCents)} for ${named(productName)}.`,
          ...(note ? [`Their note: “${note}”`] : []),
          lastRound
            ? `That was the last round: accept it or ${role === 'buyer' ? 'withdraw your offer' : 'decline it'} before ${emailDate(expiresAt, true)}.`
            : `Accept it, counter again or ${role === 'buyer' ? 'withdraw your offer' : 'decline it'} before ${emailDate(expiresAt, true)}; unanswered, it expires then.`,
          ...(role === 'buyer' ? ['Once you accept, the laptop is held for you while you pay.'] : []),
        ],
        action: { label: 'Answer the counter-offer', url: `${ctx.siteUrl}${paths.offer(offerId)}` },
        topic: 'deals',
      },
      ctx,
    ),
})
