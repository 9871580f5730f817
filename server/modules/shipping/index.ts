// Front door of the shipping module (docs/decisions/0054, 0072): what the rest of the server may use of it.
// Rates and labels through EasyPost's SDK (or the built-in test carrier, "Test mode"), a booking's parcels
// and their tracking, the `tracker.updated` webhook, and what a parcel's status does to its deal.
//
// quoteRates and buyLabel call the carrier over HTTP: call them outside an open transaction (on the embedded
// database the test carrier's own queries would wait for it). buyLabel records the parcel in its own
// transaction and is idempotent per (bookingId, purpose, returnId): post the ledger and the deal's move after
// it, in yours; a retry gets the same parcel and buys nothing.
import type { AppContext, AppInstance } from '#server/app-context'
import { type CarrierMode, carrierOf, createCarrier } from './carrier'
import { registerTestCarrierJobs } from './clock'
import { testCarrierRoutes } from './test-carrier.routes'
import { shippingWebhookRoutes } from './webhook.routes'

export { advanceTracker } from './clock'
export { buyLabel, parcelsOfBooking, quoteRates } from './labels'
export { quotedRate } from './quotes'
export { type ParcelWithEvents, saleParcelsOf, toSaleParcel, voidLabel } from './sale-parcel'
export { onReturnParcelStatus, STATUS_RANK, saleShipped } from './tracking'
export type {
  ParcelEventRow,
  ParcelRow,
  ParcelSpec,
  ParcelStatus,
  PostalAddress,
  RateQuote,
  ReturnParcelHandler,
  ShippingRate,
} from './types'
export type { CarrierMode }
export { shippingWebhookRoutes }

/** Where labels come from: 'easypost' (EASYPOST_API_KEY set) or 'test' (the built-in test carrier: show "Test mode"). */
export function carrierMode(ctx: AppContext): CarrierMode {
  return carrierOf(ctx).mode
}

/**
 * Sets up shipping on the app: the carrier (the SDK's client), and in test mode the test carrier's routes
 * (/test-carrier/…) and its clock's jobs. The webhook route is registered with the other /api routes.
 */
export async function registerShipping(app: AppInstance) {
  const carrier = createCarrier(app)
  app.addHook('onClose', () => carrier.close())
  if (carrier.mode === 'test') {
    await app.register(testCarrierRoutes, { prefix: '/test-carrier' })
    registerTestCarrierJobs(app.ctx)
  }
}
