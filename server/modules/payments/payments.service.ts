import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import Stripe from 'stripe'
import { whyDeliveryMissing } from '#contract/delivery'
import type { FeeRule } from '#contract/fees'
import type { Db } from '#server/db/client'
import { bookings, paymentEvents, payments, productHolds, products, users } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import { assertOnSale, whyNotOnSale } from '#server/lib/on-sale'
import type { Connect, WebhookOutcome } from '#server/lib/payment-provider'
import type { SessionUser } from '#server/lib/session'
import { type DealMail, holderOf, queueDealEmails } from '#server/modules/bookings'
import { assertDealParty, assertMove, canMove, dealPartiesOf, moveDeal } from '#server/modules/deal'
import { closeOffersOnSale } from '#server/modules/offers'
import { handleConnectEvent } from '#server/modules/payouts'
import { refreshPriceGuideForProduct } from '#server/modules/price-guide'
import { testCardOutcome } from './test-processor'

type BookingRow = typeof bookings.$inferSelect
type ProductRow = typeof products.$inferSelect

/**
 * Locks the booking and then its listing (always in that order, so payers never deadlock) and checks
 * that this buyer may pay for it now. Every payment path starts here, inside its transaction.
 */
async function lockPayableBooking(tx: Db, buyer: SessionUser, bookingId: string) {
  const [row] = await tx
    .select({ booking: bookings, sellerId: products.sellerId })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(eq(bookings.id, bookingId))
    .for('update', { of: bookings })
  if (!row) throw notFound('Booking')
  const { booking } = row
  // Anyone else who is signed in is refused here (403), not told the booking does not exist.
  const side = { isBuyer: booking.buyerId === buyer.id, isSeller: row.sellerId === buyer.id }
  assertDealParty('pay', dealPartiesOf(side, buyer))
  if (booking.isPaid) throw new AppError('CONFLICT', 'This booking is already paid')
  assertMove(booking.stage, 'pay', 'buyer', booking.deliveryMethod)
  const product = await lockProduct(tx, booking.productId)
  assertOnSale(product)
  const noDelivery = whyDeliveryMissing(product.delivery, booking.deliveryMethod)
  if (noDelivery) throw new AppError('CONFLICT', noDelivery)
  // A payment is taken only while this booking holds the laptop (POST /api/bookings/{id}/hold).
  const holder = await holderOf(tx, product.id, booking.id)
  if (holder === 'other') {
    throw new AppError('RESERVED', 'Another buyer is paying for this laptop. Try again when their hold ends.')
  }
  if (holder === 'none') {
    throw new AppError(
      'CONFLICT',
      'Your hold on this laptop has ended. Hold it again from the payment page, then pay.',
    )
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

/**
 * The laptop's part of a payment: the price the buyer booked at, or the listing's price now when the seller has
 * lowered it since. A raise never reaches an open booking (docs/decisions/0017).
 */
export function laptopPriceDue(
  booking: Pick<BookingRow, 'priceCents'>,
  product: Pick<ProductRow, 'resalePriceCents'>,
) {
  return Math.min(booking.priceCents, product.resalePriceCents)
}

/**
 * What paying for a booking charges, the one rule every payment path (the test processor, the Stripe
 * PaymentIntent and its webhook's amount check) reads: the laptop's price (laptopPriceDue) plus the shipping the
 * buyer chose (zero when they meet the seller).
 */
export function amountDue(
  booking: Pick<BookingRow, 'priceCents' | 'shippingCents'>,
  product: Pick<ProductRow, 'resalePriceCents'>,
) {
  return laptopPriceDue(booking, product) + booking.shippingCents
}

/**
 * The sale itself, in the caller's transaction: payment recorded, booking paid, listing sold, the charge and
 * the fee on the ledger, buyer and seller emailed.
 */
async function recordSale(
  tx: Db,
  sale: { booking: BookingRow; product: ProductRow; provider: 'stripe' | 'test'; transactionId: string },
  mail: DealMail,
  fee: FeeRule,
  shipWithinDays: number,
) {
  const now = new Date()
  const amountCents = amountDue(sale.booking, sale.product)
  const shipped = sale.booking.deliveryMethod === 'ship'
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
  // The booking's price becomes the laptop's part of what was paid: less than booked when the seller lowered it
  // since. A shipped sale must have its label bought within SHIP_WITHIN_DAYS. The move posts the charge.
  await moveDeal(tx, sale.booking.id, 'pay', sale.provider === 'test' ? 'buyer' : 'system', {
    actorId: sale.booking.buyerId,
    fee,
    set: {
      priceCents: laptopPriceDue(sale.booking, sale.product),
      shipBy: shipped ? new Date(now.getTime() + shipWithinDays * 86_400_000) : null,
    },
  })
  await tx
    .update(products)
    .set({ isSold: true, soldAt: now, updatedAt: now })
    .where(eq(products.id, sale.product.id))
  await tx.delete(productHolds).where(eq(productHolds.productId, sale.product.id))
  await closeOffersOnSale(tx, sale.product.id, sale.booking.id, mail)
  await refreshPriceGuideForProduct(tx, sale.product.id)
  await queueDealEmails(tx, mail, sale.booking.id, { kind: 'paid' })
  return { transactionId: sale.transactionId, amountCents }
}

/**
 * Test mode: the card is charged only inside the transaction that holds the listing's lock, so however
 * many buyers pay at once, one sale happens and everyone else is refused before anything is charged.
 * A declined card leaves a failed payment on record and the booking payable.
 */
export async function payWithTestCard(
  db: Db,
  buyer: SessionUser,
  bookingId: string,
  cardNumber: string,
  mail: DealMail,
  fee: FeeRule,
  shipWithinDays = 3,
) {
  const outcome = testCardOutcome(cardNumber)
  const result = await db.transaction(async (tx) => {
    const { booking, product } = await lockPayableBooking(tx, buyer, bookingId)
    const transactionId = `test_${randomUUID()}`
    if (!outcome.ok) {
      await tx.insert(payments).values({
        bookingId: booking.id,
        productId: product.id,
        buyerId: buyer.id,
        amountCents: amountDue(booking, product),
        provider: 'test',
        transactionId,
        status: 'failed',
        failureReason: outcome.message,
      })
      return { declined: outcome.message }
    }
    return recordSale(tx, { booking, product, provider: 'test', transactionId }, mail, fee, shipWithinDays)
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
  const amountCents = amountDue(booking, product)
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
export async function refundIntent(stripe: Stripe, intentId: string): Promise<void> {
  try {
    await stripe.refunds.create({ payment_intent: intentId }, { idempotencyKey: `refund-${intentId}` })
  } catch (err) {
    if (err instanceof Stripe.errors.StripeError && err.code === 'charge_already_refunded') return
    throw providerFailure('refund', err)
  }
}

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
  mail: DealMail,
  fee: FeeRule,
  connect: Connect | null = null,
  shipWithinDays = 3,
): Promise<WebhookOutcome> {
  return settleStripeEvent(db, stripe, webhookSecret, rawBody, signature, mail, fee, connect, shipWithinDays)
}

async function settleStripeEvent(
  db: Db,
  stripe: Stripe,
  webhookSecret: string,
  rawBody: Buffer,
  signature: string | undefined,
  mail: DealMail,
  fee: FeeRule,
  connect: Connect | null,
  shipWithinDays: number,
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
    // Connect: a seller's account changed, or a payout to a seller's bank landed or failed.
    if (connect) {
      const handled = await handleConnectEvent(tx, connect, event, mail)
      if (handled) return handled
    }
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
      received === amountDue(booking, product) &&
      intent.metadata?.buyerId === booking.buyerId
    // The deal's table decides whether this booking can still be paid: a booking the buyer cancelled (or that was
    // paid already) cannot, whatever the listing's state.
    const payable = canMove(booking.stage, 'pay', 'system')
    const available = payable && whyNotOnSale(product) === null
    // A success that arrives after this booking's hold went to another buyer is given back; one that is
    // late but finds nobody else holding the laptop still buys it.
    const heldByOther = (await holderOf(tx, product.id, booking.id)) === 'other'
    if (!matches || !available || heldByOther) {
      await refundIntent(stripe, intent.id)
      await mark(
        'refunded',
        !matches
          ? 'The amount did not match the listing'
          : heldByOther && available
            ? 'Another buyer held the laptop when the payment arrived'
            : booking.stage === 'cancelled'
              ? 'The booking was cancelled before the payment arrived'
              : !payable || product.isSold
                ? 'The laptop was sold to someone else'
                : (whyNotOnSale(product) ?? 'The laptop is not on sale'),
      )
      return 'refunded'
    }
    await recordSale(
      tx,
      { booking, product, provider: 'stripe', transactionId: intent.id },
      mail,
      fee,
      shipWithinDays,
    )
    return 'paid'
  })
}
