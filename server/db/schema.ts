import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()

// ---------------------------------------------------------------------------------------------
// Identity: the authentication library's own tables (Better Auth, plural model names), with the
// marketplace's role on the user. A buyer or seller "record" is the user row with that role.
// ---------------------------------------------------------------------------------------------

export const USER_ROLES = ['buyer', 'seller', 'admin'] as const
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('users_role_check', sql`${t.role} in ('buyer', 'seller', 'admin')`),
    index('users_role_created_idx').on(t.role, t.createdAt),
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

export const CONDITIONS = ['Excellent', 'Good', 'Fair'] as const

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
    updatedAt: updatedAt(),
  },
  (t) => [
    check('products_condition_check', sql`${t.condition} in ('Excellent', 'Good', 'Fair')`),
    check('products_prices_check', sql`${t.resalePriceCents} > 0 and ${t.originalPriceCents} > 0`),
    // Category pages and browse: available listings of a brand, newest first.
    index('products_brand_available_idx')
      .on(t.brandId, t.postedOn.desc())
      .where(sql`${t.isSold} = false and ${t.removedAt} is null`),
    // The home page's advertised list.
    index('products_advertised_idx')
      .on(t.postedOn.desc())
      .where(sql`${t.isAdvertised} = true and ${t.isSold} = false and ${t.removedAt} is null`),
    // Browse all available, newest first.
    index('products_available_idx')
      .on(t.postedOn.desc())
      .where(sql`${t.isSold} = false and ${t.removedAt} is null`),
    // A seller's own listings.
    index('products_seller_idx').on(t.sellerId, t.postedOn.desc()),
  ],
)

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
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('product_images_position_idx').on(t.productId, t.position)],
)

// ---------------------------------------------------------------------------------------------
// Bookings and payments
// ---------------------------------------------------------------------------------------------

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
  },
  (t) => [
    // A buyer books a listing once.
    uniqueIndex('bookings_product_buyer_idx').on(t.productId, t.buyerId),
    index('bookings_buyer_idx').on(t.buyerId, t.createdAt.desc()),
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
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_uploader_idx').on(t.uploaderId, t.createdAt)],
)
