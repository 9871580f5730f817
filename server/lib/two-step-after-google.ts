import crypto from 'node:crypto'
import type { BetterAuthPlugin } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'
import { deleteSessionCookie } from 'better-auth/cookies'
import { generateRandomString } from 'better-auth/crypto'

/** Where a Google sign-in that still needs its second step is sent: the login page's code step. */
export const CODE_STEP_PATH = '/login'

/** How long the code step waits for its code, as the two-factor plugin's own challenge (10 minutes). */
const CHALLENGE_SECONDS = 600

/** True for the auth library's OAuth callback paths (`/callback/google`, `/oauth2/callback/google`). */
function isCallback(path: string | undefined): boolean {
  return /^\/(?:oauth2\/)?callback\/[^/]+$/.test(path ?? '')
}

/**
 * Two-step sign-in after Google. Better Auth's two-factor plugin asks for the code only after a password
 * sign-in: a person with two-step on who came back from Google would be signed in on Google's word alone.
 * This hook does for the OAuth callback what the plugin does for the password: unless the device is
 * remembered, the new session is ended at once and the plugin's sign-in challenge is set instead (a
 * verification row naming the person, in the plugin's own `two_factor` cookie), and the browser goes to the
 * login page's code step, where the plugin's verify-totp or verify-backup-code endpoints finish the sign-in.
 */
export function twoStepAfterGoogle(): BetterAuthPlugin {
  return {
    id: 'two-step-after-google',
    hooks: {
      after: [
        {
          matcher: (context) => isCallback(context.path),
          handler: createAuthMiddleware(async (ctx) => {
            const data = ctx.context.newSession as {
              user: { id: string; twoFactorEnabled?: boolean | null }
              session: { token: string }
            } | null
            if (!data?.user.twoFactorEnabled) return
            if (await isRemembered(ctx, data.user.id)) return

            deleteSessionCookie(ctx, true)
            await ctx.context.internalAdapter.deleteSession(data.session.token)
            ctx.context.setNewSession(null)

            const challenge = ctx.context.createAuthCookie('two_factor', { maxAge: CHALLENGE_SECONDS })
            const identifier = `2fa-${generateRandomString(20)}`
            const expiresAt = new Date(Date.now() + CHALLENGE_SECONDS * 1000)
            await ctx.context.internalAdapter.createVerificationValue({
              value: data.user.id,
              identifier,
              expiresAt,
            })
            await ctx.context.internalAdapter.createVerificationValue({
              value: '0',
              identifier: `2fa-attempts-${identifier}`,
              expiresAt,
            })
            await ctx.setSignedCookie(challenge.name, identifier, ctx.context.secret, challenge.attributes)

            const location = ctx.context.responseHeaders?.get('location') ?? '/'
            const target = new URL(location, ctx.context.baseURL)
            const from =
              target.origin === new URL(ctx.context.baseURL).origin ? target.pathname + target.search : '/'
            const codeStep = new URL(CODE_STEP_PATH, ctx.context.baseURL)
            codeStep.searchParams.set('step', 'code')
            if (from !== '/') codeStep.searchParams.set('from', from)
            throw ctx.redirect(codeStep.toString())
          }),
        },
      ],
    },
  }
}

/**
 * "Remember this device": the two-factor plugin's signed `trust_device` cookie, `hmac!identifier`, whose
 * HMAC (SHA-256 over `userId!identifier` with the auth secret) names this person and whose verification row
 * is still live.
 */
async function isRemembered(
  ctx: Parameters<Parameters<typeof createAuthMiddleware>[0]>[0],
  userId: string,
): Promise<boolean> {
  const cookie = ctx.context.createAuthCookie('trust_device')
  const value = await ctx.getSignedCookie(cookie.name, ctx.context.secret)
  if (!value) return false
  const [token, identifier] = value.split('!')
  if (!token || !identifier) return false
  const expected = crypto
    .createHmac('sha256', ctx.context.secret)
    .update(`${userId}!${identifier}`)
    .digest('base64url')
  if (
    token.length !== expected.length ||
    !crypto.timingSafeEqual(Buffer.from(token), Buffer.from(expected))
  ) {
    return false
  }
  const row = await ctx.context.internalAdapter.findVerificationValue(identifier)
  return row !== null && row !== undefined && row.value === userId && row.expiresAt > new Date()
}
