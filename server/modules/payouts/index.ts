// Front door of the payouts module (docs/decisions/0054): what the rest of the server may use of it.
// Sellers' payouts (Stripe Connect or test payouts), their schedule and the daily reconciliation.
export { handleConnectEvent, reverseSaleTransfer } from './connect-payouts'
export { payoutItem } from './earnings'
export { payoutRoutes } from './payouts.routes'
export { registerPayoutJobs, runPayouts } from './payouts.service'
export { createConnect } from './stripe-connect'
