// "Confirm it's you" with a passkey. The passkey plugin's own ceremony is a sign-in (it makes a new session), so
// the step-up runs its own, with the same library the plugin runs on (SimpleWebAuthn): a challenge for this
// session alone, offered only the account's own passkeys, answered by one of them with the person checked
// (fingerprint, face or PIN, as at sign-in: decision 0045). Nothing but the session's proof comes of it.

import crypto from 'node:crypto'
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  generateAuthenticationOptions,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server'
import { and, eq, gt } from 'drizzle-orm'
import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import { passkeys, verifications } from '#server/db/schema'
import { AppError } from '#server/lib/errors'
import { ownOrigins } from '#server/lib/origin'
import type { SessionUser } from '#server/lib/session'

/** How long the browser has to answer a challenge (the passkey prompt included). */
const CHALLENGE_SECONDS = 5 * 60
/** The verification row that holds a session's challenge, by this prefix and the session's id. */
const PREFIX = 'step-up-passkey:'

export const NO_PASSKEY_MESSAGE = 'Your account has no passkey: confirm with your password instead.'
export const PASSKEY_NOT_CHECKED = 'That passkey could not confirm it is you. Please try again.'
export const PASSKEY_CHALLENGE_GONE =
  'That passkey check took too long or was already used. Please try again.'

/** Whether the account has a passkey to confirm with. */
export async function hasPasskey(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .limit(1)
  return row !== undefined
}

function sessionOf(user: SessionUser): string {
  if (!user.sessionId) throw new AppError('UNAUTHENTICATED', 'Please sign in')
  return user.sessionId
}

/**
 * The browser's challenge for this session, offering the account's own passkeys; a new one replaces the
 * session's last. 400 when the account has none.
 */
export async function passkeyStepUpOptions(
  db: Db,
  config: Config,
  user: SessionUser,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const sessionId = sessionOf(user)
  const own = await db
    .select({ id: passkeys.credentialID, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id))
  if (own.length === 0) throw new AppError('VALIDATION', NO_PASSKEY_MESSAGE, { passkey: NO_PASSKEY_MESSAGE })
  const options = await generateAuthenticationOptions({
    rpID: config.webauthnRpId,
    userVerification: 'required',
    timeout: CHALLENGE_SECONDS * 1000,
    allowCredentials: own.map((p) => ({
      id: p.id,
      transports: p.transports ? (p.transports.split(',') as AuthenticatorTransportFuture[]) : undefined,
    })),
  })
  const identifier = `${PREFIX}${sessionId}`
  await db.transaction(async (tx) => {
    await tx.delete(verifications).where(eq(verifications.identifier, identifier))
    await tx.insert(verifications).values({
      id: crypto.randomUUID(),
      identifier,
      value: JSON.stringify({ userId: user.id, challenge: options.challenge }),
      expiresAt: new Date(Date.now() + CHALLENGE_SECONDS * 1000),
    })
  })
  return options
}

/**
 * Checks the browser's answer to this session's challenge (used up either way). 'checked' when one of the
 * account's own passkeys signed it with the person verified; otherwise why not: 'expired' (no live challenge:
 * ask again), 'refused' (not the account's passkey, or its signature does not hold).
 */
export async function checkStepUpPasskey(
  db: Db,
  config: Config,
  user: SessionUser,
  response: Record<string, unknown>,
): Promise<'checked' | 'expired' | 'refused'> {
  const sessionId = sessionOf(user)
  const [challengeRow] = await db
    .delete(verifications)
    .where(
      and(eq(verifications.identifier, `${PREFIX}${sessionId}`), gt(verifications.expiresAt, new Date())),
    )
    .returning({ value: verifications.value })
  const stored = challengeRow
    ? (JSON.parse(challengeRow.value) as { userId: string; challenge: string })
    : null
  if (!stored || stored.userId !== user.id) return 'expired'

  const credentialId = typeof response.id === 'string' && response.id.length <= 1024 ? response.id : null
  if (!credentialId) return 'refused'
  const [key] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.credentialID, credentialId), eq(passkeys.userId, user.id)))
    .limit(1)
  if (!key) return 'refused'
  try {
    const verification = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: stored.challenge,
      expectedOrigin: ownOrigins(config),
      expectedRPID: config.webauthnRpId,
      credential: {
        id: key.credentialID,
        publicKey: new Uint8Array(Buffer.from(key.publicKey, 'base64')),
        counter: key.counter,
        transports: key.transports
          ? (key.transports.split(',') as AuthenticatorTransportFuture[])
          : undefined,
      },
      requireUserVerification: true,
    })
    if (!verification.verified || !verification.authenticationInfo.userVerified) return 'refused'
    await db
      .update(passkeys)
      .set({ counter: verification.authenticationInfo.newCounter })
      .where(eq(passkeys.id, key.id))
    return 'checked'
  } catch {
    // A malformed answer, another site's, a replayed counter: not a proof.
    return 'refused'
  }
}
