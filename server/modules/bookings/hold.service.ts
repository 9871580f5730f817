import { and, eq, gt, sql } from 'drizzle-orm'
import { plural } from '#contract/plural'
import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import { bookingEvents, bookingHolds, bookings, productHolds, users } from '#server/db/schema'
import { recordHoldEnd } from '#server/lib/alert-events'
import { AppError } from '#server/lib/errors'
import { assertOnSale, lockSaleFacts } from '#server/lib/on-sale'
import type { SessionUser } from '#server/lib/session'
import { offerLapsedOn } from '#server/modules/offers'
import { lockDeal, wrongStage } from './deal.service'

/**
 * held: the laptop is held for this booking until `holdUntil`; reserved: another booking holds it until then;
 * ended: this booking's last hold ended then, and the buyer did not ask to hold it again.
 */
export type HoldOutcome = { state: 'held' | 'reserved' | 'ended'; holdUntil: Date }

/** "in 3 minutes", "in about 5 hours": when a limit lets the buyer try again. */
function inWords(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  if (minutes < 60) return `in ${plural(minutes, 'minute')}`
  const hours = Math.round(minutes / 60)
  return `in about ${plural(hours, 'hour')}`
}

/**
 * When this booking's last hold ended, if it had one since it was booked (or booked again): the hold is over
 * (the caller found no live one), and only the buyer's explicit "Hold it again" takes another.
 */
async function endedHoldOf(tx: Db, bookingId: string): Promise<Date | null> {
  const [row] = await tx
    .select({ until: sql<string | null>`max(${bookingHolds.holdUntil})::text` })
    .from(bookingHolds)
    .where(
      and(
        eq(bookingHolds.bookingId, bookingId),
        sql`${bookingHolds.createdAt} > coalesce((select max(e.created_at) from ${bookingEvents} e
          where e.booking_id = ${bookingId} and e.kind = 'booked_again'), '-infinity')`,
      ),
    )
  return row?.until ? new Date(row.until) : null
}

/**
 * The booking's buyer opens the payment page: the laptop is held for this booking for `holdSeconds`, by
 * the database's clock. One conditional upsert takes the hold when nobody holds it or the last hold has
 * run out, so two buyers (on any instances) cannot both get it, and a restart changes nothing. Opening
 * the page again during one's own hold gives the same hold (it is not extended). Once a hold of this booking
 * has ended, opening the page takes none (`ended`): only `again` (the buyer pressed "Hold it again") does, so a
 * laptop is never held, and then paid, by a page left open or opened from history. Limits: holds per buyer
 * per listing per 24 hours, and live holds per buyer; each refusal says why.
 */
export async function holdBooking(
  db: Db,
  buyer: SessionUser,
  bookingId: string,
  settings: Config['deal'],
  clientAddress: string,
  opts: { again?: boolean } = {},
): Promise<HoldOutcome> {
  return db.transaction(async (tx): Promise<HoldOutcome> => {
    const row = await lockDeal(tx, buyer, bookingId)
    if (!row.isBuyer)
      throw new AppError('FORBIDDEN', 'Only the buyer who booked this laptop can hold it to pay')
    if (row.status !== 'unpaid') throw wrongStage('hold this laptop', row.status)
    const productId = row.booking.productId
    assertOnSale(await lockSaleFacts(tx, productId))

    const [own] = await tx
      .select({ holdUntil: productHolds.holdUntil })
      .from(productHolds)
      .where(
        and(
          eq(productHolds.productId, productId),
          eq(productHolds.bookingId, bookingId),
          gt(productHolds.holdUntil, sql`now()`),
        ),
      )
    if (own) return { state: 'held', holdUntil: own.holdUntil }
    // An accepted offer's price held only while its hold ran; the booking goes back to the listing's price.
    if (await offerLapsedOn(tx, bookingId)) {
      throw new AppError(
        'CONFLICT',
        'Your accepted offer lapsed: it was not paid while the laptop was held for you. In a moment you can pay the listed price, or make a new offer.',
      )
    }
    if (!opts.again) {
      const endedAt = await endedHoldOf(tx, bookingId)
      if (endedAt) return { state: 'ended', holdUntil: endedAt }
    }

    // One buyer's holds are taken one at a time, so two tabs cannot both slip under a limit.
    const [account] = await tx
      .select({ emailVerified: users.emailVerified })
      .from(users)
      .where(eq(users.id, buyer.id))
      .for('update')
    // A hold keeps a laptop from every other buyer, so it costs something a throwaway account does not
    // have for free: a confirmed email address.
    if (!account?.emailVerified) {
      throw new AppError(
        'FORBIDDEN',
        'Confirm your email address before paying: open the link we emailed you when you signed up, or send a new one from Settings (/dashboard/settings).',
      )
    }
    const [recent] = await tx
      .select({
        n: sql<number>`count(*)::int`,
        secondsLeft: sql<number>`extract(epoch from (min(${bookingHolds.createdAt}) + interval '1 day' - now()))::float8`,
      })
      .from(bookingHolds)
      .where(
        and(
          eq(bookingHolds.buyerId, buyer.id),
          eq(bookingHolds.productId, productId),
          gt(bookingHolds.createdAt, sql`now() - interval '1 day'`),
        ),
      )
    if ((recent?.n ?? 0) >= settings.holdsPerListingPerDay) {
      throw new AppError(
        'RATE_LIMITED',
        `You have held this laptop ${recent?.n} times in the last 24 hours, the most we allow so that other buyers get their turn. You can hold it again ${inWords(recent?.secondsLeft ?? 0)}.`,
      )
    }
    const [live] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(productHolds)
      .innerJoin(bookings, eq(bookings.id, productHolds.bookingId))
      .where(and(eq(bookings.buyerId, buyer.id), gt(productHolds.holdUntil, sql`now()`)))
    if ((live?.n ?? 0) >= settings.liveHoldsPerBuyer) {
      throw new AppError(
        'RATE_LIMITED',
        `You are already paying for ${live?.n} other laptops, the most at once. Finish paying for one, or wait for its hold to end, then try again.`,
      )
    }

    // Many accounts from one client address share one allowance of live holds. Holds from one address
    // are taken one at a time (a transaction-scoped advisory lock), so parallel requests cannot all slip under it.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`hold-address:${clientAddress}`}))`)
    const [fromAddress] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(bookingHolds)
      // A booking's earlier holds have ended (their hold_until is past), so one live hold counts once.
      .innerJoin(productHolds, eq(productHolds.bookingId, bookingHolds.bookingId))
      .where(
        and(
          eq(bookingHolds.clientAddress, clientAddress),
          gt(bookingHolds.holdUntil, sql`now()`),
          gt(productHolds.holdUntil, sql`now()`),
        ),
      )
    if ((fromAddress?.n ?? 0) >= settings.liveHoldsPerAddress) {
      throw new AppError(
        'RATE_LIMITED',
        `${fromAddress?.n} laptops are already being paid for from your network, the most at once. Try again when one of those payments ends.`,
      )
    }

    const [taken] = await tx
      .insert(productHolds)
      .values({
        productId,
        bookingId,
        holdUntil: sql`now() + make_interval(secs => ${settings.holdSeconds})`,
      })
      .onConflictDoUpdate({
        target: productHolds.productId,
        set: { bookingId: sql`excluded.booking_id`, holdUntil: sql`excluded.hold_until` },
        setWhere: sql`${productHolds.holdUntil} <= now()`,
      })
      .returning({ holdUntil: productHolds.holdUntil })
    if (!taken) {
      const [current] = await tx
        .select({ holdUntil: productHolds.holdUntil })
        .from(productHolds)
        .where(eq(productHolds.productId, productId))
      if (!current) throw new AppError('INTERNAL', 'The hold could not be read')
      return { state: 'reserved', holdUntil: current.holdUntil }
    }
    await tx
      .insert(bookingHolds)
      .values({ bookingId, productId, buyerId: buyer.id, holdUntil: taken.holdUntil, clientAddress })
    // When the hold runs out unpaid, the people who saved the laptop hear it is available again.
    await recordHoldEnd(tx, productId, sql`${taken.holdUntil}::timestamptz + interval '1 second'`)
    return { state: 'held', holdUntil: taken.holdUntil }
  })
}

/**
 * Who holds a listing now, by the database's clock (inside a payment's transaction): `mine` when this
 * booking does, `other` when another booking does, `none` when nobody does or the last hold ran out.
 */
export async function holderOf(
  tx: Db,
  productId: string,
  bookingId: string,
): Promise<'mine' | 'other' | 'none'> {
  const [hold] = await tx
    .select({ bookingId: productHolds.bookingId, live: sql<boolean>`${productHolds.holdUntil} > now()` })
    .from(productHolds)
    .where(eq(productHolds.productId, productId))
  if (!hold?.live) return 'none'
  return hold.bookingId === bookingId ? 'mine' : 'other'
}
