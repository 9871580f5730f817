import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { refundLaptopWords } from '#contract/refunds'
import { type SaleFigures, saleMoneyLine } from '#contract/seller-money'
import { compose, defineEmail, named } from './layout'

/** To both sides when an admin settles a dispute: the buyer refunded, or the sale released to the seller. */
export default defineEmail<{
  role: 'buyer' | 'seller'
  productName: string
  priceCents: number
  outcome: 'refunded' | 'released'
  /** The admin's reason for a refund (emails queued before reasons were asked have none). */
  reason?: string | null
  /** The buyer has the laptop (it was handed over): what the refund says of it. */
  handedOver?: boolean
  /** The seller's email: the sale's figures from the ledger (nothing to receive once refunded). */
  money?: SaleFigures
}>({
  topic: 'deals',
  render: ({ role, productName, priceCents, outcome, reason, handedOver, money }, ctx) => {
    const price = formatMoney(priceCents)
    const why = reason ? [`The admin's reason: ${reason}`] : []
    const laptop = refundLaptopWords(role, handedOver ?? true)
    const paragraphs =
      outcome === 'refunded'
        ? role === 'buyer'
          ? [
              `An admin looked at your problem with ${named(productName)} and refunded you ${price}.`,
              ...why,
              'The money goes back to the card you paid with; your bank may take a few days to show it.',
              laptop,
            ]
          : [
              `An admin looked at the buyer's problem with ${named(productName)} and refunded them ${price}.`,
              ...why,
              ...(money ? [`${saleMoneyLine(money)}.`] : []),
              laptop,
            ]
        : role === 'buyer'
          ? [
              `An admin looked at your problem with ${named(productName)} and released the sale to the seller: the sale is completed.`,
              'If you think this is wrong, tell us why through the Contact page.',
            ]
          : [
              `An admin looked at the buyer's problem with ${named(productName)} and released the sale to you: the sale is completed.`,
              money
                ? `${saleMoneyLine(money)}: it is in your balance and goes to your bank with the next payout.`
                : `The ${price} is yours.`,
            ]
    return compose(
      {
        subject:
          outcome === 'refunded'
            ? `Refunded: ${named(productName)}`
            : `Problem settled: the sale of ${named(productName)} goes ahead`,
        heading: outcome === 'refunded' ? 'The sale was refunded' : 'The sale is completed',
        paragraphs,
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
