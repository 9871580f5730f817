// The one home of "a security change happened to an account": two-step sign-in turned on or off, a passkey
// added, the password changed or reset, the payout bank account changed, a sign-in from a new device. In the
// caller's transaction it writes the security event (a row of the audit log, which the person sees under
// Security and admins in the audit log) and queues the email to the account's owner, with an "I did not do
// this" link (signed, single-use, expiring) that secures the account (server/modules/account, not-me).
//
// A change made by our own code calls `securityChanged(req, tx, change)` inside the transaction of the change,
// so the change, its row and its email are kept together or not at all. The auth route calls it for the auth
// library's changes (password change and reset, two-step on and off, passkey added, a new device's sign-in)
// once the library answered, because the library commits its own writes (docs/decisions/0068).

import crypto from 'node:crypto'
import { and, desc, eq, gt, inArray } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import { paths } from '#contract/pages'
import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import { passkeys, verifications } from '#server/db/schema'
import type { Mail } from '#server/mail/mail'
import type { SecurityChangeEmailKind } from '#server/mail/templates/security-change'
import { type AuditOrigin, auditOrigin, writeAudit } from './audit'
import { resolveAuthSecret } from './auth'
import { describeBrowser, describePlace } from './describe-session'
import { caller } from './guard'

/** What changed, with what its email names. */
export type SecurityChange =
  | { kind: 'two_step.enable' }
  | { kind: 'two_step.disable' }
  | { kind: 'passkey.add'; passkeyId: string; passkeyName?: string | null }
  | { kind: 'password.change' }
  | { kind: 'password.reset' }
  /** The bank account payouts go to; last four digits only (null when there was none before). */
  | {
      kind: 'payout_account.change'
      previousLast4: string | null
      newLast4: string
      /** When the new details receive payouts (null: now), and the change whose undo the email links to. */
      payableFrom?: string | null
      changeId?: string
    }
  | { kind: 'sign_in.new_device' }

/** How long an "I did not do this" link works. */
export const NOT_ME_LINK_DAYS = 7
/** The verification rows that hold the links, by this prefix and the link's id. */
export const NOT_ME_PREFIX = 'not-me:'

const keys = new WeakMap<Config, Buffer>()
function keyOf(config: Config): Buffer {
  let key = keys.get(config)
  if (!key) {
    key = crypto.createHmac('sha256', resolveAuthSecret(config)).update('not-me-link-v1').digest()
    keys.set(config, key)
  }
  return key
}
const signature = (config: Config, id: string) =>
  crypto.createHmac('sha256', keyOf(config)).update(id).digest('base64url').slice(0, 32)

/** The id a link's token names, or null when it is malformed or not signed by us. */
export function readNotMeToken(config: Config, token: unknown): string | null {
  if (typeof token !== 'string' || token.length > 200) return null
  const [id, sig, ...rest] = token.split('.')
  if (rest.length > 0 || !id || !sig || !/^[A-Za-z0-9_-]{16,64}$/.test(id)) return null
  const expected = Buffer.from(signature(config, id))
  const given = Buffer.from(sig)
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null
  return id
}

/** What a link's row holds: whose account, and which change it answers. */
export type NotMeLink = { userId: string; kind: SecurityChange['kind']; at: string }

/**
 * Records a security change of `userId`'s account in `tx`: its security event, and its email with an
 * "I did not do this" link. Call it inside the change's own transaction.
 */
export async function recordSecurityChange(
  tx: Db,
  deps: { mail: Mail; config: Config },
  who: { userId: string; origin: AuditOrigin },
  change: SecurityChange,
): Promise<void> {
  const at = new Date()
  const target =
    change.kind === 'passkey.add' && change.passkeyId.length <= 100
      ? `passkey:${change.passkeyId}`
      : `user:${who.userId}`
  await writeAudit(tx, { actorId: who.userId, kind: change.kind, target, ...who.origin, result: 'success' })

  const id = crypto.randomBytes(18).toString('base64url')
  const link: NotMeLink = { userId: who.userId, kind: change.kind, at: at.toISOString() }
  await tx.insert(verifications).values({
    id: crypto.randomUUID(),
    identifier: `${NOT_ME_PREFIX}${id}`,
    value: JSON.stringify(link),
    expiresAt: new Date(at.getTime() + NOT_ME_LINK_DAYS * 24 * 60 * 60_000),
  })
  const siteUrl = deps.config.publicUrl.replace(/\/$/, '')
  // The token rides in the fragment, which browsers never send: no server or proxy log holds it.
  const notMeUrl = `${siteUrl}${paths.notMe()}#${id}.${signature(deps.config, id)}`
  await deps.mail.queue(tx, {
    to: { userId: who.userId },
    template: 'security-change',
    data: {
      kind: change.kind satisfies SecurityChangeEmailKind,
      at: at.toISOString(),
      device: describeBrowser(who.origin.userAgent),
      place: describePlace(who.origin.ip),
      notMeUrl,
      notMeDays: NOT_ME_LINK_DAYS,
      ...(change.kind === 'passkey.add' ? { passkeyName: change.passkeyName ?? null } : {}),
      ...(change.kind === 'payout_account.change'
        ? {
            previousLast4: change.previousLast4,
            newLast4: change.newLast4,
            payableFrom: change.payableFrom ?? null,
            ...(change.changeId
              ? { undoUrl: `${siteUrl}${paths.earnings()}?undo=${encodeURIComponent(change.changeId)}` }
              : {}),
          }
        : {}),
    },
  })
}

/**
 * The same, for a route: the account is the signed-in caller's unless `userId` says otherwise, and the origin
 * is the request's. Pass the transaction of the change.
 */
export async function securityChanged(
  req: FastifyRequest,
  tx: Db,
  change: SecurityChange,
  userId: string = caller(req).id,
): Promise<void> {
  const { mail, config } = req.server.ctx
  await recordSecurityChange(tx, { mail, config }, { userId, origin: auditOrigin(req) }, change)
}

/** Passkeys added within this many days are offered for removal at a password reset and removed by "not me". */
export const RECENT_PASSKEY_DAYS = 7

function recentSince(): Date {
  return new Date(Date.now() - RECENT_PASSKEY_DAYS * 24 * 60 * 60_000)
}

/** The account's passkeys added in the last RECENT_PASSKEY_DAYS days, newest first. */
export async function findRecentPasskeys(db: Db, userId: string) {
  return db
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt })
    .from(passkeys)
    .where(and(eq(passkeys.userId, userId), gt(passkeys.createdAt, recentSince())))
    .orderBy(desc(passkeys.createdAt))
}

/**
 * Removes the account's passkeys added in the last RECENT_PASSKEY_DAYS days: all of them, or those of `ids`
 * (an id that is not such a passkey of the account is left alone). Returns the ids removed.
 */
export async function removeRecentPasskeys(tx: Db, userId: string, ids?: string[]): Promise<string[]> {
  if (ids && ids.length === 0) return []
  const rows = await tx
    .delete(passkeys)
    .where(
      and(
        eq(passkeys.userId, userId),
        gt(passkeys.createdAt, recentSince()),
        ids ? inArray(passkeys.id, ids) : undefined,
      ),
    )
    .returning({ id: passkeys.id })
  return rows.map((r) => r.id)
}
