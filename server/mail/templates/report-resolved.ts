import { paths } from '#contract/pages'
import { compose, defineEmail, named } from './layout'

/**
 * To the person who reported a listing: what an admin decided. One email per report, when it is closed: dismissed
 * (the listing stays up) or the listing removed. Essential (no topic): it answers what they asked of us.
 */
export default defineEmail<{
  productName: string
  productId: string
  reason: string
  outcome: 'dismissed' | 'removed'
}>({
  topic: null,
  render: ({ productName, productId, reason, outcome }, ctx) =>
    compose(
      outcome === 'dismissed'
        ? {
            subject: `Your report of ${named(productName)}: the listing stays up`,
            preview: 'We looked at it and found nothing against our listing rules.',
            heading: 'We looked at your report',
            paragraphs: [
              `Thank you for reporting the listing ${named(productName)}. You told us: ${named(reason)}`,
              'An admin checked the listing against our listing rules and found nothing that breaks them, so it stays up and we closed your report.',
              'If you learn more (for example that the laptop is not as described, or is stolen), report it again from the listing with what you found, or write to us through the contact page.',
            ],
            action: { label: 'See the listing', url: `${ctx.siteUrl}${paths.product(productId)}` },
            topic: null,
          }
        : {
            subject: `Your report of ${named(productName)}: the listing was removed`,
            preview: 'Thank you: it is no longer on the market.',
            heading: 'We removed the listing you reported',
            paragraphs: [
              `Thank you for reporting the listing ${named(productName)}. You told us: ${named(reason)}`,
              'An admin checked it and removed the listing: it is no longer in search and cannot be booked. A buyer who had paid for it is refunded in full.',
            ],
            action: { label: 'Browse laptops', url: `${ctx.siteUrl}${paths.browse()}` },
            topic: null,
          },
      ctx,
    ),
})
