// The settings every fault drill and soak run starts its app instances with (over the production defaults).
// One client (the bench) signs up every account and books from one address, far above what the per-address
// limits allow a real visitor: each limit the traffic would otherwise trip is turned off or raised here, in the
// environment handed to the instances themselves (not left to whatever the shell running the bench exports).
export const DRILL_ENV: Record<string, string> = {
  RATE_LIMIT_PER_MINUTE: '0',
  LISTING_REVIEW_FIRST: '0',
  SIGNUPS_PER_ADDRESS_PER_HOUR: '0',
  LIVE_HOLDS_PER_ADDRESS: '1000',
  OPEN_BOOKINGS_PER_BUYER: '1000',
  UPLOADS_PER_MINUTE: '0',
}
