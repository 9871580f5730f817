import { GUIDES, type GuideSlug } from './guides'

/**
 * Every page path the web app renders. The server answers these with the app and status 200,
 * and any other path with the app and status 404 (the app then shows its 404 page).
 */
export const PAGE_PATTERNS: readonly RegExp[] = [
  /^\/$/,
  /^\/(login|signup|blog|productcard|advertise|about|contact|terms|privacy)\/?$/,
  /^\/(forgot-password|reset-password)\/?$/,
  /^\/(welcome|account-erased)\/?$/,
  new RegExp(`^/guides(/(${GUIDES.map((g) => g.slug).join('|')}))?/?$`),
  /^\/dashboard\/start-selling\/?$/,
  /^\/account\/not-me\/?$/,
  /^\/category\/[^/]+\/?$/,
  /^\/products\/[^/]+\/?$/,
  /^\/sellers\/[^/]+\/?$/,
  /^\/dashboard\/?$/,
  /^\/dashboard\/(myorders|allbuyers|allsellers|reportedItems|disputes|returns|listing-reviews|addproduct|myproduct)\/?$/,
  /^\/dashboard\/(settings|security|audit-log)\/?$/,
  /^\/dashboard\/(favourites|saved-searches|questions)\/?$/,
  /^\/dashboard\/(earnings|finance)\/?$/,
  /^\/unsubscribe\/[^/]+\/?$/,
  /^\/dashboard\/messages(\/[^/]+)?\/?$/,
  /^\/dashboard\/offers(\/[^/]+)?\/?$/,
  /^\/dashboard\/payment\/[^/]+\/?$/,
  /^\/dashboard\/products\/[^/]+\/edit\/?$/,
]

export function isPagePath(pathname: string): boolean {
  return PAGE_PATTERNS.some((p) => p.test(pathname))
}

/** The address of each page, built in one place so a link never spells a path by hand. */
export const paths = {
  home: () => '/',
  login: (from?: string) => (from ? `/login?from=${encodeURIComponent(from)}` : '/login'),
  signup: () => '/signup',
  forgotPassword: () => '/forgot-password',
  resetPassword: (token?: string) =>
    token ? `/reset-password?token=${encodeURIComponent(token)}` : '/reset-password',
  /** "Check your inbox", where sign-up leads (then on to `from`). */
  welcome: (from?: string) =>
    from && from !== '/' ? `/welcome?from=${encodeURIComponent(from)}` : '/welcome',
  /** What an erased account sees last (no sign-in). */
  accountErased: () => '/account-erased',
  /** The buying and selling guides, or one of them. */
  guides: () => '/guides',
  guide: (slug: GuideSlug) => `/guides/${slug}`,
  /** A buyer account starts selling (phone and seller terms). */
  startSelling: () => '/dashboard/start-selling',
  /** The "I did not do this" page of a security email; its token rides in the fragment. */
  notMe: () => '/account/not-me',
  emailSettings: () => '/dashboard/settings',
  security: () => '/dashboard/security',
  auditLog: () => '/dashboard/audit-log',
  blog: () => '/blog',
  /** Browse and search; `query` is the filters' URL query (without `?`). */
  browse: (query?: string | URLSearchParams) => {
    const qs = query?.toString() ?? ''
    return qs ? `/productcard?${qs}` : '/productcard'
  },
  advertised: () => '/advertise',
  category: (brandId: string) => `/category/${encodeURIComponent(brandId)}`,
  product: (id: string) => `/products/${encodeURIComponent(id)}`,
  seller: (id: string) => `/sellers/${encodeURIComponent(id)}`,
  dashboard: () => '/dashboard',
  myOrders: () => '/dashboard/myorders',
  allBuyers: () => '/dashboard/allbuyers',
  allSellers: () => '/dashboard/allsellers',
  reportedItems: () => '/dashboard/reportedItems',
  disputes: () => '/dashboard/disputes',
  returns: () => '/dashboard/returns',
  listingReviews: () => '/dashboard/listing-reviews',
  addProduct: () => '/dashboard/addproduct',
  /** My Product; `state` opens one tab, `product` shows that one listing (its sale). */
  myProduct: (only?: { state?: string; product?: string }) => {
    const q = new URLSearchParams()
    if (only?.state) q.set('state', only.state)
    if (only?.product) q.set('product', only.product)
    const s = q.toString()
    return s ? `/dashboard/myproduct?${s}` : '/dashboard/myproduct'
  },
  /** The signed-in user's conversations. */
  messages: () => '/dashboard/messages',
  /** A booking's conversation between its buyer and the listing's seller. */
  conversation: (bookingId: string) => `/dashboard/messages/${encodeURIComponent(bookingId)}`,
  /** The signed-in user's offers (as a buyer and on their listings). */
  offers: () => '/dashboard/offers',
  /** One offer's thread between the buyer and the listing's seller. */
  offer: (id: string) => `/dashboard/offers/${encodeURIComponent(id)}`,
  /** Questions about the signed-in user's listings (to answer), and the questions they asked. */
  questions: (tab?: 'asked') => (tab ? `/dashboard/questions?tab=${tab}` : '/dashboard/questions'),
  payment: (bookingId: string) => `/dashboard/payment/${encodeURIComponent(bookingId)}`,
  favourites: () => '/dashboard/favourites',
  savedSearches: () => '/dashboard/saved-searches',
  /** Opens a saved search with the laptops posted since the last visit marked new. */
  savedSearch: (id: string, query: string) =>
    `/productcard?${query ? `${query}&` : ''}saved_search=${encodeURIComponent(id)}`,
  /** The confirmation page of an alert email's unsubscribe link (no sign-in). */
  unsubscribe: (token: string) => `/unsubscribe/${encodeURIComponent(token)}`,
  editProduct: (id: string) => `/dashboard/products/${encodeURIComponent(id)}/edit`,
  /** A seller's payout setup and earnings. */
  earnings: () => '/dashboard/earnings',
  /** Admins: the marketplace's money and the ledger's check. */
  finance: () => '/dashboard/finance',
} as const
