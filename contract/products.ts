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
  /** Only on the seller's own listings (and for admins): see docs/decisions/0003. */
  seller_email: z.string().optional(),
  seller_phone: z.string().optional(),
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

/** An empty query value (`?max_price=`) means the filter is not set. */
const unsetWhenEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional())

/** Browse every available laptop, with the filters a buyer uses. */
export const ProductSearchQuery = z.strictObject({
  q: z.string().trim().max(100).optional(),
  brand: unsetWhenEmpty(z.uuid({ message: 'Must be a valid id' })),
  condition: unsetWhenEmpty(Condition),
  min_ram_gb: unsetWhenEmpty(z.coerce.number().int().min(0).max(1024)),
  min_storage_gb: unsetWhenEmpty(z.coerce.number().int().min(0).max(65536)),
  max_price: unsetWhenEmpty(z.coerce.number().min(0).max(1_000_000)),
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

/**
 * A number, or a string holding one as a form field gives it. Only strings are converted: `true`, `[5]`
 * and `null` would otherwise pass as 1, 5 and 0.
 */
const fromFormNumber = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? Number(value) : value

/** Dollars as typed by a seller (at most two decimals), carried to the server as a number. */
const Price = (label: string) =>
  z.preprocess(
    fromFormNumber,
    z
      .number({ error: `${label} is required` })
      // At least a cent: a positive amount that rounds to 0 cents would be stored as free.
      .min(0.01, `${label} must be more than $0`)
      .max(100_000, `${label} must be at most $100,000`)
      .refine(
        (v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6,
        `${label} can have at most two decimals`,
      ),
  )

/** Fields a seller writes. Seller identity, posting date, advertise and sale state are never taken from here. */
export const ProductFields = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(3, 'Name must be at least 3 characters')
    .max(120, 'Name is too long'),
  category_id: z.uuid({ message: 'Please select a category' }),
  seller_phone: z
    .string({ error: 'Phone number is required' })
    .trim()
    .regex(/^\+?[0-9 ()-]{6,30}$/, 'Enter a valid phone number'),
  resale_price: Price('Resale price'),
  original_price: Price('Original price'),
  description: z
    .string({ error: 'Description is required' })
    .trim()
    .min(20, 'Describe the laptop in at least 20 characters')
    .max(2000, 'Description is too long'),
  condition: z.enum(['Excellent', 'Good', 'Fair'], { error: 'Choose Excellent, Good or Fair' }),
  location: z
    .string({ error: 'Location is required' })
    .trim()
    .min(2, 'Location is required')
    .max(120, 'Location is too long'),
  uses: z.preprocess(
    fromFormNumber,
    z
      .number({ error: 'Years of use is required' })
      .int('Years of use must be a whole number')
      .min(0, 'Years of use cannot be negative')
      .max(30, 'Years of use must be at most 30'),
  ),
  processor: z
    .string({ error: 'Processor is required' })
    .trim()
    .min(2, 'Processor is required')
    .max(80, 'Processor is too long'),
  ram_gb: z.preprocess(
    fromFormNumber,
    z
      .number({ error: 'RAM is required' })
      .int('RAM must be a whole number of GB')
      .min(1, 'RAM must be at least 1 GB')
      .max(256, 'RAM must be at most 256 GB'),
  ),
  storage_gb: z.preprocess(
    fromFormNumber,
    z
      .number({ error: 'Storage is required' })
      .int('Storage must be a whole number of GB')
      .min(16, 'Storage must be at least 16 GB')
      .max(16_384, 'Storage must be at most 16 TB'),
  ),
  screen_inches: z.preprocess(
    fromFormNumber,
    z
      .number({ error: 'Screen size is required' })
      .min(10, 'Screen must be at least 10 inches')
      .max(21, 'Screen must be at most 21 inches'),
  ),
  /** Uploaded photos by id, in order (1 to 6), and/or one http(s) image URL. */
  images: z
    .array(z.uuid({ message: 'Unknown photo' }))
    .max(6, 'At most 6 photos')
    .optional(),
  img: z
    .union([
      z.literal(''),
      z
        .url({ protocol: /^https?$/, message: 'Image URL must start with http:// or https://' })
        // It is sent with the listing on every page that shows it.
        .max(2048, 'Image URL is too long'),
    ])
    .optional(),
})

const ignoredSeedFields = {
  seller_name: z.unknown().optional(),
  seller_email: z.unknown().optional(),
  advertise: z.unknown().optional(),
  sellStatus: z.unknown().optional(),
  postedOn: z.unknown().optional(),
  post_date: z.unknown().optional(),
}

function atLeastOnePhoto(p: { images?: string[]; img?: string }) {
  return (p.images?.length ?? 0) > 0 || Boolean(p.img)
}

export const NewProduct = ProductFields.extend(ignoredSeedFields)
  .strict()
  .refine(atLeastOnePhoto, { message: 'Add at least one photo', path: ['images'] })
export type NewProduct = z.infer<typeof NewProduct>
export type NewProductInput = z.input<typeof NewProduct>

export const ProductUpdate = ProductFields.partial()
  .extend(ignoredSeedFields)
  .strict()
  .refine((p) => p.images === undefined || p.images.length > 0 || Boolean(p.img), {
    message: 'Add at least one photo',
    path: ['images'],
  })
export type ProductUpdate = z.infer<typeof ProductUpdate>

export const SellerProductsQuery = z.strictObject({
  email: z.email({ message: 'A valid email is required' }),
})

export const Upload = z.object({ _id: z.string(), card: z.string(), detail: z.string() })
export type Upload = z.infer<typeof Upload>

export const UPLOAD_LIMITS = { maxBytes: 10 * 1024 * 1024, maxPixels: 40_000_000, maxPhotos: 6 }
