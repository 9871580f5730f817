import { fromNodeHeaders } from 'better-auth/node'
import { and, eq } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { StepUpPasskeyOptions, StepUpProof, StepUpState } from '#contract/account'
import { accounts } from '#server/db/schema'
import { auditOrigin, writeAudit } from '#server/lib/audit'
import type { Auth } from '#server/lib/auth'
import { errorResponses } from '#server/lib/error-responses'
import { AppError } from '#server/lib/errors'
import { caller, signedIn } from '#server/lib/guard'
import type { SessionUser } from '#server/lib/session'
import { recordStepUp, STEP_UP_MESSAGE, type StepUpMethod, stepUpUntil } from '#server/lib/step-up'
import { checkCurrentCode } from './current-code'
import { createSignInLimiter } from './sign-in-limit'
import {
  checkStepUpPasskey,
  hasPasskey,
  PASSKEY_CHALLENGE_GONE,
  PASSKEY_NOT_CHECKED,
  passkeyStepUpOptions,
} from './step-up-passkey'

/**
 * The auth library's own routes that change a sign-in factor or the email address, by path under /api/auth.
 * `carriesPassword` names the body field of those that take the account's password and check it before
 * changing anything: sent with the password, such a call is its own proof. Every other call needs a proof
 * given through `POST /api/me/step-up` in the last five minutes (server/lib/step-up.ts).
 */
export const STEP_UP_AUTH_PATHS: Record<string, { carriesPassword?: string }> = {
  '/two-factor/enable': { carriesPassword: 'password' },
  '/two-factor/disable': { carriesPassword: 'password' },
  '/two-factor/generate-backup-codes': { carriesPassword: 'password' },
  '/two-factor/get-totp-uri': { carriesPassword: 'password' },
  '/change-password': { carriesPassword: 'currentPassword' },
  '/change-email': {},
  '/passkey/generate-register-options': {},
  '/passkey/verify-registration': {},
  '/passkey/delete-passkey': {},
  '/link-social': {},
  '/unlink-account': {},
}

/** True when the call is one that carries the account's password, and it does. */
export function carriesPassword(path: string, fields: Record<string, unknown> | undefined): boolean {
  const field = STEP_UP_AUTH_PATHS[path]?.carriesPassword
  const password = field ? fields?.[field] : undefined
  return typeof password === 'string' && password.length > 0
}

/**
 * The step-up in front of the auth library: null when the call may go on, or the refusal to answer. A
 * signed-out caller goes on (the library answers 401 itself).
 */
export async function authStepUpRefusal(
  req: FastifyRequest,
  path: string,
  fields: Record<string, unknown> | undefined,
): Promise<AppError | null> {
  const rule = STEP_UP_AUTH_PATHS[path]
  if (!rule) return null
  const user = await req.server.ctx.sessions.get(req).catch(() => null)
  if (!user) return null
  if (carriesPassword(path, fields)) return null
  if (user.sessionId && (await stepUpUntil(req.server.ctx.db, user.sessionId))) return null
  return new AppError('STEP_UP_REQUIRED', STEP_UP_MESSAGE)
}

/** Whether the account has a password to confirm with. */
async function hasPassword(req: FastifyRequest, userId: string): Promise<string | null> {
  const [credential] = await req.server.ctx.db
    .select({ hash: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
    .limit(1)
  return credential?.hash ?? null
}

/** `GET` and `POST /api/me/step-up`: what a session can prove itself with, and the proof. */
export const stepUpRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, auth, counters, config } = app.ctx
  const limiter = createSignInLimiter(counters)
  const stateOf = async (req: FastifyRequest, user: SessionUser, until: Date | null) => ({
    fresh_until: until ? until.toISOString() : null,
    password: (await hasPassword(req, user.id)) !== null,
    code: user.twoFactorEnabled ?? false,
    passkey: await hasPasskey(db, user.id),
  })

  app.get(
    '/me/step-up',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['auth'],
        summary:
          "Confirm it's you: until when this session's proof holds, and what the account can prove it with",
        response: { 200: StepUpState, ...errorResponses(401) },
      },
    },
    async (req, reply) => {
      const user = caller(req)
      const until = user.sessionId ? await stepUpUntil(db, user.sessionId) : null
      reply.header('cache-control', 'private, no-store')
      return stateOf(req, user, until)
    },
  )

  app.post(
    '/me/step-up/passkey-options',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['auth'],
        summary:
          "Confirm it's you with a passkey: a challenge for this session, offering the account's own passkeys (400 when it has none); the browser's answer goes to POST /api/me/step-up",
        response: { 200: StepUpPasskeyOptions, ...errorResponses(400, 401) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store')
      return passkeyStepUpOptions(db, config, caller(req))
    },
  )

  app.post(
    '/me/step-up',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['auth'],
        summary:
          "Confirm it's you: the password, a code from the authenticator app (or a backup code) when two-step sign-in is on, or the answer of one of the account's passkeys; holds 5 minutes for this session. Wrong guesses count like sign-in's",
        body: StepUpProof,
        response: { 200: StepUpState, ...errorResponses(400, 401, 429) },
      },
    },
    async (req, reply) => {
      const user = caller(req)
      const method: StepUpMethod =
        req.body.password !== undefined ? 'password' : req.body.passkey !== undefined ? 'passkey' : 'code'
      const outcome = await prove(req, auth, limiter, user, req.body).catch(async (err: unknown) => {
        const status = err instanceof AppError ? err.status : 500
        const code = err instanceof AppError ? err.code : 'INTERNAL'
        await writeAudit(db, {
          actorId: user.id,
          kind: 'step_up',
          target: `user:${user.id}`,
          ...auditOrigin(req),
          result: 'failure',
          detail: `${method} ${code} ${status}`,
        })
        throw err
      })
      const until = await recordStepUp(db, user, outcome)
      await writeAudit(db, {
        actorId: user.id,
        kind: 'step_up',
        target: `user:${user.id}`,
        ...auditOrigin(req),
        result: 'success',
        detail: outcome,
      })
      reply.header('cache-control', 'private, no-store')
      return stateOf(req, user, until)
    },
  )
}

/** Checks the proof; wrong guesses are counted with the account's other password checks. */
async function prove(
  req: FastifyRequest,
  auth: Auth,
  limiter: ReturnType<typeof createSignInLimiter>,
  user: SessionUser,
  proof: StepUpProof,
): Promise<StepUpMethod> {
  const reservation = await limiter.reserve('password', user.id, req.ip)
  if (reservation.blocked) {
    throw new AppError('RATE_LIMITED', 'Too many wrong passwords or codes. Please try again later.')
  }
  try {
    if (proof.password !== undefined) {
      const hash = await hasPassword(req, user.id)
      if (!hash) {
        await reservation.settle('other')
        throw new AppError(
          'VALIDATION',
          user.twoFactorEnabled
            ? 'Your account has no password: enter a code from your authenticator app instead.'
            : 'Your account has no password yet. Set one with "Forgot password?" on the login page, then try again.',
        )
      }
      const ok = await (await auth.$context).password.verify({ hash, password: proof.password })
      await reservation.settle(ok ? 'succeeded' : 'failed')
      if (!ok) {
        throw new AppError('VALIDATION', 'That password is not right', {
          password: 'That password is not right',
        })
      }
      return 'password'
    }
    if (proof.passkey !== undefined) {
      const outcome = await checkStepUpPasskey(req.server.ctx.db, req.server.ctx.config, user, proof.passkey)
      // A passkey cannot be guessed, but a refused answer is counted like a wrong code all the same.
      await reservation.settle(
        outcome === 'checked' ? 'succeeded' : outcome === 'refused' ? 'failed' : 'other',
      )
      if (outcome === 'expired') {
        throw new AppError('VALIDATION', PASSKEY_CHALLENGE_GONE, { passkey: PASSKEY_CHALLENGE_GONE })
      }
      if (outcome === 'refused') {
        throw new AppError('VALIDATION', PASSKEY_NOT_CHECKED, { passkey: PASSKEY_NOT_CHECKED })
      }
      return 'passkey'
    }
    if (!user.twoFactorEnabled) {
      await reservation.settle('other')
      throw new AppError(
        'VALIDATION',
        'Two-step sign-in is off for your account: confirm with your password',
        {
          code: 'Confirm with your password',
        },
      )
    }
    const refused = await checkCurrentCode(auth, fromNodeHeaders(req.headers), proof.code)
    await reservation.settle(refused ? 'failed' : 'succeeded')
    if (refused) {
      const { message } = (await refused.json()) as { message: string }
      throw new AppError('VALIDATION', message, { code: message })
    }
    return 'code'
  } catch (err) {
    if (!(err instanceof AppError)) await reservation.settle('other')
    throw err
  }
}
