import { z } from 'zod'

// The price guide: what similar laptops sold for (paid, not refunded) over the last 180 days.
// docs/decisions/0026-price-guide.md says how "similar" widens and how the figures are kept.

/** Fewer sales than this and no range is shown anywhere. */
export const PRICE_GUIDE_MIN_SALES = 5
/** How far back sales count. */
export const PRICE_GUIDE_WINDOW_DAYS = 180

const wholeNumber = (label: string, min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: `${label} is required` })
      .int(`${label} must be a whole number of GB`)
      .min(min, `${label} must be at least ${min} GB`)
      .max(max, `${label} must be at most ${max} GB`),
  )

/** `GET /api/price-guide?brand=&processor=&ram_gb=&storage_gb=`: every field required. */
export const PriceGuideQuery = z.strictObject({
  brand: z.uuid({ message: 'Must be a valid id' }),
  processor: z
    .string({ error: 'Processor is required' })
    .trim()
    .min(2, 'Processor is required')
    .max(80, 'Processor is too long'),
  ram_gb: wholeNumber('RAM', 1, 256),
  storage_gb: wholeNumber('Storage', 16, 16_384),
})
export type PriceGuideQuery = z.infer<typeof PriceGuideQuery>

/** Dollars; the three figures are null when fewer than PRICE_GUIDE_MIN_SALES sales back them. */
export const PriceGuide = z.object({
  count: z.number().int(),
  p25: z.number().nullable(),
  median: z.number().nullable(),
  p75: z.number().nullable(),
})
export type PriceGuide = z.infer<typeof PriceGuide>

export { type PriceVerdict, priceVerdict } from './price-verdict'
/** The guide a listing carries: defined beside the listing (contract/products.ts). */
export { ListingPriceGuide } from './products'
