import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { compose, defineEmail, emailDate, named } from './layout'

/** To the side that did not accept: the price is agreed; the buyer pays next, within the hold. */
export default defineEmail<{
  role: 'buyer' | 'seller'
  productName: string
  amountCents: number
  otherName: string
  bookingId: string
  payBy: string
}>({
  topic: 'deals',
  render: ({ role, productName, amountCents, otherName, bookingId, payBy }, ctx) =>
    role === 'buyer'
      ? compose(
          {
            subject: `Offer accepted: ${named(productName)} for ${formatMoney(amountCents)}`,
            preview: 'Pay now: the laptop is held for you.',
            heading: 'Your offer was accepted',
            paragraphs: [
              `${otherName} accepted ${formatMoney(amountCents)} for ${named(productName)}.`,
              `The laptop is held for you until ${emailDate(payBy, true)}. Pay before then; after it, the offer lapses and the laptop is on sale again.`,
            ],
            action: { label: 'Pay now', url: `${ctx.siteUrl}${paths.payment(bookingId)}` },
            topic: 'deals',
          },
          ctx,
        )
      : compose(
          {
            subject: `${otherName} accepted ${formatMoney(amountCents)} for ${named(productName)}`,
            preview: 'They are paying now.',
            heading: 'Your counter-offer was accepted',
            paragraphs: [
              `${otherName} accepted your price of ${formatMoney(amountCents)} for ${named(productName)}. The laptop is held for them while they pay, until ${emailDate(payBy, true)}.`,
              'We email you the moment they pay. If they do not pay in time, the laptop is on sale again by itself.',
            ],
            action: { label: 'Open My Product', url: `${ctx.siteUrl}${paths.myProduct()}` },
            topic: 'deals',
          },
          ctx,
        ),
})
