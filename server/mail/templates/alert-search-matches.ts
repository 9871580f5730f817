import { paths } from '#contract/pages'
import { type AlertSearch, listingItem, plural, unsubscribeLink } from './alert-types'
import { compose, defineEmail } from './layout'

/** An instant saved-search alert: the new laptops that match one search (at most one such email an hour). */
export default defineEmail<AlertSearch & { unsubscribeToken: string }>({
  topic: 'alerts',
  render: ({ searchId, label, query, listings, more, unsubscribeToken }, ctx) => {
    const total = listings.length + more
    return compose(
      {
        subject:
          total === 1
            ? `${listings[0]?.name ?? 'A new laptop'} matches your saved search`
            : `${total} new laptops match your saved search`,
        preview: 'Laptops posted since we last wrote, matching a search you saved.',
        heading: total === 1 ? 'A new laptop matches your search' : `${total} new laptops match your search`,
        paragraphs: [
          `Your saved search (${label}) has ${plural(total, 'new match', 'new matches')}.${more > 0 ? ` Here are the newest ${listings.length}.` : ''}`,
        ],
        sections: [{ items: listings.map((l) => listingItem(l, ctx.siteUrl)) }],
        action: { label: 'See all new matches', url: `${ctx.siteUrl}${paths.savedSearch(searchId, query)}` },
        footnote: 'Laptops sell fast: book one to hold it while you pay.',
        topic: 'alerts',
        unsubscribe: unsubscribeLink('Turn off alerts for this search', unsubscribeToken, ctx.siteUrl),
      },
      ctx,
    )
  },
})
