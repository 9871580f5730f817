// The offers feature as other features see it: import from here, never from a file inside it
// (biome.json's noRestrictedImports for web/src/features; docs/decisions/0048).

export { MakeOfferButton } from './make-offer-button'
export { OfferList } from './offer-list'
export { OfferThread } from './offer-thread'
export { useOffers } from './offers-api'
