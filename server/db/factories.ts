// Building blocks that insert valid rows with sensible defaults. The demo seed builds its data with them,
// and tests use them (through server/test/factories.ts) to make their own.

import { randomUUID } from 'node:crypto'
import { normalEmail } from '#contract/email'
import { PLACEHOLDER_IMAGE } from '#contract/products'
import type { Db } from '#server/db/client'
import {
  accounts,
  bookings,
  brands,
  payments,
  productImages,
  products,
  type UserRole,
  users,
} from '#server/db/schema'
import { hashPassword } from './password-hash'

/** The picture a listing shows when it has none of its own. */
export const PLACEHOLDER_IMAGE_URL = PLACEHOLDER_IMAGE

export type UserRow = typeof users.$inferSelect
export type BrandRow = typeof brands.$inferSelect
export type ProductRow = typeof products.$inferSelect
export type ProductImageRow = typeof productImages.$inferSelect
export type BookingRow = typeof bookings.$inferSelect

let sequence = 0
/** Unique within a test run, and across parallel test files (each has its own database anyway). */
function nextSuffix(): string {
  sequence += 1
  return `${sequence}-${randomUUID().slice(0, 8)}`
}

/** A date given as true means "now". */
function toDate(value: boolean | Date | null | undefined, now: Date): Date | null {
  if (value instanceof Date) return value
  return value ? now : null
}

export type NewUser = {
  id?: string
  role?: UserRole
  name?: string
  email?: string
  phone?: string | null
  /** Sellers verified by an admin carry a badge; true means verified now. */
  verified?: boolean | Date
  /** A deleted (disabled) account; true means disabled now. */
  disabled?: boolean | Date
  emailVerified?: boolean
  createdAt?: Date
  /** Adds a Better Auth email-and-password credential, hashed here. */
  password?: string
  /** The same with a hash made beforehand (hashing is deliberately slow). */
  passwordHash?: string
}

export async function createUser(db: Db, input: NewUser = {}): Promise<UserRow> {
  const suffix = nextSuffix()
  const role = input.role ?? 'buyer'
  const now = input.createdAt ?? new Date()
  const [user] = await db
    .insert(users)
    .values({
      id: input.id ?? `user-${suffix}`,
      role,
      name: input.name ?? `Test ${role[0]?.toUpperCase()}${role.slice(1)} ${suffix.split('-')[0]}`,
      email: normalEmail(input.email ?? `${role}-${suffix}@example.test`),
      emailVerified: input.emailVerified ?? true,
      phone: input.phone === undefined ? null : input.phone,
      verifiedAt: toDate(input.verified, now),
      disabledAt: toDate(input.disabled, now),
      createdAt: now,
      updatedAt: now,
    })
    .returning()
  if (!user) throw new Error('createUser: insert returned nothing')
  const hash = input.passwordHash ?? (input.password ? await hashPassword(input.password) : undefined)
  if (hash) {
    await db.insert(accounts).values({
      id: `${user.id}-credential`,
      accountId: user.id,
      providerId: 'credential',
      userId: user.id,
      password: hash,
      createdAt: now,
      updatedAt: now,
    })
  }
  return user
}

export type NewBrand = { id?: string; name?: string; imageUrl?: string; createdAt?: Date }

export async function createBrand(db: Db, input: NewBrand = {}): Promise<BrandRow> {
  const [brand] = await db
    .insert(brands)
    .values({
      ...(input.id ? { id: input.id } : {}),
      name: input.name ?? `Brand ${nextSuffix()}`,
      imageUrl: input.imageUrl ?? PLACEHOLDER_IMAGE_URL,
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    })
    .returning()
  if (!brand) throw new Error('createBrand: insert returned nothing')
  return brand
}

export type NewProductImage = { id?: string; cardUrl: string; mediumUrl?: string | null; detailUrl: string }

export type NewProduct = Partial<
  Omit<typeof products.$inferInsert, 'sellerId' | 'brandId' | 'sellerPhone' | 'soldAt' | 'images'>
> & {
  seller: Pick<UserRow, 'id'> & { phone?: string | null }
  brand: Pick<BrandRow, 'id'>
  sellerPhone?: string
  /** Defaults to now when isSold is true. */
  soldAt?: Date | null
  /** Defaults to one placeholder picture; [] for none (the listing's `images` column follows them: migration 0057). */
  images?: NewProductImage[]
}

export type CreatedProduct = Omit<ProductRow, 'images'> & { images: ProductImageRow[] }

export async function createProduct(db: Db, input: NewProduct): Promise<CreatedProduct> {
  const { seller, brand, images, ...overrides } = input
  const postedOn = overrides.postedOn ?? new Date()
  const isSold = overrides.isSold ?? false
  const [product] = await db
    .insert(products)
    .values({
      name: `Test Laptop ${nextSuffix()}`,
      resalePriceCents: 49900,
      originalPriceCents: 99900,
      description: 'Fully working, light marks on the lid, battery at 80% of design capacity.',
      condition: 'Good',
      location: 'Austin, TX',
      usesYears: 2,
      processor: 'Intel Core i5-1235U',
      ramGb: 16,
      storageGb: 512,
      screenInches: 14,
      ...overrides,
      sellerId: seller.id,
      brandId: brand.id,
      sellerPhone: overrides.sellerPhone ?? seller.phone ?? '(512) 555-0100',
      isSold,
      soldAt: overrides.soldAt !== undefined ? overrides.soldAt : isSold ? postedOn : null,
      postedOn,
      onSaleSince: overrides.onSaleSince ?? postedOn,
      updatedAt: overrides.updatedAt ?? postedOn,
    })
    .returning()
  if (!product) throw new Error('createProduct: insert returned nothing')
  const pictures = images ?? [{ cardUrl: PLACEHOLDER_IMAGE_URL, detailUrl: PLACEHOLDER_IMAGE_URL }]
  const imageRows = pictures.length
    ? await db
        .insert(productImages)
        .values(
          pictures.map((p, i) => ({
            ...(p.id ? { id: p.id } : {}),
            productId: product.id,
            position: i + 1,
            cardUrl: p.cardUrl,
            mediumUrl: p.mediumUrl ?? null,
            detailUrl: p.detailUrl,
            createdAt: postedOn,
          })),
        )
        .returning()
    : []
  return { ...product, images: imageRows.sort((a, b) => a.position - b.position) }
}

export type NewBooking = Partial<Omit<typeof bookings.$inferInsert, 'productId' | 'buyerId'>> & {
  buyer: Pick<UserRow, 'id' | 'name' | 'email'>
  product: Pick<ProductRow, 'id' | 'name' | 'resalePriceCents'> & { images?: { cardUrl: string }[] }
}

/** A booking as the booking flow would record it: copies taken from the listing and the buyer. */
export async function createBooking(db: Db, input: NewBooking): Promise<BookingRow> {
  const { buyer, product, ...overrides } = input
  const isPaid = overrides.isPaid ?? false
  const createdAt = overrides.createdAt ?? new Date()
  const [booking] = await db
    .insert(bookings)
    .values({
      productName: product.name,
      productImage: product.images?.[0]?.cardUrl ?? PLACEHOLDER_IMAGE_URL,
      priceCents: product.resalePriceCents,
      userName: buyer.name,
      email: buyer.email,
      phoneNumber: '(312) 555-0100',
      location: 'Chicago, IL',
      ...overrides,
      productId: product.id,
      buyerId: buyer.id,
      isPaid,
      stage: overrides.stage ?? (isPaid ? 'paid' : 'booked'),
      paidAt: overrides.paidAt !== undefined ? overrides.paidAt : isPaid ? createdAt : null,
      createdAt,
    })
    .returning()
  if (!booking) throw new Error('createBooking: insert returned nothing')
  return booking
}

export type PaymentRow = typeof payments.$inferSelect

export type NewPayment = Partial<
  Omit<typeof payments.$inferInsert, 'bookingId' | 'productId' | 'buyerId' | 'amountCents'>
> & {
  booking: Pick<BookingRow, 'id' | 'productId' | 'buyerId' | 'priceCents'>
  amountCents?: number
}

/** A payment record for a booking; by default a succeeded payment through the test processor. */
export async function createPayment(db: Db, input: NewPayment): Promise<PaymentRow> {
  const { booking, ...overrides } = input
  const [payment] = await db
    .insert(payments)
    .values({
      provider: 'test',
      transactionId: `test_${randomUUID().replace(/-/g, '')}`,
      status: 'succeeded',
      ...overrides,
      bookingId: booking.id,
      productId: booking.productId,
      buyerId: booking.buyerId,
      amountCents: overrides.amountCents ?? booking.priceCents,
    })
    .returning()
  if (!payment) throw new Error('createPayment: insert returned nothing')
  return payment
}
