// Two-step sign-in in tests: the current code of an authenticator app set up from the enrolment's otpauth URI,
// turning it on, and signing in with a code.
import { eq } from 'drizzle-orm'
import type { AppInstance } from '#server/app'
import { usedTotpSteps } from '#server/db/schema'
import { mergeCookies, postAuth, postSignIn, TEST_PASSWORD } from './auth-helpers'
import { authenticatorCode } from './totp'

/** What an authenticator app set up from this otpauth:// URI shows now (or `offset` periods of 30 s away). */
export async function currentCode(totpURI: string, offset = 0): Promise<string> {
  const key = new URL(totpURI).searchParams.get('secret')
  if (!key) throw new Error(`no secret in ${totpURI}`)
  return authenticatorCode(key, offset)
}

/**
 * Turns two-step sign-in on for a signed-in person as the Security page does: the password, then a code from
 * the app set up with the answer's otpauth URI. Returns that URI, the ten backup codes, and the cookies after it.
 */
export async function enableTwoStep(app: AppInstance, who: { cookie: string; password: string }) {
  const started = await postAuth(app, '/two-factor/enable', who.cookie, { password: who.password })
  if (started.statusCode !== 200) throw new Error(`two-step setup: ${started.statusCode} ${started.body}`)
  const { totpURI, backupCodes } = started.json() as { totpURI: string; backupCodes: string[] }
  const confirmed = await postAuth(app, '/two-factor/verify-totp', who.cookie, {
    code: await currentCode(totpURI),
  })
  if (confirmed.statusCode !== 200) {
    throw new Error(`turning two-step on: ${confirmed.statusCode} ${confirmed.body}`)
  }
  return { totpURI, backupCodes, cookie: mergeCookies(who.cookie, confirmed) }
}

/**
 * A sign-in with two-step sign-in on, from a browser that holds no session: the password (which must be
 * right and ask for a code), then `code` at the second step, an authenticator code or, with `backup`, a
 * backup code. Returns the second step's answer and the cookies the browser then holds.
 */
export async function signInWithCode(
  app: AppInstance,
  who: { email: string; password?: string },
  code: string,
  options: { backup?: boolean; trustDevice?: boolean } = {},
) {
  const first = await postSignIn(app, { email: who.email, password: who.password ?? TEST_PASSWORD })
  if (first.statusCode !== 200 || first.json().twoFactorRedirect !== true) {
    throw new Error(`password step of ${who.email} did not ask for a code: ${first.statusCode} ${first.body}`)
  }
  const pending = mergeCookies('', first)
  const res = options.backup
    ? await postAuth(app, '/two-factor/verify-backup-code', pending, { code })
    : await postAuth(app, '/two-factor/verify-totp', pending, {
        code,
        ...(options.trustDevice ? { trustDevice: true } : {}),
      })
  return { res, cookie: mergeCookies(pending, res) }
}

/**
 * Forgets the authenticator time steps an account has used, so a test that makes more checks than a 30-second
 * window holds codes for (turning on, signing in, turning off) can go on with the current code.
 */
export async function forgetUsedCodes(app: AppInstance, userId: string): Promise<void> {
  await app.ctx.db.delete(usedTotpSteps).where(eq(usedTotpSteps.userId, userId))
}
