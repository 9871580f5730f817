import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { compose, defineEmail, named } from './layout'

/** One booking, as the seller is told of it. */
export type BookedItem = { productName: string; priceCents: number; buyerName: string; location: string }

/** At most this many bookings are listed in one email; the rest are counted (My Product lists them all). */
export const BOOKED_LISTED = 20

const NEXT =
  'Nothing to do yet: the laptop stays on sale until someone pays for it, and we email you the moment a buyer does. Then you hand it over and mark it handed over in My Product.'

const meet = (b: BookedItem) => (b.location ? ` They would like to meet around ${b.location}.` : '')

/**
 * To the seller: buyers booked their laptops (they pay next, from their My Orders). The bookings of a few
 * minutes come in one email (`bookings.seller-email`); `more` counts those past the listed ones. Emails queued
 * before bookings were grouped hold one booking's fields instead of `bookings`.
 */
export default defineEmail<{ bookings: BookedItem[]; more?: number }>({
  topic: 'deals',
  render: (data, ctx) => {
    const list: BookedItem[] = 'bookings' in data ? data.bookings : [data as unknown as BookedItem]
    const more = data.more ?? 0
    const action = { label: 'Open My Product', url: `${ctx.siteUrl}${paths.myProduct()}` }
    const [first] = list
    if (list.length === 1 && more === 0 && first) {
      return compose(
        {
          subject: `${first.buyerName} booked your ${named(first.productName)}`,
          preview: 'They pay next; we tell you as soon as they do.',
          heading: 'Someone booked your laptop',
          paragraphs: [
            `${first.buyerName} booked your ${named(first.productName)} at ${formatMoney(first.priceCents)}.${meet(first)}`,
            NEXT,
          ],
          action,
          topic: 'deals',
        },
        ctx,
      )
    }
    const total = list.length + more
    return compose(
      {
        subject: `${total} new bookings of your laptops`,
        preview: 'They pay next; we tell you as soon as one does.',
        heading: 'Buyers booked your laptops',
        paragraphs: [`In the last few minutes, buyers made ${total} bookings of your laptops.`, NEXT],
        sections: [
          {
            items: list.map((b) => ({
              title: `${b.buyerName} booked ${named(b.productName)}`,
              detail: `at ${formatMoney(b.priceCents)}.${meet(b)}`,
              url: action.url,
            })),
          },
        ],
        ...(more > 0 ? { footnote: `And ${more} more: My Product lists every booking.` } : {}),
        action,
        topic: 'deals',
      },
      ctx,
    )
  },
})
