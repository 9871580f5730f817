import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { refundLaptopWords } from '#contract/refunds'
import { type SaleFigures, saleMoneyLine } from '#contract/seller-money'
import { compose, defineEmail, named } from './layout'

/**
 * To both sides when a paid sale is called off with a full refund: the seller cancelled it (they could not
 * hand it over), or an admin removed the listing after a report.
 */
export default defineEmail<{
  role: 'buyer' | 'seller'
  productName: string
  priceCents: number
  sellerName: string
  by: 'seller' | 'admin' | 'refund' | 'ship_late'
  reason: string | null
  /** The buyer has the laptop (it was handed over): what an admin's refund says of it. */
  handedOver?: boolean
  /** The seller's email: the sale's figures from the ledger (nothing to receive once refunded). */
  money?: SaleFigures
}>({
  topic: 'deals',
  render: ({ role, productName, priceCents, sellerName, by, reason, handedOver, money }, ctx) => {
    const price = formatMoney(priceCents)
    const name = named(productName)
    const back = 'The money goes back to the card you paid with; your bank may take a few days to show it.'
    const why = reason ? [`The admin's reason: ${reason}`] : []
    const laptop = refundLaptopWords(role, handedOver ?? by === 'refund')
    const lines =
      by === 'ship_late'
        ? role === 'buyer'
          ? [
              `${sellerName} did not ship ${name} in time, so the sale is cancelled and you are refunded ${price} in full, shipping included.`,
              ...(reason ? [reason] : []),
              back,
            ]
          : [
              `You did not buy the shipping label for ${name} in time, so the sale is cancelled. The buyer is refunded ${price} in full and the listing is off Laptop Market.`,
              ...(reason ? [reason] : []),
              'If you still want to sell it, list it again when you can ship it.',
            ]
        : by === 'refund'
          ? role === 'buyer'
            ? [
                `An admin refunded your purchase of ${name}: you get ${price} back in full.`,
                ...why,
                back,
                laptop,
              ]
            : [
                `An admin refunded the buyer of ${name} (${price}) after the sale had completed.`,
                ...why,
                'What you received for it comes back out of your earnings: the Earnings page shows your balance.',
                laptop,
                'If you think this is wrong, tell us why through the Contact page.',
              ]
          : by === 'seller'
            ? role === 'buyer'
              ? [
                  `${sellerName} cancelled the sale of ${name} and you are refunded ${price} in full.`,
                  ...(reason ? [`Their reason: ${reason}`] : []),
                  back,
                ]
              : [
                  `You cancelled the sale of ${name}. The buyer is refunded ${price} in full and the listing is off Laptop Market.`,
                  ...(reason ? [`The reason you gave: ${reason}`] : []),
                ]
            : role === 'buyer'
              ? [
                  `An admin removed the listing ${name} after a report, and you are refunded ${price} in full.`,
                  back,
                  laptop,
                ]
              : [
                  `An admin removed your listing ${name} after a report. The buyer is refunded ${price} in full.`,
                  // A laptop never handed over stays with its seller; the listing is gone, so nothing more to say.
                  ...(handedOver ? [laptop] : []),
                  'If you think this is wrong, tell us why through the Contact page.',
                ]
    // The seller sees what the sale now puts in their balance, in the words of their Earnings page.
    const paragraphs =
      role === 'seller' && money
        ? [...lines.slice(0, 1), `${saleMoneyLine(money)}.`, ...lines.slice(1)]
        : lines
    return compose(
      {
        subject:
          role === 'buyer'
            ? `${by === 'refund' ? 'Sale refunded' : 'Sale cancelled'}: ${name}, you are refunded ${price}`
            : `${by === 'refund' ? 'Sale refunded' : 'Sale cancelled'}: ${name}, the buyer is refunded`,
        heading: by === 'refund' ? 'The sale is refunded' : 'The sale is cancelled',
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
