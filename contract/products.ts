import { z } from 'zod'

export const Condition = z.enum(['Excellent', 'Good', 'Fair'])
export type Condition = z.infer<typeof Condition>

/** Measurable grades, shown beside the choice on the form and on the detail page. */
export const CONDITION_DEFINITIONS: Record<Condition, string> = {
  Excellent: "Fully working, no marks visible at arm's length, battery at least 85% of design capacity.",
  Good: 'Fully working, light marks, battery at least 75% of design capacity.',
  Fair: 'Fully working, visible wear or a weaker battery; each flaw is named in the description.',
}

export const ProductImage = z.object({
  card: z.string(),
  detail: z.string(),
})

/** A listing as it leaves the server. Money is sent both as cents and as dollars (the seed's field). */
export const Product = z.object({
  _id: z.string(),
  name: z.string(),
  category_id: z.string(),
  brand_name: z.string(),
  seller_name: z.string(),
  seller_verified: z.boolean(),
  resale_price: z.number(),
  resale_price_cents: z.number().int(),
  original_price: z.number(),
  original_price_cents: z.number().int(),
  img: z.string(),
  images: z.array(ProductImage),
  description: z.string(),
  condition: Condition,
  location: z.string(),
  uses: z.number(),
  processor: z.string(),
  ram_gb: z.number().int(),
  storage_gb: z.number().int(),
  screen_inches: z.number(),
  advertise: z.boolean(),
  sellStatus: z.boolean(),
  postedOn: z.string(),
})
export type Product = z.infer<typeof Product>

export const ProductList = z.array(Product)

export const SortOrder = z.enum(['newest', 'price_asc', 'price_desc'])

/** Browse every available laptop, with the filters a buyer uses. */
export const ProductSearchQuery = z.strictObject({
  q: z.string().trim().max(100).optional(),
  brand: z.uuid({ message: 'Must be a valid id' }).optional(),
  condition: Condition.optional(),
  min_ram_gb: z.coerce.number().int().min(0).max(1024).optional(),
  min_storage_gb: z.coerce.number().int().min(0).max(65536).optional(),
  max_price: z.coerce.number().min(0).max(1_000_000).optional(),
  sort: SortOrder.default('newest'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(60).default(24),
})
export type ProductSearchQuery = z.infer<typeof ProductSearchQuery>

export const ProductPage = z.object({
  items: ProductList,
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
})
export type ProductPage = z.infer<typeof ProductPage>
