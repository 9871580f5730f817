import type { FastifyInstance, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify'
import type { Role } from '#contract/users'
import { AppError } from './errors'
import { requireRole, requireUser, type SessionUser } from './session'

/**
 * Who may call a route, declared on the route (`config: { guard: signedIn }` or
 * `config: { guard: role('seller') }`). A hook checks it when the request arrives, before the body is read
 * or validated, so a signed-out caller gets 401 and a caller without the role 403 whatever they sent; the
 * handler then finds the caller in `req.user`. The same declaration is written into the OpenAPI operation
 * (`security` and `x-guard`), which the identity matrix reads.
 */
export type Guard = { roles: readonly Role[] | 'any' }

export const signedIn: Guard = { roles: 'any' }
export const role = (...roles: Role[]): Guard => ({ roles })

/** What the OpenAPI operation carries: `x-guard: { signedIn: true, roles?: [...] }`. */
export type GuardExtension = { signedIn: true; roles?: Role[] }

declare module 'fastify' {
  interface FastifyContextConfig {
    guard?: Guard
  }
  interface FastifyRequest {
    /** The caller, set by the route's guard; null on routes without one. */
    user: SessionUser | null
  }
}

/** The caller on a guarded route. */
export function caller(req: FastifyRequest): SessionUser {
  if (!req.user) throw new AppError('INTERNAL', 'This route declares no guard')
  return req.user
}

export const SECURITY_SCHEMES = {
  session: { type: 'apiKey', in: 'cookie', name: 'better-auth.session_token' },
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
} as const

export const ADMIN_TWO_FACTOR_MESSAGE =
  'Admin tools need two-step sign-in. Turn it on under Dashboard → Security (/dashboard/security), then try again.'

export const ADMIN_SECOND_STEP_MESSAGE =
  'Admin tools need a sign-in with the second step. This session signed in with the password alone: sign out, then sign in again with the code from your authenticator app (or a passkey).'

function guardHook(guard: Guard): onRequestHookHandler {
  const adminRoute = guard.roles !== 'any' && guard.roles.includes('admin')
  return async (req) => {
    const user =
      guard.roles === 'any' ? await requireUser(req) : await requireRole(req, ...(guard.roles as Role[]))
    // An admin acting as admin needs a second factor wherever the configuration asks for one: the account has
    // two-step sign-in on, and this very session signed in with it (or a passkey). The account's flag alone is
    // not enough: a session that signed in with the password before two-step was turned on never gave a code.
    if (adminRoute && user.role === 'admin' && req.server.ctx.config.requireAdminTwoFactor) {
      if (!user.twoFactorEnabled) throw new AppError('FORBIDDEN', ADMIN_TWO_FACTOR_MESSAGE)
      if (!user.secondFactor) throw new AppError('FORBIDDEN', ADMIN_SECOND_STEP_MESSAGE)
    }
    req.user = user
  }
}

/** Turns each route's `config.guard` into its first onRequest hook and its OpenAPI security. */
export function installGuards(app: FastifyInstance) {
  app.decorateRequest('user', null)
  app.addHook('onRoute', (route: RouteOptions) => {
    const guard = (route.config as { guard?: Guard } | undefined)?.guard
    if (!guard) return
    const existing = route.onRequest ? [route.onRequest].flat() : []
    // After the write limit's hook (registered before this one), so refused calls still count.
    route.onRequest = [...existing, guardHook(guard)]
    const extension: GuardExtension =
      guard.roles === 'any' ? { signedIn: true } : { signedIn: true, roles: [...guard.roles] }
    route.schema = {
      ...route.schema,
      security: [{ session: [] }, { bearer: [] }],
      'x-guard': extension,
    } as RouteOptions['schema']
  })
}
