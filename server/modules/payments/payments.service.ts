import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import Stripe from 'stripe'
import type { Db } from '#server/db/client'
import { bookings, paymentEvents, payments, products, users } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import type { SessionUser } from '#server/lib/session'
import { testCardOutcome } from './test-processor'

type BookingRow = typeof bookings.$inferSelect
type ProductRow = typeof products.$inferSelect

/**
 * Locks the booking and then its listing (always in that order, so payers never deadlock) and checks
 * that this buyer may pay for it now. Every payment path starts here, inside its transaction.
 */
async function lockPayableBooking(tx: Db, buyer: SessionUser, bookingId: string) {
  const [booking] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update')
  if (!booking) throw notFound('Booking')
  if (booking.buyerId !== buyer.id) {
    throw new AppError('FORBIDDEN', 'Only the buyer who booked this laptop can pay for it')
  }
  if (booking.isPaid) throw new AppError('CONFLICT', 'This booking is already paid')
  const product = await lockProduct(tx, booking.productId)
  if (product.isSold) throw new AppError('CONFLICT', 'This laptop has already been sold')
  if (product.removedAt || product.sellerDisabledAt) {
    throw new AppError('CONFLICT', 'This listing is no longer available')
  }
  return { booking, product }
}

async function lockProduct(tx: Db, productId: string) {
  const [row] = await tx
    .select({ product: products, sellerDisabledAt: users.disabledAt })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(eq(products.id, productId))
    .for('update', { of: products })
  if (!row) throw notFound('Product')
  return { ...row.product, sellerDisabledAt: row.sellerDisabledAt }
}

/** The sale itself, in the caller's transaction: payment recorded, booking paid, listing sold. */
async function recordSale(
  tx: Db,
  sale: { booking: BookingRow; product: ProductRow; provider: 'stripe' | 'test'; transactionId: string },
) {
  const now = new Date()
  const amountCents = sale.product.resalePriceCents
  await tx
    .insert(payments)
    .values({
      bookingId: sale.booking.id,
      productId: sale.product.id,
      buyerId: sale.booking.buyerId,
      amountCents,
      provider: sale.provider,
      transactionId: sale.transactionId,
      status: 'succeeded',
    })
    .onConflictDoUpdate({
      target: [payments.provider, payments.transactionId],
      set: { status: 'succeeded', amountCents, failureReason: null, updatedAt: now },
    })
  // The booking's price becomes what was paid, which the listing's price may have moved to since booking.
  await tx
    .update(bookings)
    .set({ isPaid: true, paidAt: now, priceCents: amountCents })
    .where(eq(bookings.id, sale.booking.id))
  await tx
    .update(products)
    .set({ isSold: true, soldAt: now, updatedAt: now })
    .where(eq(products.id, sale.product.id))
  return { transactionId: sale.transactionId, amountCents }
}

/**
 * Test mode: the card is charged only inside the transaction that holds the listing's lock, so however
 * many buyers pay at once, one sale happens and everyone else is refused before anything is charged.
 * A declined card leaves a failed payment on record and the booking payable.
 */
export async function payWithTestCard(db: Db, buyer: SessionUser, bookingId: string, cardNumber: string) {
  const outcome = testCardOutcome(cardNumber)
  const result = await db.transaction(async (tx) => {
    const { booking, product } = await lockPayableBooking(tx, buyer, bookingId)
    const transactionId = `test_${randomUUID()}`
    if (!outcome.ok) {
      await tx.insert(payments).values({
        bookingId: booking.id,
        productId: product.id,
        buyerId: buyer.id,
        amountCents: product.resalePriceCents,
        provider: 'test',
        transactionId,
        status: 'failed',
        failureReason: outcome.message,
      })
      return { declined: outcome.message }
    }
    return recordSale(tx, { booking, product, provider: 'test', transactionId })
  })
  if ('declined' in result) throw new AppError('PAYMENT_FAILED', result.declined)
  return result
}

/**
 * A failed call to Stripe becomes our own logged 500. Passed on as it is, Stripe's status would reach
 * the buyer as ours: a bad secret key's 401 reads as "signed out", and its message is not for them.
 */
function providerFailure(what: string, err: unknown): Error {
  const reason = err instanceof Error ? err.message : String(err)
  return new Error(`Stripe ${what} failed: ${reason}`, { cause: err })
}

/**
 * Stripe: one PaymentIntent per booking and amount (Stripe's idempotency key), for the listing's price.
 * Stripe refuses a key reused with other parameters, so every parameter is fixed by the booking and
 * the amount: the description is the booking's copy of the name, which a later rename does not touch.
 */
export async function createStripeIntent(db: Db, stripe: Stripe, buyer: SessionUser, bookingId: string) {
  const { booking, product } = await db.transaction((tx) => lockPayableBooking(tx, buyer, bookingId))
  const amountCents = product.resalePriceCents
  const intent = await stripe.paymentIntents
    .create(
      {
        amount: amountCents,
        currency: 'usd',
        automatic_payment_methods: { enabled: true },
        description: booking.productName,
        metadata: { bookingId: booking.id, productId: product.id, buyerId: buyer.id },
      },
      { idempotencyKey: `booking-${booking.id}-${amountCents}` },
    )
    .catch((err: unknown) => {
      throw providerFailure('PaymentIntent creation', err)
    })
  await db
    .insert(payments)
    .values({
      bookingId: booking.id,
      productId: product.id,
      buyerId: buyer.id,
      amountCents,
      provider: 'stripe',
      transactionId: intent.id,
      status: 'pending',
    })
    .onConflictDoNothing()
  if (!intent.client_secret) throw new AppError('INTERNAL', 'The payment provider gave no client secret')
  return { clientSecret: intent.client_secret, amount_cents: amountCents }
}

/**
 * Gives the money back for an intent. Stripe keeps an idempotency key for a day but redelivers events
 * for three, so "already refunded" (under an expired key, or by hand in the dashboard) counts as done:
 * otherwise that event would fail on every redelivery and its payment would never be settled.
 */
async function refundIntent(stripe: Stripe, intentId: string): Promise<void> {
  try {
    await stripe.refunds.create({ payment_intent: intentId }, { idempotencyKey: `refund-${intentId}` })
  } catch (err) {
    if (err instanceof Stripe.errors.StripeError && err.code === 'charge_already_refunded') return
    throw providerFailure('refund', err)
  }
}

export type WebhookOutcome = 'paid' | 'duplicate' | 'refunded' | 'failed' | 'ignored'

/**
 * A Stripe webhook: signature and age checked, each event handled once (its id is stored in the same
 * transaction as its effect). A booking is paid only on a verified payment_intent.succeeded whose amount
 * and currency match the listing; a payment for a laptop that was sold meanwhile is refunded, inside the
 * transaction, so a failed refund is retried with Stripe's redelivery.
 */
export async function handleStripeWebhook(
  db: Db,
  stripe: Stripe,
  webhookSecret: string,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<WebhookOutcome> {
  let event: Stripe.Event
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature ?? '', webhookSecret, 300)
  } catch {
    throw new AppError('VALIDATION', 'Invalid webhook signature')
  }
  return db.transaction(async (tx): Promise<WebhookOutcome> => {
    const fresh = await tx
      .insert(paymentEvents)
      .values({ id: event.id, provider: 'stripe', type: event.type })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id })
    if (fresh.length === 0) return 'duplicate'
    if (event.type !== 'payment_intent.succeeded' && event.type !== 'payment_intent.payment_failed')
      return 'ignored'

    const intent = event.data.object
    const bookingId = intent.metadata?.bookingId
    if (!bookingId) return 'ignored'
    const [booking] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update')
    if (!booking) return 'ignored'
    const product = await lockProduct(tx, booking.productId)
    // Stripe promises neither the order nor the uniqueness of events: once this intent is settled here
    // (paid, or refunded), a late payment_failed or another succeeded event for it changes nothing.
    const [known] = await tx
      .select({ status: payments.status })
      .from(payments)
      .where(and(eq(payments.provider, 'stripe'), eq(payments.transactionId, intent.id)))
    if (known?.status === 'succeeded' || known?.status === 'refunded') return 'duplicate'
    const now = new Date()
    const mark = (status: 'failed' | 'refunded', reason: string) =>
      tx
        .insert(payments)
        .values({
          bookingId: booking.id,
          productId: product.id,
          buyerId: booking.buyerId,
          amountCents: intent.amount,
          provider: 'stripe',
          transactionId: intent.id,
          status,
          failureReason: reason,
        })
        .onConflictDoUpdate({
          target: [payments.provider, payments.transactionId],
          set: { status, failureReason: reason, updatedAt: now },
        })

    if (event.type === 'payment_intent.payment_failed') {
      await mark('failed', intent.last_payment_error?.message ?? 'The payment failed')
      return 'failed'
    }
    const received = intent.amount_received || intent.amount
    const matches =
      intent.currency === 'usd' &&
      received === product.resalePriceCents &&
      intent.metadata?.buyerId === booking.buyerId
    const available = !booking.isPaid && !product.isSold && !product.removedAt && !product.sellerDisabledAt
    if (!matches || !available) {
      await refundIntent(stripe, intent.id)
      await mark(
        'refunded',
        matches ? 'The laptop was sold to someone else' : 'The amount did not match the listing',
      )
      return 'refunded'
    }
    await recordSale(tx, { booking, product, provider: 'stripe', transactionId: intent.id })
    return 'paid'
  })
}
