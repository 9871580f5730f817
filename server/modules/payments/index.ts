// Front door of the payments module (docs/decisions/0054): what the rest of the server may use of it.
// Card payments (Stripe or the built-in test processor), their webhooks and refunds.
export { choosePaymentProvider } from './payment-provider'
export { paymentRoutes } from './payments.routes'
export { refundOpenSaleOfListing } from './refunds'
