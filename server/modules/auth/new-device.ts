// A sign-in from a new device is told to the account's owner. A device is a long-lived random cookie
// (`lm_device`, HttpOnly, 400 days, set at the first sign-in or sign-up of a browser) together with its browser
// family ("Chrome on Windows"): a sign-in whose pair was not seen before for the account is new
// (docs/decisions/0069). Sign-up records the device without an email.
import crypto from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { knownDevices } from '#server/db/schema'
import { describeBrowser } from '#server/lib/describe-session'
import { securityChanged } from '#server/lib/security-change'

export const DEVICE_COOKIE = 'lm_device'
const DEVICE_COOKIE_SECONDS = 400 * 24 * 60 * 60
const DEVICE_ID = /^[A-Za-z0-9_-]{43}$/

/** The answers that start a session: the sign-ins (password, second step, passkey, Google) and sign-up. */
const SIGN_INS = new Set([
  '/api/auth/sign-in/email',
  '/api/auth/two-factor/verify-totp',
  '/api/auth/two-factor/verify-backup-code',
  '/api/auth/passkey/verify-authentication',
])
const SIGN_UP = '/api/auth/sign-up/email'
const CALLBACK = /^\/api\/auth\/(?:oauth2\/)?callback\//

function deviceIdOf(req: FastifyRequest): string | undefined {
  const match = new RegExp(`(?:^|;\\s*)${DEVICE_COOKIE}=([^;]+)`).exec(req.headers.cookie ?? '')
  return match?.[1] && DEVICE_ID.test(match[1]) ? match[1] : undefined
}

/**
 * After a successful answer of the auth library: when it started a session for someone who was not signed in,
 * notes the device (setting its cookie when the browser has none) and, for a sign-in from a device new to the
 * account, records the security change, whose email tells the owner.
 */
export async function noteSignInDevice(
  req: FastifyRequest,
  reply: FastifyReply,
  path: string,
  userId: string | null | undefined,
  wasSignedIn: boolean,
): Promise<void> {
  const isSignUp = path === SIGN_UP
  if (!userId || wasSignedIn) return
  if (!isSignUp && !SIGN_INS.has(path) && !(req.method === 'GET' && CALLBACK.test(path))) return
  let deviceId = deviceIdOf(req)
  if (!deviceId) {
    deviceId = crypto.randomBytes(32).toString('base64url')
    const secure = req.server.ctx.config.publicUrl.startsWith('https://') ? '; Secure' : ''
    const cookie = `${DEVICE_COOKIE}=${deviceId}; Max-Age=${DEVICE_COOKIE_SECONDS}; Path=/; HttpOnly; SameSite=Lax${secure}`
    const set = reply.getHeader('set-cookie')
    reply.header('set-cookie', [...(Array.isArray(set) ? set : set ? [String(set)] : []), cookie])
  }
  const deviceHash = crypto.createHash('sha256').update(deviceId).digest('base64url')
  const agent = req.headers['user-agent']
  const browser = describeBrowser(typeof agent === 'string' ? agent : null)
  const { db } = req.server.ctx
  await db.transaction(async (tx) => {
    const [seen] = await tx
      .update(knownDevices)
      .set({ lastSeenAt: sql`now()` })
      .where(
        and(
          eq(knownDevices.userId, userId),
          eq(knownDevices.deviceHash, deviceHash),
          eq(knownDevices.browser, browser),
        ),
      )
      .returning({ id: knownDevices.id })
    if (seen) return
    const [added] = await tx
      .insert(knownDevices)
      .values({ userId, deviceHash, browser })
      .onConflictDoNothing()
      .returning({ id: knownDevices.id })
    if (added && !isSignUp) await securityChanged(req, tx, { kind: 'sign_in.new_device' }, userId)
  })
}
