import { and, eq, gt, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { payoutAccounts, payoutReminders, payouts } from '#server/db/schema'
import { balanceOf, postTransaction, rowsOf } from '#server/modules/ledger'
import { payOutConnectSeller } from './connect-payouts'
import type { PayoutDeps } from './payout-deps'
import { fitsPayoutSchedule, nextPayoutRun } from './payout-schedule'
import { finishStalePayouts, reconcile } from './reconcile'

// Payouts (docs/decisions/0035): every PAYOUT_INTERVAL_SECONDS a run moves each seller's available balance,
// when it is at least PAYOUT_MINIMUM_CENTS and their payout account is enabled, into a payout. In test mode
// the payout arrives (or, for the documented failing account number, fails) TEST_PAYOUT_SECONDS later.
//
// Paying a seller once however many instances run: each seller's payout is made in one transaction that
// first takes a lock on that seller (pg_advisory_xact_lock) and then reads the balance from the ledger; a
// second run waits for the lock and finds the balance already moved. The database also refuses a second
// payout of a seller while one is `pending` (a partial unique index).

export type { PayoutDeps }

const REMINDER_DAYS = 7
/** Sellers paid at once on PostgreSQL (the pool holds 10 connections). */
const PARALLEL_SELLERS = 4

/** Sellers whose available balance is at least `minimumCents`, with whether their payout account is enabled. */
async function sellersWithBalance(db: Db, minimumCents: number) {
  return rowsOf<{ seller_id: string; balance: string | number; enabled: boolean }>(
    db,
    sql`select a.seller_id, sum(e.amount_cents)::bigint as balance,
          coalesce(bool_or(pa.status = 'enabled'), false) as enabled
        from ledger_accounts a
        join ledger_entries e on e.account_id = a.id
        left join payout_accounts pa on pa.seller_id = a.seller_id
        where a.kind = 'available'
        group by a.seller_id
        having sum(e.amount_cents) >= ${minimumCents}`,
  )
}

/**
 * One payout run: pays every seller with an enabled account and enough available, and reminds (at most once a
 * week) those whose money waits for a payout account. Safe to run twice or on two instances at once.
 */
export async function runPayouts(
  deps: PayoutDeps,
): Promise<{ payouts: number; amountCents: number; reminded: number }> {
  const { minimumCents } = deps.config.payouts
  const candidates = await sellersWithBalance(deps.db, minimumCents)
  let count = 0
  let amountCents = 0
  let reminded = 0
  const connect = deps.payments?.connect ?? null
  // A transfer made by a run that died before recording it is found (or made again under the same key) first.
  if (connect) await finishStalePayouts(deps, connect)
  // Sellers are paid side by side on PostgreSQL (each under its own lock); the embedded database has one
  // connection, so there one at a time.
  let next = 0
  const worker = async () => {
    for (let c = candidates[next++]; c; c = candidates[next++]) {
      if (c.enabled) {
        const paid = await payOutSeller(deps, c.seller_id)
        if (paid) {
          count++
          amountCents += paid.amountCents
        }
      } else if (await remindToSetUp(deps, c.seller_id, Number(c.balance))) {
        reminded++
      }
    }
  }
  await Promise.all(Array.from({ length: deps.config.databaseUrl ? PARALLEL_SELLERS : 1 }, worker))
  return { payouts: count, amountCents, reminded }
}

/** Pays out one seller's available balance, or nothing (not enough, no enabled account, already paid). */
export async function payOutSeller(
  deps: PayoutDeps,
  sellerId: string,
): Promise<{ payoutId: string; amountCents: number } | null> {
  const { testPayoutSeconds, minimumCents } = deps.config.payouts
  const [current] = await deps.db
    .select({ provider: payoutAccounts.provider })
    .from(payoutAccounts)
    .where(eq(payoutAccounts.sellerId, sellerId))
  if (current?.provider === 'stripe') {
    const connect = deps.payments?.connect
    return connect ? payOutConnectSeller(deps, connect, sellerId) : null
  }
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`payout:${sellerId}`}, 0))`)
    const [account] = await tx.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, sellerId))
    if (account?.status !== 'enabled' || account.provider !== 'test') return null
    // Changed details wait PAYOUT_ACCOUNT_HOLD_HOURS: the balance stays available and a later run pays it.
    if (await heldAfterChange(tx, sellerId)) return null
    const available = await balanceOf(tx, { kind: 'available', sellerId })
    if (available < minimumCents) return null
    const test = account.provider === 'test'
    const [payout] = await tx
      .insert(payouts)
      .values({
        sellerId,
        amountCents: available,
        provider: account.provider,
        accountLast4: account.accountLast4,
        state: test ? 'in_transit' : 'pending',
        arrivesAt: test ? sql`now() + make_interval(secs => ${testPayoutSeconds})` : null,
      })
      .returning({ id: payouts.id })
    if (!payout) throw new Error('The payout was not recorded')
    await postTransaction(tx, { kind: 'payout', sellerId, payoutId: payout.id }, [
      { account: { kind: 'available', sellerId }, amountCents: -available },
      { account: { kind: 'on_its_way', sellerId }, amountCents: available },
    ])
    if (test) {
      await deps.jobs.send(
        'payouts.settle',
        { payoutId: payout.id, fails: account.failsAtPayout },
        { tx, startAfter: testPayoutSeconds },
      )
      await deps.mail.queue(tx, {
        to: { userId: sellerId },
        template: 'payout-sent',
        data: { amountCents: available, last4: account.accountLast4 ?? '', testMode: true },
      })
    }
    return { payoutId: payout.id, amountCents: available }
  })
}

/** True while the seller's payout details, changed lately, wait before receiving payouts (by the database's clock). */
async function heldAfterChange(tx: Db, sellerId: string): Promise<boolean> {
  const [row] = await tx
    .select({ sellerId: payoutAccounts.sellerId })
    .from(payoutAccounts)
    .where(and(eq(payoutAccounts.sellerId, sellerId), gt(payoutAccounts.payableFrom, sql`now()`)))
  return row !== undefined
}

/**
 * Test mode: the simulated payout arrives, or the bank refuses it (the documented failing account number).
 * A refused payout returns the money to the seller's balance, stops payouts to that account until the seller
 * saves their details again, and emails them. Only an in-transit payout moves, so a repeat changes nothing.
 */
export async function settleTestPayout(
  deps: Pick<PayoutDeps, 'db' | 'mail'>,
  payoutId: string,
  fails: boolean,
): Promise<'paid' | 'failed' | 'unchanged'> {
  return deps.db.transaction(async (tx) => {
    const [payout] = await tx.select().from(payouts).where(eq(payouts.id, payoutId)).for('update')
    if (payout?.state !== 'in_transit') return 'unchanged'
    const sellerId = payout.sellerId
    const amount = payout.amountCents
    if (!fails) {
      await tx
        .update(payouts)
        .set({ state: 'paid', settledAt: sql`now()`, updatedAt: sql`now()` })
        .where(eq(payouts.id, payoutId))
      await postTransaction(tx, { kind: 'payout_paid', sellerId, payoutId }, [
        { account: { kind: 'on_its_way', sellerId }, amountCents: -amount },
        { account: { kind: 'paid_out', sellerId }, amountCents: amount },
      ])
      return 'paid'
    }
    const reason = 'The bank refused the payout: the account could not take it'
    await failPayout(tx, payout, reason)
    await tx
      .update(payoutAccounts)
      .set({ status: 'restricted', updatedAt: sql`now()` })
      .where(and(eq(payoutAccounts.sellerId, sellerId), eq(payoutAccounts.provider, 'test')))
    await deps.mail.queue(tx, {
      to: { userId: sellerId },
      template: 'payout-failed',
      data: { amountCents: amount, reason },
    })
    return 'failed'
  })
}

/** A payout that did not arrive: its money goes back to the seller's available balance. */
export async function failPayout(tx: Db, payout: typeof payouts.$inferSelect, reason: string) {
  await tx
    .update(payouts)
    .set({ state: 'failed', failureReason: reason, settledAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(payouts.id, payout.id))
  await postTransaction(tx, { kind: 'payout_failed', sellerId: payout.sellerId, payoutId: payout.id }, [
    { account: { kind: 'on_its_way', sellerId: payout.sellerId }, amountCents: -payout.amountCents },
    { account: { kind: 'available', sellerId: payout.sellerId }, amountCents: payout.amountCents },
  ])
}

/** "Set up payouts to receive $X", at most once a week per seller. */
async function remindToSetUp(deps: PayoutDeps, sellerId: string, amountCents: number): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .insert(payoutReminders)
      .values({ sellerId, sentAt: sql`now()` })
      .onConflictDoUpdate({
        target: payoutReminders.sellerId,
        set: { sentAt: sql`now()` },
        setWhere: sql`${payoutReminders.sentAt} < now() - make_interval(days => ${REMINDER_DAYS})`,
      })
      .returning({ sellerId: payoutReminders.sellerId })
    if (!claimed) return false
    await deps.mail.queue(tx, {
      to: { userId: sellerId },
      template: 'payout-setup-needed',
      data: { amountCents },
    })
    return true
  })
}

/**
 * The jobs: `payouts.run` runs every PAYOUT_INTERVAL_SECONDS (each run queues the next at the next multiple of
 * the interval; a minute's `payouts.tick`, and one at start, queue one when none waits, so a lost run is made
 * up), and `payouts.settle` lands a test-mode payout, `payouts.reconcile` checks the ledger against the processor
 * daily.
 *
 * One run waits at a time (the singleton key), at the time the interval as now set gives: a run queued under
 * another interval (before a restart with a new PAYOUT_INTERVAL_SECONDS) is replaced by the next tick, which
 * the start queues. The check and the replacement hold the key's lock, so instances starting together leave one.
 */
export function registerPayoutJobs(
  ctx: Pick<AppContext, 'db' | 'mail' | 'config' | 'jobs' | 'payments'>,
  log?: Pick<FastifyBaseLogger, 'warn' | 'info'>,
) {
  const deps: PayoutDeps = ctx
  const interval = ctx.config.payouts.intervalSeconds
  const queueNextRun = () => {
    const now = new Date()
    return ctx.jobs.send(
      'payouts.run',
      {},
      {
        singletonKey: 'next',
        startAfter: nextPayoutRun(interval, now),
        keepWaiting: (startsAt) => fitsPayoutSchedule(startsAt, interval, now),
      },
    )
  }
  ctx.jobs.work('payouts.run', async () => {
    try {
      await runPayouts(deps)
    } finally {
      await queueNextRun()
    }
  })
  ctx.jobs.work('payouts.tick', async () => {
    await queueNextRun()
  })
  ctx.jobs.schedule('payouts.tick', '* * * * *')
  ctx.jobs.sendAtStart('payouts.tick', {}, { singletonKey: 'start' })
  ctx.jobs.work('payouts.reconcile', async () => {
    await reconcile(deps, log)
  })
  ctx.jobs.schedule('payouts.reconcile', '41 4 * * *')
  ctx.jobs.work('payouts.settle', async (job) => {
    await settleTestPayout(deps, job.data.payoutId, job.data.fails)
  })
}
