// "I did not do this": the link in every security email. Opened and confirmed, it ends every session of the
// account, removes the passkeys added in the last 7 days, turns two-step sign-in off when the change it answers
// was turning it on (someone else's authenticator would lock the owner out), and takes the password away so
// only a new one, chosen through the reset link it answers with, signs in again (docs/decisions/0068).
import crypto from 'node:crypto'
import { and, eq, gt } from 'drizzle-orm'
import type { NotMeResult } from '#contract/account'
import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import { accounts, twoFactors, users, verifications } from '#server/db/schema'
import { type AuditOrigin, writeAudit } from '#server/lib/audit'
import { RESET_TOKEN_SECONDS } from '#server/lib/auth'
import { AppError } from '#server/lib/errors'
import {
  NOT_ME_PREFIX,
  type NotMeLink,
  readNotMeToken,
  removeRecentPasskeys,
} from '#server/lib/security-change'
import type { Sessions } from '#server/lib/session'

export const NOT_ME_LINK_GONE =
  'This link was already used or has expired. If something is still wrong, choose a new password with "Forgot password?" on the login page.'

async function findLink(db: Db, config: Config, token: unknown) {
  const id = readNotMeToken(config, token)
  if (!id) throw new AppError('VALIDATION', 'This link is not valid. Open it again from the email.')
  const [row] = await db
    .select({ value: verifications.value })
    .from(verifications)
    .where(
      and(eq(verifications.identifier, `${NOT_ME_PREFIX}${id}`), gt(verifications.expiresAt, new Date())),
    )
    .limit(1)
  if (!row) throw new AppError('VALIDATION', NOT_ME_LINK_GONE)
  return { id, link: JSON.parse(row.value) as NotMeLink }
}

/** Which change a link answers, and when; it changes nothing. */
export async function describeNotMeLink(db: Db, config: Config, token: unknown) {
  const { link } = await findLink(db, config, token)
  return { kind: link.kind, at: link.at }
}

/** Secures the account a link names; the link works once. */
export async function secureAccount(
  deps: { db: Db; config: Config; sessions: Sessions },
  token: unknown,
  origin: AuditOrigin,
): Promise<NotMeResult> {
  const { db, config, sessions } = deps
  const { id, link } = await findLink(db, config, token)
  await sessions.endAll(link.userId)
  const resetToken = crypto.randomBytes(18).toString('base64url')
  const done = await db.transaction(async (tx) => {
    const used = await tx
      .delete(verifications)
      .where(
        and(eq(verifications.identifier, `${NOT_ME_PREFIX}${id}`), gt(verifications.expiresAt, new Date())),
      )
      .returning({ id: verifications.id })
    if (used.length === 0) throw new AppError('VALIDATION', NOT_ME_LINK_GONE)
    const removed = await removeRecentPasskeys(tx, link.userId)
    let twoStepOff = false
    if (link.kind === 'two_step.enable') {
      await tx.delete(twoFactors).where(eq(twoFactors.userId, link.userId))
      await tx.update(users).set({ twoFactorEnabled: false }).where(eq(users.id, link.userId))
      twoStepOff = true
    }
    // The password goes: whoever made the change may know it. A reset link made after this stamp is not stale
    // (server/modules/auth/reset-links.ts), so the one below works.
    const stamp = new Date()
    await tx
      .update(accounts)
      .set({ password: null, updatedAt: stamp })
      .where(and(eq(accounts.userId, link.userId), eq(accounts.providerId, 'credential')))
    await tx.insert(verifications).values({
      id: crypto.randomUUID(),
      identifier: `reset-password:${resetToken}`,
      value: link.userId,
      expiresAt: new Date(stamp.getTime() + RESET_TOKEN_SECONDS * 1000),
      createdAt: new Date(stamp.getTime() + 1),
      updatedAt: new Date(stamp.getTime() + 1),
    })
    await writeAudit(tx, {
      actorId: link.userId,
      kind: 'account.not_me',
      target: `user:${link.userId}`,
      ...origin,
      result: 'success',
      detail: `answers ${link.kind}; ${removed.length} passkeys removed${twoStepOff ? '; two-step off' : ''}`,
    })
    return { removed: removed.length, twoStepOff }
  })
  // Once more after the commit: a session made in between (a passkey sign-in) ends too.
  await sessions.endAll(link.userId)
  return {
    sessions_ended: true,
    passkeys_removed: done.removed,
    two_step_turned_off: done.twoStepOff,
    reset_url: `/reset-password?token=${encodeURIComponent(resetToken)}`,
  }
}
