import { z } from 'zod'
import { ALERT_CHOICES } from './alert-choices'
import { Product } from './products'

// Favourites: laptops a signed-in user keeps, with what changed since they saved each one, and alerts when a
// saved laptop gets cheaper or is available again (docs/decisions/0028-favourites-and-saved-searches.md).

export { ALERT_CHOICES, ALERT_LABELS } from './alert-choices'
/** How a user hears about their alerts, as the schemas take it (the list and its labels: alert-choices.ts). */
export const AlertChoice = z.enum(ALERT_CHOICES, {
  error: 'Choose how to be alerted: instant, daily or off',
})
export type AlertChoice = z.infer<typeof AlertChoice>

/** A favourite's price must fall by at least this share of the price last told before it is worth an email. */
export const PRICE_DROP_ALERT_SHARE = 0.05

/** Where a saved laptop stands now. */
export const FavouriteStatus = z.enum(['available', 'reserved', 'sold', 'expired', 'removed'])
export type FavouriteStatus = z.infer<typeof FavouriteStatus>

export const Favourite = z.object({
  productId: z.string(),
  /** The listing as it is now (a removed one keeps its last name, price and photo). */
  product: Product,
  /** The price when it was saved, in dollars. */
  savedPrice: z.number(),
  /** The price now, in dollars. */
  price: z.number(),
  status: FavouriteStatus,
  savedAt: z.string(),
})
export type Favourite = z.infer<typeof Favourite>
export const FavouriteList = z.array(Favourite)

export const FavouriteParams = z.strictObject({ productId: z.uuid({ message: 'Must be a valid id' }) })

/** The ids of the caller's favourites, for the hearts on cards. */
export const FavouriteIds = z.object({ ids: z.array(z.string()) })
export type FavouriteIds = z.infer<typeof FavouriteIds>

/** How the caller hears that a saved laptop got cheaper or is available again. */
export const FavouriteAlertSetting = z.strictObject({ alert: AlertChoice })
export type FavouriteAlertSetting = z.infer<typeof FavouriteAlertSetting>
