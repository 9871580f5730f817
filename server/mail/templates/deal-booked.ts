import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { compose, defineEmail, named } from './layout'

/** To the seller: a buyer booked one of their laptops (they pay next, from their My Orders). */
export default defineEmail<{ productName: string; priceCents: number; buyerName: string; location: string }>({
  topic: 'deals',
  render: ({ productName, priceCents, buyerName, location }, ctx) =>
    compose(
      {
        subject: `${buyerName} booked your ${named(productName)}`,
        preview: 'They pay next; we tell you as soon as they do.',
        heading: 'Someone booked your laptop',
        paragraphs: [
          `${buyerName} booked your ${named(productName)} at ${formatMoney(priceCents)}. They would like to meet around ${location}.`,
          'Nothing to do yet: the laptop stays on sale until someone pays for it, and we email you the moment a buyer does. Then you hand it over and mark it handed over in My Product.',
        ],
        action: { label: 'Open My Product', url: `${ctx.siteUrl}${paths.myProduct()}` },
        topic: 'deals',
      },
      ctx,
    ),
})
