import path from 'node:path'
import { z } from 'zod'
import type { FeeRule } from '#contract/fees'

const optionalUrl = (protocol: RegExp) => z.string().trim().pipe(z.url({ protocol })).optional()

const Env = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl(/^postgres(ql)?$/),
  REDIS_URL: optionalUrl(/^rediss?$/),
  REDIS_KEY_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9:_-]{1,40}$/, 'letters, digits, ":", "_" or "-", at most 40')
    .default('lm:'),
  PUBLIC_URL: optionalUrl(/^https?$/),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PUBLIC_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(8000).default(1000),
  /** Behind a balancer: reads answer 503 (sent to another instance) until search has read its copy of the listings. */
  TURN_AWAY_WHILE_LOADING: z.enum(['true', 'false']).default('false'),
  /**
   * How many statements outside a transaction one instance has in PostgreSQL at once; the rest wait their turn
   * (STATEMENTS_AT_ONCE in server/db/client.ts when unset). Raise it when the database has cores of its own to spare.
   */
  DATABASE_STATEMENTS_AT_ONCE: z.coerce.number().int().min(1).max(100).optional(),
  /** How often each instance applies the listings' change feed to its copy (requests also catch up themselves). */
  SEARCH_FEED_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(25),
  /** Worker threads answering searches from the copy of the listings (0: on the main thread). */
  SEARCH_THREADS: z.coerce.number().int().min(0).max(16).default(2),
  /**
   * How far the JavaScript heap of each thread may grow past what its last full collection kept before the next one,
   * in percent (0: V8's own choice, up to 4 times over under load).
   */
  HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(400).default(50),
  SEED_DEMO: z.enum(['auto', 'never']).default('auto'),
  TRUST_PROXY: z.string().trim().max(500).default('false'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(100_000).default(300),
  AUTH_SECRET: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  // Admins must have two-step sign-in on before any admin action: on by default in production only.
  REQUIRE_ADMIN_TWO_FACTOR: z.enum(['true', 'false']).optional(),
  /** Passkeys: the domain they belong to (PUBLIC_URL's host by default; "localhost" for a loopback address). */
  WEBAUTHN_RP_ID: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9.-]{1,253}$/, 'a domain name such as example.com (no scheme, port or path)')
    .optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER: z.url().default('https://accounts.google.com'),
  MEDIA_STORAGE: z.enum(['auto', 'local', 'database', 's3']).default('auto'),
  S3_ENDPOINT: optionalUrl(/^https?$/),
  S3_BUCKET: z.string().trim().min(3).max(63).optional(),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('true'),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_BASE: z.url().optional(),
  // The deal: the hold while paying, its limits, and completion after handover
  HOLD_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  HOLDS_PER_LISTING_PER_DAY: z.coerce.number().int().min(1).max(100).default(3),
  LIVE_HOLDS_PER_BUYER: z.coerce.number().int().min(1).max(100).default(3),
  OPEN_BOOKINGS_PER_BUYER: z.coerce.number().int().min(1).max(1000).default(5),
  BOOKING_EMAIL_GROUP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  LIVE_HOLDS_PER_ADDRESS: z.coerce.number().int().min(1).max(1000).default(3),
  SIGNUPS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(0).max(100_000).default(10),
  UPLOADS_PER_MINUTE: z.coerce.number().int().min(0).max(10_000).default(10),
  UNATTACHED_PHOTOS_PER_SELLER: z.coerce.number().int().min(1).max(10_000).default(30),
  VIEWS_PER_ADDRESS_PER_DAY: z.coerce.number().int().min(0).max(100_000).default(3),
  AUTO_COMPLETE_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  // Shipped sales: days a seller has to buy the label once paid, and the buyer's days to inspect after delivery
  SHIP_WITHIN_DAYS: z.coerce.number().int().min(1).max(60).default(3),
  // Shipping rates a buyer may ask the carrier for a minute (each one is a shipment made at the carrier)
  SHIPPING_QUOTES_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(10),
  INSPECTION_DAYS: z.coerce.number().int().min(1).max(60).default(3),
  // Days a seller has to check a laptop delivered back before the buyer is refunded anyway.
  RETURN_CONFIRM_DAYS: z.coerce.number().int().min(1).max(60).default(3),
  // Offers: how long an offer or a counter waits for its answer before it expires
  OFFER_HOURS: z.coerce.number().int().min(1).max(720).default(48),
  // Messages between buyer and seller: how many one user may send a minute, and when an unread one is emailed
  MESSAGES_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(5),
  MESSAGE_EMAIL_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  // Questions to a seller before buying: how many one person may ask a day, and how long a seller's new ones wait
  // to be told in one email
  QUESTIONS_PER_DAY: z.coerce.number().int().min(1).max(1000).default(10),
  QUESTION_EMAIL_GROUP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  SMTP_URL: optionalUrl(/^smtps?$/),
  MAIL_FROM: z
    .string()
    .trim()
    .max(200)
    .regex(/^[^\r\n]*@[^\r\n]*$/, 'an address, e.g. "Laptop Market <hello@example.com>"')
    .optional(),
  // Listing expiry (at least 4 days: the seller is told 3 days before).
  LISTING_EXPIRY_DAYS: z.coerce.number().int().min(4).max(3650).default(60),
  // A seller's first listings wait for an admin's review (0 turns the rule off).
  LISTING_REVIEW_FIRST: z.coerce.number().int().min(0).max(1000).default(3),
  // Money to sellers: the marketplace's fee (taken from the seller's share) and payouts
  PLATFORM_FEE_PERCENT: z.coerce
    .number()
    .min(0)
    .max(100)
    .refine((v) => Number.isInteger(Math.round(v * 100 * 1e6) / 1e6), 'at most two decimals')
    .default(5),
  PLATFORM_FEE_MIN_CENTS: z.coerce.number().int().min(0).max(1_000_000).default(0),
  PAYOUT_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(31 * 86_400)
    .default(86_400),
  PAYOUT_MINIMUM_CENTS: z.coerce.number().int().min(1).max(100_000_000).default(100),
  TEST_PAYOUT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(5),
  // Prometheus metrics at /metrics, for a scraper that sends this token; unset: no /metrics at all.
  METRICS_TOKEN: z
    .string()
    .trim()
    .regex(/^[\x21-\x7e]{24,200}$/, 'at least 24 characters, no spaces (e.g. `openssl rand -hex 24`)')
    .optional(),
  // Changed payout details receive payouts only this many hours after the change (the money waits meanwhile).
  PAYOUT_ACCOUNT_HOLD_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 31)
    .default(48),
  // Shipping labels and tracking through EasyPost; unset: the built-in test carrier ("Test mode").
  EASYPOST_API_KEY: z
    .string()
    .trim()
    .regex(/^[\x21-\x7e]{8,200}$/, 'an EasyPost API key (EZAK… or EZTK…)')
    .optional(),
  EASYPOST_WEBHOOK_SECRET: z.string().min(8).max(500).optional(),
  // Test carrier: seconds between a tracker's steps (pre_transit → in_transit → out_for_delivery → delivered).
  TEST_CARRIER_SECONDS: z.coerce.number().int().min(0).max(86_400).default(20),
})

export type Config = {
  env: 'development' | 'production' | 'test'
  port: number
  host: string
  dataDir: string
  databaseUrl: string | undefined
  /** Statements outside a transaction in PostgreSQL at once; undefined: the client's own number. */
  databaseStatementsAtOnce: number | undefined
  redisUrl: string | undefined
  /** Starts every key and channel this app uses in Redis, so several deployments can share one server. */
  redisKeyPrefix: string
  publicUrl: string
  logLevel: z.infer<typeof Env>['LOG_LEVEL']
  publicCacheTtlMs: number
  seedDemo: boolean
  /** After SIGTERM, how long health answers 503 while requests are still taken, before the listener closes. */
  shutdownDelayMs: number
  turnAwayWhileLoading: boolean
  searchFeedPollMs: number
  searchThreads: number
  /** V8's heap growing factor for every thread, in percent past what a full collection kept (0: V8's own). */
  heapGrowthPercent: number
  webDistDir: string
  /** Admin actions answer 403 until the admin has turned on two-step sign-in. */
  requireAdminTwoFactor: boolean
  /**
   * The domain passkeys are made for and checked against. Browsers refuse an IP address here, so a loopback
   * PUBLIC_URL (127.0.0.1) gives "localhost": passkeys then work when the site is opened at localhost.
   */
  webauthnRpId: string
  /** Signs session cookies and access tokens. Required in production; elsewhere one is kept in DATA_DIR. */
  authSecret: string | undefined
  accessTokenTtlSeconds: number
  /** Changes (POST, PUT, PATCH, DELETE) allowed per client address per minute; 0 turns the limit off. */
  rateLimitPerMinute: number
  /** Unpaid bookings of listings still on sale, from the last 7 days, one buyer may have. */
  openBookingsPerBuyer: number
  /** A seller's bookings within this many seconds of the first one are told in one email. */
  bookingEmailGroupSeconds: number
  /** Email sign-ups allowed per client address per hour; 0 turns the limit off. */
  signupsPerAddressPerHour: number
  /** Photos uploaded per client address per minute (each costs about a second of CPU); 0 turns it off. */
  uploadsPerMinute: number
  /** Photos a seller may have uploaded and not yet put on a listing. */
  unattachedPhotosPerSeller: number
  /** Views of one listing counted per client address per day, whoever the visitors are; 0 turns the cap off. */
  viewsPerAddressPerDay: number
  /** Which proxies' X-Forwarded-For to believe for the client address (limits are per address). */
  trustProxy: boolean | number | string
  /** Present when "Continue with Google" is configured; the issuer is configurable for local providers. */
  google: { clientId: string; clientSecret: string; issuer: string } | undefined
  /** Where photos live: a local folder, the PostgreSQL database, or an S3-compatible bucket. */
  media:
    | { store: 'local' }
    | { store: 'database' }
    | {
        store: 's3'
        bucket: string
        endpoint: string | undefined
        region: string
        accessKeyId: string | undefined
        secretAccessKey: string | undefined
        forcePathStyle: boolean
      }
  /** How email leaves: an SMTP server, or `.eml` files under DATA_DIR/mail when SMTP_URL is unset. */
  mail: { smtpUrl: string | undefined; from: string; dir: string }
  /** Present when card payments go through Stripe; otherwise the built-in test processor runs. */
  stripe:
    | { secretKey: string; publishableKey: string; webhookSecret: string; apiBase: string | undefined }
    | undefined
  /** The deal: how long a buyer holds a laptop while paying, how often, and when a handed-over sale completes. */
  deal: {
    holdSeconds: number
    /** Holds one buyer may take on one listing in 24 hours. */
    holdsPerListingPerDay: number
    /** Holds one buyer may have running at once (on different listings). */
    liveHoldsPerBuyer: number
    /** Holds running at once that were taken from one client address, whoever took them. */
    liveHoldsPerAddress: number
    autoCompleteDays: number
    /** A paid shipped sale with no label after this many days is cancelled and refunded. */
    shipWithinDays: number
    /** A delivered shipped sale completes by itself this many days after delivery. */
    inspectionDays: number
    /** Days a seller has to check a returned laptop before the buyer is refunded anyway. */
    returnConfirmDays: number
  }
  /** Offers: hours an offer or counter waits for its answer before it expires. */
  offers: { hours: number }
  /** A listing not renewed for this many days leaves search and the home page; its seller is told 3 days before. */
  listingExpiryDays: number
  /** An unverified seller's first this-many listings wait for an admin's review; 0: none do. */
  listingReviewFirst: number
  /** Messages on a booking: sent per user per minute, and seconds before an unread one is emailed. */
  messages: { perMinute: number; emailDelaySeconds: number }
  /** Questions to a seller: asked per person per 24 hours, and seconds a seller's new ones wait to be emailed together. */
  questions: { perDay: number; emailGroupSeconds: number }
  /** The marketplace's fee on each sale, from the seller's share, and how sellers' balances are paid out. */
  payouts: {
    fee: FeeRule
    intervalSeconds: number
    minimumCents: number
    /** Test mode: seconds before a simulated payout arrives (or fails). */
    testPayoutSeconds: number
    /** Hours after a change of payout details before the new details receive payouts. */
    accountHoldHours: number
  }
  /** The bearer token a Prometheus scraper sends to read /metrics; unset turns /metrics off. */
  metricsToken: string | undefined
  /**
   * Shipping: EasyPost when its API key is set, else the built-in test carrier. `webhookSecret` checks the
   * `tracker.updated` webhooks (EasyPost's, or the test carrier's shared one); `testStepSeconds` is the test
   * carrier's clock.
   */
  shipping: {
    easypostApiKey: string | undefined
    webhookSecret: string
    testStepSeconds: number
    quotesPerMinute: number
  }
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** `PORT=` in a shell or an .env file means "not set": without this, PORT= would listen on a random port. */
function dropEmptyValues(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => (entry[1] ?? '').trim() !== ''),
  )
}

/** The only place that reads the environment. A bad value stops the process with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(dropEmptyValues(env))
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  if (e.NODE_ENV === 'production' && !e.AUTH_SECRET) {
    throw new ConfigError('Invalid configuration:\n  AUTH_SECRET: required when NODE_ENV=production')
  }
  if (Boolean(e.GOOGLE_CLIENT_ID) !== Boolean(e.GOOGLE_CLIENT_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both or neither',
    )
  }
  const stripeKeys = [e.STRIPE_SECRET_KEY, e.STRIPE_PUBLISHABLE_KEY, e.STRIPE_WEBHOOK_SECRET]
  if (stripeKeys.some(Boolean) && !stripeKeys.every(Boolean)) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET: set all three or none',
    )
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither',
    )
  }
  const store =
    e.MEDIA_STORAGE !== 'auto' ? e.MEDIA_STORAGE : e.S3_BUCKET ? 's3' : e.DATABASE_URL ? 'database' : 'local'
  if (store === 'database' && !e.DATABASE_URL) {
    throw new ConfigError('Invalid configuration:\n  MEDIA_STORAGE=database: needs DATABASE_URL')
  }
  if (e.EASYPOST_API_KEY && !e.EASYPOST_WEBHOOK_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  EASYPOST_WEBHOOK_SECRET: required with EASYPOST_API_KEY (the secret of your EasyPost webhook)',
    )
  }
  if (store === 's3' && !e.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  MEDIA_STORAGE=s3: needs S3_BUCKET')
  }
  const rpIdOf = (url: string) => {
    const host = new URL(url).hostname
    return host === '127.0.0.1' || host === '[::1]' ? 'localhost' : host
  }
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseStatementsAtOnce: e.DATABASE_STATEMENTS_AT_ONCE,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    publicUrl,
    logLevel: e.LOG_LEVEL,
    publicCacheTtlMs: e.PUBLIC_CACHE_TTL_MS,
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS,
    turnAwayWhileLoading: e.TURN_AWAY_WHILE_LOADING === 'true',
    searchFeedPollMs: e.SEARCH_FEED_POLL_MS,
    searchThreads: e.SEARCH_THREADS,
    heapGrowthPercent: e.HEAP_GROWTH_PERCENT,
    seedDemo: e.SEED_DEMO === 'auto' && e.NODE_ENV !== 'production',
    webDistDir: path.resolve(import.meta.dirname, '../dist/web'),
    authSecret: e.AUTH_SECRET,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    webauthnRpId: e.WEBAUTHN_RP_ID ?? rpIdOf(publicUrl),
    requireAdminTwoFactor: (e.REQUIRE_ADMIN_TWO_FACTOR ?? String(e.NODE_ENV === 'production')) === 'true',
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    signupsPerAddressPerHour: e.SIGNUPS_PER_ADDRESS_PER_HOUR,
    openBookingsPerBuyer: e.OPEN_BOOKINGS_PER_BUYER,
    bookingEmailGroupSeconds: e.BOOKING_EMAIL_GROUP_SECONDS,
    viewsPerAddressPerDay: e.VIEWS_PER_ADDRESS_PER_DAY,
    uploadsPerMinute: e.UPLOADS_PER_MINUTE,
    unattachedPhotosPerSeller: e.UNATTACHED_PHOTOS_PER_SELLER,
    trustProxy:
      e.TRUST_PROXY === 'false' || e.TRUST_PROXY === ''
        ? false
        : e.TRUST_PROXY === 'true'
          ? true
          : /^\d+$/.test(e.TRUST_PROXY)
            ? Number(e.TRUST_PROXY)
            : e.TRUST_PROXY,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, issuer: e.GOOGLE_ISSUER }
        : undefined,
    media:
      store === 's3'
        ? {
            store,
            bucket: e.S3_BUCKET as string,
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
          }
        : { store },
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `Laptop Market <no-reply@${new URL(publicUrl).hostname}>`,
      dir: path.join(path.resolve(e.DATA_DIR), 'mail'),
    },
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY && e.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            publishableKey: e.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            apiBase: e.STRIPE_API_BASE,
          }
        : undefined,
    deal: {
      holdSeconds: e.HOLD_SECONDS,
      holdsPerListingPerDay: e.HOLDS_PER_LISTING_PER_DAY,
      liveHoldsPerBuyer: e.LIVE_HOLDS_PER_BUYER,
      liveHoldsPerAddress: e.LIVE_HOLDS_PER_ADDRESS,
      autoCompleteDays: e.AUTO_COMPLETE_DAYS,
      shipWithinDays: e.SHIP_WITHIN_DAYS,
      inspectionDays: e.INSPECTION_DAYS,
      returnConfirmDays: e.RETURN_CONFIRM_DAYS,
    },
    offers: { hours: e.OFFER_HOURS },
    listingExpiryDays: e.LISTING_EXPIRY_DAYS,
    listingReviewFirst: e.LISTING_REVIEW_FIRST,
    messages: { perMinute: e.MESSAGES_PER_MINUTE, emailDelaySeconds: e.MESSAGE_EMAIL_DELAY_SECONDS },
    questions: { perDay: e.QUESTIONS_PER_DAY, emailGroupSeconds: e.QUESTION_EMAIL_GROUP_SECONDS },
    payouts: {
      fee: { basisPoints: Math.round(e.PLATFORM_FEE_PERCENT * 100), minCents: e.PLATFORM_FEE_MIN_CENTS },
      intervalSeconds: e.PAYOUT_INTERVAL_SECONDS,
      minimumCents: e.PAYOUT_MINIMUM_CENTS,
      testPayoutSeconds: e.TEST_PAYOUT_SECONDS,
      accountHoldHours: e.PAYOUT_ACCOUNT_HOLD_HOURS,
    },
    metricsToken: e.METRICS_TOKEN,
    shipping: {
      easypostApiKey: e.EASYPOST_API_KEY,
      // The test carrier signs with a secret of its own making when none is set: it and the receiver share it.
      webhookSecret: e.EASYPOST_WEBHOOK_SECRET ?? 'test-carrier-webhook-secret',
      testStepSeconds: e.TEST_CARRIER_SECONDS,
      quotesPerMinute: e.SHIPPING_QUOTES_PER_MINUTE,
    },
  }
}
