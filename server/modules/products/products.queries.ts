import { and, asc, desc, eq, gte, ilike, isNull, lte, or, type SQL, sql } from 'drizzle-orm'
import type { Product, ProductPage, ProductSearchQuery } from '#contract/products'
import type { Db } from '#server/db/client'
import { brands, products, users } from '#server/db/schema'

export const PLACEHOLDER_IMAGE = '/images/laptop-placeholder.svg'

const imagesJson = sql<{ card: string; detail: string }[]>`coalesce((
  select json_agg(json_build_object('card', pi.card_url, 'detail', pi.detail_url) order by pi.position)
  from product_images pi where pi.product_id = ${products.id}), '[]'::json)`

/** The columns every product response is made from. */
const productColumns = {
  id: products.id,
  name: products.name,
  brandId: products.brandId,
  brandName: brands.name,
  sellerName: users.name,
  sellerVerifiedAt: users.verifiedAt,
  resalePriceCents: products.resalePriceCents,
  originalPriceCents: products.originalPriceCents,
  description: products.description,
  condition: products.condition,
  location: products.location,
  usesYears: products.usesYears,
  processor: products.processor,
  ramGb: products.ramGb,
  storageGb: products.storageGb,
  screenInches: products.screenInches,
  isAdvertised: products.isAdvertised,
  isSold: products.isSold,
  postedOn: products.postedOn,
  images: imagesJson,
}

type ProductRow = Awaited<ReturnType<typeof selectProducts>>[number]

/** What leaves the server for a listing: never a raw row. */
export function toProduct(row: ProductRow): Product {
  const images = Array.isArray(row.images) ? row.images : []
  return {
    _id: row.id,
    name: row.name,
    category_id: row.brandId,
    brand_name: row.brandName,
    seller_name: row.sellerName,
    seller_verified: row.sellerVerifiedAt !== null,
    resale_price: row.resalePriceCents / 100,
    resale_price_cents: row.resalePriceCents,
    original_price: row.originalPriceCents / 100,
    original_price_cents: row.originalPriceCents,
    img: images[0]?.card ?? PLACEHOLDER_IMAGE,
    images,
    description: row.description,
    condition: row.condition,
    location: row.location,
    uses: row.usesYears,
    processor: row.processor,
    ram_gb: row.ramGb,
    storage_gb: row.storageGb,
    screen_inches: row.screenInches,
    advertise: row.isAdvertised,
    sellStatus: row.isSold,
    postedOn: new Date(row.postedOn).toISOString(),
  }
}

/** Listed and not taken down: not removed, and its seller's account is not disabled. */
export const isListed = and(isNull(products.removedAt), isNull(users.disabledAt)) as SQL
export const isAvailable = and(isListed, eq(products.isSold, false)) as SQL

function selectProducts(db: Db) {
  return db
    .select(productColumns)
    .from(products)
    .innerJoin(brands, eq(brands.id, products.brandId))
    .innerJoin(users, eq(users.id, products.sellerId))
}

/** Listings matching a condition; `withContact` adds the seller's email and phone (owner and admin views). */
export async function findProductsWhere(
  db: Db,
  where: SQL | undefined,
  opts: { orderBy: SQL[]; withContact?: boolean; limit?: number },
): Promise<Product[]> {
  const rows = await db
    .select({ ...productColumns, sellerEmail: users.email, sellerPhone: products.sellerPhone })
    .from(products)
    .innerJoin(brands, eq(brands.id, products.brandId))
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(where)
    .orderBy(...opts.orderBy)
    .limit(opts.limit ?? 500)
  return rows.map((row) =>
    opts.withContact
      ? { ...toProduct(row), seller_email: row.sellerEmail, seller_phone: row.sellerPhone }
      : toProduct(row),
  )
}

export async function findProductById(db: Db, id: string): Promise<Product | undefined> {
  const [row] = await selectProducts(db)
    .where(and(eq(products.id, id), isListed))
    .limit(1)
  return row ? toProduct(row) : undefined
}

export async function findAdvertisedProducts(db: Db): Promise<Product[]> {
  const rows = await selectProducts(db)
    .where(and(isAvailable, eq(products.isAdvertised, true)))
    .orderBy(desc(products.postedOn), desc(products.id))
    .limit(60)
  return rows.map(toProduct)
}

export async function findBrandProducts(db: Db, brandId: string): Promise<Product[]> {
  const rows = await selectProducts(db)
    .where(and(isAvailable, eq(products.brandId, brandId)))
    .orderBy(desc(products.postedOn), desc(products.id))
    .limit(200)
  return rows.map(toProduct)
}

export async function searchProducts(db: Db, q: ProductSearchQuery): Promise<ProductPage> {
  const filters: (SQL | undefined)[] = [isAvailable]
  if (q.q) {
    const pattern = `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    filters.push(
      or(ilike(products.name, pattern), ilike(products.processor, pattern), ilike(brands.name, pattern)),
    )
  }
  if (q.brand) filters.push(eq(products.brandId, q.brand))
  if (q.condition) filters.push(eq(products.condition, q.condition))
  if (q.min_ram_gb !== undefined) filters.push(gte(products.ramGb, q.min_ram_gb))
  if (q.min_storage_gb !== undefined) filters.push(gte(products.storageGb, q.min_storage_gb))
  if (q.max_price !== undefined) filters.push(lte(products.resalePriceCents, Math.round(q.max_price * 100)))
  const where = and(...filters)
  const order =
    q.sort === 'price_asc'
      ? [asc(products.resalePriceCents), desc(products.id)]
      : q.sort === 'price_desc'
        ? [desc(products.resalePriceCents), desc(products.id)]
        : [desc(products.postedOn), desc(products.id)]
  const [rows, [count]] = await Promise.all([
    selectProducts(db)
      .where(where)
      .orderBy(...order)
      .limit(q.page_size)
      .offset((q.page - 1) * q.page_size),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(products)
      .innerJoin(brands, eq(brands.id, products.brandId))
      .innerJoin(users, eq(users.id, products.sellerId))
      .where(where),
  ])
  return { items: rows.map(toProduct), total: count?.total ?? 0, page: q.page, page_size: q.page_size }
}
