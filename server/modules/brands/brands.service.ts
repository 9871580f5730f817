import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type { Brand } from '#contract/brands'
import type { Db } from '#server/db/client'
import { brands, products, users } from '#server/db/schema'
import { notFound } from '#server/lib/errors'

export async function findBrands(db: Db): Promise<Brand[]> {
  const available = db
    .select({ brandId: products.brandId, n: sql<number>`count(*)::int`.as('n') })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(
      and(
        eq(products.isSold, false),
        isNull(products.removedAt),
        isNull(products.expiredAt),
        eq(products.reviewState, 'approved'),
        isNull(users.disabledAt),
      ),
    )
    .groupBy(products.brandId)
    .as('available')
  const rows = await db
    .select({ id: brands.id, name: brands.name, imageUrl: brands.imageUrl, n: available.n })
    .from(brands)
    .leftJoin(available, eq(available.brandId, brands.id))
    .orderBy(asc(brands.name))
  return rows.map((r) => ({ _id: r.id, brand_name: r.name, brand_img: r.imageUrl, product_count: r.n ?? 0 }))
}

export async function getBrand(db: Db, id: string): Promise<Brand> {
  const [row] = await db.select().from(brands).where(eq(brands.id, id)).limit(1)
  if (!row) throw notFound('Brand')
  return { _id: row.id, brand_name: row.name, brand_img: row.imageUrl, product_count: 0 }
}
