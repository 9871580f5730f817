import { paths } from '#contract/pages'
import {
  type AlertFavourite,
  type AlertSearch,
  favouriteItem,
  listingItem,
  plural,
  unsubscribeLink,
} from './alert-types'
import { compose, defineEmail } from './layout'

/** The daily digest: new matches of the searches set to "daily", and news on favourites for a daily reader. */
export default defineEmail<{
  searches: AlertSearch[]
  favourites: AlertFavourite[]
  unsubscribeToken: string
}>({
  topic: 'alerts',
  render: ({ searches, favourites, unsubscribeToken }, ctx) => {
    const matches = searches.reduce((n, s) => n + s.listings.length + s.more, 0)
    const summary = [
      matches > 0 ? plural(matches, 'new match', 'new matches') : null,
      favourites.length > 0
        ? plural(favourites.length, 'change on your favourites', 'changes on your favourites')
        : null,
    ]
      .filter(Boolean)
      .join(' and ')
    return compose(
      {
        subject: `Your daily laptop alerts: ${summary}`,
        preview: 'What matched your saved searches and what changed on your favourites since yesterday.',
        heading: 'Your daily alerts',
        paragraphs: [`Since yesterday: ${summary}.`],
        sections: [
          ...searches.map((s) => ({
            heading: `${s.label}${s.more > 0 ? ` (${s.listings.length + s.more} new, newest shown)` : ''}`,
            items: s.listings.map((l) => listingItem(l, ctx.siteUrl)),
          })),
          ...(favourites.length > 0
            ? [{ heading: 'Your favourites', items: favourites.map((f) => favouriteItem(f, ctx.siteUrl)) }]
            : []),
        ],
        action: { label: 'Open your saved searches', url: `${ctx.siteUrl}${paths.savedSearches()}` },
        topic: 'alerts',
        unsubscribe: unsubscribeLink('Stop the daily digest', unsubscribeToken, ctx.siteUrl),
      },
      ctx,
    )
  },
})
