// Payouts through Stripe Connect (docs/decisions/0035, 0046). Each completed sale's share goes to the seller's
// Express account in its own transfer (`source_transaction`: the sale's charge, so Stripe moves the money from
// that charge even before it is available), then Stripe pays the account out to the seller's bank:
//
//   1. under the seller's lock, one transaction writes the payout (`pending`, the sale named) and its ledger
//      movement (available → on its way);
//   2. the transfer is asked of Stripe with the payout's id as idempotency key and transfer group;
//   3. a second transaction records the transfer (`in_transit`), then Stripe's payout to the bank is asked for
//      (idempotency key: the payout's id again) and recorded.
//
// A process that dies between 2 and 3 leaves a `pending` payout whose transfer Stripe made: the next payout run
// or the daily reconciliation finds the transfer by its group (or asks again under the same key, which Stripe
// answers with the same transfer) and records it. Nothing is paid twice: the ledger moved the money once, in 1.
import { and, eq, sql } from 'drizzle-orm'
import type Stripe from 'stripe'
import type { Db } from '#server/db/client'
import { payments, payoutAccounts, payouts } from '#server/db/schema'
import { AppError } from '#server/lib/errors'
import type { Connect } from '#server/lib/payment-provider'
import { balanceOf, payoutsOnItsWay, postTransaction, rowsOf } from '#server/modules/ledger'
import type { PayoutDeps } from './payout-deps'
import { connectFailure, isRefusal } from './stripe-connect'

type PayoutRow = typeof payouts.$inferSelect

/** A pending payout is finished by someone else only after this long (its own run may be mid-call). */
export const STALE_PENDING_SECONDS = 120

/**
 * `POST /api/payouts/account` with Stripe: the seller's Express account (made once: the idempotency key is the
 * seller's id, and the row is written before the link is asked for) and a fresh onboarding link to it.
 */
export async function setUpConnectAccount(
  db: Db,
  connect: Connect,
  publicUrl: string,
  seller: { id: string; email: string },
): Promise<{ url: string }> {
  const [existing] = await db.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, seller.id))
  let accountId = existing?.provider === 'stripe' ? existing.stripeAccountId : null
  if (!accountId) {
    accountId = await connect.createAccount(seller).catch((err: unknown) => {
      throw connectFailure('account creation', err)
    })
    const values = {
      provider: 'stripe' as const,
      status: 'pending' as const,
      stripeAccountId: accountId,
      accountHolder: null,
      routingNumber: null,
      accountLast4: null,
      failsAtPayout: false,
    }
    await db
      .insert(payoutAccounts)
      .values({ sellerId: seller.id, ...values })
      .onConflictDoUpdate({ target: payoutAccounts.sellerId, set: { ...values, updatedAt: sql`now()` } })
  }
  const url = await connect
    .accountLink(accountId, {
      refresh: `${publicUrl}/dashboard/earnings?payouts=refresh`,
      return: `${publicUrl}/dashboard/earnings?payouts=returned`,
    })
    .catch((err: unknown) => {
      throw connectFailure('account link', err)
    })
  return { url }
}

/** The part of the ledger a payout still has on its way (its amount, less what a reversal took back early). */
async function onItsWayOf(tx: Db, payout: PayoutRow): Promise<number> {
  return (await payoutsOnItsWay(tx, [payout.id])).get(payout.id) ?? 0
}

/**
 * Stripe's events for Connect, inside the webhook's transaction (the event id is already stored, so a repeat
 * never reaches here). `account.updated`: the account's status is read back from Stripe, not from the event,
 * so a late or out-of-order event cannot undo a newer state. `payout.paid` / `payout.failed` on a connected
 * account: the payout lands, or its money comes back to the seller's balance (and, as Stripe returned it to
 * the connected account, the rest of the transfer is reversed to the platform, so the ledger and Stripe agree).
 */
export async function handleConnectEvent(
  tx: Db,
  connect: Connect,
  event: Stripe.Event,
  mail: PayoutDeps['mail'],
): Promise<'updated' | 'ignored' | null> {
  if (event.type === 'account.updated') {
    const accountId = event.data.object.id
    const [row] = await tx.select().from(payoutAccounts).where(eq(payoutAccounts.stripeAccountId, accountId))
    if (!row) return 'ignored'
    const { status } = await connect.accountState(accountId)
    await tx
      .update(payoutAccounts)
      .set({ status, updatedAt: sql`now()` })
      .where(eq(payoutAccounts.stripeAccountId, accountId))
    return 'updated'
  }
  if (event.type !== 'payout.paid' && event.type !== 'payout.failed') return null
  const stripePayout = event.data.object
  const payoutId = stripePayout.metadata?.payout_id
  const [payout] = payoutId
    ? await tx.select().from(payouts).where(eq(payouts.id, payoutId)).for('update')
    : await tx.select().from(payouts).where(eq(payouts.stripePayoutId, stripePayout.id)).for('update')
  if (payout?.state !== 'in_transit' || payout.provider !== 'stripe') return 'ignored'
  const sellerId = payout.sellerId
  const moving = await onItsWayOf(tx, payout)
  if (event.type === 'payout.paid') {
    await tx
      .update(payouts)
      .set({ state: 'paid', stripePayoutId: stripePayout.id, settledAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(payouts.id, payout.id))
    await postTransaction(tx, { kind: 'payout_paid', sellerId, payoutId: payout.id }, [
      { account: { kind: 'on_its_way', sellerId }, amountCents: -moving },
      { account: { kind: 'paid_out', sellerId }, amountCents: moving },
    ])
    return 'updated'
  }
  const reason = stripePayout.failure_message ?? 'The bank refused the payout'
  if (payout.stripeTransferId && moving > 0) {
    await connect
      .reverseTransfer(payout.stripeTransferId, moving, `reversal-failed-${payout.id}`)
      .catch((err: unknown) => {
        throw connectFailure('transfer reversal', err)
      })
  }
  await tx
    .update(payouts)
    .set({ state: 'failed', failureReason: reason, settledAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(payouts.id, payout.id))
  await postTransaction(tx, { kind: 'payout_failed', sellerId, payoutId: payout.id }, [
    { account: { kind: 'on_its_way', sellerId }, amountCents: -moving },
    { account: { kind: 'available', sellerId }, amountCents: moving },
  ])
  // No more transfers until Stripe says the account can be paid again (its next account.updated).
  await tx
    .update(payoutAccounts)
    .set({ status: 'restricted', updatedAt: sql`now()` })
    .where(and(eq(payoutAccounts.sellerId, sellerId), eq(payoutAccounts.provider, 'stripe')))
  await mail.queue(tx, {
    to: { userId: sellerId },
    template: 'payout-failed',
    data: { amountCents: payout.amountCents, reason },
  })
  return 'updated'
}

type NextSale = {
  booking_id: string
  net: string | number
  provider: 'stripe' | 'test'
  transaction_id: string
}

/** The seller's oldest completed, unrefunded sale whose share was not transferred yet. */
async function nextUntransferredSale(tx: Db, sellerId: string): Promise<NextSale | undefined> {
  const [row] = await rowsOf<NextSale>(
    tx,
    sql`select t.booking_id, e.amount_cents as net, p.provider, p.transaction_id
        from ledger_transactions t
        join ledger_entries e on e.transaction_id = t.id and e.account_id = ${`available:${sellerId}`}
        join payments p on p.booking_id = t.booking_id and p.status = 'succeeded'
        where t.kind = 'complete' and t.seller_id = ${sellerId}
          and not exists (select 1 from ledger_transactions r where r.booking_id = t.booking_id and r.kind = 'refund')
          and not exists (select 1 from payouts po where po.booking_id = t.booking_id and po.state <> 'failed')
        order by t.id limit 1`,
  )
  return row
}

/**
 * Step 1: under the seller's lock, the seller's payout still `pending` (to be finished), or a new one for their
 * next sale, for its share or what is left of their balance when it is lower (a refund after a payout left it
 * below zero: the next sales make it up). Null when there is nothing to transfer.
 */
async function startConnectPayout(deps: PayoutDeps, sellerId: string): Promise<PayoutRow | null> {
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`payout:${sellerId}`}, 0))`)
    const [pending] = await tx
      .select()
      .from(payouts)
      .where(and(eq(payouts.sellerId, sellerId), eq(payouts.state, 'pending')))
    if (pending) {
      const age = (Date.now() - pending.createdAt.getTime()) / 1000
      return age >= STALE_PENDING_SECONDS ? pending : null
    }
    const [account] = await tx.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, sellerId))
    if (account?.status !== 'enabled' || account.provider !== 'stripe') return null
    const available = await balanceOf(tx, { kind: 'available', sellerId })
    const sale = await nextUntransferredSale(tx, sellerId)
    if (!sale) return null
    const amount = Math.min(Number(sale.net), available)
    if (amount < 1) return null
    const [payout] = await tx
      .insert(payouts)
      .values({
        sellerId,
        amountCents: amount,
        provider: 'stripe',
        state: 'pending',
        bookingId: sale.booking_id,
      })
      .returning()
    if (!payout) throw new Error('The payout was not recorded')
    await postTransaction(tx, { kind: 'payout', sellerId, payoutId: payout.id }, [
      { account: { kind: 'available', sellerId }, amountCents: -amount },
      { account: { kind: 'on_its_way', sellerId }, amountCents: amount },
    ])
    return payout
  })
}

/** A transfer Stripe refused: the payout failed, its money is back in the seller's balance. */
async function refuseTransfer(deps: PayoutDeps, payout: PayoutRow, reason: string) {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(payouts).where(eq(payouts.id, payout.id)).for('update')
    if (row?.state !== 'pending') return
    await tx
      .update(payouts)
      .set({ state: 'failed', failureReason: reason, settledAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(payouts.id, payout.id))
    await postTransaction(tx, { kind: 'payout_failed', sellerId: payout.sellerId, payoutId: payout.id }, [
      { account: { kind: 'on_its_way', sellerId: payout.sellerId }, amountCents: -payout.amountCents },
      { account: { kind: 'available', sellerId: payout.sellerId }, amountCents: payout.amountCents },
    ])
    // Stripe will not send to this account until its owner finishes what it asks; account.updated lifts it.
    await tx
      .update(payoutAccounts)
      .set({ status: 'restricted', updatedAt: sql`now()` })
      .where(and(eq(payoutAccounts.sellerId, payout.sellerId), eq(payoutAccounts.provider, 'stripe')))
  })
}

/**
 * Steps 2 and 3 for a pending payout: the transfer (made, or found when an earlier attempt made it and died
 * before recording it), then Stripe's payout to the bank. Returns how the payout stands. Safe to call again:
 * every Stripe call carries the payout's id as its idempotency key, every write checks the state it moves from.
 */
export async function finishConnectPayout(
  deps: PayoutDeps,
  connect: Connect,
  payout: PayoutRow,
  opts: { lookUpFirst?: boolean } = {},
): Promise<'transferred' | 'refused' | 'already'> {
  const [account] = await deps.db
    .select()
    .from(payoutAccounts)
    .where(eq(payoutAccounts.sellerId, payout.sellerId))
  const destination = account?.stripeAccountId
  if (!destination) throw new AppError('CONFLICT', 'The seller has no Stripe account to transfer to')
  let transferId = payout.stripeTransferId
  if (!transferId && opts.lookUpFirst) transferId = (await connect.findTransfer(payout.id))?.id ?? null
  if (!transferId) {
    let source: string | null = null
    if (payout.bookingId) {
      const [payment] = await deps.db
        .select()
        .from(payments)
        .where(and(eq(payments.bookingId, payout.bookingId), eq(payments.status, 'succeeded')))
      if (payment?.provider === 'stripe') source = await connect.chargeOf(payment.transactionId)
    }
    try {
      const made = await connect.transfer({
        payoutId: payout.id,
        bookingId: payout.bookingId ?? '',
        amountCents: payout.amountCents,
        destination,
        sourceTransaction: source,
      })
      transferId = made.id
    } catch (err) {
      if (isRefusal(err)) {
        await refuseTransfer(deps, payout, `Stripe refused the transfer: ${err.message}`)
        return 'refused'
      }
      throw connectFailure('transfer', err)
    }
  }
  await deps.testHooks?.afterTransfer?.(payout.id)
  const recorded = await deps.db
    .update(payouts)
    .set({ state: 'in_transit', stripeTransferId: transferId, updatedAt: sql`now()` })
    .where(and(eq(payouts.id, payout.id), eq(payouts.state, 'pending')))
    .returning({ id: payouts.id })
  if (recorded.length === 0) return 'already'
  await deps.mail.queue(deps.db, {
    to: { userId: payout.sellerId },
    template: 'payout-sent',
    data: { amountCents: payout.amountCents, last4: '', testMode: false },
  })
  await requestBankPayout(deps, connect, { ...payout, stripeTransferId: transferId }, destination)
  return 'transferred'
}

/**
 * Stripe's payout of a transferred amount from the connected account to the seller's bank. A refusal (the
 * account's balance or bank not ready) leaves the payout in transit without a Stripe payout; reconciliation
 * asks again.
 */
export async function requestBankPayout(
  deps: PayoutDeps,
  connect: Connect,
  payout: PayoutRow,
  accountId: string,
) {
  if (payout.stripePayoutId) return
  try {
    const made = await connect.payout(accountId, payout.amountCents, payout.id)
    await deps.db
      .update(payouts)
      .set({ stripePayoutId: made.id, updatedAt: sql`now()` })
      .where(and(eq(payouts.id, payout.id), sql`${payouts.stripePayoutId} is null`))
  } catch (err) {
    if (!isRefusal(err)) throw connectFailure('payout', err)
  }
}

/** Pays out one Stripe seller: one transfer per completed sale not transferred yet (and any payout left pending). */
export async function payOutConnectSeller(
  deps: PayoutDeps,
  connect: Connect,
  sellerId: string,
): Promise<{ payoutId: string; amountCents: number } | null> {
  let total = 0
  let last: string | null = null
  for (
    let payout = await startConnectPayout(deps, sellerId);
    payout;
    payout = await startConnectPayout(deps, sellerId)
  ) {
    const outcome = await finishConnectPayout(deps, connect, payout)
    if (outcome === 'refused') break
    if (outcome === 'transferred') {
      total += payout.amountCents
      last = payout.id
    }
  }
  return last ? { payoutId: last, amountCents: total } : null
}

/**
 * A refund of a sale whose share was transferred: the transfer is reversed (what of it is still the sale's),
 * so the seller's balance, taken down by the refund, comes back up by what Stripe takes back from their
 * account; from on its way while Stripe's payout has not landed, from paid out after. A transfer still being
 * made cannot be reversed yet: the refund is refused until it is recorded.
 */
export async function reverseSaleTransfer(tx: Db, connect: Connect | null, bookingId: string) {
  const rows = await tx
    .select()
    .from(payouts)
    .where(and(eq(payouts.bookingId, bookingId), sql`${payouts.state} <> 'failed'`))
    .for('update')
  for (const payout of rows) {
    if (payout.state === 'pending') {
      throw new AppError(
        'CONFLICT',
        "The seller's share of this sale is being transferred right now: try the refund again in a few minutes",
      )
    }
    if (!payout.stripeTransferId) continue
    if (!connect)
      throw new AppError('CONFLICT', 'This sale was paid out through Stripe, which is not configured')
    const sellerId = payout.sellerId
    const from = payout.state === 'paid' ? 'paid_out' : 'on_its_way'
    const amount = from === 'on_its_way' ? await onItsWayOf(tx, payout) : payout.amountCents
    if (amount <= 0) continue
    await connect
      .reverseTransfer(payout.stripeTransferId, amount, `reversal-${payout.id}`)
      .catch((err: unknown) => {
        throw connectFailure('transfer reversal', err)
      })
    await postTransaction(tx, { kind: 'reversal', sellerId, payoutId: payout.id }, [
      { account: { kind: from, sellerId }, amountCents: -amount },
      { account: { kind: 'available', sellerId }, amountCents: amount },
    ])
  }
}
