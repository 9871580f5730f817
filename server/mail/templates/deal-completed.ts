import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { type SaleFigures, saleMoneyLine } from '#contract/seller-money'
import { compose, defineEmail, named } from './layout'

/** To both sides when a sale completes: the buyer confirmed, or the days after handover passed. */
export default defineEmail<{
  role: 'buyer' | 'seller'
  productName: string
  priceCents: number
  how: 'confirmed' | 'auto'
  /** The seller's email: the sale's figures from the ledger. */
  money?: SaleFigures
  /** The fee alone, as emails queued before `money` carry it. */
  feeCents?: number
}>({
  topic: 'deals',
  render: ({ role, productName, priceCents, how, money, feeCents = 0 }, ctx) => {
    // The seller receives the price less the fee: that is the figure that is theirs, with the sum shown.
    const figures = money ?? {
      price_cents: priceCents,
      fee_cents: feeCents,
      receive_cents: priceCents - feeCents,
    }
    const price = formatMoney(priceCents)
    const net = formatMoney(figures.receive_cents)
    const why =
      how === 'confirmed'
        ? role === 'buyer'
          ? 'You confirmed you received it as described.'
          : 'The buyer confirmed they received it as described.'
        : 'Nobody reported a problem in the days after the handover, so it completed by itself.'
    return compose(
      {
        subject: `Sale completed: ${named(productName)}`,
        preview: role === 'buyer' ? 'Enjoy your laptop.' : `You receive ${net}.`,
        heading: 'The sale is completed',
        paragraphs:
          role === 'buyer'
            ? [
                `The sale of ${named(productName)} for ${price} is completed. ${why}`,
                'Enjoy your laptop, and thank you for buying second-hand.',
              ]
            : [
                `The sale of ${named(productName)} is completed. ${why}`,
                `${saleMoneyLine(figures)}.`,
                `Your ${net} is now in your balance and goes to your bank with the next payout. Thank you for selling on Laptop Market.`,
              ],
        action:
          role === 'buyer'
            ? { label: 'Open My Orders', url: `${ctx.siteUrl}${paths.myOrders()}` }
            : { label: 'See your earnings', url: `${ctx.siteUrl}${paths.earnings()}` },
        topic: 'deals',
      },
      ctx,
    )
  },
})
