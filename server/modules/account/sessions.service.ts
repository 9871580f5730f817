import { and, desc, eq, gt } from 'drizzle-orm'
import type { SignedInSession } from '#contract/account'
import type { Db } from '#server/db/client'
import { sessions } from '#server/db/schema'
import type { Auth } from '#server/lib/auth'
import { describeAddress, describeBrowser } from '#server/lib/describe-session'
import { AppError } from '#server/lib/errors'
import type { SessionUser } from '#server/lib/session'

async function liveSessions(db: Db, userId: string) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.updatedAt))
}

/** Where the person is signed in: browser, rough place and last activity; never a session's token. */
export async function findSessions(db: Db, user: SessionUser): Promise<SignedInSession[]> {
  return (await liveSessions(db, user.id)).map((s) => ({
    id: s.id,
    browser: describeBrowser(s.userAgent),
    place: describeAddress(s.ipAddress),
    ip: s.ipAddress,
    created_at: s.createdAt.toISOString(),
    last_seen: s.updatedAt.toISOString(),
    current: s.id === user.sessionId,
  }))
}

/** Ends sessions through the auth library, so Redis (where other instances look first) forgets them too. */
async function end(auth: Auth, tokens: string[]): Promise<number> {
  const { internalAdapter } = await auth.$context
  for (const token of tokens) await internalAdapter.deleteSession(token)
  return tokens.length
}

/** Ends one of the person's own sessions (their current one signs them out). */
export async function endSession(db: Db, auth: Auth, user: SessionUser, id: string): Promise<number> {
  const found = (await liveSessions(db, user.id)).find((s) => s.id === id)
  if (!found) throw new AppError('NOT_FOUND', 'No such session of yours')
  return end(auth, [found.token])
}

/** Ends every session of the person's but the one they are using. */
export async function endOtherSessions(db: Db, auth: Auth, user: SessionUser): Promise<number> {
  const others = (await liveSessions(db, user.id)).filter((s) => s.id !== user.sessionId)
  return end(
    auth,
    others.map((s) => s.token),
  )
}
