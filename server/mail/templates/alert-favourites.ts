import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'
import { type AlertFavourite, favouriteItem, unsubscribeLink } from './alert-types'
import { compose, defineEmail } from './layout'

/** Laptops the user saved that got cheaper (by 5% or more) or are available again, sent within minutes. */
export default defineEmail<{ items: AlertFavourite[]; unsubscribeToken: string }>({
  topic: 'alerts',
  render: ({ items, unsubscribeToken }, ctx) => {
    const [first] = items
    const one = items.length === 1 && first
    const subject = one
      ? first.kind === 'price_drop' && first.oldPriceCents !== null
        ? `Price drop: “${first.name}” is now ${formatMoney(first.priceCents)} (was ${formatMoney(first.oldPriceCents)})`
        : `Available again: “${first.name}”`
      : `${items.length} laptops you saved have news`
    return compose(
      {
        subject,
        preview: 'A laptop in your favourites got cheaper or is free to book again.',
        heading: one
          ? first.kind === 'price_drop'
            ? 'A laptop you saved got cheaper'
            : 'A laptop you saved is available again'
          : 'News on laptops you saved',
        paragraphs: [
          one && first.kind === 'available'
            ? 'The buyer who was paying for it did not finish, so anyone can book it again.'
            : 'Prices on laptops in your favourites have moved. Here is what changed.',
        ],
        sections: [{ items: items.map((f) => favouriteItem(f, ctx.siteUrl)) }],
        action: { label: 'Open your favourites', url: `${ctx.siteUrl}${paths.favourites()}` },
        topic: 'alerts',
        unsubscribe: unsubscribeLink('Turn off favourites alerts', unsubscribeToken, ctx.siteUrl),
      },
      ctx,
    )
  },
})
