import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { and, asc, count, eq } from 'drizzle-orm'
import { SearchQuery } from '#contract/search'
import type { Db } from '#server/db/client'
import { products, users } from '#server/db/schema'
import { AppError } from '#server/lib/errors'
import type { PublicCache } from '#server/lib/public-cache'
import { findBrands } from '#server/modules/brands'
import { findAdvertisedProducts, findProductById, isAvailable } from '#server/modules/products'
import { findPublicQuestions } from '#server/modules/questions'
import { findSellerPage } from '#server/modules/reviews'
import { searchProducts } from '#server/modules/search'
import type * as EntryServer from '../../../web/src/ssr/entry-server'

/** The web app's server entry: built into dist/server by `npm run build`, or the source module in tests. */
export type PageRenderer = typeof EntryServer

/** The built renderer beside dist/web, or undefined when only the browser app was built. */
export async function loadBuiltRenderer(webDistDir: string): Promise<PageRenderer | undefined> {
  const file = path.join(webDistDir, '../server/entry-server.js')
  if (!fs.existsSync(file)) return undefined
  return (await import(pathToFileURL(file).href)) as PageRenderer
}

/**
 * What server-rendered pages show, read through the same services (and cache) as the API: as anyone sees it, or, with
 * `viewer`, a listing as that viewer may see it (its seller and admins see one waiting for review).
 */
export function pageData(
  db: Db,
  cache: PublicCache,
  viewer?: { id: string; role: string } | null,
): EntryServer.PageData {
  return {
    brands: async () => JSON.parse((await cache.get('brands', () => findBrands(db))).text),
    advertised: async () =>
      JSON.parse((await cache.get('advertised', () => findAdvertisedProducts(db))).text),
    product: async (id) => {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined
      const product = await findProductById(db, id, viewer)
      if (product) return product
      const [row] = await db.select({ id: products.id }).from(products).where(eq(products.id, id)).limit(1)
      return row ? 'gone' : undefined
    },
    questions: async (productId) =>
      JSON.parse((await cache.get(`questions:${productId}`, () => findPublicQuestions(db, productId))).text),
    seller: async (id) => {
      if (id.length > 64) return undefined
      try {
        return JSON.parse((await cache.get(`seller:${id}`, () => findSellerPage(db, id))).text)
      } catch (error) {
        if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined
        throw error
      }
    },
    // The query as the browse page sends it to GET /api/search: its filters as strings, with facet counts.
    search: async (filters) => {
      const raw: Record<string, string> = { facets: '1' }
      for (const [key, value] of Object.entries(filters)) {
        if (value !== undefined && value !== null && value !== '') raw[key] = String(value)
      }
      const query = SearchQuery.safeParse(raw)
      return searchProducts(db, query.success ? query.data : SearchQuery.parse({ facets: '1' }))
    },
  }
}

/** Available listings for the sitemap, oldest id first so each file keeps its entries between runs. */
export async function countListedProducts(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(isAvailable)
  return row?.n ?? 0
}

export async function findSitemapProducts(db: Db, offset: number, limit: number) {
  return db
    .select({ id: products.id, postedOn: products.postedOn })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(and(isAvailable))
    .orderBy(asc(products.id))
    .offset(offset)
    .limit(limit)
}

/** Sellers with laptops for sale, for the sitemap (their public pages). */
export async function findSitemapSellers(db: Db, limit: number) {
  return db
    .selectDistinct({ id: products.sellerId })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(isAvailable)
    .orderBy(asc(products.sellerId))
    .limit(limit)
}
