import { eq, sql } from 'drizzle-orm'
import { type PayoutAccount, TestBankAccount } from '#contract/payouts'
import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import { payoutAccounts } from '#server/db/schema'
import { AppError } from '#server/lib/errors'
import type { Connect } from '#server/lib/payment-provider'
import type { SessionUser } from '#server/lib/session'
import { setUpConnectAccount } from './connect-payouts'

/** Stripe's documented test account number that fails at payout (with routing 110000000). */
export const FAILING_TEST_ACCOUNT = '000111111116'

type Row = typeof payoutAccounts.$inferSelect

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
  }
}

export async function getPayoutAccount(db: Db, config: Config, seller: SessionUser): Promise<PayoutAccount> {
  const [row] = await db.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, seller.id))
  return toPayoutAccount(row, config.stripe ? 'stripe' : 'test')
}

/**
 * Test mode: the seller's bank details, checked for shape, enable payouts at once. Only the last four digits
 * are kept, and whether the number is the documented failing one. Saving again replaces the account (and
 * lifts a restriction left by a refused payout).
 */
export async function setUpTestPayoutAccount(
  db: Db,
  seller: SessionUser,
  body: Record<string, unknown>,
  publicUrl: string,
): Promise<{ url: string }> {
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
  const values = {
    provider: 'test' as const,
    status: 'enabled' as const,
    accountHolder: bank.account_holder,
    routingNumber: bank.routing_number,
    accountLast4: bank.account_number.slice(-4),
    failsAtPayout: bank.account_number === FAILING_TEST_ACCOUNT,
  }
  await db
    .insert(payoutAccounts)
    .values({ sellerId: seller.id, ...values })
    .onConflictDoUpdate({ target: payoutAccounts.sellerId, set: { ...values, updatedAt: sql`now()` } })
  return { url: `${publicUrl}/dashboard/earnings?payouts=ready` }
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
): Promise<{ url: string }> {
  if (config.stripe) {
    if (!connect) throw new AppError('CONFLICT', 'Payouts through Stripe Connect are not available here')
    return setUpConnectAccount(db, connect, config.publicUrl, seller)
  }
  return setUpTestPayoutAccount(db, seller, body, config.publicUrl)
}
