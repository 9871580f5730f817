// Front door of the listing-reviews module (docs/decisions/0054): what the rest of the server may use of it.
// Admins' review of new and edited listings, and serials reported stolen.
export { listingReviewRoutes } from './listing-reviews.routes'
export {
  assertNotStolen,
  reviewOfEdit,
  reviewOfNewListing,
  sendBackToReview,
  serialKey,
} from './listing-reviews.service'
