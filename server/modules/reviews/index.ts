// Front door of the reviews module (docs/decisions/0054): what the rest of the server may use of it.
// Reviews between a deal's buyer and seller, and the seller's page.
export { reviewRoutes } from './reviews.routes'
export { findSellerPage } from './reviews.service'
