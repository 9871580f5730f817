// A password-reset link works once, and only until the password changes: using any reset link, or changing
// the password while signed in, ends every link sent before. The credential account's `updated_at` is
// stamped at each password change, and a link made before that stamp is refused.
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import { accounts, users } from '#server/db/schema'
import type { Auth } from '#server/lib/auth'

export const STALE_RESET_LINK =
  'This reset link is no longer valid: a newer link was used or the password was changed since. Ask for a new link.'

/** The account a reset token was made for, and when; undefined for an unknown or expired token. */
export async function resetTokenOf(
  auth: Auth,
  token: unknown,
): Promise<{ userId: string; createdAt: Date } | undefined> {
  if (typeof token !== 'string' || !token) return undefined
  const context = await auth.$context
  const found = await context.internalAdapter.findVerificationValue(`reset-password:${token}`)
  if (!found || new Date(found.expiresAt) <= new Date()) return undefined
  return { userId: found.value, createdAt: new Date(found.createdAt) }
}

/** True when the account's password changed after the link was made. */
export async function isStaleResetLink(db: Db, link: { userId: string; createdAt: Date }): Promise<boolean> {
  const [row] = await db
    .select({ changed: sql<boolean>`${accounts.updatedAt} >= ${link.createdAt.toISOString()}::timestamptz` })
    .from(accounts)
    .where(and(eq(accounts.userId, link.userId), eq(accounts.providerId, 'credential')))
    .limit(1)
  return row?.changed === true
}

/** Stamps a password change, which ends every reset link made before it, and stops asking for a new password. */
export async function passwordChanged(db: Db, userId: string): Promise<void> {
  await db
    .update(accounts)
    .set({ updatedAt: new Date() })
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
  await db.update(users).set({ passwordChangeAskedAt: null }).where(eq(users.id, userId))
}
