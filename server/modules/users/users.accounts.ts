import { randomBytes } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { normalEmail } from '#contract/email'
import type { Role } from '#contract/users'
import type { Db } from '#server/db/client'
import { hashPassword } from '#server/db/password-hash'
import { accounts, users } from '#server/db/schema'

export function newUserId(): string {
  return randomBytes(24).toString('base64url')
}

/**
 * Creates an email-and-password account outside the sign-up flow (admin command, demo data), in the
 * same shape Better Auth writes, so it signs in like any other. An existing email is updated instead:
 * given the role, re-enabled, and given the password.
 */
export async function upsertPasswordAccount(
  db: Db,
  input: { email: string; password: string; name: string; role: Role; id?: string },
): Promise<{ id: string; created: boolean }> {
  const email = normalEmail(input.email)
  const hash = await hashPassword(input.password)
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email))
      .limit(1)
    const now = new Date()
    if (existing) {
      await tx
        .update(users)
        .set({ role: input.role, disabledAt: null, updatedAt: now })
        .where(eq(users.id, existing.id))
      const updated = await tx
        .update(accounts)
        .set({ password: hash, updatedAt: now })
        .where(and(eq(accounts.userId, existing.id), eq(accounts.providerId, 'credential')))
        .returning({ id: accounts.id })
      if (updated.length === 0) {
        await tx.insert(accounts).values({
          id: newUserId(),
          accountId: existing.id,
          providerId: 'credential',
          userId: existing.id,
          password: hash,
        })
      }
      return { id: existing.id, created: false }
    }
    const id = input.id ?? newUserId()
    await tx.insert(users).values({ id, name: input.name, email, role: input.role, emailVerified: true })
    await tx
      .insert(accounts)
      .values({ id: newUserId(), accountId: id, providerId: 'credential', userId: id, password: hash })
    return { id, created: true }
  })
}
