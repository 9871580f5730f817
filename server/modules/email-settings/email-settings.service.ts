import { eq, sql } from 'drizzle-orm'
import {
  type EmailPreferencesUpdate,
  type EmailSettings,
  EmailTopic,
  type EmailTopic as Topic,
} from '#contract/email-preferences'
import type { Db } from '#server/db/client'
import { emailPreferences, users } from '#server/db/schema'
import { AppError } from '#server/lib/errors'
import type { SessionUser } from '#server/lib/session'

function settingsOf(row: { email: string; emailVerified: boolean }, muted: readonly string[]): EmailSettings {
  const topics = Object.fromEntries(EmailTopic.options.map((t) => [t, !muted.includes(t)])) as Record<
    Topic,
    boolean
  >
  return { email: row.email, emailVerified: row.emailVerified, topics }
}

export async function getEmailSettings(db: Db, actor: SessionUser): Promise<EmailSettings> {
  const [row] = await db
    .select({ email: users.email, emailVerified: users.emailVerified, muted: emailPreferences.mutedTopics })
    .from(users)
    .leftJoin(emailPreferences, eq(emailPreferences.userId, users.id))
    .where(eq(users.id, actor.id))
    .limit(1)
  if (!row) throw new AppError('NOT_FOUND', 'Account not found')
  return settingsOf(row, row.muted ?? [])
}

/** Turns topics on or off; the ones not named keep their setting. */
export async function updateEmailPreferences(
  db: Db,
  actor: SessionUser,
  change: EmailPreferencesUpdate,
): Promise<EmailSettings> {
  return db.transaction(async (tx) => {
    // One row per user, locked while it changes, so two tabs saving at once do not lose a change.
    await tx
      .insert(emailPreferences)
      .values({ userId: actor.id })
      .onConflictDoNothing({ target: emailPreferences.userId })
    const [current] = await tx
      .select({ muted: emailPreferences.mutedTopics })
      .from(emailPreferences)
      .where(eq(emailPreferences.userId, actor.id))
      .for('update')
    const muted = new Set(current?.muted ?? [])
    for (const [topic, on] of Object.entries(change) as [Topic, boolean | undefined][]) {
      if (on === true) muted.delete(topic)
      if (on === false) muted.add(topic)
    }
    const mutedTopics = EmailTopic.options.filter((t) => muted.has(t))
    await tx
      .update(emailPreferences)
      .set({ mutedTopics, updatedAt: sql`now()` })
      .where(eq(emailPreferences.userId, actor.id))
    return getEmailSettings(tx, actor)
  })
}
