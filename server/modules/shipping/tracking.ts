// EasyPost's `tracker.updated` webhooks: checked, recorded, and turned into what the parcel's status means
// for its deal. The signature is checked by the SDK's own `validateWebhook` on the raw body; an event id
// is handled once (carrier_events' key, inserted in the transaction that acts, so a second instance
// receiving the same event waits for the first and then finds it done); the parcel's row is locked, and its
// status only moves forward (STATUS_RANK), so a late or replayed older step changes nothing.
import { and, eq, ne } from 'drizzle-orm'
import { isParcelLost } from '#contract/delivery'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { bookings, carrierEvents, disputes, parcelEvents, parcels, products } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import { canMove, moveDeal } from '#server/modules/deal'
import { carrierOf } from './carrier'
import type { ParcelRow, ParcelStatus, ReturnParcelHandler } from './types'

/**
 * How far along each status is. A status moves only to a higher rank; the endings (delivered, failure,
 * return_to_sender, cancelled) share the highest, so none replaces another.
 */
export const STATUS_RANK: Record<ParcelStatus, number> = {
  unknown: 0,
  error: 0,
  pre_transit: 1,
  in_transit: 2,
  out_for_delivery: 3,
  available_for_pickup: 3,
  delivered: 9,
  failure: 9,
  return_to_sender: 9,
  cancelled: 9,
}

const STATUSES = new Set(Object.keys(STATUS_RANK))
const isStatus = (s: unknown): s is ParcelStatus => typeof s === 'string' && STATUSES.has(s)

/** Per app (tests run several in one process), what a return parcel's status change does. */
const returnHandlers = new WeakMap<AppContext, ReturnParcelHandler>()

/** What a return parcel's status change does: the returns module registers it once per app at start-up. */
export function onReturnParcelStatus(ctx: AppContext, handler: ReturnParcelHandler): void {
  returnHandlers.set(ctx, handler)
}

export type TrackerWebhookOutcome = 'updated' | 'recorded' | 'duplicate' | 'ignored'

type EpDetail = { status?: unknown; message?: unknown; datetime?: unknown }
type EpEvent = {
  id?: unknown
  description?: unknown
  result?: {
    id?: unknown
    object?: unknown
    status?: unknown
    updated_at?: unknown
    tracking_details?: EpDetail[]
  }
}

/** Checks the signature of a webhook's raw body (X-Hmac-Signature) with the SDK, and gives the event. */
export async function verifiedEvent(
  ctx: AppContext,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<EpEvent> {
  const signature = headers['x-hmac-signature']
  if (typeof signature !== 'string' || signature === '') {
    throw new AppError('VALIDATION', 'Missing X-Hmac-Signature: this webhook is not from the carrier')
  }
  const carrier = carrierOf(ctx)
  const client = await carrier.client()
  try {
    return client.Utils.validateWebhook(
      rawBody,
      { 'x-hmac-signature': signature },
      carrier.webhookSecret,
    ) as EpEvent
  } catch {
    throw new AppError('VALIDATION', 'Invalid X-Hmac-Signature: this webhook is not from the carrier')
  }
}

/** Handles one verified event: once per event id, for a tracker we bought a label for. */
export async function handleTrackerEvent(ctx: AppContext, event: EpEvent): Promise<TrackerWebhookOutcome> {
  const eventId = typeof event.id === 'string' ? event.id : ''
  const type = typeof event.description === 'string' ? event.description : ''
  if (!eventId) throw new AppError('VALIDATION', 'The event has no id')
  if (type !== 'tracker.updated' && type !== 'tracker.created') return 'ignored'
  const tracker = event.result ?? {}
  const trackerId = typeof tracker.id === 'string' ? tracker.id : ''
  if (!trackerId || !isStatus(tracker.status))
    throw new AppError('VALIDATION', 'The event carries no tracker')

  return ctx.db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(carrierEvents)
      .values({ id: eventId, type })
      .onConflictDoNothing()
      .returning({ id: carrierEvents.id })
    if (!fresh) return 'duplicate'
    const [parcel] = await tx.select().from(parcels).where(eq(parcels.trackerId, trackerId)).for('update')
    // Refused (404, nothing kept): a tracker that is not one of our parcels. The carrier retries a refused
    // webhook, so one that arrives before the label's parcel is recorded is handled on a later try.
    if (!parcel) throw notFound('Tracker')

    const details = (tracker.tracking_details ?? []).filter(
      (d): d is { status: ParcelStatus; message?: unknown; datetime: string } =>
        isStatus(d.status) && typeof d.datetime === 'string' && !Number.isNaN(Date.parse(d.datetime)),
    )
    if (details.length > 0) {
      await tx
        .insert(parcelEvents)
        .values(
          details.map((d) => ({
            parcelId: parcel.id,
            status: d.status,
            message: typeof d.message === 'string' ? d.message.slice(0, 500) : '',
            occurredAt: new Date(d.datetime),
            carrierEventId: eventId,
          })),
        )
        .onConflictDoNothing()
    }

    const status = tracker.status as ParcelStatus
    if (STATUS_RANK[status] <= STATUS_RANK[parcel.status]) return 'recorded'
    const step = [...details].reverse().find((d) => d.status === status)
    const at = new Date(
      step?.datetime ?? (typeof tracker.updated_at === 'string' ? tracker.updated_at : Date.now()),
    )
    const moved = { ...parcel, status, statusAt: at }
    await tx.update(parcels).set({ status, statusAt: at }).where(eq(parcels.id, parcel.id))
    if (parcel.purpose === 'return') {
      await returnHandlers.get(ctx)?.(tx, moved, status)
    } else {
      await saleParcelMoved(ctx, tx, parcel, moved, at)
    }
    return 'updated'
  })
}

/**
 * After a sale's `ship` move, in its transaction: a parcel whose ending (delivered, failure, return_to_sender) the
 * carrier reported while the deal was still `paid` (the seller's request cut short after the label was recorded)
 * moved only the parcel then, and no later event ranks above it: the deal takes that ending's move now.
 */
export async function saleShipped(ctx: Pick<AppContext, 'mail'>, tx: Db, bookingId: string): Promise<void> {
  const [parcel] = await tx
    .select()
    .from(parcels)
    .where(
      and(eq(parcels.bookingId, bookingId), eq(parcels.purpose, 'sale'), ne(parcels.status, 'cancelled')),
    )
    .for('update')
  if (!parcel || !ENDINGS.has(parcel.status)) return
  await saleParcelMoved(ctx, tx, parcel, parcel, parcel.statusAt ?? new Date())
}

const ENDINGS = new Set<ParcelStatus>(['delivered', 'failure', 'return_to_sender'])

/** What a sale's parcel moving means: the buyer told, the deal delivered (handed over) or held for an admin. */
async function saleParcelMoved(
  ctx: Pick<AppContext, 'mail'>,
  tx: Db,
  before: ParcelRow,
  parcel: ParcelRow,
  at: Date,
) {
  const [sale] = await tx
    .select({
      id: bookings.id,
      stage: bookings.stage,
      buyerId: bookings.buyerId,
      sellerId: products.sellerId,
      productName: bookings.productName,
    })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(eq(bookings.id, parcel.bookingId))
  if (!sale) return
  const told = {
    productName: sale.productName,
    carrier: parcel.carrier,
    trackingCode: parcel.trackingCode,
    testMode: parcel.mode === 'test',
  }
  const status = parcel.status
  if (
    STATUS_RANK[before.status] < STATUS_RANK.in_transit &&
    (status === 'in_transit' || status === 'out_for_delivery')
  ) {
    await ctx.mail.queue(tx, {
      to: { userId: sale.buyerId },
      template: 'parcel-status',
      data: { ...told, step: 'shipped', trackingUrl: parcel.trackingUrl },
    })
  }
  if (status === 'out_for_delivery') {
    await ctx.mail.queue(tx, {
      to: { userId: sale.buyerId },
      template: 'parcel-status',
      data: { ...told, step: 'out_for_delivery' },
    })
  }
  if (status === 'delivered' && canMove(sale.stage, 'deliver', 'system')) {
    await moveDeal(tx, sale.id, 'deliver', 'system', {
      actorId: null,
      at,
      note: `${parcel.carrier} delivered it (tracking number ${parcel.trackingCode})`,
    })
    await ctx.mail.queue(tx, {
      to: { userId: sale.buyerId },
      template: 'parcel-status',
      data: { ...told, step: 'delivered' },
    })
  }
  if (isParcelLost(status) && canMove(sale.stage, 'lose', 'system')) {
    const what = status === 'failure' ? 'could not be delivered' : 'is being sent back to the seller'
    await moveDeal(tx, sale.id, 'lose', 'system', {
      actorId: null,
      note: `${parcel.carrier}: the parcel ${what} (tracking number ${parcel.trackingCode})`,
    })
    await tx
      .insert(disputes)
      .values({
        bookingId: sale.id,
        openedBy: sale.buyerId,
        reason: `The carrier (${parcel.carrier}) reports that the parcel ${what} (tracking number ${parcel.trackingCode}, status ${status}). Find out where the laptop is, then refund the buyer or release the sale.`,
        stageBefore: 'shipped',
      })
      .onConflictDoNothing()
    for (const role of ['buyer', 'seller'] as const) {
      await ctx.mail.queue(tx, {
        to: { userId: role === 'buyer' ? sale.buyerId : sale.sellerId },
        template: 'parcel-lost',
        data: {
          role,
          productName: sale.productName,
          carrier: parcel.carrier,
          trackingCode: parcel.trackingCode,
          what,
        },
      })
    }
  }
}

/** The parcel a tracker belongs to, if any (tests and the test carrier's page). */
export async function parcelOfTracker(db: Db, trackerId: string): Promise<ParcelRow | undefined> {
  const [row] = await db
    .select()
    .from(parcels)
    .where(and(eq(parcels.trackerId, trackerId)))
  return row
}
