// The buying feature as other features see it: import from here, never from a file inside it
// (biome.json's noRestrictedImports for web/src/features; docs/decisions/0048).

export { BookNowButton } from './book-now-button'
export { usePaymentConfig } from './bookings-api'
export { SellerDealActions } from './deal-actions'
export { StageBadge } from './deal-stage'
