// The demo buyer's favourites and saved searches (server/modules/favourites, saved-searches): one laptop got
// cheaper since it was saved, one sold; a ThinkPad search emails at once, an Apple one in the daily digest.
import type { Db } from '#server/db/client'
import { favourites, savedSearches } from '#server/db/schema'
import { parseSavedQuery } from '#server/modules/search'
import { stableUuid } from './ids'

const DAY = 24 * 60 * 60 * 1000

type Listing = { id: string; resalePriceCents: number; sellerId: string }

export async function seedDemoFavourites(
  tx: Db,
  input: {
    buyerId: string
    referenceDate: Date
    created: Map<string, Listing>
    brandIds: Map<string, string>
  },
): Promise<void> {
  const saved = (slug: string, daysAgo: number, savedPriceCents?: number) => {
    const listing = input.created.get(slug)
    if (!listing) throw new Error(`Demo favourite names an unknown listing: ${slug}`)
    const price = savedPriceCents ?? listing.resalePriceCents
    return {
      userId: input.buyerId,
      productId: listing.id,
      savedPriceCents: price,
      alertPriceCents: price,
      savedAt: new Date(input.referenceDate.getTime() - daysAgo * DAY),
    }
  }
  const thinkpad = input.created.get('lenovo-thinkpad-x1-carbon-gen-10')
  await tx
    .insert(favourites)
    .values([
      // Saved at $80 more than it costs now: "Price down from … to …".
      saved('lenovo-thinkpad-x1-carbon-gen-10', 6, (thinkpad?.resalePriceCents ?? 0) + 8000),
      saved('dell-xps-15-9520', 3),
      saved('hp-omen-16', 12),
    ])
    .onConflictDoNothing()

  const lenovo = input.brandIds.get('lenovo')
  const apple = input.brandIds.get('apple')
  const searches = [
    {
      key: 'thinkpad',
      query: `q=thinkpad${lenovo ? `&brand=${lenovo}` : ''}&max_price=1200`,
      alert: 'instant',
    },
    { key: 'apple', query: `${apple ? `brand=${apple}&` : ''}condition=Excellent&ram=16`, alert: 'daily' },
  ] as const
  for (const s of searches) {
    const { filters, query } = parseSavedQuery(s.query)
    await tx
      .insert(savedSearches)
      .values({
        id: stableUuid(`saved-search:${s.key}`),
        userId: input.buyerId,
        query,
        filters,
        textQuery: filters.q ? filters.q.toLowerCase() : null,
        alert: s.alert,
        createdAt: new Date(input.referenceDate.getTime() - 10 * DAY),
        lastVisitedAt: new Date(input.referenceDate.getTime() - 20 * DAY),
      })
      .onConflictDoNothing()
  }
}
