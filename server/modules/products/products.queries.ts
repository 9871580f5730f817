import { and, desc, eq, inArray, isNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { isBatteryReportOld } from '#contract/battery-reports'
import { parcelOf, parcelSizeFor } from '#contract/delivery'
import { PRICE_GUIDE_MIN_SALES } from '#contract/price-guide'
import { PLACEHOLDER_IMAGE, type Product } from '#contract/products'
import type { Db } from '#server/db/client'
import { brands, favourites, productHolds, products, users } from '#server/db/schema'
import { isoTime } from '#server/lib/iso-time'
import { isListed } from '#server/lib/listing-sql'
import { limitOffset, rowsOf } from '#server/lib/paging'
import { listingImages } from './listing-images'
import { sellerRatingSql, toSellerRating } from './seller-rating'

/**
 * The price guide of the listing's kind, read from the precomputed table (one index lookup): its processor
 * model's row when at least 5 sales back it, else its family's.
 */
const priceGuideJson = sql<{ count: number; p25: number; median: number; p75: number } | null>`(
  select json_build_object('count', g.sales, 'p25', g.p25_cents, 'median', g.median_cents, 'p75', g.p75_cents)
  from price_guides g
  where g.brand_id = ${products.brandId} and g.ram_gb = ${products.ramGb} and g.storage_gb = ${products.storageGb}
    and g.sales >= ${sql.raw(String(PRICE_GUIDE_MIN_SALES))}
    and ((g.level = 1 and g.processor_key = ${products.processorModel})
      or (g.level = 2 and g.processor_key = ${products.processorFamily}))
  order by g.level limit 1)`

/** The columns every product response is made from. */
export const productColumns = {
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
  onSaleSince: products.onSaleSince,
  // Kept on the listing from product_images (migration 0057): a column, not an aggregate a listing.
  images: listingImages,
  sellerId: products.sellerId,
  sellerRating: sellerRatingSql,
  // A hold past its time is no hold: the database's clock decides.
  reservedUntil: sql<string | null>`(select ${productHolds.holdUntil} from ${productHolds}
    where ${productHolds.productId} = ${products.id} and ${productHolds.holdUntil} > now())`,
  batteryHealthPct: products.batteryHealthPct,
  batteryCycles: products.batteryCycles,
  batteryReportSource: products.batteryReportSource,
  batteryReportDate: products.batteryReportDate,
  serialLast4: products.serialLast4,
  reviewState: products.reviewState,
  reviewReason: products.reviewReason,
  priceGuide: priceGuideJson,
  renewedAt: products.renewedAt,
  expiredAt: products.expiredAt,
  offersEnabled: products.offersEnabled,
  delivery: products.delivery,
  parcelSize: products.parcelSize,
  parcelWeightOz: products.parcelWeightOz,
  shipFrom: products.shipFrom,
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
    postedOn: isoTime(row.postedOn),
    on_sale_since: isoTime(row.onSaleSince),
    seller_id: row.sellerId,
    seller_rating: toSellerRating(row.sellerRating),
    reservedUntil: row.reservedUntil && !row.isSold ? isoTime(row.reservedUntil) : null,
    battery_health_pct: row.batteryHealthPct,
    battery_cycles: row.batteryCycles,
    // Checked facts say where they came from and when; typed figures never look checked.
    battery_verified: row.batteryReportSource !== null,
    battery_source: row.batteryReportSource,
    battery_report_date: row.batteryReportDate ? isoTime(row.batteryReportDate) : null,
    battery_report_is_old: row.batteryReportDate ? isBatteryReportOld(row.batteryReportDate) : false,
    price_guide: row.priceGuide
      ? {
          count: row.priceGuide.count,
          p25: row.priceGuide.p25 / 100,
          median: row.priceGuide.median / 100,
          p75: row.priceGuide.p75 / 100,
        }
      : null,
    expired: row.expiredAt !== null,
    renewedOn: isoTime(row.renewedAt),
    offers_enabled: row.offersEnabled,
    delivery: row.delivery,
    parcel: parcelOfListing(row),
  }
}

/** The box and packed weight a listing ships in (the seller's, or what its screen size implies). */
function parcelOfListing(row: Pick<ProductRow, 'screenInches' | 'parcelSize' | 'parcelWeightOz'>) {
  const size = row.parcelSize ?? parcelSizeFor(row.screenInches)
  return {
    size,
    weight_oz: parcelOf(row).weightOz,
    size_is_default: row.parcelSize === null,
    weight_is_default: row.parcelWeightOz === null,
  }
}

/** On the market: listed, unsold, not expired and not waiting for review. */
export const isAvailable = and(
  isListed,
  eq(products.isSold, false),
  isNull(products.expiredAt),
  eq(products.reviewState, 'approved'),
) as SQL

/**
 * The listings' versions as a statement sees them (migration 0034's row). A page of listings carries them, and a
 * search whose page has no rows reads them alone (search's readVersions).
 */
const versionColumns = {
  // The listings' version: the copy of the listings at that version answers the counts.
  countsVersion: sql<string>`(select version::text from listing_counts_version where id)`,
  // The vocabulary's version: a search with a remembered correction checks it (search.queries.ts).
  termsVersion: sql<string>`(select terms_version::text from listing_counts_version where id)`,
  // The brands' version: a search's facets keep the brand names as long as it stays (search.queries.ts).
  brandsVersion: sql<string>`(select brands_version::text from listing_counts_version where id)`,
}

export type Versions = { [K in keyof typeof versionColumns]: string }

/** The columns of a page of listings: each product response's, and the seller's contact (owner and admin views). */
const pageColumns = {
  ...productColumns,
  // The seller's row looked up once a listing, by its key (`seller`, selectPageRows): a join hashed every account to
  // find a page's few, and a lookup a column read the row three times (about 3% of the statement's CPU).
  sellerName: sql<string>`seller.name`,
  sellerVerifiedAt: sql<Date | null>`seller.verified_at`,
  // Only the owner and admin views send these on (toProduct leaves them out).
  sellerEmail: sql<string>`seller.email`,
  sellerPhone: products.sellerPhone,
  offerFloorCents: products.offerFloorCents,
  ...versionColumns,
}

/**
 * A column list as SQL text, written once when the module loads. The query builder spent longer writing a page's
 * thirty columns and reading them back, on every page, than PostgreSQL spent reading the page.
 */
function columnList(columns: Record<string, SQLWrapper>): SQL {
  const query = new PgDialect().sqlToQuery(
    sql.join(
      Object.entries(columns).map(([name, column]) => sql`${column} as ${sql.identifier(name)}`),
      sql`, `,
    ),
  )
  if (query.params.length > 0) throw new Error('A listed column may not take a parameter')
  return sql.raw(query.sql)
}

const PAGE_COLUMNS = columnList(pageColumns)

/** The three versions as columns, named as a page's rows carry them (`select ${LISTING_VERSIONS}`). */
export const LISTING_VERSIONS = columnList(versionColumns)

export type PageRow = ProductRow &
  Versions & {
    sellerEmail: string
    sellerPhone: string
    offerFloorCents: number | null
    /** Two sort keys as text: what a cursor carries. */
    k0: string
    k1: string
  }

/**
 * Listings with their brand and seller, and two sort keys as text, in one statement. Columns come as the driver
 * reads them (times as text), which toProduct takes as well as dates.
 */
export function selectPageRows(
  db: Db,
  opts: { where: SQL; orderBy: SQL[]; k0: SQL; k1?: SQL; limit?: number; offset?: number },
): Promise<PageRow[]> {
  const query = sql`select ${PAGE_COLUMNS}, (${opts.k0})::text as k0, (${opts.k1 ?? sql`''`})::text as k1
    from ${products} inner join ${brands} on ${brands.id} = ${products.brandId}
      left join lateral (select u.name, u.verified_at, u.email from users u where u.id = ${products.sellerId}) seller
        on true
    where ${opts.where}
    order by ${sql.join(opts.orderBy, sql`, `)}`
  return rowsOf<PageRow>(db, opts.limit !== undefined ? limitOffset(query, opts.limit, opts.offset) : query)
}

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

/**
 * What only the listing's seller and admins see: where its review stands, and the serial's last four (a buyer sees
 * those on the deal once they have paid, never on the listing).
 */
export function ownerFields(
  row: Pick<ProductRow, 'reviewState' | 'reviewReason' | 'serialLast4' | 'shipFrom'>,
) {
  return {
    review_state: row.reviewState,
    review_reason: row.reviewReason,
    serial_last4: row.serialLast4,
    ship_from: row.shipFrom ?? null,
  }
}

/**
 * One listing. A listing waiting for review (or rejected) exists only for its seller and admins, who also see where
 * its review stands; anyone else gets nothing (a 404).
 */
export async function findProductById(
  db: Db,
  id: string,
  viewer?: { id: string; role: string } | null,
): Promise<Product | undefined> {
  const [row] = await selectProducts(db)
    .where(and(eq(products.id, id), isListed))
    .limit(1)
  if (!row) return undefined
  const isOwnerOrAdmin = viewer != null && (viewer.role === 'admin' || viewer.id === row.sellerId)
  if (row.reviewState !== 'approved' && !isOwnerOrAdmin) return undefined
  return isOwnerOrAdmin ? { ...toProduct(row), ...ownerFields(row) } : toProduct(row)
}

export async function findAdvertisedProducts(db: Db): Promise<Product[]> {
  const rows = await selectProducts(db)
    .where(and(isAvailable, eq(products.isAdvertised, true)))
    .orderBy(desc(products.postedOn), desc(products.id))
    .limit(60)
  return rows.map(toProduct)
}

/** How many people keep each of these listings (for their seller). */
export async function savedCounts(db: Db, productIds: string[]): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map()
  const rows = await db
    .select({ productId: favourites.productId, n: sql<number>`count(*)::int` })
    .from(favourites)
    .where(inArray(favourites.productId, productIds))
    .groupBy(favourites.productId)
  return new Map(rows.map((r) => [r.productId, Number(r.n)]))
}
