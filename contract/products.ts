import { z } from 'zod'

/**
 * What `battery_verified` means. The report is a text (or HTML) file the seller uploads: nothing signs it, and one
 * can be typed by hand, so the figures are "read from the seller's report file", never "verified".
 */
export const BATTERY_FROM_REPORT_FILE =
  "True when the battery figures were read from the seller's report file (Windows powercfg, macOS system_profiler or Linux upower output, uploaded by the seller), false when the seller typed them. The file is not signed and could have been written by hand: this says where the figures came from, not that anyone checked the battery."

import { BatteryReportSource } from './battery-reports'
import { Booking } from './bookings'
import { CONDITIONS } from './conditions'
import { DeliveryOption, ParcelSize, ParcelWeightOz, PostalAddress, PostalAddressView } from './delivery'
import { ReviewState, SerialNumber } from './listing-reviews'
import { pagingFields } from './paging'
import { SaleMoney } from './seller-money'
import { singleLine } from './text'

/** The picture a listing shows when it has none of its own (served from web/public). */
export const PLACEHOLDER_IMAGE = '/images/laptop-placeholder.svg'

export { CONDITION_DEFINITIONS, CONDITIONS } from './conditions'
/** A grade, as the schemas take it (the list and what each means: conditions.ts). */
export const Condition = z.enum(CONDITIONS)
export type Condition = z.infer<typeof Condition>

// ---------------------------------------------------------------------------------------------
// Battery evidence: health is the full-charge capacity as a percentage of the design capacity.
// ---------------------------------------------------------------------------------------------

/** The least battery health each grade allows (the grades above); Fair has none. */
export const BATTERY_MINIMUM_PCT: Record<Condition, number | null> = { Excellent: 85, Good: 75, Fair: null }

/** Why a battery health does not fit a grade, or undefined when it does (or is not given). */
export function batteryGradeProblem(
  condition: Condition | undefined,
  healthPct: number | null | undefined,
): string | undefined {
  if (!condition || healthPct === null || healthPct === undefined) return undefined
  const minimum = BATTERY_MINIMUM_PCT[condition]
  if (minimum === null || healthPct >= minimum) return undefined
  return `${condition} needs battery health of at least ${minimum}%; choose a lower condition or check the reading`
}

/**
 * The battery health a description names ("Battery health 84%", "battery at 79%", "battery holds 80% of
 * design capacity"), or null when it names none. Listings state the figure in a field of its own, and the
 * two must agree: the listing form warns when they do not.
 */
export function batteryPctInText(text: string): number | null {
  const match =
    /\bbattery\b(?:\s+(?:health|health\s+at|at|holds|is|is\s+at|capacity|capacity\s+at|of))*\s*:?\s*(\d{1,3})\s?%/i.exec(
      text,
    )
  const pct = match ? Number(match[1]) : Number.NaN
  return pct >= 1 && pct <= 100 ? pct : null
}

/** What the listing form says when the description names another battery figure than the battery field. */
export function batteryMismatch(
  description: string,
  healthPct: number | null | undefined,
): string | undefined {
  const named = batteryPctInText(description)
  if (named === null || healthPct === null || healthPct === undefined || named === healthPct) return undefined
  return `Your description says the battery is at ${named}%, but Battery health says ${healthPct}%. Make them agree.`
}

/** Where a seller reads the two figures, per system. */
export const BATTERY_HOW_TO: { system: string; steps: string }[] = [
  {
    system: 'Windows',
    steps:
      'Run powercfg /batteryreport in a Command Prompt and open battery-report.html: health is FULL CHARGE CAPACITY ÷ DESIGN CAPACITY × 100; the cycle count is under Installed batteries.',
  },
  {
    system: 'macOS',
    steps:
      'Hold Option, choose Apple menu → System Information → Power: Full Charge Capacity ÷ design capacity (or Maximum Capacity in Settings → Battery), and Cycle Count.',
  },
  {
    system: 'Linux',
    steps:
      'Run upower -i $(upower -e | grep BAT): capacity is the health percentage; charge-cycles the count.',
  },
]
/** What similar laptops sold for (contract/price-guide.ts), on a listing only when at least 5 sales back it. */
export const ListingPriceGuide = z.object({
  count: z.number().int(),
  p25: z.number(),
  median: z.number(),
  p75: z.number(),
})
export type ListingPriceGuide = z.infer<typeof ListingPriceGuide>

export const ProductImage = z.object({
  card: z.string(),
  /** The 960-pixel size between the two, which phones take; photos stored before it have none. */
  medium: z.string().optional(),
  detail: z.string(),
})
export type ProductImage = z.infer<typeof ProductImage>

/**
 * Where each of a seller's listings stands, for My Product's tabs, first match wins: a sale waiting for the seller
 * (the deal's table), waiting for review, on sale (the one on-sale rule), sold, or ended (expired, not approved).
 */
export const SELLER_LISTING_STATES = ['needs_action', 'on_sale', 'in_review', 'sold', 'ended'] as const
export const SellerListingState = z.enum(SELLER_LISTING_STATES)
export type SellerListingState = z.infer<typeof SellerListingState>
export const SELLER_LISTING_STATE_LABELS: Record<SellerListingState, string> = {
  needs_action: 'Needs action',
  on_sale: 'On sale',
  in_review: 'Waiting for review',
  sold: 'Sold',
  ended: 'Ended',
}

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
  /** When it last came on sale (posted live, approved after review, renewed after expiring): "new" to a saved search from then. */
  on_sale_since: z.string(),
  /** The seller's id (for the seller page). */
  seller_id: z.string(),
  /** The seller's published rating from buyers' reviews: average (one decimal, null with none) and count. */
  seller_rating: z.object({ average: z.number().nullable(), count: z.number().int() }).optional(),
  /** While a buyer holds the laptop to pay: until when (ISO time); nobody else can pay meanwhile. */
  reservedUntil: z.string().nullable(),
  /** Battery health in percent of design capacity, and charge cycles; null when the seller did not report them. */
  battery_health_pct: z.number().int().nullable(),
  battery_cycles: z.number().int().nullable(),
  // Battery read from the seller's report file (always sent by the server; optional for older clients' fixtures).
  // The name stays for the clients that read it; what it means is in its description.
  battery_verified: z.boolean().optional().meta({ description: BATTERY_FROM_REPORT_FILE }),
  /** Which system wrote the report, and its date (ISO time); null when the figures were typed. */
  battery_source: BatteryReportSource.nullable().optional(),
  battery_report_date: z.string().nullable().optional(),
  /** The report is more than 30 days old. */
  battery_report_is_old: z.boolean().optional(),
  /**
   * Only for the listing's seller and admins: the last four characters of the laptop's serial number (the rest is
   * never kept); null when not given. A buyer sees them on the deal once paid (Booking.serial_last4).
   */
  serial_last4: z.string().nullable().optional(),
  /** Only for the listing's seller and admins: pending (waits for an admin), approved, rejected (with the reason). */
  review_state: ReviewState.optional(),
  review_reason: z.string().nullable().optional(),
  // Price guide and expiry (always sent by the server; optional for older clients' fixtures).
  /** What similar laptops sold for, when at least 5 sales back it. */
  price_guide: ListingPriceGuide.nullable().optional(),
  /** Not renewed in time: out of search and the home page, still readable at its URL. */
  expired: z.boolean().optional(),
  /** When the expiry clock last started (posting or renewal). */
  renewedOn: z.string().optional(),
  /**
   * Only on the seller's own listings: the paid booking (the sale) and where its deal is, so My Product
   * shows the stage and what the seller can do next; null when nobody has paid.
   */
  sale: Booking.nullable().optional(),
  /**
   * Only on the seller's own listings, with `sale`: that sale's money from the ledger (the price agreed, the fee,
   * what the seller receives, where it is), as Earnings shows it; null before the ledger has its charge.
   */
  sale_money: SaleMoney.nullable().optional(),
  /** Only on the seller's own listings: how many people keep it in their favourites. */
  saved_count: z.number().int().optional(),
  /** Whether buyers may make offers on it (the seller turns them off per listing). */
  offers_enabled: z.boolean().optional(),
  /** Only on the seller's own listings: open offers waiting on it, and the floor under which offers are declined. */
  offers_waiting: z.number().int().optional(),
  offer_floor: z.number().nullable().optional(),
  offer_floor_cents: z.number().int().nullable().optional(),
  /** Only on the seller's own listings: where it stands (My Product's tabs). */
  listing_state: SellerListingState.optional(),
  /** Only on the seller's own listings: when it leaves search unless renewed (LISTING_EXPIRY_DAYS after renewedOn). */
  expires_at: z.string().optional(),
  /** How a buyer can have it: met in person, shipped, or either. */
  delivery: DeliveryOption.optional(),
  /** The parcel it ships in: its box and packed weight (what the screen size implies unless the seller set them). */
  parcel: z
    .object({
      size: ParcelSize,
      weight_oz: z.number().int(),
      size_is_default: z.boolean(),
      weight_is_default: z.boolean(),
    })
    .optional(),
  /** Only for the listing's seller and admins: where it ships from (the carrier's from address). */
  ship_from: PostalAddressView.nullable().optional(),
})
export type Product = z.infer<typeof Product>

/** Renew is offered in the last days before a listing expires (the seller is emailed 3 days before), and after. */
export const RENEW_WINDOW_DAYS = 7

/** Whether My Product offers Renew: the listing has expired, or expires within RENEW_WINDOW_DAYS. */
export function canRenewSoon(product: Pick<Product, 'expired' | 'expires_at'>, now = Date.now()): boolean {
  if (product.expired) return true
  if (!product.expires_at) return false
  return Date.parse(product.expires_at) - now <= RENEW_WINDOW_DAYS * 86_400_000
}

export const ProductList = z.array(Product)

/**
 * A number, or a string holding one as a form field gives it. Only strings are converted: `true`, `[5]`
 * and `null` would otherwise pass as 1, 5 and 0.
 */
const fromFormNumber = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? Number(value) : value

/** An optional number field: an empty input is null ("not reported"); anything else as fromFormNumber. */
const fromOptionalFormNumber = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? null : fromFormNumber(value)

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
  name: singleLine(
    z
      .string({ error: 'Name is required' })
      .trim()
      .min(3, 'Name must be at least 3 characters')
      .max(120, 'Name is too long'),
    'Name',
  ),
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
  condition: z.enum(CONDITIONS, { error: 'Choose Excellent, Good or Fair' }),
  location: singleLine(
    z
      .string({ error: 'Location is required' })
      .trim()
      .min(2, 'Location is required')
      .max(120, 'Location is too long'),
    'Location',
  ),
  uses: z.preprocess(
    fromFormNumber,
    z
      .number({ error: 'Years of use is required' })
      .int('Years of use must be a whole number')
      .min(0, 'Years of use cannot be negative')
      .max(30, 'Years of use must be at most 30'),
  ),
  processor: singleLine(
    z
      .string({ error: 'Processor is required' })
      .trim()
      .min(2, 'Processor is required')
      .max(80, 'Processor is too long'),
    'Processor',
  ),
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
  /** Optional battery evidence; empty or null means not reported. */
  battery_health_pct: z.preprocess(
    fromOptionalFormNumber,
    z
      .number({ error: 'Battery health must be a number' })
      .int('Battery health must be a whole percentage')
      .min(1, 'Battery health must be between 1% and 100%')
      .max(100, 'Battery health must be between 1% and 100%')
      .nullable()
      .optional(),
  ),
  battery_cycles: z.preprocess(
    fromOptionalFormNumber,
    z
      .number({ error: 'Battery cycles must be a number' })
      .int('Battery cycles must be a whole number')
      .min(0, 'Battery cycles cannot be negative')
      .max(10_000, 'Battery cycles must be at most 10,000')
      .nullable()
      .optional(),
  ),
  /** The laptop's serial number: kept private, only its last four characters are shown. */
  serial_number: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    SerialNumber.optional(),
  ),
  /** How a buyer can have it (meet in person unless the seller ships it). */
  delivery: DeliveryOption.optional(),
  /** The box it ships in; empty or null: the one its screen size implies. */
  parcel_size: z.preprocess((v) => (v === '' ? null : v), ParcelSize.nullable().optional()),
  /** The packed weight in ounces; empty or null: what its box usually weighs. */
  parcel_weight_oz: ParcelWeightOz.optional(),
  /** Where it ships from: needed when it ships. */
  ship_from: PostalAddress.nullable().optional(),
  /** Whether buyers may make offers (on unless turned off). */
  offers_enabled: z.boolean({ error: 'Offers must be on or off' }).optional(),
  /** Offers under this many dollars are declined at once; empty or null: no floor of the seller's own. */
  offer_floor: z.preprocess(fromOptionalFormNumber, Price('Offer floor').nullable().optional()),
  /**
   * Uploaded photos by id, in order (1 to 6), and/or one https image URL, which the server fetches once and
   * stores like an upload (viewers' browsers never call that host); a path under /media/ must be the seller's
   * own upload. Plain http (readable and changeable on the way) is refused.
   */
  images: z
    .array(z.uuid({ message: 'Unknown photo' }))
    .max(6, 'At most 6 photos')
    .optional(),
  img: z
    .string()
    // It is sent with the listing on every page that shows it.
    .max(2048, 'Image URL is too long')
    .refine((v) => v === '' || isHttpsUrl(v) || OWN_IMAGE_PATH.test(v), 'Image URL must start with https://')
    .optional(),
})

/** A picture this server already serves (demo images, uploaded photos). */
const OWN_IMAGE_PATH = /^\/(images|media)\/(?!.*\.\.)[A-Za-z0-9._/-]+$/

function isHttpsUrl(value: string): boolean {
  if (!/^https:\/\/[^\s]+$/i.test(value)) return false
  try {
    return new URL(value).protocol === 'https:'
  } catch {
    return false
  }
}

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

/** Battery health that contradicts the chosen grade is refused on the health field. */
function batteryFitsGrade(
  p: { condition?: Condition; battery_health_pct?: number | null },
  ctx: z.RefinementCtx,
) {
  const problem = batteryGradeProblem(p.condition, p.battery_health_pct)
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['battery_health_pct'] })
}

/** A listing that ships needs the address it ships from. */
export const SHIP_FROM_NEEDED = 'Enter the address it ships from'
function shipsFromSomewhere(p: { delivery?: DeliveryOption; ship_from?: unknown }, ctx: z.RefinementCtx) {
  if ((p.delivery === 'ship' || p.delivery === 'both') && p.ship_from === null) {
    ctx.addIssue({ code: 'custom', message: SHIP_FROM_NEEDED, path: ['ship_from'] })
  }
}

export const NewProduct = ProductFields.extend(ignoredSeedFields)
  .strict()
  .refine(atLeastOnePhoto, { message: 'Add at least one photo', path: ['images'] })
  .superRefine(batteryFitsGrade)
  .superRefine((p, ctx) => shipsFromSomewhere({ delivery: p.delivery, ship_from: p.ship_from ?? null }, ctx))
export type NewProduct = z.infer<typeof NewProduct>
export type NewProductInput = z.input<typeof NewProduct>

export const ProductUpdate = ProductFields.partial()
  .extend(ignoredSeedFields)
  .strict()
  .refine((p) => p.images === undefined || p.images.length > 0 || Boolean(p.img), {
    message: 'Add at least one photo',
    path: ['images'],
  })
  .superRefine(batteryFitsGrade)
  .superRefine(shipsFromSomewhere)
export type ProductUpdate = z.infer<typeof ProductUpdate>

/** The answer to an edit: as the seed's, with what the seller should know (a typed battery figure replaced). */
export const ProductModified = z.object({
  acknowledged: z.boolean(),
  modifiedCount: z.number().int(),
  notices: z.array(z.string()).optional(),
})
export type ProductModified = z.infer<typeof ProductModified>

/** A seller's own listings, a page at a time (headers in contract/paging.ts). */
export const SellerProductsQuery = z.strictObject({
  email: z.email({ message: 'A valid email is required' }),
  /** Only the listings in this state. */
  state: SellerListingState.optional(),
  /** Only this listing (the link in a sale's email). */
  product: z.uuid({ message: 'Not a listing id' }).optional(),
  ...pagingFields,
})

/** How many of a seller's listings are in each state, and in all. */
export const SellerListingCounts = z.object({
  needs_action: z.number().int(),
  on_sale: z.number().int(),
  in_review: z.number().int(),
  sold: z.number().int(),
  ended: z.number().int(),
  all: z.number().int(),
})
export type SellerListingCounts = z.infer<typeof SellerListingCounts>
export const SellerCountsQuery = z.strictObject({ email: z.email({ message: 'A valid email is required' }) })

export const Upload = z.object({
  _id: z.string(),
  card: z.string(),
  medium: z.string().optional(),
  detail: z.string(),
})
export type Upload = z.infer<typeof Upload>

export const UPLOAD_LIMITS = { maxBytes: 10 * 1024 * 1024, maxPixels: 40_000_000, maxPhotos: 6 }
