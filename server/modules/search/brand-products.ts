import { and, eq, type SQL, sql } from 'drizzle-orm'
import { type ListPageQuery, TOTAL_THRESHOLD } from '#contract/paging'
import type { Product } from '#contract/products'
import type { Db } from '#server/db/client'
import { products } from '#server/db/schema'
import { isOnSale } from '#server/lib/on-sale'
import { countUpTo, listPaging, type PagedList } from '#server/lib/paging'
import { selectPageRows, toProduct } from '#server/modules/products'
import { readListingPage, searchWhileRead } from './listing-feed'
import { viewTotal } from './listing-view'
import { pageIds, sortPlan } from './search.queries'

/** A brand's available laptops, newest first, a page at a time. */
export function findBrandProducts(db: Db, brandId: string, q: ListPageQuery): Promise<PagedList<Product>> {
  return searchWhileRead(db, async () => {
    const where = and(isOnSale, eq(products.brandId, brandId)) as SQL
    const paging = listPaging(q)
    const plan = sortPlan('newest')
    const pageOf = (ids: SQL) => selectPageRows(db, { ...plan, where: sql`${products.id} in (${ids})` })
    // From the listings' facts when the copy is current, as a search by brand would; else the page's ids from
    // the brand's index, then their rows (joins and photos for one page only).
    const { rows, view } = await readListingPage(
      db,
      {
        query: { brand: [brandId] },
        sort: 'newest',
        // The page alone: the paging's functions cannot be sent to a search thread.
        paging: { pageSize: paging.pageSize, offset: paging.offset },
        cursor: paging.cursor,
        read: pageOf,
      },
      () => pageOf(pageIds(where, plan, paging.cursor, paging)),
    )
    // Total from the page's view or counted on the brand's index; both stop past the threshold ("10,000+").
    const page = await paging.finish(rows, async () =>
      view ? viewTotal(view, { brand: [brandId] }, Date.now(), TOTAL_THRESHOLD) : countUpTo(db, where),
    )
    return { ...page, items: page.items.map(toProduct) }
  })
}
