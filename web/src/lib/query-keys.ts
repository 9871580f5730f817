/**
 * Every React Query key the app uses, in one scheme: `<area>Keys.all` is the area's prefix (invalidate it
 * to refresh everything in the area), and each function below it names one kind of answer, most general
 * part first, so a prefix always covers what it should.
 */

export const sessionKeys = {
  all: ['session'] as const,
  me: () => [...sessionKeys.all, 'me'] as const,
  authOptions: () => [...sessionKeys.all, 'auth-options'] as const,
}

export const brandKeys = {
  all: ['brands'] as const,
  list: () => [...brandKeys.all, 'list'] as const,
}

/** Anything that shows listings lives under `products`, so one change to a listing refreshes every list. */
export const productKeys = {
  all: ['products'] as const,
  advertised: () => [...productKeys.all, 'advertised'] as const,
  category: (brandId: string, page?: unknown) =>
    page === undefined
      ? ([...productKeys.all, 'category', brandId] as const)
      : ([...productKeys.all, 'category', brandId, page] as const),
  detail: (id: string) => [...productKeys.all, 'detail', id] as const,
  search: (filters: object) => [...productKeys.all, 'search', filters] as const,
  suggestions: (q: string) => [...productKeys.all, 'suggestions', q] as const,
  /** Every seller's own list (prefix of `seller`). */
  sellers: () => [...productKeys.all, 'seller'] as const,
  seller: (email: string, page?: unknown) =>
    page === undefined
      ? ([...productKeys.sellers(), email] as const)
      : ([...productKeys.sellers(), email, page] as const),
}

export const bookingKeys = {
  all: ['bookings'] as const,
  mine: (email: string, page?: unknown) =>
    page === undefined
      ? ([...bookingKeys.all, 'list', email] as const)
      : ([...bookingKeys.all, 'list', email, page] as const),
  detail: (id: string) => [...bookingKeys.all, 'detail', id] as const,
  ofProduct: (email: string, productId: string) =>
    [...bookingKeys.all, 'of-product', email, productId] as const,
  /** A booking's return (contract/returns.ts), refreshed with the bookings. */
  return: (id: string) => [...bookingKeys.all, 'return', id] as const,
}

export const paymentKeys = {
  all: ['payments'] as const,
  config: () => [...paymentKeys.all, 'config'] as const,
  intent: (bookingId: string) => [...paymentKeys.all, 'intent', bookingId] as const,
  /** The payment page's hold on the laptop for one booking (not refreshed with the bookings after paying). */
  hold: (bookingId: string) => [...paymentKeys.all, 'hold', bookingId] as const,
  stripeJs: (publishableKey: string) => [...paymentKeys.all, 'stripe-js', publishableKey] as const,
}

/** Admin lists; a change to a user or a report refreshes the dashboard counts too. */
export const adminKeys = {
  all: ['admin'] as const,
  users: (kind: 'buyer' | 'seller', page?: unknown) =>
    page === undefined
      ? ([...adminKeys.all, `${kind}s`] as const)
      : ([...adminKeys.all, `${kind}s`, page] as const),
  reports: (page?: unknown) =>
    page === undefined
      ? ([...adminKeys.all, 'reports'] as const)
      : ([...adminKeys.all, 'reports', page] as const),
  disputes: () => [...adminKeys.all, 'disputes'] as const,
  returns: (which: 'awaiting' | 'all') => [...adminKeys.all, 'returns', which] as const,
  listingReviews: () => [...adminKeys.all, 'listing-reviews'] as const,
  audit: (filters: unknown) => [...adminKeys.all, 'audit', filters] as const,
}

export const securityKeys = {
  all: ['security'] as const,
  events: () => [...securityKeys.all, 'events'] as const,
  sessions: () => [...securityKeys.all, 'sessions'] as const,
  passkeys: () => [...securityKeys.all, 'passkeys'] as const,
  erasure: () => [...securityKeys.all, 'erasure'] as const,
}

export const dashboardKeys = {
  all: ['dashboard'] as const,
  overview: () => [...dashboardKeys.all, 'overview'] as const,
  /** A role's charts and lists. */
  role: (role: 'seller' | 'admin' | 'buyer') => [...dashboardKeys.all, 'role', role] as const,
}

/** What similar laptops sold for, per kind of laptop typed into the selling form. */
export const priceGuideKeys = {
  all: ['price-guide'] as const,
  query: (specs: object) => [...priceGuideKeys.all, specs] as const,
}

export const emailSettingsKeys = {
  all: ['email-settings'] as const,
  mine: () => [...emailSettingsKeys.all, 'mine'] as const,
}

/** Sellers' public pages and reviews; the caller's own reviews; reported reviews for admins. */
export const reviewKeys = {
  all: ['reviews'] as const,
  seller: (sellerId: string) => [...reviewKeys.all, 'seller', sellerId] as const,
  mine: () => [...reviewKeys.all, 'mine'] as const,
  reported: () => [...reviewKeys.all, 'reported'] as const,
}

/** Conversations on bookings: a thread, the caller's list, the unread counts, and reported messages (admins). */
export const messageKeys = {
  all: ['messages'] as const,
  thread: (bookingId: string) => [...messageKeys.all, 'thread', bookingId] as const,
  conversations: () => [...messageKeys.all, 'conversations'] as const,
  unread: () => [...messageKeys.all, 'unread'] as const,
  reported: () => [...messageKeys.all, 'reported'] as const,
}

/** The caller's favourites (the hearts' ids, the list, the alert choice) and saved searches. */
export const favouriteKeys = {
  all: ['favourites'] as const,
  ids: () => [...favouriteKeys.all, 'ids'] as const,
  list: () => [...favouriteKeys.all, 'list'] as const,
  alert: () => [...favouriteKeys.all, 'alert'] as const,
}

export const savedSearchKeys = {
  all: ['saved-searches'] as const,
  list: () => [...savedSearchKeys.all, 'list'] as const,
  visit: (id: string) => [...savedSearchKeys.all, 'visit', id] as const,
}

/** A seller's payout account and earnings, and the admins' finance figures. */
export const moneyKeys = {
  all: ['money'] as const,
  payoutAccount: () => [...moneyKeys.all, 'payout-account'] as const,
  earnings: () => [...moneyKeys.all, 'earnings'] as const,
  finance: () => [...moneyKeys.all, 'finance'] as const,
}

/** Offers: the caller's lists (as a buyer, or on their listings), and one offer with its thread. */
/** Questions to sellers: a listing's public Q&A, and the caller's as a seller or an asker. */
export const questionKeys = {
  all: ['questions'] as const,
  public: (productId: string) => [...questionKeys.all, 'public', productId] as const,
  list: (role: 'seller' | 'asker') => [...questionKeys.all, 'list', role] as const,
  unanswered: () => [...questionKeys.all, 'unanswered'] as const,
}

export const offerKeys = {
  all: ['offers'] as const,
  list: (role: 'buyer' | 'seller', productId?: string) =>
    productId
      ? ([...offerKeys.all, 'list', role, productId] as const)
      : ([...offerKeys.all, 'list', role] as const),
  detail: (id: string) => [...offerKeys.all, 'detail', id] as const,
}
