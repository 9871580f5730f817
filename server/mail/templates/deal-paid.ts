import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { type SaleFigures, saleMoneyLine } from '#contract/seller-money'
import { compose, defineEmail, named } from './layout'

/** To both sides of a sale when the buyer's payment went through. */
export default defineEmail<{
  role: 'buyer' | 'seller'
  productName: string
  priceCents: number
  buyerName: string
  sellerName: string
  /** The listing: the seller's email opens its sale in My Product. */
  productId?: string
  /** The seller's email: the sale's figures from the ledger's charge. */
  money?: SaleFigures
}>({
  topic: 'deals',
  render: ({ role, productName, priceCents, buyerName, sellerName, productId, money }, ctx) =>
    role === 'buyer'
      ? compose(
          {
            subject: `Paid: ${named(productName)} is yours`,
            preview: `${sellerName} hands it over next.`,
            heading: 'Your payment went through',
            paragraphs: [
              `You paid ${formatMoney(priceCents)} for ${named(productName)}. ${sellerName} now hands it over to you and marks it handed over.`,
              'We keep your money until you tell us the laptop arrived as described. If something is wrong, report a problem from My Orders and an admin steps in.',
            ],
            action: { label: 'Open My Orders', url: `${ctx.siteUrl}${paths.myOrders()}` },
            topic: 'deals',
          },
          ctx,
        )
      : compose(
          {
            subject: `Sold: ${buyerName} paid for ${named(productName)}`,
            preview: 'Hand it over, then mark it handed over.',
            heading: 'Your laptop is sold',
            paragraphs: [
              `${buyerName} paid ${formatMoney(priceCents)} for your ${named(productName)}. It is off the market now.`,
              ...(money ? [`${saleMoneyLine(money)}.`] : []),
              'Next, hand it over (in person or by post) and mark it handed over in My Product, with a tracking number or where you met if you like. The money is yours once the buyer confirms, or by itself a few days after the handover.',
            ],
            action: {
              label: 'Open this sale',
              url: `${ctx.siteUrl}${paths.myProduct(productId ? { product: productId } : undefined)}`,
            },
            topic: 'deals',
          },
          ctx,
        ),
})
