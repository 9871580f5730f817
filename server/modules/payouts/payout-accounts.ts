import { and, eq, gte, isNull, sql } from 'drizzle-orm'
import { type PayoutAccount, TestBankAccount } from '#contract/payouts'
import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import { payoutAccountChanges, payoutAccounts } from '#server/db/schema'
import { type AuditOrigin, writeAudit } from '#server/lib/audit'
import { AppError } from '#server/lib/errors'
import type { Connect } from '#server/lib/payment-provider'
import { recordSecurityChange } from '#server/lib/security-change'
import type { SessionUser } from '#server/lib/session'
import type { Mail } from '#server/mail/mail'
import { setUpConnectAccount } from './connect-payouts'

/** Stripe's documented test account number that fails at payout (with routing 110000000). */
export const FAILING_TEST_ACCOUNT = '000111111116'

type Row = typeof payoutAccounts.$inferSelect

/** When changed details start receiving payouts, while that is still ahead; null once they do. */
export function payableFromNow(payableFrom: Date | null, now = new Date()): string | null {
  return payableFrom && payableFrom > now ? payableFrom.toISOString() : null
}

function toPayoutAccount(row: Row | undefined, mode: 'test' | 'stripe'): PayoutAccount {
  return {
    status: row?.status ?? 'none',
    mode,
    account_holder: row?.accountHolder ?? null,
    routing_number: row?.routingNumber ?? null,
    account_last4: row?.accountLast4 ?? null,
    problem:
      row?.status === 'restricted'
        ? row.provider === 'test'
          ? 'Your bank refused the last payout. Check the account details and save them again.'
          : 'Stripe needs more information before it can pay you. Continue the setup.'
        : null,
    payable_from: payableFromNow(row?.payableFrom ?? null),
  }
}

export async function getPayoutAccount(db: Db, config: Config, seller: SessionUser): Promise<PayoutAccount> {
  const [row] = await db.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, seller.id))
  return toPayoutAccount(row, config.stripe ? 'stripe' : 'test')
}

/** What a change of payout details needs besides the details: where links go, the hold, the email, the log. */
export type PayoutChangeContext = {
  config: Config
  mail: Mail
  /** Where the change came from, for the audit log. */
  origin?: AuditOrigin
}

/**
 * Test mode: the seller's bank details, checked for shape. Only the last four digits are kept, and whether the
 * number is the documented failing one. The first details are payable at once; details that replace earlier ones
 * (including a save that lifts a restriction) receive payouts only `holdHours` after the change, while the balance
 * waits. Every save is recorded with the details it replaced (its undo puts them back), written to the audit log as
 * a security event, and emailed to the seller at once with the old and new last four digits and the undo link:
 * all in one transaction.
 */
export async function setUpTestPayoutAccount(
  db: Db,
  seller: SessionUser,
  body: Record<string, unknown>,
  context: PayoutChangeContext,
): Promise<{ url: string }> {
  const holdHours = context.config.payouts.accountHoldHours
  const parsed = TestBankAccount.safeParse(body)
  if (!parsed.success) {
    const fields: Record<string, string> = {}
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? 'body')
      fields[key] ??= issue.message
    }
    throw new AppError('VALIDATION', 'Check the bank details', fields)
  }
  const bank = parsed.data
  await db.transaction(async (tx) => {
    // One change at a time per seller: the details replaced are the ones the change saw.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`payout:${seller.id}`}, 0))`)
    const [old] = await tx.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, seller.id))
    if (old && old.provider !== 'test') {
      throw new AppError('CONFLICT', 'Your payouts go through Stripe: change your bank details there')
    }
    const hold = old ? holdHours : 0
    const values = {
      provider: 'test' as const,
      status: 'enabled' as const,
      accountHolder: bank.account_holder,
      routingNumber: bank.routing_number,
      accountLast4: bank.account_number.slice(-4),
      failsAtPayout: bank.account_number === FAILING_TEST_ACCOUNT,
      payableFrom: hold > 0 ? sql`now() + make_interval(secs => ${Math.round(hold * 3600)})` : null,
    }
    const [saved] = await tx
      .insert(payoutAccounts)
      .values({ sellerId: seller.id, ...values })
      .onConflictDoUpdate({ target: payoutAccounts.sellerId, set: { ...values, updatedAt: sql`now()` } })
      .returning({ payableFrom: payoutAccounts.payableFrom })
    const [change] = await tx
      .insert(payoutAccountChanges)
      .values({
        sellerId: seller.id,
        oldAccountHolder: old?.accountHolder ?? null,
        oldRoutingNumber: old?.routingNumber ?? null,
        oldAccountLast4: old?.accountLast4 ?? null,
        oldFailsAtPayout: old?.failsAtPayout ?? null,
        oldStatus: old?.status ?? null,
        oldPayableFrom: old?.payableFrom ?? null,
        newAccountLast4: values.accountLast4,
      })
      .returning({ id: payoutAccountChanges.id })
    if (!change) throw new Error('The change of payout details was not recorded')
    // The security event and the owner's email (old and new last four, the hold, the undo link), in this transaction.
    await recordSecurityChange(
      tx,
      { mail: context.mail, config: context.config },
      { userId: seller.id, origin: context.origin ?? { ip: null, userAgent: null } },
      {
        kind: 'payout_account.change',
        previousLast4: old?.accountLast4 ?? null,
        newLast4: values.accountLast4,
        payableFrom: saved?.payableFrom ? saved.payableFrom.toISOString() : null,
        changeId: change.id,
      },
    )
  })
  return { url: `${context.config.publicUrl}/dashboard/earnings?payouts=ready` }
}

/**
 * "Undo it", from the email about a change: puts back the details that change replaced (or none, when it was the
 * first), as they were, including when they became payable. Later changes go with it, so one undo recovers from a
 * run of changes. Only the seller's own change, once; after sign-in and a step-up (the route's).
 */
export async function undoPayoutAccountChange(
  db: Db,
  seller: SessionUser,
  changeId: string,
  context: Pick<PayoutChangeContext, 'origin'>,
): Promise<PayoutAccount> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`payout:${seller.id}`}, 0))`)
    const [change] = await tx
      .select()
      .from(payoutAccountChanges)
      .where(and(eq(payoutAccountChanges.id, changeId), eq(payoutAccountChanges.sellerId, seller.id)))
    if (!change) throw new AppError('NOT_FOUND', 'No such change of your payout details')
    if (change.undoneAt)
      throw new AppError('CONFLICT', 'This change of your payout details was undone already')
    if (change.oldStatus === null) {
      await tx.delete(payoutAccounts).where(eq(payoutAccounts.sellerId, seller.id))
    } else {
      const restored = {
        provider: 'test' as const,
        status: change.oldStatus,
        accountHolder: change.oldAccountHolder,
        routingNumber: change.oldRoutingNumber,
        accountLast4: change.oldAccountLast4,
        failsAtPayout: change.oldFailsAtPayout ?? false,
        payableFrom: change.oldPayableFrom,
      }
      await tx
        .insert(payoutAccounts)
        .values({ sellerId: seller.id, ...restored })
        .onConflictDoUpdate({ target: payoutAccounts.sellerId, set: { ...restored, updatedAt: sql`now()` } })
    }
    await tx
      .update(payoutAccountChanges)
      .set({ undoneAt: sql`now()` })
      .where(
        and(
          eq(payoutAccountChanges.sellerId, seller.id),
          isNull(payoutAccountChanges.undoneAt),
          gte(payoutAccountChanges.createdAt, change.createdAt),
        ),
      )
    await writeAudit(tx, {
      actorId: seller.id,
      kind: 'payout_account.undo',
      target: `payout_account_change:${change.id}`,
      ip: context.origin?.ip ?? null,
      userAgent: context.origin?.userAgent ?? null,
      result: 'success',
    })
  })
  const [row] = await db.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, seller.id))
  return toPayoutAccount(row, 'test')
}

/**
 * `POST /api/payouts/account`: in test mode the bank account, enabled at once; with Stripe, the seller's Connect
 * Express account (made once) and its onboarding link; the account's status follows Stripe's `account.updated`.
 */
export async function setUpPayoutAccount(
  db: Db,
  config: Config,
  seller: SessionUser,
  body: Record<string, unknown>,
  connect: Connect | null,
  context: Omit<PayoutChangeContext, 'config'>,
): Promise<{ url: string }> {
  if (config.stripe) {
    if (!connect) throw new AppError('CONFLICT', 'Payouts through Stripe Connect are not available here')
    return setUpConnectAccount(db, connect, config.publicUrl, seller)
  }
  return setUpTestPayoutAccount(db, seller, body, { ...context, config })
}
