// The sellers feature as other features see it: import from here, never from a file inside it
// (biome.json's noRestrictedImports for web/src/features; docs/decisions/0048).

export { SaleReview } from './leave-review'
export { ReportedReviews } from './reported-reviews'
export { reportReview, useMyReviews, useSellerPage } from './reviews-api'
