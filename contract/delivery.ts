import { z } from 'zod'
import { DELIVERY_OPTIONS } from './delivery-options'
import { singleLine } from './text'

// How a laptop can be had: met in person, shipped, or either (the seller chooses per listing), the parcel a
// shipped laptop travels in, and the postal addresses a shipment needs (docs/decisions/0074).

export { canMeet, canShip, DELIVERY_OPTION_LABELS, DELIVERY_OPTIONS } from './delivery-options'
/** A listing's delivery options as the schemas take them (the list, its labels and tests: delivery-options.ts). */
export const DeliveryOption = z.enum(DELIVERY_OPTIONS, { error: 'Choose how the buyer gets the laptop' })
export type DeliveryOption = z.infer<typeof DeliveryOption>

/** What the buyer of one booking chose. */
export const DELIVERY_METHODS = ['meet', 'ship'] as const
export const DeliveryMethod = z.enum(DELIVERY_METHODS, { error: 'Choose shipping or meeting in person' })
export type DeliveryMethod = z.infer<typeof DeliveryMethod>

/**
 * Why a booking cannot be paid yet for want of a delivery choice, in words for the buyer; null when it can. A
 * laptop shipped only needs a shipping rate chosen (meeting in person is the default of every other booking).
 * The one rule every payment start reads (server/modules/payments: lockPayableBooking), and the checkout shows.
 */
export function whyDeliveryMissing(option: DeliveryOption, method: DeliveryMethod): string | null {
  if (option === 'ship' && method !== 'ship') {
    return 'This laptop is shipped only: choose a shipping address and rate before paying'
  }
  return null
}

/** A parcel's carrier statuses that say it will not reach its address: it failed, or goes back to its sender. */
export const LOST_PARCEL_STATUSES = ['failure', 'return_to_sender'] as const

/** Whether a parcel's carrier status (a label's) says the carrier lost it (LOST_PARCEL_STATUSES). */
export const isParcelLost = (status: string | null | undefined): boolean =>
  (LOST_PARCEL_STATUSES as readonly string[]).includes(status ?? '')

/**
 * The boxes a laptop ships in, by screen size (inside dimensions in inches, and the packed weight a laptop of
 * that size usually comes to with its charger and padding). The seller may change the weight and the box.
 */
export const PARCEL_SIZES = {
  small: {
    label: 'Small box (up to 13.5-inch)',
    maxScreenInches: 13.5,
    lengthIn: 16,
    widthIn: 12,
    heightIn: 4,
    weightOz: 80,
  },
  medium: {
    label: 'Medium box (up to 15.6-inch)',
    maxScreenInches: 15.6,
    lengthIn: 18,
    widthIn: 14,
    heightIn: 4,
    weightOz: 112,
  },
  large: {
    label: 'Large box (up to 21-inch)',
    maxScreenInches: 21,
    lengthIn: 22,
    widthIn: 16,
    heightIn: 5,
    weightOz: 160,
  },
} as const
export const PARCEL_SIZE_KEYS = ['small', 'medium', 'large'] as const
export const ParcelSize = z.enum(PARCEL_SIZE_KEYS, { error: 'Choose a box size' })
export type ParcelSize = z.infer<typeof ParcelSize>

/** The box a laptop with this screen fits. */
export function parcelSizeFor(screenInches: number): ParcelSize {
  return PARCEL_SIZE_KEYS.find((k) => screenInches <= PARCEL_SIZES[k].maxScreenInches) ?? 'large'
}

/** The parcel a listing ships as: its box and weight, or what its screen size implies when the seller set none. */
export function parcelOf(p: {
  screenInches: number
  parcelSize: string | null
  parcelWeightOz: number | null
}) {
  const size: ParcelSize = ParcelSize.safeParse(p.parcelSize).data ?? parcelSizeFor(p.screenInches)
  const box = PARCEL_SIZES[size]
  return {
    weightOz: p.parcelWeightOz ?? box.weightOz,
    lengthIn: box.lengthIn,
    widthIn: box.widthIn,
    heightIn: box.heightIn,
  }
}

/** Weight a seller types, in ounces: a laptop parcel weighs between 1 and 25 pounds. */
export const ParcelWeightOz = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? null : Number(v)) : v),
  z
    .number({ error: 'Parcel weight must be a number of ounces' })
    .int('Parcel weight must be a whole number of ounces')
    .min(16, 'Parcel weight must be at least 16 oz (1 lb)')
    .max(400, 'Parcel weight must be at most 400 oz (25 lb)')
    .nullable(),
)

const line = (label: string, max: number) =>
  singleLine(
    z
      .string({ error: `${label} is required` })
      .trim()
      .min(1, `${label} is required`)
      .max(max, `${label} is too long`),
    label,
  )

/** The states (and DC) a US address may name. */
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
] as const

/** A postal address in the United States (where Laptop Market sells), as a carrier takes it. */
export const PostalAddress = z.strictObject({
  name: line('Name', 80),
  street1: line('Street address', 120),
  street2: z
    .string()
    .trim()
    .max(120, 'Apartment, suite is too long')
    .regex(/^[^\r\n]*$/, 'Apartment, suite must be one line')
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  city: line('City', 80),
  state: z
    .string({ error: 'State is required' })
    .trim()
    .toUpperCase()
    .refine((v) => (US_STATES as readonly string[]).includes(v), 'Enter a US state as two letters, like CA'),
  zip: z
    .string({ error: 'ZIP code is required' })
    .trim()
    .regex(/^\d{5}(-\d{4})?$/, 'Enter a 5-digit ZIP code'),
  country: z.literal('US', { error: 'Laptop Market ships within the United States only' }).default('US'),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ()-]{6,30}$/, 'Enter a valid phone number')
    .optional()
    .or(z.literal('').transform(() => undefined)),
})
export type PostalAddress = z.infer<typeof PostalAddress>
export type PostalAddressInput = z.input<typeof PostalAddress>

/** A kept address as it leaves the server. */
export const PostalAddressView = z.object({
  name: z.string(),
  street1: z.string(),
  street2: z.string().optional(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country: z.string(),
  phone: z.string().optional(),
})
export type PostalAddressView = z.infer<typeof PostalAddressView>

/** One shipping rate a buyer can choose (quoted by the carrier for this listing's parcel to their address). */
export const ShippingRateOption = z.object({
  shipment_id: z.string(),
  rate_id: z.string(),
  carrier: z.string(),
  service: z.string(),
  amount_cents: z.number().int(),
  delivery_days: z.number().int().nullable(),
})
export type ShippingRateOption = z.infer<typeof ShippingRateOption>

export const RateQuoteBody = z.strictObject({ address: PostalAddress })
export type RateQuoteBody = z.infer<typeof RateQuoteBody>
/** A quote for a booking: its rates cheapest first; `test_mode` when they come from the built-in test carrier. */
export const RateQuoteAnswer = z.object({
  shipment_id: z.string(),
  rates: z.array(ShippingRateOption),
  test_mode: z.boolean(),
})
export type RateQuoteAnswer = z.infer<typeof RateQuoteAnswer>

/** The buyer's choice for a booking: meet in person, or ship to an address at a quoted rate. */
export const DeliveryChoiceBody = z.discriminatedUnion(
  'method',
  [
    z.strictObject({ method: z.literal('meet') }),
    z.strictObject({
      method: z.literal('ship'),
      address: PostalAddress,
      shipment_id: z.string({ error: 'Choose a shipping rate' }).min(1, 'Choose a shipping rate').max(200),
      rate_id: z.string({ error: 'Choose a shipping rate' }).min(1, 'Choose a shipping rate').max(200),
    }),
  ],
  { error: 'Choose shipping or meeting in person' },
)
export type DeliveryChoiceBody = z.infer<typeof DeliveryChoiceBody>

/** A booking's delivery as the buyer and (once paid) the seller see it. */
export const BookingDelivery = z.object({
  /** What the listing offers (meet, ship, both): what the buyer may choose from before paying. */
  offered: DeliveryOption.optional(),
  method: DeliveryMethod,
  shipping_cents: z.number().int(),
  /** Only for the buyer, the seller once paid, and admins. */
  address: PostalAddressView.nullable(),
  rate: z
    .object({
      carrier: z.string(),
      service: z.string(),
      amount_cents: z.number().int(),
      delivery_days: z.number().int().nullable(),
    })
    .nullable(),
  /** The seller must buy the label by then, or the sale is cancelled and refunded. */
  ship_by: z.string().nullable(),
})
export type BookingDelivery = z.infer<typeof BookingDelivery>

/** The carrier's statuses a parcel moves through (EasyPost's tracker statuses). */
export const PARCEL_STATUS_LABELS: Record<string, string> = {
  unknown: 'Status unknown',
  pre_transit: 'Label created',
  in_transit: 'In transit',
  out_for_delivery: 'Out for delivery',
  available_for_pickup: 'Ready for pickup',
  delivered: 'Delivered',
  failure: 'Could not be delivered',
  return_to_sender: 'Returning to the seller',
  cancelled: 'Label cancelled',
  error: 'Carrier error',
}

/** One step of a parcel's tracking, as the carrier reported it. */
export const ParcelEventView = z.object({
  status: z.string(),
  message: z.string(),
  /** When the carrier saw it. */
  at: z.string(),
})
export type ParcelEventView = z.infer<typeof ParcelEventView>

/** A shipped sale's parcel on the deal: its label, carrier, tracking number and each tracking step. */
export const SaleParcel = z.object({
  carrier: z.string(),
  service: z.string(),
  tracking_code: z.string(),
  /** The carrier's public tracking page (the test carrier's own page in test mode). */
  tracking_url: z.string().nullable(),
  /** The label to print: the seller's (and admins'); null for the buyer. */
  label_url: z.string().nullable(),
  status: z.string(),
  status_at: z.string().nullable(),
  /** Bought from the built-in test carrier ("Test mode"): nothing really travels. */
  test_mode: z.boolean(),
  events: z.array(ParcelEventView),
})
export type SaleParcel = z.infer<typeof SaleParcel>

/** `POST /api/bookings/:id/label`: the sale's parcel, bought now or before. */
export const ShippingLabelAnswer = z.object({ parcel: SaleParcel })
export type ShippingLabelAnswer = z.infer<typeof ShippingLabelAnswer>
