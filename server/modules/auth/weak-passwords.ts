// Accounts made before the password rule may hold a password it now refuses. They keep working: the password is
// judged at each sign-in, when it is known, and a weak one marks the account, so the web app asks the person to
// change it (the mark goes at the next change or reset).
import { eq } from 'drizzle-orm'
import { normalEmail } from '#contract/email'
import type { Db } from '#server/db/client'
import { users } from '#server/db/schema'
import { passwordRefusal } from '#server/lib/passwords'

/** After a sign-in whose password was right: marks the account when the rule refuses that password now. */
export async function askToChangeWeakPassword(db: Db, fields: Record<string, unknown>): Promise<void> {
  const { email, password } = fields
  if (typeof email !== 'string' || typeof password !== 'string') return
  const [user] = await db
    .select({ id: users.id, name: users.name, email: users.email, asked: users.passwordChangeAskedAt })
    .from(users)
    .where(eq(users.email, normalEmail(email)))
    .limit(1)
  if (!user) return
  const isWeak = passwordRefusal(password, user) !== null
  if (isWeak === (user.asked !== null)) return
  await db
    .update(users)
    .set({ passwordChangeAskedAt: isWeak ? new Date() : null })
    .where(eq(users.id, user.id))
}
