import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { compose, defineEmail, named } from './layout'

/** To both sides when a sale completes: the buyer confirmed, or the days after handover passed. */
export default defineEmail<{
  role: 'buyer' | 'seller'
  productName: string
  priceCents: number
  how: 'confirmed' | 'auto'
}>({
  topic: 'deals',
  render: ({ role, productName, priceCents, how }, ctx) => {
    const why =
      how === 'confirmed'
        ? role === 'buyer'
          ? 'You confirmed you received it as described.'
          : 'The buyer confirmed they received it as described.'
        : 'Nobody reported a problem in the days after the handover, so it completed by itself.'
    return compose(
      {
        subject: `Sale completed: ${named(productName)}`,
        preview: role === 'buyer' ? 'Enjoy your laptop.' : `${formatMoney(priceCents)} is yours.`,
        heading: 'The sale is completed',
        paragraphs: [
          `The sale of ${named(productName)} for ${formatMoney(priceCents)} is completed. ${why}`,
          role === 'buyer'
            ? 'Enjoy your laptop, and thank you for buying second-hand.'
            : `The ${formatMoney(priceCents)} is released to you. Thank you for selling on Laptop Market.`,
        ],
        action:
          role === 'buyer'
            ? { label: 'Open My Orders', url: `${ctx.siteUrl}${paths.myOrders()}` }
            : { label: 'Open My Product', url: `${ctx.siteUrl}${paths.myProduct()}` },
        topic: 'deals',
      },
      ctx,
    )
  },
})
