import { and, asc, eq, inArray, isNull, like } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import { accounts, passkeys, products, sessions, twoFactors, users } from '#server/db/schema'
import type { Mail } from '#server/mail/mail'
import { leaveSale } from '#server/modules/deal'

/**
 * The demo seed's accounts have fixed ids starting `demo-` (the auth library makes random ones, so no real
 * account can have one) and share a password the README prints.
 */
const DEMO_ID = 'demo-%'

export const REMOVE_DEMO_COMMAND = 'npm run demo:remove'

export type DemoAccount = { id: string; email: string; role: string }

/** The demo accounts that can still sign in. */
export async function findDemoAccounts(db: Db): Promise<DemoAccount[]> {
  return db
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(and(like(users.id, DEMO_ID), isNull(users.disabledAt)))
    .orderBy(asc(users.id))
}

/** Why a production server will not start beside them, and the command that removes them. */
export function demoAccountsRefusal(found: DemoAccount[]): string {
  const admins = found.filter((a) => a.role === 'admin').map((a) => a.email)
  const names = found
    .slice(0, 4)
    .map((a) => a.email)
    .join(', ')
  return [
    `Refusing to start in production: the database holds ${found.length} demo account${found.length === 1 ? '' : 's'} ` +
      `whose password is public (${names}${found.length > 4 ? ', …' : ''})` +
      (admins.length > 0 ? `, among them the demo admin ${admins.join(', ')}.` : '.'),
    `Remove them with \`${REMOVE_DEMO_COMMAND}\` (nobody can sign in as them again and their listings leave sale;`,
    'sales, messages and reviews real people have with them stay), then start the server again.',
  ].join('\n')
}

/**
 * Removes the demo accounts the way an admin deletes an account: the rows stay (bookings, payments, the ledger,
 * messages and reviews of real people point at them) but nobody can sign in as them again: disabled, every
 * session, password, passkey and two-step secret deleted. Their listings still on sale leave it (open offers,
 * holds and unpaid bookings end and the buyers are emailed, as when a seller's account closes); paid sales stay
 * for their buyers, and an admin settles them as any sale of a closed account.
 */
export async function removeDemoAccounts(
  db: Db,
  mail: Pick<Mail, 'queue'>,
): Promise<{ removed: DemoAccount[]; listingsOffSale: number; bookingsCancelled: number }> {
  return db.transaction(async (tx) => {
    const found = await tx
      .select({ id: users.id, email: users.email, role: users.role })
      .from(users)
      .where(and(like(users.id, DEMO_ID), isNull(users.disabledAt)))
      .orderBy(asc(users.id))
      .for('update')
    if (found.length === 0) return { removed: [], listingsOffSale: 0, bookingsCancelled: 0 }
    const ids = found.map((a) => a.id)
    const now = new Date()
    await tx.update(users).set({ disabledAt: now, updatedAt: now }).where(inArray(users.id, ids))
    await tx.delete(sessions).where(inArray(sessions.userId, ids))
    await tx.delete(accounts).where(inArray(accounts.userId, ids))
    await tx.delete(passkeys).where(inArray(passkeys.userId, ids))
    await tx.delete(twoFactors).where(inArray(twoFactors.userId, ids))
    const listings = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(inArray(products.sellerId, ids), eq(products.isSold, false), isNull(products.removedAt)))
    const { cancelled } = await leaveSale(tx, {
      productIds: listings.map((p) => p.id),
      reason: 'seller_closed',
      actorId: null,
      mail,
    })
    return { removed: found, listingsOffSale: listings.length, bookingsCancelled: cancelled.length }
  })
}
