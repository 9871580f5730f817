import { and, eq, gt, sql } from 'drizzle-orm'
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify'
import type { Db } from '#server/db/client'
import { type STEP_UP_METHODS, stepUps } from '#server/db/schema'
import { AppError } from './errors'
import type { Guard } from './guard'
import type { SessionUser } from './session'

// The step-up rule's one home. A change an attacker with a copied session cookie must not make (a sign-in
// factor, payout details, the email address) needs the session to have proved itself again, with its password,
// a second factor or a passkey, in the last STEP_UP_SECONDS. The proof is kept in the database against the session (a
// cookie could be copied or forged with the session), and ends with it.

/** How long one proof holds, for the session that gave it. */
export const STEP_UP_SECONDS = 5 * 60

export const STEP_UP_MESSAGE =
  "Confirm it's you: enter your password (or a code from your authenticator app, or use a passkey) to make this change."

export type StepUpMethod = (typeof STEP_UP_METHODS)[number]

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route changes a sign-in factor, payout details or the email address: it needs a fresh step-up. */
    stepUp?: true
  }
}

/** Until when the session's last proof holds, or null when it has none that holds now. */
export async function stepUpUntil(db: Db, sessionId: string): Promise<Date | null> {
  const [row] = await db
    .select({ until: sql<Date>`${stepUps.provedAt} + make_interval(secs => ${STEP_UP_SECONDS})` })
    .from(stepUps)
    .where(
      and(
        eq(stepUps.sessionId, sessionId),
        gt(stepUps.provedAt, sql`now() - make_interval(secs => ${STEP_UP_SECONDS})`),
      ),
    )
    .limit(1)
  return row ? new Date(row.until) : null
}

/** The session proved itself now (its password or a second factor was just checked). Returns until when. */
export async function recordStepUp(
  db: Db,
  user: Pick<SessionUser, 'id' | 'sessionId'>,
  method: StepUpMethod,
): Promise<Date> {
  if (!user.sessionId) throw new AppError('UNAUTHENTICATED', 'Please sign in')
  const [row] = await db
    .insert(stepUps)
    .values({ sessionId: user.sessionId, userId: user.id, method, provedAt: sql`now()` })
    .onConflictDoUpdate({ target: stepUps.sessionId, set: { method, provedAt: sql`now()` } })
    .returning({ until: sql<Date>`${stepUps.provedAt} + make_interval(secs => ${STEP_UP_SECONDS})` })
  if (!row) throw new Error('The step-up was not recorded')
  return new Date(row.until)
}

/** Refuses (403 STEP_UP_REQUIRED, nothing changed) unless the caller's session holds a fresh proof. */
export async function requireStepUp(db: Db, user: SessionUser): Promise<void> {
  if (user.sessionId && (await stepUpUntil(db, user.sessionId))) return
  throw new AppError('STEP_UP_REQUIRED', STEP_UP_MESSAGE)
}

function stepUpHook(): onRequestHookHandler {
  return async (req: FastifyRequest) => {
    if (!req.user) throw new AppError('INTERNAL', 'A step-up route declares no guard')
    await requireStepUp(req.server.ctx.db, req.user)
  }
}

/**
 * Turns each route's `config.stepUp` into an onRequest hook that runs after its guard (so a signed-out caller
 * still gets 401), before the body is read, and writes `x-step-up: true` into its OpenAPI operation, where the
 * step-up test finds it. A step-up route without a guard stops the app at start.
 */
export function installStepUp(app: FastifyInstance) {
  app.addHook('onRoute', (route: RouteOptions) => {
    const config = route.config as { guard?: Guard; stepUp?: true } | undefined
    if (!config?.stepUp) return
    if (!config.guard) {
      throw new Error(
        `${[route.method].flat().join(',')} ${route.url} needs a step-up: declare its guard too`,
      )
    }
    const existing = route.onRequest ? [route.onRequest].flat() : []
    route.onRequest = [...existing, stepUpHook()]
    route.schema = { ...route.schema, 'x-step-up': true } as RouteOptions['schema']
  })
}
