// The limits of an offer, without the schemas (offers.ts): the listing's page imports these.

/** At most this many proposals (the offer and every counter, by either side) per buyer and listing. */
export const OFFER_MAX_ROUNDS = 3
/** At most this many open offers per buyer across the marketplace. */
export const OFFER_MAX_OPEN_PER_BUYER = 5
/** Offers under this share of the asking price are refused outright. */
export const OFFER_MIN_SHARE = 0.5
export const OFFER_NOTE_MAX = 500
