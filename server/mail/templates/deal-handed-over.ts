import { paths } from '#contract/pages'
import { compose, defineEmail, emailDate, named } from './layout'

/** To the buyer: the seller says the laptop changed hands; confirm it, or report a problem before `completesAt`. */
export default defineEmail<{
  productName: string
  sellerName: string
  note: string | null
  completesAt: string
}>({
  topic: 'deals',
  render: ({ productName, sellerName, note, completesAt }, ctx) =>
    compose(
      {
        subject: `${sellerName} handed over ${named(productName)}`,
        preview: 'Tell us it arrived as described, or report a problem.',
        heading: 'Your laptop is on its way to you',
        paragraphs: [
          `${sellerName} marked ${named(productName)} handed over.`,
          ...(note ? [`Their note: ${note}`] : []),
          `Once you have it and it is as described, press “Received, as described” in My Orders. If something is wrong, report a problem there instead. With no answer, the sale completes by itself on ${emailDate(completesAt)}.`,
        ],
        action: { label: 'Open My Orders', url: `${ctx.siteUrl}${paths.myOrders()}` },
        topic: 'deals',
      },
      ctx,
    ),
})
