import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api'
import { symmetricDecrypt } from 'better-auth/crypto'
import { and, eq, lt } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import { twoFactors, usedTotpSteps } from '#server/db/schema'

/** The two-factor plugin's code: 6 digits every 30 s, taken one step either side of now. */
const PERIOD_SECONDS = 30
const DIGITS = 6
const WINDOW = 1

export const CODE_ALREADY_USED =
  'That code was already used. Wait for the next code from your authenticator app, then enter it.'

/** The secret as the two-factor plugin keeps it (encrypted; one imported from elsewhere is `base32:`). */
async function totpSecret(secretConfig: Parameters<typeof symmetricDecrypt>[0]['key'], stored: string) {
  const secret = await symmetricDecrypt({ key: secretConfig, data: stored })
  if (!secret.startsWith('base32:')) return secret
  return new TextDecoder().decode(base32.decode(secret.slice(7).toUpperCase()))
}

/** The time step whose code this is, within the window the plugin accepts; undefined for a wrong code. */
export async function stepOfCode(
  secret: string,
  code: string,
  now = Date.now(),
): Promise<number | undefined> {
  const otp = createOTP(secret, { digits: DIGITS, period: PERIOD_SECONDS })
  const current = Math.floor(now / (PERIOD_SECONDS * 1000))
  for (let i = -WINDOW; i <= WINDOW; i++) {
    if ((await otp.hotp(current + i)) === code) return current + i
  }
  return undefined
}

/**
 * Takes the step for the account, once: true when this use is the first. The primary key decides between two
 * concurrent uses of one code (one insert wins, the other finds the row). Steps older than the window are
 * forgotten on the way.
 */
export async function takeTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const taken = await db
    .insert(usedTotpSteps)
    .values({ userId, step })
    .onConflictDoNothing()
    .returning({ step: usedTotpSteps.step })
  await db
    .delete(usedTotpSteps)
    .where(and(eq(usedTotpSteps.userId, userId), lt(usedTotpSteps.step, step - 4 * WINDOW)))
  return taken.length > 0
}

/**
 * Every authenticator code the auth library checks (the second step of a sign-in, turning two-step sign-in on,
 * and every check our routes make through `auth.api.verifyTOTP`) goes through `/two-factor/verify-totp`. Before
 * the plugin compares it, this finds the time step the code belongs to and takes it for the account; a code
 * whose step was already taken is refused, even inside its 30-second window. A wrong code is left to the plugin,
 * which refuses it and counts it towards the lockout.
 */
export function totpStepsOnce(db: Db): BetterAuthPlugin {
  return {
    id: 'totp-steps-once',
    hooks: {
      before: [
        {
          matcher: (context) => context.path === '/two-factor/verify-totp',
          handler: createAuthMiddleware(async (ctx) => {
            const code = (ctx.body as { code?: unknown } | undefined)?.code
            if (typeof code !== 'string' || !/^\d{6}$/.test(code)) return
            const userId = await whoseCode(ctx)
            if (!userId) return
            const [row] = await db
              .select({ secret: twoFactors.secret })
              .from(twoFactors)
              .where(eq(twoFactors.userId, userId))
              .limit(1)
            if (!row) return
            const step = await stepOfCode(await totpSecret(ctx.context.secretConfig, row.secret), code)
            if (step === undefined) return
            if (!(await takeTotpStep(db, userId, step))) {
              throw new APIError('UNAUTHORIZED', { message: CODE_ALREADY_USED, code: 'CODE_ALREADY_USED' })
            }
          }),
        },
      ],
    },
  }
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]

/** Whose code it is: the signed-in caller's, or, at a sign-in's second step, the account the challenge names. */
async function whoseCode(ctx: HookContext): Promise<string | undefined> {
  const session = await getSessionFromCtx(ctx).catch(() => null)
  if (session) return session.user.id
  const cookie = ctx.context.createAuthCookie('two_factor')
  const challenge = await ctx.getSignedCookie(cookie.name, ctx.context.secret)
  if (!challenge) return undefined
  const found = await ctx.context.internalAdapter.findVerificationValue(challenge)
  return found?.value ?? undefined
}
