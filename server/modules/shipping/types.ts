// The shipping module's shapes, shared by its files and by the modules that use it (through index.ts).
import type { Db } from '#server/db/client'
import type { parcelEvents, parcels } from '#server/db/schema'

export type PostalAddress = {
  name: string
  street1: string
  street2?: string
  city: string
  state: string
  zip: string
  country: string
  phone?: string
}
export type ParcelSpec = { weightOz: number; lengthIn: number; widthIn: number; heightIn: number }
export type ShippingRate = {
  rateId: string
  carrier: string
  service: string
  amountCents: number
  deliveryDays: number | null
}
export type RateQuote = { shipmentId: string; rates: ShippingRate[] }
export type ParcelRow = typeof parcels.$inferSelect
export type ParcelEventRow = typeof parcelEvents.$inferSelect
export type ParcelStatus = ParcelRow['status']

/** What a return parcel's status change does (RETURNS registers it; the webhook receiver calls it in its transaction). */
export type ReturnParcelHandler = (tx: Db, parcel: ParcelRow, status: ParcelStatus) => Promise<void>
