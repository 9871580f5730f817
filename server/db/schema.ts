import { type SQL, sql } from 'drizzle-orm'
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { BATTERY_REPORT_SOURCES } from '#contract/battery-reports'
import { BOOKING_EVENT_KINDS, DISPUTE_STATUSES } from '#contract/bookings'
import {
  DELIVERY_METHODS,
  DELIVERY_OPTIONS,
  PARCEL_SIZE_KEYS,
  type PostalAddressView,
} from '#contract/delivery'
import { ALERT_CHOICES } from '#contract/favourites'
import { HANDOVER_CHECK_KEYS } from '#contract/handover'
import { REVIEW_STATES } from '#contract/listing-reviews'
import { CONDITIONS, type ProductImage } from '#contract/products'
import { RETURN_STATUSES } from '#contract/returns'
import { ROLES } from '#contract/users'
import { listingOnSale } from './on-sale-predicate'

/** A constant list as SQL literals, for a check constraint written from the same list as the column's enum. */
const sqlList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '))

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()

// ---------------------------------------------------------------------------------------------
// Identity: the authentication library's own tables (Better Auth, plural model names), with the
// marketplace's role on the user. A buyer or seller "record" is the user row with that role.
// ---------------------------------------------------------------------------------------------

export const USER_ROLES = ROLES
export type UserRole = (typeof USER_ROLES)[number]

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    role: text('role', { enum: USER_ROLES }).notNull().default('buyer'),
    phone: text('phone'),
    /** Set when an admin verifies a seller; verified sellers carry a badge on their listings. */
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** Set when an admin deletes the account: it can no longer sign in and its listings are hidden. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** Two-step sign-in (Better Auth's two-factor plugin): an authenticator code after the password. */
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    /**
     * Set at a sign-in whose password the password rule now refuses (common, or built from the name, email or
     * the product's name): the account keeps working and is asked to change it. Cleared by a change or reset.
     */
    passwordChangeAskedAt: timestamp('password_change_asked_at', { withTimezone: true }),
    /**
     * Set when a buyer account started selling (with a phone and the seller terms): its role is then seller, and it
     * still buys, so it answers both isBuyer and isSeller.
     */
    startedSellingAt: timestamp('started_selling_at', { withTimezone: true }),
    /** Set when the person erased their account: the row stays (bookings and payments point at it), emptied. */
    erasedAt: timestamp('erased_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('users_role_check', sql`${t.role} in (${sqlList(USER_ROLES)})`),
    index('users_role_created_idx').on(t.role, t.createdAt),
    // Every search leaves out disabled sellers' listings by this short list, read from the index alone.
    index('users_disabled_idx').on(t.id).where(sql`${t.disabledAt} is not null`),
  ],
)

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * How this session signed in beyond the password: `totp`, `backup_code`, `passkey` or `trusted_device`
     * (a device remembered after a code); null for a password (or Google) alone. Admin rights need one.
     */
    secondFactor: text('second_factor'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
)

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('accounts_user_idx').on(t.userId)],
)

export const verifications = pgTable(
  'verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('verifications_identifier_idx').on(t.identifier)],
)

/** An authenticator app's secret (encrypted by the auth library) and the backup codes (hashed, one way). */
export const twoFactors = pgTable(
  'two_factors',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [index('two_factors_user_idx').on(t.userId), index('two_factors_secret_idx').on(t.secret)],
)

/**
 * The authenticator time steps (30 s each) an account has used: a code is taken once, even inside its window.
 * The primary key makes two concurrent uses of one code a single success.
 */
export const usedTotpSteps = pgTable(
  'used_totp_steps',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    step: bigint('step', { mode: 'number' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.step] })],
)

/**
 * Passkeys (WebAuthn credentials), kept by the auth library's passkey plugin: the public key only (the
 * private key never leaves the person's device), the signature counter, and a name the person chose.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: text('id').primaryKey(),
    name: text('name'),
    publicKey: text('public_key').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialID: text('credential_id').notNull().unique(),
    counter: integer('counter').notNull(),
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull(),
    transports: text('transports'),
    createdAt: timestamp('created_at', { withTimezone: true }),
    aaguid: text('aaguid'),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
)

/**
 * The devices each account has signed in from: a long-lived random cookie (kept here as its SHA-256 only) and
 * the browser family it came with ("Chrome on Windows"). A sign-in from a pair not seen before for the account
 * is emailed to its owner (server/modules/auth/new-device.ts).
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceHash: text('device_hash').notNull(),
    browser: text('browser').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('known_devices_user_device_idx').on(t.userId, t.deviceHash, t.browser)],
)

// ---------------------------------------------------------------------------------------------
// The audit log: who did what, on what, when, from where, and how it ended. Append-only: a trigger
// refuses UPDATE, DELETE and TRUNCATE. It names people by id (their email is looked up when read), so
// erasing an account empties the user row and leaves no address or name here.
// ---------------------------------------------------------------------------------------------

/**
 * A session that proved itself again (its password, a second factor or a passkey) for changes that need it: the
 * proof holds for that session alone, for a few minutes (server/lib/step-up.ts). Kept on the server, so no
 * cookie the browser could forge carries it; ending the session ends its proof.
 */
export const STEP_UP_METHODS = ['password', 'code', 'passkey'] as const

export const stepUps = pgTable(
  'step_ups',
  {
    sessionId: text('session_id')
      .primaryKey()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    method: text('method', { enum: STEP_UP_METHODS }).notNull(),
    provedAt: timestamp('proved_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check('step_ups_method_check', sql`${t.method} in (${sqlList(STEP_UP_METHODS)})`),
    index('step_ups_user_idx').on(t.userId),
  ],
)

export const AUDIT_RESULTS = ['success', 'failure', 'denied'] as const
export type AuditResult = (typeof AUDIT_RESULTS)[number]

export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The person who acted, when known (a signed-in user, or the account a sign-in named). */
    actorId: text('actor_id'),
    kind: text('kind').notNull(),
    /** What it was done to, as `type:id` (never a name, an address, a token or a code). */
    target: text('target'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    result: text('result', { enum: AUDIT_RESULTS }).notNull(),
    /** Why it failed or was refused (an error code and status), never the input. */
    detail: text('detail'),
  },
  (t) => [
    check('audit_events_result_check', sql`${t.result} in ('success', 'failure', 'denied')`),
    index('audit_events_at_idx').on(t.at),
    index('audit_events_actor_at_idx').on(t.actorId, t.at),
    index('audit_events_kind_at_idx').on(t.kind, t.at),
  ],
)

// ---------------------------------------------------------------------------------------------
// Catalogue
// ---------------------------------------------------------------------------------------------

export const brands = pgTable('brands', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  /** URL of the logo: a file in media storage or an absolute http(s) URL. */
  imageUrl: text('image_url').notNull(),
  createdAt: createdAt(),
})

export { CONDITIONS }

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    brandId: uuid('brand_id')
      .notNull()
      .references(() => brands.id),
    sellerId: text('seller_id')
      .notNull()
      .references(() => users.id),
    sellerPhone: text('seller_phone').notNull().default(''),
    resalePriceCents: integer('resale_price_cents').notNull(),
    originalPriceCents: integer('original_price_cents').notNull(),
    description: text('description').notNull(),
    condition: text('condition', { enum: CONDITIONS }).notNull(),
    location: text('location').notNull(),
    usesYears: smallint('uses_years').notNull(),
    processor: text('processor').notNull(),
    ramGb: integer('ram_gb').notNull(),
    storageGb: integer('storage_gb').notNull(),
    screenInches: doublePrecision('screen_inches').notNull(),
    isAdvertised: boolean('is_advertised').notNull().default(false),
    isSold: boolean('is_sold').notNull().default(false),
    soldAt: timestamp('sold_at', { withTimezone: true }),
    /** Set when the seller deletes the listing or an admin removes it; the row stays for the record. */
    removedAt: timestamp('removed_at', { withTimezone: true }),

    postedOn: timestamp('posted_on', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When it last came on sale: posted live, approved after review (also when sent back and approved again), or
     * renewed after it expired. Saved searches count a listing as new, and alert, from this time, not postedOn.
     */
    onSaleSince: timestamp('on_sale_since', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: updatedAt(),
    /** Battery evidence reported by the seller: health in % of design capacity, charge cycles; null = not reported. */
    batteryHealthPct: smallint('battery_health_pct'),
    batteryCycles: integer('battery_cycles'),
    /**
     * Set when the battery figures were read from the laptop's own report (battery_reports): which system wrote it
     * and the report's date. Null: the figures, if any, were only typed by the seller.
     */
    batteryReportSource: text('battery_report_source', { enum: BATTERY_REPORT_SOURCES }),
    batteryReportDate: timestamp('battery_report_date', { withTimezone: true }),
    /**
     * The laptop's serial number, private: a hash of its normalized form (equal serials are found by it) and its last
     * four characters, the only part anyone else sees (server/modules/listing-reviews).
     */
    serialHash: text('serial_hash'),
    serialLast4: text('serial_last4'),
    /**
     * Review before a listing is shown: pending (waits for an admin), approved (shown), rejected (the seller may edit
     * and send it back). Only approved listings are on sale; the listing counts and the facts copy read it too.
     */
    reviewState: text('review_state', { enum: REVIEW_STATES }).notNull().default('approved'),
    /** Why it waits: first_listing, duplicate_serial, changed_after_approval. */
    reviewFlags: text('review_flags').array().notNull().default(sql`'{}'::text[]`),
    /**
     * What its seller changed since an admin last approved it, when that sent it back for review (name, brand,
     * description, photos, serial; see reviewOfEdit): what the admin looks at first. Cleared by the next approval.
     */
    reviewChanges: text('review_changes').array().notNull().default(sql`'{}'::text[]`),
    /** The admin's reason when rejected (emailed to the seller). */
    reviewReason: text('review_reason'),
    reviewSubmittedAt: timestamp('review_submitted_at', { withTimezone: true }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: text('reviewed_by').references(() => users.id),
    /** Derived from the processor text as it is written: the family a buyer filters by (see contract/search.ts). */
    processorFamily: text('processor_family').generatedAlwaysAs(
      (): SQL => sql`case
        when lower(processor) ~ '\\mapple\\M|\\mm[1-9]( pro| max| ultra)?\\M' then 'apple-m'
        when lower(processor) ~ 'ryzen\\s*[3579]\\M' then 'amd-ryzen-' || substring(lower(processor) from 'ryzen\\s*([3579])\\M')
        when lower(processor) ~ '\\mi[3579]\\M' then 'intel-core-i' || substring(lower(processor) from '\\mi([3579])\\M')
      end`,
    ),
    /**
     * The processor's model as the price guide keys it (processor_model_key, migration 0011), kept with the row so a
     * card's guide lookup and a sale's guide refresh compare a column instead of running three regular expressions
     * per row (migration 0022).
     */
    processorModel: text('processor_model').generatedAlwaysAs((): SQL => sql`processor_model_key(processor)`),
    /** Listing expiry: the clock starts here (posting or the last renewal); see server/modules/listings/expiry.ts. */
    renewedAt: timestamp('renewed_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by the expiry job once the listing went unrenewed too long; it then leaves search and the home page. */
    expiredAt: timestamp('expired_at', { withTimezone: true }),
    /** When the seller was told the listing is about to expire (cleared by a renewal). */
    expiryRemindedAt: timestamp('expiry_reminded_at', { withTimezone: true }),
    /** Whether buyers may make offers on this listing (server/modules/offers); the seller turns them off. */
    /** How a buyer can have it: meet in person, shipped, or either (contract/delivery.ts). */
    delivery: text('delivery', { enum: DELIVERY_OPTIONS }).notNull().default('meet'),
    /** The parcel it ships in: its box (PARCEL_SIZES) and packed weight; null = what the screen size implies. */
    parcelSize: text('parcel_size', { enum: PARCEL_SIZE_KEYS }),
    parcelWeightOz: integer('parcel_weight_oz'),
    /** Where it ships from (private to the seller and admins; the carrier's from address): docs/decisions/0074. */
    shipFrom: jsonb('ship_from').$type<PostalAddressView>(),
    offersEnabled: boolean('offers_enabled').notNull().default(true),
    /** Offers under this are declined at once; null: no floor beyond the marketplace's half of the price. */
    offerFloorCents: integer('offer_floor_cents'),
    /**
     * Its photos in order, as every listing response gives them ({ card, medium?, detail }): kept from product_images
     * by triggers (migration 0057), so a page of listings reads a column, not an aggregate a listing. Null for a
     * listing from before the column until the fill job writes it (listing-images.ts); read with `listingImages`.
     */
    images: jsonb('images').$type<ProductImage[]>().default(sql`'[]'::jsonb`),
    /** Brand, name and processor in lower case: what typos and partial names are matched against (trigger-kept). */
    searchTitle: text('search_title').notNull().default(''),
    /** Weighted words for full-text search: brand and name (A), processor (B), description (C); trigger-kept. */
    searchVector: tsvector('search_vector').notNull().default(sql`''::tsvector`),
  },
  (t) => [
    check(
      'products_condition_check',
      sql`${t.condition} in (${sql.raw(CONDITIONS.map((c) => `'${c}'`).join(', '))})`,
    ),
    check('products_prices_check', sql`${t.resalePriceCents} > 0 and ${t.originalPriceCents} > 0`),
    check('products_offer_floor_check', sql`${t.offerFloorCents} is null or ${t.offerFloorCents} > 0`),
    check('products_delivery_check', sql`${t.delivery} in ('meet', 'ship', 'both')`),
    // Category pages and browse: available listings of a brand, newest first.
    index('products_brand_available_idx').on(t.brandId, t.postedOn.desc()).where(listingOnSale(t)),
    // The home page's advertised list.
    index('products_advertised_idx')
      .on(t.postedOn.desc())
      .where(sql`${t.isAdvertised} = true and ${listingOnSale(t)}`),
    // Browse all available, newest first.
    index('products_available_idx').on(t.postedOn.desc()).where(listingOnSale(t)),
    // A seller's own listings.
    index('products_seller_idx').on(t.sellerId, t.postedOn.desc()),
    // The listings whose images the fill job has still to write (migration 0057): empty once it has run.
    index('products_images_unfilled_idx').on(t.id).where(sql`${t.images} is null`),
    // Search: keyset order of each sort over available listings, carrying what the filters read.
    index('products_search_newest_idx').on(t.postedOn.desc(), t.id.desc()).where(listingOnSale(t)),
    index('products_search_price_idx').on(t.resalePriceCents, t.id).where(listingOnSale(t)),
    index('products_search_brand_price_idx').on(t.brandId, t.resalePriceCents, t.id).where(listingOnSale(t)),
    // The expiry job's sweep: unexpired available listings by the age of their last renewal.
    index('products_renewed_idx')
      .on(t.renewedAt)
      .where(sql`${t.expiredAt} is null and ${t.isSold} = false and ${t.removedAt} is null`),
    // The price guide's per-key refresh: sold listings of one brand, RAM and storage.
    index('products_sold_specs_idx').on(t.brandId, t.ramGb, t.storageGb).where(sql`${t.isSold} = true`),
    index('products_search_vector_idx').using('gin', t.searchVector),
    // Battery evidence: the ranges the form allows, and the "Battery 80% or more" filter over available listings.
    check(
      'products_battery_check',
      sql`(${t.batteryHealthPct} is null or ${t.batteryHealthPct} between 1 and 100) and (${t.batteryCycles} is null or ${t.batteryCycles} >= 0)`,
    ),
    index('products_search_battery_idx')
      .on(t.batteryHealthPct, t.postedOn.desc(), t.id.desc())
      .where(sql`${listingOnSale(t)} and ${t.batteryHealthPct} is not null`),
    index('products_search_title_trgm_idx').using('gin', sql`${t.searchTitle} gin_trgm_ops`),
    // Equal serials: a second seller's listing of a serial, and the stolen list.
    index('products_serial_idx').on(t.serialHash).where(sql`${t.serialHash} is not null`),
    // The admin's review queue, oldest first.
    index('products_review_queue_idx').on(t.reviewSubmittedAt).where(sql`${t.reviewState} = 'pending'`),
  ],
)

/** Serials an admin marked reported stolen: a laptop carrying one cannot be listed. */
export const stolenSerials = pgTable('stolen_serials', {
  serialHash: text('serial_hash').primaryKey(),
  serialLast4: text('serial_last4').notNull(),
  reportedBy: text('reported_by')
    .notNull()
    .references(() => users.id),
  note: text('note').notNull().default(''),
  createdAt: createdAt(),
})

export const productImages = pgTable(
  'product_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    cardUrl: text('card_url').notNull(),
    detailUrl: text('detail_url').notNull(),
    /** The 960-pixel size a phone's gallery takes; null for photos stored before it existed (and outside images). */
    mediumUrl: text('medium_url'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('product_images_position_idx').on(t.productId, t.position),
    // Whether an upload is on a listing (the seller's quota of photos not on one, and their removal).
    index('product_images_card_url_idx').on(t.cardUrl),
  ],
)

/** Every word of every listing's title: the vocabulary a misspelt search word is corrected against. */
export const searchTerms = pgTable(
  'search_terms',
  {
    term: text('term').primaryKey(),
    /** Whether some listing has the word in its brand or name (not only in its processor): best match's top tier. */
    inName: boolean('in_name').notNull().default(false),
    /**
     * Whether the word is only ever two adjacent title words written together ("macbookair" from "MacBook Air",
     * "i71165g7" from "i7-1165G7"): typed, it finds them; two typed words are joined only into a word that is not.
     */
    joined: boolean('joined').notNull().default(false),
  },
  (t) => [index('search_terms_trgm_idx').using('gin', sql`${t.term} gin_trgm_ops`)],
)

/**
 * One row: a number that grows with every transaction that changes what search reads of the listings (bumped at its
 * commit by a deferred trigger), so an instance's copy of the listings is known to be current by reading one row; and
 * one that grows with every transaction that adds a word to `search_terms` or marks one as in a name, so a correction
 * an instance remembers is known to be the one the vocabulary gives now.
 */
export const listingCountsVersion = pgTable('listing_counts_version', {
  id: boolean('id').primaryKey().default(true),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  termsVersion: bigint('terms_version', { mode: 'number' }).notNull().default(0),
  /** Moves on with every transaction that changes the brands (the brand facet's labels), and with nothing else. */
  brandsVersion: bigint('brands_version', { mode: 'number' }).notNull().default(0),
})

/**
 * One row whose version grows by one with every transaction that changes what visitors are shown (listings, their
 * photos and holds, brands, the price guide, reviews, a seller's public details), written by deferred triggers at
 * commit (migration 0032). Each instance reads it to know its public cache is current, so no code has to remember
 * to say that public data changed (server/lib/public-cache.ts; docs/decisions/0043-public-cache-follows-the-database.md).
 */
export const publicDataVersion = pgTable('public_data_version', {
  id: boolean('id').primaryKey().default(true),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
})

/**
 * The change feed of the listings as search sees them: one row per listing changed in a way search reads (its
 * facts, words or being on sale, its seller disabled), written by triggers in the changing transaction, with that
 * transaction's id. `listing_change_commits` says which version of `listing_counts_version` each such transaction
 * committed as (written by the version's own deferred trigger, at commit, under the version row's lock, so versions
 * follow the order of commits). Each instance reads the listings changed since its copy's version and applies them
 * (server/modules/search/listing-feed.ts; docs/decisions/0037-listing-change-feed.md).
 */
export const listingChanges = pgTable(
  'listing_changes',
  {
    tx: bigint('tx', { mode: 'number' }).notNull(),
    productId: uuid('product_id').notNull(),
    /** When the listing was posted before this change: where a copy in posting order holds it. */
    postedOn: timestamp('posted_on', { withTimezone: true }),
    /** The change created the listing: no copy read before it holds the listing (migration 0053). */
    created: boolean('created').notNull().default(false),
  },
  (t) => [index('listing_changes_tx_idx').on(t.tx)],
)

export const listingChangeCommits = pgTable('listing_change_commits', {
  version: bigint('version', { mode: 'number' }).primaryKey(),
  tx: bigint('tx', { mode: 'number' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

// ---------------------------------------------------------------------------------------------
// Bookings and payments
// ---------------------------------------------------------------------------------------------

/**
 * Where a booking is: booked (not paid yet), cancelled (called off before payment: by its buyer, or when the
 * listing left sale), paid, shipped (the seller bought the label; the parcel is on its way), handed_over (the
 * seller says the buyer has it, or the carrier delivered it),
 * completed (the buyer confirmed, the days to answer passed, or an admin released a disputed sale),
 * disputed (the buyer reported a problem), refunded (an admin gave the money back), returning (the buyer sends it
 * back within the inspection window: server/modules/returns).
 */
export const BOOKING_STAGES = [
  'booked',
  'cancelled',
  'paid',
  'shipped',
  'handed_over',
  'returning',
  'completed',
  'disputed',
  'refunded',
] as const
export type BookingStage = (typeof BOOKING_STAGES)[number]

export const bookings = pgTable(
  'bookings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    buyerId: text('buyer_id')
      .notNull()
      .references(() => users.id),
    /** Copies taken from the listing and the session at booking time, for the record. */
    productName: text('product_name').notNull(),
    productImage: text('product_image').notNull(),
    priceCents: integer('price_cents').notNull(),
    userName: text('user_name').notNull(),
    email: text('email').notNull(),
    phoneNumber: text('phone_number').notNull(),
    location: text('location').notNull(),
    isPaid: boolean('is_paid').notNull().default(false),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: createdAt(),
    // The deal after payment (see BOOKING_STAGES); `isPaid` stays true once paid, whatever follows.
    stage: text('stage', { enum: BOOKING_STAGES }).notNull().default('booked'),
    handedOverAt: timestamp('handed_over_at', { withTimezone: true }),
    /** The seller's note at handover: a tracking number, or where they met. */
    handoverNote: text('handover_note'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** The buyer's handover checklist: each item ticked or not, and when (contract/bookings.ts HANDOVER_CHECKS). */
    handoverChecklist: jsonb('handover_checklist').$type<Record<string, boolean>>(),
    handoverCheckedAt: timestamp('handover_checked_at', { withTimezone: true }),
    /**
     * A booking the seller has not been emailed about yet: set when a buyer books, cleared by the
     * `bookings.seller-email` job in the transaction that queues the one email for all of them.
     */
    sellerEmailPending: boolean('seller_email_pending').notNull().default(false),
    /** Met in person or shipped; a shipped sale's shipping is charged with the laptop (contract/delivery.ts). */
    deliveryMethod: text('delivery_method', { enum: DELIVERY_METHODS }).notNull().default('meet'),
    shippingCents: integer('shipping_cents').notNull().default(0),
    /** The buyer's delivery address: seen by the buyer, the seller once paid, and admins. */
    shippingAddress: jsonb('shipping_address').$type<PostalAddressView>(),
    /** The rate the buyer chose from the carrier's quote. */
    shippingRate: jsonb('shipping_rate').$type<{
      shipmentId: string
      rateId: string
      carrier: string
      service: string
      amountCents: number
      deliveryDays: number | null
    }>(),
    /** A paid shipped sale is cancelled and refunded when no label is bought by then (SHIP_WITHIN_DAYS). */
    shipBy: timestamp('ship_by', { withTimezone: true }),
  },
  (t) => [
    // A buyer books a listing once.
    uniqueIndex('bookings_product_buyer_idx').on(t.productId, t.buyerId),
    // The few bookings waiting for the seller's grouped email: what that job reads.
    index('bookings_seller_email_pending_idx').on(t.productId).where(sql`${t.sellerEmailPending}`),
    index('bookings_buyer_idx').on(t.buyerId, t.createdAt.desc()),
    check('bookings_stage_check', sql`${t.stage} in (${sqlList(BOOKING_STAGES)})`),
    // A stage past payment needs the payment; a cancelled booking was never paid.
    check(
      'bookings_stage_paid_check',
      sql`(${t.stage} in ('booked', 'cancelled') or ${t.isPaid}) and (${t.stage} <> 'cancelled' or not ${t.isPaid})`,
    ),
    // Handed-over sales waiting for the buyer, oldest first: what auto-completion reads.
    index('bookings_handed_over_idx').on(t.handedOverAt).where(sql`${t.stage} = 'handed_over'`),
    // Paid shipped sales waiting for their label: what the ship-within job reads.
    index('bookings_ship_by_idx').on(t.shipBy).where(sql`${t.stage} = 'paid' and ${t.shipBy} is not null`),
    check(
      'bookings_delivery_method_check',
      sql`${t.deliveryMethod} in ('meet', 'ship') and (${t.deliveryMethod} = 'ship' or ${t.shippingCents} = 0)`,
    ),
  ],
)

/**
 * The hold while a buyer pays: which booking holds a laptop, until when. The database's clock decides: a
 * hold past its time is no hold, and one conditional upsert takes it (server/modules/bookings/hold.service.ts),
 * so it is right after a restart and across instances. Kept apart from the listing so that a hold does not
 * rewrite the listing's row (and its search and count triggers).
 */
export const productHolds = pgTable(
  'product_holds',
  {
    productId: uuid('product_id')
      .primaryKey()
      .references(() => products.id),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id),
    holdUntil: timestamp('hold_until', { withTimezone: true }).notNull(),
  },
  (t) => [index('product_holds_booking_idx').on(t.bookingId)],
)

/** Every hold a buyer took, for the limits: per buyer per listing per day. */
export const bookingHolds = pgTable(
  'booking_holds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    buyerId: text('buyer_id')
      .notNull()
      .references(() => users.id),
    holdUntil: timestamp('hold_until', { withTimezone: true }).notNull(),
    /** The client address the hold was taken from: live holds are limited per address too. */
    clientAddress: text('client_address'),
    createdAt: createdAt(),
  },
  (t) => [
    index('booking_holds_buyer_product_idx').on(t.buyerId, t.productId, t.createdAt),
    index('booking_holds_address_idx').on(t.clientAddress, t.holdUntil),
  ],
)

// ---------------------------------------------------------------------------------------------
// The deal after payment: each step of a booking on record, and the problems buyers report
// ---------------------------------------------------------------------------------------------

export { BOOKING_EVENT_KINDS }

/** What happened to a booking after payment, who did it (null: the marketplace itself) and any note. */
export const bookingEvents = pgTable(
  'booking_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id),
    kind: text('kind', { enum: BOOKING_EVENT_KINDS }).notNull(),
    actorId: text('actor_id').references(() => users.id),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [index('booking_events_booking_idx').on(t.bookingId, t.createdAt)],
)

export { DISPUTE_STATUSES }

/** A problem a buyer reported with a paid sale; an admin refunds the buyer or releases the sale. */
export const disputes = pgTable(
  'disputes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id),
    openedBy: text('opened_by')
      .notNull()
      .references(() => users.id),
    reason: text('reason').notNull(),
    /** The booking's stage when the problem was reported (paid or handed_over). */
    stageBefore: text('stage_before', { enum: BOOKING_STAGES }).notNull(),
    status: text('status', { enum: DISPUTE_STATUSES }).notNull().default('open'),
    resolvedBy: text('resolved_by').references(() => users.id),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('disputes_status_check', sql`${t.status} in (${sqlList(DISPUTE_STATUSES)})`),
    // A sale has at most one dispute: it ends the sale either way (refunded, or completed).
    uniqueIndex('disputes_booking_idx').on(t.bookingId),
    index('disputes_open_idx').on(t.createdAt.desc()).where(sql`${t.status} = 'open'`),
  ],
)

export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'refunded'] as const
export const PAYMENT_PROVIDERS = ['stripe', 'test'] as const

export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    buyerId: text('buyer_id')
      .notNull()
      .references(() => users.id),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    /** The provider's transaction id (a Stripe PaymentIntent id, or the test processor's). */
    transactionId: text('transaction_id').notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull(),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('payments_status_check', sql`${t.status} in ('pending', 'succeeded', 'failed', 'refunded')`),
    check('payments_amount_check', sql`${t.amountCents} > 0`),
    uniqueIndex('payments_transaction_idx').on(t.provider, t.transactionId),
    // One laptop, one sale: the database refuses a second successful payment for a listing.
    uniqueIndex('payments_one_sale_per_product_idx').on(t.productId).where(sql`${t.status} = 'succeeded'`),
    index('payments_booking_idx').on(t.bookingId),
  ],
)

/** Provider events already handled, so a redelivered webhook changes nothing. */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
})

// ---------------------------------------------------------------------------------------------
// Shipping (server/modules/shipping): parcels bought through the carrier, their tracking, and the
// built-in test carrier's own records
// ---------------------------------------------------------------------------------------------

export const PARCEL_PURPOSES = ['sale', 'return'] as const
/** EasyPost's tracker statuses (https://docs.easypost.com/docs/trackers). */
export const PARCEL_STATUSES = [
  'unknown',
  'pre_transit',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'available_for_pickup',
  'return_to_sender',
  'failure',
  'cancelled',
  'error',
] as const
export const CARRIER_MODES = ['easypost', 'test'] as const

export const parcels = pgTable(
  'parcels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id),
    purpose: text('purpose', { enum: PARCEL_PURPOSES }).notNull(),
    /** The return this parcel brings back (purpose 'return'). */
    returnId: uuid('return_id'),
    /** Which carrier platform sold the label: EasyPost, or the built-in test carrier ("Test mode"). */
    mode: text('mode', { enum: CARRIER_MODES }).notNull(),
    carrierShipmentId: text('carrier_shipment_id').notNull(),
    trackerId: text('tracker_id').notNull(),
    trackingCode: text('tracking_code').notNull(),
    carrier: text('carrier').notNull(),
    service: text('service').notNull(),
    labelUrl: text('label_url').notNull(),
    trackingUrl: text('tracking_url'),
    costCents: integer('cost_cents').notNull(),
    status: text('status', { enum: PARCEL_STATUSES }).notNull().default('pre_transit'),
    /** When the carrier saw the status (its event time, not when we heard of it). */
    statusAt: timestamp('status_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('parcels_purpose_check', sql`${t.purpose} in (${sqlList(PARCEL_PURPOSES)})`),
    check('parcels_status_check', sql`${t.status} in (${sqlList(PARCEL_STATUSES)})`),
    check('parcels_mode_check', sql`${t.mode} in (${sqlList(CARRIER_MODES)})`),
    check('parcels_return_check', sql`(${t.purpose} = 'return') = (${t.returnId} is not null)`),
    uniqueIndex('parcels_tracker_idx').on(t.trackerId),
    // One label per sale, and one per return: buying again gives the parcel already bought.
    uniqueIndex('parcels_sale_idx').on(t.bookingId).where(sql`${t.purpose} = 'sale'`),
    uniqueIndex('parcels_return_idx').on(t.returnId).where(sql`${t.purpose} = 'return'`),
  ],
)

/** Each tracking step of a parcel, as the carrier reported it (one row per status and time). */
export const parcelEvents = pgTable(
  'parcel_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    parcelId: uuid('parcel_id')
      .notNull()
      .references(() => parcels.id),
    status: text('status', { enum: PARCEL_STATUSES }).notNull(),
    message: text('message').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    /** The webhook event that first told us of this step. */
    carrierEventId: text('carrier_event_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('parcel_events_status_check', sql`${t.status} in (${sqlList(PARCEL_STATUSES)})`),
    // Every webhook carries the tracker's whole history: a step already recorded is not recorded again.
    uniqueIndex('parcel_events_step_idx').on(t.parcelId, t.status, t.occurredAt),
  ],
)

/** Carrier webhook events already handled (their id), so a replayed or redelivered one changes nothing. */
export const carrierEvents = pgTable('carrier_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * The built-in test carrier's own records (shipments, trackers), in EasyPost's shapes: kept in the database
 * so every instance serves the same ones. Not used when EASYPOST_API_KEY is set.
 */
export const testCarrierObjects = pgTable('test_carrier_objects', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: ['shipment', 'tracker'] }).notNull(),
  body: jsonb('body').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

// ---------------------------------------------------------------------------------------------
// Moderation
// ---------------------------------------------------------------------------------------------

export const REPORT_STATUSES = ['open', 'dismissed', 'removed'] as const

export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    reporterId: text('reporter_id')
      .notNull()
      .references(() => users.id),
    reason: text('reason').notNull(),
    status: text('status', { enum: REPORT_STATUSES }).notNull().default('open'),
    resolvedBy: text('resolved_by').references(() => users.id),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('reports_status_check', sql`${t.status} in ('open', 'dismissed', 'removed')`),
    index('reports_open_idx').on(t.createdAt.desc()).where(sql`${t.status} = 'open'`),
    index('reports_product_idx').on(t.productId),
  ],
)

// ---------------------------------------------------------------------------------------------
// Messages between a booking's buyer and the listing's seller (server/modules/messages)
// ---------------------------------------------------------------------------------------------

/** One message in a booking's conversation; `offPlatform` when it asks to pay outside the marketplace. */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id),
    senderId: text('sender_id')
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    offPlatform: boolean('off_platform').notNull().default(false),
    /** Its reader reported it: from then on an admin may read the conversation. */
    reportedAt: timestamp('reported_at', { withTimezone: true }),
    reportedBy: text('reported_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    check('messages_body_length_check', sql`char_length(${t.body}) between 1 and 2000`),
    // A thread, oldest first, and the messages after a reader's last read: one range of this index.
    index('messages_booking_created_idx').on(t.bookingId, t.createdAt),
    index('messages_reported_idx').on(t.reportedAt.desc()).where(sql`${t.reportedAt} is not null`),
  ],
)

/**
 * Each participant of a conversation (made for both at its first message): when they last read it, and
 * when they were last emailed about it. Unread = the other side's messages after `lastReadAt`.
 */
export const messageReads = pgTable(
  'message_reads',
  {
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    lastReadAt: timestamp('last_read_at', { withTimezone: true }).notNull().default(sql`'epoch'`),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.bookingId, t.userId] }), index('message_reads_user_idx').on(t.userId)],
)

// ---------------------------------------------------------------------------------------------
// Uploaded photos, before and after they are attached to a listing
// ---------------------------------------------------------------------------------------------

export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    uploaderId: text('uploader_id')
      .notNull()
      .references(() => users.id),
    cardUrl: text('card_url').notNull(),
    detailUrl: text('detail_url').notNull(),
    /** The 960-pixel size; null for photos uploaded before it existed. */
    mediumUrl: text('medium_url'),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_uploader_idx').on(t.uploaderId, t.createdAt)],
)

// ---------------------------------------------------------------------------------------------
// Returns: a laptop not as described goes back to its seller (server/modules/returns, docs/decisions/0076)
// ---------------------------------------------------------------------------------------------

export { RETURN_STATUSES }

/** A buyer's return of a handed-over sale. A sale has at most one return. */
export const returns = pgTable(
  'returns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id),
    openedBy: text('opened_by')
      .notNull()
      .references(() => users.id),
    /** 'ship': a return label bought at the seller's cost; 'meet': handed back in person. */
    method: text('method', { enum: ['ship', 'meet'] }).notNull(),
    reason: text('reason').notNull(),
    /** The handover checklist item that failed (null: opened from a dispute). */
    failedCheck: text('failed_check', { enum: HANDOVER_CHECK_KEYS }),
    status: text('status', { enum: RETURN_STATUSES }).notNull().default('requested'),
    /** The admin's dispute this return was opened from ("Return first"), if any. */
    disputeId: uuid('dispute_id').references(() => disputes.id),
    declineReason: text('decline_reason'),
    decisionReason: text('decision_reason'),
    decidedBy: text('decided_by').references(() => users.id),
    backNote: text('back_note'),
    /**
     * A shipped return's quoted shipment at the carrier and the rate its label is bought at: written once, under the
     * return's row, before the carrier is asked to buy; every retry of the label job buys on this one (never a second).
     */
    labelShipmentId: text('label_shipment_id'),
    labelRateId: text('label_rate_id'),
    createdAt: createdAt(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    deliveredBackAt: timestamp('delivered_back_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    check('returns_status_check', sql`${t.status} in (${sqlList(RETURN_STATUSES)})`),
    check('returns_method_check', sql`${t.method} in ('ship', 'meet')`),
    uniqueIndex('returns_booking_idx').on(t.bookingId),
    // What admins decide, oldest first.
    index('returns_awaiting_idx').on(t.createdAt).where(sql`${t.status} in ('requested', 'declined')`),
    // Returns delivered back and waiting for the seller's check: what the confirm-by job reads.
    index('returns_delivered_back_idx').on(t.deliveredBackAt).where(sql`${t.status} = 'delivered_back'`),
  ],
)

/** The buyer's photos on a return: their own uploads (server/modules/uploads keeps them while a return shows them). */
export const returnPhotos = pgTable(
  'return_photos',
  {
    returnId: uuid('return_id')
      .notNull()
      .references(() => returns.id),
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => uploads.id),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.returnId, t.uploadId] }),
    index('return_photos_upload_idx').on(t.uploadId),
  ],
)

// ---------------------------------------------------------------------------------------------
// Battery reports: the file a laptop wrote about its battery, as its seller uploaded it. Private: only the facts
// read from it (on the listing) are ever shown; the file is kept as the evidence behind them.
// ---------------------------------------------------------------------------------------------

export const batteryReports = pgTable(
  'battery_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    uploaderId: text('uploader_id')
      .notNull()
      .references(() => users.id),
    source: text('source', { enum: BATTERY_REPORT_SOURCES }).notNull(),
    /** As the report gives them, in `unit`; null when the report gives only a percentage (macOS). */
    designCapacity: doublePrecision('design_capacity'),
    fullCapacity: doublePrecision('full_capacity'),
    unit: text('unit').notNull(),
    healthPct: smallint('health_pct').notNull(),
    cycles: integer('cycles'),
    reportDate: timestamp('report_date', { withTimezone: true }).notNull(),
    fileName: text('file_name').notNull().default(''),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('battery_reports_product_idx').on(t.productId, t.createdAt)],
)

// ---------------------------------------------------------------------------------------------
// Media: photo bytes kept in the database when no object store is configured, so every app
// instance on this database serves every photo. Keys are the same relative paths a folder would use.
// ---------------------------------------------------------------------------------------------

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
})

export const mediaObjects = pgTable('media_objects', {
  key: text('key').primaryKey(),
  data: bytea('data').notNull(),
  bytes: integer('bytes').notNull(),
  createdAt: createdAt(),
})

// ---------------------------------------------------------------------------------------------
// Email: which non-essential topics (contract/email-preferences.ts) each user has turned off. No row
// means every topic is on. The emails themselves wait in the job queue (server/jobs, schema pgboss).
// ---------------------------------------------------------------------------------------------

export const emailPreferences = pgTable('email_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  mutedTopics: text('muted_topics').array().notNull().default(sql`'{}'::text[]`),
  /** How the user hears that a favourite got cheaper or is available again: instant, daily or off. */
  favouriteAlerts: text('favourite_alerts', { enum: ALERT_CHOICES }).notNull().default('instant'),
  updatedAt: updatedAt(),
})

// ---------------------------------------------------------------------------------------------
// Price guide and listing views
// ---------------------------------------------------------------------------------------------

export const PRICE_GUIDE_LEVELS = { model: 1, family: 2 } as const

/**
 * What similar laptops sold for over the last 180 days, per brand, processor (level 1: the model, level 2:
 * its family), RAM and storage. Rewritten for the affected keys on each sale and in full by a daily job, so
 * reading a guide is one index lookup (see server/modules/price-guide).
 */
export const priceGuides = pgTable(
  'price_guides',
  {
    level: smallint('level').notNull(),
    brandId: uuid('brand_id')
      .notNull()
      .references(() => brands.id, { onDelete: 'cascade' }),
    processorKey: text('processor_key').notNull(),
    ramGb: integer('ram_gb').notNull(),
    storageGb: integer('storage_gb').notNull(),
    sales: integer('sales').notNull(),
    p25Cents: integer('p25_cents').notNull(),
    medianCents: integer('median_cents').notNull(),
    p75Cents: integer('p75_cents').notNull(),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.brandId, t.ramGb, t.storageGb, t.processorKey, t.level] }),
    check('price_guides_level_check', sql`${t.level} in (1, 2)`),
  ],
)

/** Views of a listing's page: one row per listing per day, a visitor counted once a day (batched writes). */
export const productViews = pgTable(
  'product_views',
  {
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    views: integer('views').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.productId, t.day] })],
)

// ---------------------------------------------------------------------------------------------
// Reviews after a completed sale (docs/decisions/0023-reviews.md)
// ---------------------------------------------------------------------------------------------

export const REVIEW_ROLES = ['buyer', 'seller'] as const

/**
 * One review per author per completed sale: the buyer rates the seller, the seller rates the buyer.
 * `publishAt` carries the blind rule so readers need no join: completion + 14 days when written, moved to
 * the moment the other side writes. A review is published when `publish_at <= now()` (the database's clock).
 */
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id),
    authorId: text('author_id')
      .notNull()
      .references(() => users.id),
    /** The other party: the seller for a buyer's review, the buyer for a seller's. */
    subjectId: text('subject_id')
      .notNull()
      .references(() => users.id),
    authorRole: text('author_role', { enum: REVIEW_ROLES }).notNull(),
    rating: smallint('rating').notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
    publishAt: timestamp('publish_at', { withTimezone: true }).notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    removedBy: text('removed_by').references(() => users.id),
  },
  (t) => [
    uniqueIndex('reviews_booking_author_idx').on(t.bookingId, t.authorId),
    check('reviews_rating_check', sql`${t.rating} between 1 and 5`),
    check('reviews_role_check', sql`${t.authorRole} in ('buyer', 'seller')`),
    // A seller's rating on every card and their page: the buyers' reviews of one subject, not removed.
    index('reviews_subject_idx')
      .on(t.subjectId, t.publishAt)
      .where(sql`${t.authorRole} = 'buyer' and ${t.removedAt} is null`),
  ],
)

/** A signed-in user's report of a review; admins see the open ones and remove the review or dismiss them. */
export const reviewReports = pgTable(
  'review_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reviewId: uuid('review_id')
      .notNull()
      .references(() => reviews.id),
    reporterId: text('reporter_id')
      .notNull()
      .references(() => users.id),
    reason: text('reason').notNull(),
    status: text('status', { enum: REPORT_STATUSES }).notNull().default('open'),
    resolvedBy: text('resolved_by').references(() => users.id),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('review_reports_status_check', sql`${t.status} in ('open', 'dismissed', 'removed')`),
    uniqueIndex('review_reports_review_reporter_idx').on(t.reviewId, t.reporterId),
    index('review_reports_open_idx').on(t.createdAt.desc()).where(sql`${t.status} = 'open'`),
  ],
)

// ---------------------------------------------------------------------------------------------
// Favourites, saved searches and their alerts (docs/decisions/0028-favourites-and-saved-searches.md)
// ---------------------------------------------------------------------------------------------

/** A laptop a user keeps; the price then, and the price they were last told about (a drop is measured from it). */
export const favourites = pgTable(
  'favourites',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    savedPriceCents: integer('saved_price_cents').notNull(),
    /** The lowest price announced for this favourite (the saved price at first): a drop alerts only below it. */
    alertPriceCents: integer('alert_price_cents').notNull(),
    /** When the last price drop was announced for this favourite: at most one a day. */
    priceAlertedAt: timestamp('price_alerted_at', { withTimezone: true }),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.productId] }),
    // Who saved a listing: the alerts' and the seller's saved counts.
    index('favourites_product_idx').on(t.productId),
    index('favourites_user_saved_idx').on(t.userId, t.savedAt.desc()),
  ],
)

/**
 * A search a user keeps: its canonical `/productcard` query, the filters it parsed to (what the matcher reads),
 * the text resolved against the titles' vocabulary as a full-text query, and how its owner is alerted.
 */
export const savedSearches = pgTable(
  'saved_searches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    query: text('query').notNull(),
    filters: jsonb('filters').notNull(),
    textQuery: text('text_query'),
    alert: text('alert', { enum: ALERT_CHOICES }).notNull().default('instant'),
    createdAt: createdAt(),
    lastVisitedAt: timestamp('last_visited_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last instant alert sent for it: at most one an hour. */
    lastEmailedAt: timestamp('last_emailed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('saved_searches_user_query_idx').on(t.userId, t.query),
    check('saved_searches_alert_check', sql`${t.alert} in ('instant', 'daily', 'off')`),
    index('saved_searches_alerting_idx').on(t.id).where(sql`${t.alert} <> 'off'`),
  ],
)

export const ALERT_EVENT_KINDS = ['listed', 'price', 'available'] as const

/**
 * What the matcher has still to look at: a listing posted, a price changed, a listing free again. Written in
 * the transaction of the change, read and deleted by the `alerts.match` job, so no change is lost to a crash.
 */
export const alertEvents = pgTable(
  'alert_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: ALERT_EVENT_KINDS }).notNull(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** For a price change: the price before it. */
    oldPriceCents: integer('old_price_cents'),
    /** Not looked at before then (a hold's end: the listing may be free again). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('alert_events_due_idx').on(t.dueAt)],
)

export const ALERT_ITEM_KINDS = ['match', 'price_drop', 'available'] as const

/** One thing to tell one user: a new match of a saved search, or a favourite cheaper or free again. */
export const alertItems = pgTable(
  'alert_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ALERT_ITEM_KINDS }).notNull(),
    savedSearchId: uuid('saved_search_id').references(() => savedSearches.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    oldPriceCents: integer('old_price_cents'),
    newPriceCents: integer('new_price_cents'),
    /** instant: in the next grouped email; daily: in the digest. */
    delivery: text('delivery', { enum: ['instant', 'daily'] }).notNull(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('alert_items_search_product_idx')
      .on(t.savedSearchId, t.productId)
      .where(sql`${t.kind} = 'match'`),
    index('alert_items_unsent_idx').on(t.userId, t.delivery).where(sql`${t.sentAt} is null`),
  ],
)

// ---------------------------------------------------------------------------------------------
// Offers: a buyer proposes a price, the seller accepts, declines or counters (server/modules/offers,
// docs/decisions/0038-offers.md)
// ---------------------------------------------------------------------------------------------

/**
 * open: waiting for `waiting_for` to answer until `expires_at`; accepted: a booking at the agreed price holds
 * the laptop until `pay_by`; declined (by the seller, or because the laptop sold to someone else), withdrawn (by
 * the buyer), expired (unanswered in time), lapsed (accepted, not paid within the hold).
 */
export const OFFER_STATUSES = ['open', 'accepted', 'declined', 'withdrawn', 'expired', 'lapsed'] as const
export const OFFER_SIDES = ['buyer', 'seller'] as const

export const offers = pgTable(
  'offers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    buyerId: text('buyer_id')
      .notNull()
      .references(() => users.id),
    /** The listing's seller when the offer was made (a listing never changes hands). */
    sellerId: text('seller_id')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: OFFER_STATUSES }).notNull().default('open'),
    /** The amount on the table: the latest proposal (the buyer's offer or either side's counter). */
    amountCents: integer('amount_cents').notNull(),
    /** The buyer's latest proposal: a seller's counter lies above it, a buyer's next counter too. */
    buyerAmountCents: integer('buyer_amount_cents').notNull(),
    /** Whose answer it waits for while open. */
    waitingFor: text('waiting_for', { enum: OFFER_SIDES }).notNull().default('seller'),
    /** Proposals made on this offer (the offer itself is the first). */
    rounds: smallint('rounds').notNull().default(1),
    note: text('note'),
    declineReason: text('decline_reason'),
    /** An open offer past this is expired, whether or not the expiry job has run yet (the database's clock). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Accepted: the booking at the agreed price, and the end of its hold (unpaid by then, the offer lapses). */
    bookingId: uuid('booking_id').references(() => bookings.id),
    payBy: timestamp('pay_by', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'offers_status_check',
      sql`${t.status} in (${sql.raw(OFFER_STATUSES.map((s) => `'${s}'`).join(', '))})`,
    ),
    check('offers_waiting_for_check', sql`${t.waitingFor} in ('buyer', 'seller')`),
    check('offers_amount_check', sql`${t.amountCents} > 0 and ${t.buyerAmountCents} > 0`),
    check('offers_rounds_check', sql`${t.rounds} between 1 and 3`),
    check(
      'offers_accepted_check',
      sql`${t.status} <> 'accepted' or (${t.bookingId} is not null and ${t.payBy} is not null)`,
    ),
    // One open offer per buyer and listing.
    uniqueIndex('offers_open_pair_idx').on(t.productId, t.buyerId).where(sql`${t.status} = 'open'`),
    index('offers_product_buyer_idx').on(t.productId, t.buyerId),
    index('offers_buyer_idx').on(t.buyerId, t.createdAt.desc()),
    index('offers_seller_idx').on(t.sellerId, t.createdAt.desc()),
    index('offers_booking_idx').on(t.bookingId).where(sql`${t.bookingId} is not null`),
  ],
)

export const OFFER_EVENT_KINDS = [
  'offer',
  'counter',
  'accepted',
  'declined',
  'withdrawn',
  'expired',
  'lapsed',
  'sold',
  'off_sale',
] as const

/** Each step of an offer, as the thread shows it: who took it (null: the marketplace), any amount and note. */
export const offerEvents = pgTable(
  'offer_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    offerId: uuid('offer_id')
      .notNull()
      .references(() => offers.id),
    kind: text('kind', { enum: OFFER_EVENT_KINDS }).notNull(),
    actor: text('actor', { enum: OFFER_SIDES }),
    amountCents: integer('amount_cents'),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [index('offer_events_offer_idx').on(t.offerId, t.createdAt)],
)

// ---------------------------------------------------------------------------------------------
// Questions to a seller about a listing, before buying ("Ask the seller")
// ---------------------------------------------------------------------------------------------

/**
 * A question someone asked a listing's seller, and the seller's answer. An answer is shown to its asker; when the
 * seller makes it public it is also shown on the listing (the asker named by first name only).
 */
export const questions = pgTable(
  'questions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    askerId: text('asker_id')
      .notNull()
      .references(() => users.id),
    /** The listing's seller when the question was asked (a listing never changes hands). */
    sellerId: text('seller_id')
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    answer: text('answer'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    /** Shown on the listing as Q&A (only once answered). */
    isPublic: boolean('is_public').notNull().default(false),
    /** Not yet told to the seller: the grouped email (`questions.seller-email`) tells it and clears this. */
    sellerEmailPending: boolean('seller_email_pending').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('questions_body_length_check', sql`char_length(${t.body}) between 1 and 1000`),
    check(
      'questions_answer_length_check',
      sql`${t.answer} is null or char_length(${t.answer}) between 1 and 2000`,
    ),
    check('questions_public_answered_check', sql`not ${t.isPublic} or ${t.answer} is not null`),
    // The listing's public Q&A, newest first.
    index('questions_product_public_idx').on(t.productId, t.answeredAt.desc()).where(sql`${t.isPublic}`),
    // The seller's questions, and the asker's (also their count of the last day).
    index('questions_seller_idx').on(t.sellerId, t.createdAt.desc()),
    index('questions_asker_idx').on(t.askerId, t.createdAt.desc()),
    index('questions_seller_email_pending_idx').on(t.sellerId).where(sql`${t.sellerEmailPending}`),
  ],
)

/** A seller takes no more questions from this person. */
export const questionBlocks = pgTable(
  'question_blocks',
  {
    sellerId: text('seller_id')
      .notNull()
      .references(() => users.id),
    askerId: text('asker_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sellerId, t.askerId] }), index('question_blocks_asker_idx').on(t.askerId)],
)

// ---------------------------------------------------------------------------------------------
// Money to sellers: payout accounts, payouts, and the double-entry ledger (docs/decisions/0035)
// ---------------------------------------------------------------------------------------------

export const PAYOUT_ACCOUNT_STATUSES = ['pending', 'enabled', 'restricted'] as const

/**
 * Where a seller is paid: a Stripe Connect Express account (its status kept from Stripe's events), or, with
 * the built-in test processor, a test bank account (only its last four digits and whether its number is the
 * documented "fails at payout" one are kept).
 */
export const payoutAccounts = pgTable(
  'payout_accounts',
  {
    sellerId: text('seller_id')
      .primaryKey()
      .references(() => users.id),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    status: text('status', { enum: PAYOUT_ACCOUNT_STATUSES }).notNull(),
    stripeAccountId: text('stripe_account_id').unique(),
    accountHolder: text('account_holder'),
    routingNumber: text('routing_number'),
    accountLast4: text('account_last4'),
    /** Test mode: the account number is Stripe's documented one that fails at payout. */
    failsAtPayout: boolean('fails_at_payout').notNull().default(false),
    /** Changed details receive payouts from then on (PAYOUT_ACCOUNT_HOLD_HOURS after the change); null: now. */
    payableFrom: timestamp('payable_from', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('payout_accounts_status_check', sql`${t.status} in ('pending', 'enabled', 'restricted')`)],
)

/**
 * Each change of a seller's payout details, with the details it replaced: the email about it links to its
 * undo, which puts those back (after sign-in and a step-up).
 */
export const payoutAccountChanges = pgTable(
  'payout_account_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerId: text('seller_id')
      .notNull()
      .references(() => users.id),
    oldAccountHolder: text('old_account_holder'),
    oldRoutingNumber: text('old_routing_number'),
    oldAccountLast4: text('old_account_last4'),
    oldFailsAtPayout: boolean('old_fails_at_payout'),
    oldStatus: text('old_status', { enum: PAYOUT_ACCOUNT_STATUSES }),
    oldPayableFrom: timestamp('old_payable_from', { withTimezone: true }),
    newAccountLast4: text('new_account_last4'),
    createdAt: createdAt(),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
  },
  (t) => [index('payout_account_changes_seller_idx').on(t.sellerId, t.createdAt.desc())],
)

export const PAYOUT_STATES = ['pending', 'in_transit', 'paid', 'failed'] as const

/**
 * One payout of a seller's available balance. The amount is a record of the payout, not a balance: the
 * balances are sums over `ledger_entries`. `pending` is the payout written before the processor is called
 * (its id is the idempotency key of that call), `in_transit` once the processor took it.
 */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerId: text('seller_id')
      .notNull()
      .references(() => users.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    state: text('state', { enum: PAYOUT_STATES }).notNull().default('pending'),
    stripeTransferId: text('stripe_transfer_id'),
    stripePayoutId: text('stripe_payout_id').unique(),
    /** Stripe Connect: the sale whose share this payout's transfer carries (`source_transaction`, its charge). */
    bookingId: uuid('booking_id').references(() => bookings.id),
    failureReason: text('failure_reason'),
    /** The last four digits of the bank account it was sent to (null: Stripe's account, or before they were kept). */
    accountLast4: text('account_last4'),
    /** Test mode: when the simulated payout arrives (or fails). */
    arrivesAt: timestamp('arrives_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    check('payouts_state_check', sql`${t.state} in ('pending', 'in_transit', 'paid', 'failed')`),
    check('payouts_amount_check', sql`${t.amountCents} > 0`),
    // A seller has at most one payout being made at a time: a second instance's attempt fails here.
    uniqueIndex('payouts_one_pending_per_seller_idx').on(t.sellerId).where(sql`${t.state} = 'pending'`),
    // A sale's share is transferred once (a failed transfer may be made again).
    uniqueIndex('payouts_one_transfer_per_sale_idx')
      .on(t.bookingId)
      .where(sql`${t.bookingId} is not null and ${t.state} <> 'failed'`),
    index('payouts_seller_idx').on(t.sellerId, t.createdAt.desc()),
  ],
)

/** The last "set up payouts to receive $X" email to a seller, so it goes at most once a week. */
export const payoutReminders = pgTable('payout_reminders', {
  sellerId: text('seller_id')
    .primaryKey()
    .references(() => users.id),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
})

/**
 * The ledger's accounts. A balance is the sum of an account's entries; a positive balance is money in that
 * place. `buyers` and `paid_out:<seller>` are outside the marketplace (buyers' cards, sellers' banks); every
 * other account is money the marketplace holds. Ids: the kind, then `:<seller id>` for a seller's own.
 */
export const LEDGER_ACCOUNT_KINDS = [
  'buyers',
  'held',
  'held_fees',
  'available',
  'on_its_way',
  'paid_out',
  'fees',
  'shipping',
  'carriers',
] as const
export type LedgerAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number]

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: LEDGER_ACCOUNT_KINDS }).notNull(),
    sellerId: text('seller_id').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'ledger_accounts_kind_check',
      sql`${t.kind} in (${sql.raw(LEDGER_ACCOUNT_KINDS.map((k) => `'${k}'`).join(', '))})`,
    ),
    check(
      'ledger_accounts_seller_check',
      sql`(${t.sellerId} is null) = (${t.kind} in ('buyers', 'held_fees', 'fees', 'shipping', 'carriers'))`,
    ),
    index('ledger_accounts_kind_seller_idx').on(t.kind, t.sellerId),
  ],
)

export const LEDGER_TRANSACTION_KINDS = [
  'charge',
  'complete',
  'refund',
  'payout',
  'payout_paid',
  'payout_failed',
  'reversal',
  'label',
  /** A return label the seller pays for (server/modules/returns). */
  'return_label',
] as const
export type LedgerTransactionKind = (typeof LEDGER_TRANSACTION_KINDS)[number]

/**
 * One movement of money: its entries sum to zero (a deferred constraint trigger checks it at commit), and a
 * sale or a payout has each kind of movement at most once (unique indexes), so a repeated event posts
 * nothing. Append-only: a trigger refuses updates and deletes of transactions and entries.
 */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: LEDGER_TRANSACTION_KINDS }).notNull(),
    sellerId: text('seller_id')
      .notNull()
      .references(() => users.id),
    bookingId: uuid('booking_id').references(() => bookings.id),
    payoutId: uuid('payout_id').references(() => payouts.id),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'ledger_transactions_kind_check',
      sql`${t.kind} in (${sql.raw(LEDGER_TRANSACTION_KINDS.map((k) => `'${k}'`).join(', '))})`,
    ),
    check('ledger_transactions_subject_check', sql`(${t.bookingId} is null) <> (${t.payoutId} is null)`),
    uniqueIndex('ledger_transactions_booking_kind_idx')
      .on(t.bookingId, t.kind)
      .where(sql`${t.bookingId} is not null`),
    uniqueIndex('ledger_transactions_payout_kind_idx')
      .on(t.payoutId, t.kind)
      .where(sql`${t.payoutId} is not null`),
    index('ledger_transactions_seller_idx').on(t.sellerId, t.createdAt),
  ],
)

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: text('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (t) => [
    check('ledger_entries_amount_check', sql`${t.amountCents} <> 0`),
    index('ledger_entries_transaction_idx').on(t.transactionId),
    // A balance is read from this index alone.
    index('ledger_entries_account_idx').on(t.accountId, t.amountCents),
  ],
)
