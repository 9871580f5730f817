import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { compose, defineEmail, named } from './layout'

/**
 * To both sides when a paid sale's serial is reported stolen: the sale is held for an admin, who refunds the buyer
 * or releases it to the seller; the seller's money waits (no payout) until then.
 */
export default defineEmail<{ role: 'buyer' | 'seller'; productName: string; priceCents: number }>({
  topic: 'deals',
  render: ({ role, productName, priceCents }, ctx) =>
    compose(
      {
        subject: `Sale on hold: ${named(productName)}`,
        heading: 'The sale is on hold for a check',
        paragraphs:
          role === 'buyer'
            ? [
                `The serial number of ${named(productName)} was reported stolen after you paid ${formatMoney(priceCents)}. The sale is on hold while an admin looks into it.`,
                'If the laptop cannot be sold, you are refunded in full. Keep the laptop and its packaging until you hear from us.',
              ]
            : [
                `The serial number of ${named(productName)} was reported stolen after the buyer paid ${formatMoney(priceCents)}. The sale is on hold while an admin looks into it, and its money is not paid out until then.`,
                'If you think this is wrong, tell us why through the Contact page.',
              ],
        action:
          role === 'buyer'
            ? { label: 'See your orders', url: `${ctx.siteUrl}${paths.myOrders()}` }
            : { label: 'See your listings', url: `${ctx.siteUrl}${paths.myProduct()}` },
        topic: 'deals',
      },
      ctx,
    ),
})
