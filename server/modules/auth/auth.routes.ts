import { fromNodeHeaders } from 'better-auth/node'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { ErrorCode } from '#contract/errors'
import { hasLineBreakOrControl } from '#contract/text'
import { AccessToken, EmailQuery, Me, SessionAnswer } from '#contract/users'
import { auditOrigin, writeAudit } from '#server/lib/audit'
import { type Auth, CLIENT_ADDRESS_HEADER } from '#server/lib/auth'
import { sendError } from '#server/lib/error-handler'
import { errorResponses } from '#server/lib/error-responses'
import { AppError } from '#server/lib/errors'
import { caller, signedIn } from '#server/lib/guard'
import { refusedOriginMessage } from '#server/lib/origin'
import { countOrRefuse } from '#server/lib/rate-limit'
import { removeRecentPasskeys } from '#server/lib/security-change'
import type { SessionUser } from '#server/lib/session'
import { recordStepUp } from '#server/lib/step-up'
import { normalisedEmail, readAuthBody } from './auth-body'
import { checkCurrentCode } from './current-code'
import { noteSignInDevice } from './new-device'
import { isStaleResetLink, passwordChanged, resetTokenOf, STALE_RESET_LINK } from './reset-links'
import { afterSecurityCall, beforeSecurityCall, type SecurityCall } from './security-events'
import { createSignInLimiter, type GuessKind } from './sign-in-limit'
import { authStepUpRefusal, carriesPassword, stepUpRoutes } from './step-up'
import { askToChangeWeakPassword } from './weak-passwords'

const AUTH_PREFIX = '/api/auth'

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  422: 'VALIDATION',
  429: 'RATE_LIMITED',
}

/** What an auth answer without its own message says, by status. */
function fallbackMessage(status: number, path: string, requestId: string): string {
  if (status === 404) return `No route ${path}`
  if (status === 401) return 'Please sign in'
  if (status === 403) return 'You are not allowed to do this'
  if (status === 429) return 'Too many attempts. Please try again later.'
  if (status >= 500) return `Something went wrong (request ${requestId})`
  return 'The request was refused'
}

/** Paths whose failures are password guesses, and which password they guess. */
const GUESSES: Record<string, GuessKind> = {
  '/api/auth/sign-in/email': 'signin',
  '/api/auth/verify-password': 'password',
  '/api/auth/change-password': 'password',
  // Two-step sign-in: its password checks, and the codes (Better Auth also locks the second step after ten).
  '/api/auth/two-factor/enable': 'password',
  '/api/auth/two-factor/disable': 'password',
  '/api/auth/two-factor/generate-backup-codes': 'password',
  '/api/auth/two-factor/verify-totp': 'password',
  '/api/auth/two-factor/verify-backup-code': 'password',
}

const PASSKEY_NAMING = new Set(['/api/auth/passkey/verify-registration', '/api/auth/passkey/update-passkey'])

/**
 * Better Auth owns /api/auth/*: email and password, Google (OIDC), sessions and sign-out. It gets the raw
 * body, in its own plugin, once read and checked here (see auth-body.ts), and its error answers are
 * reshaped into ours.
 */
const betterAuthHandler: FastifyPluginAsyncZod = async (app) => {
  const { auth, counters, config, sessions, db } = app.ctx
  const limiter = createSignInLimiter(counters)
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) =>
    done(null, body),
  )

  /** The account a guess is counted against: the email a sign-in names, or the signed-in user's id. */
  async function accountOf(req: FastifyRequest, kind: GuessKind, fields: Record<string, unknown>) {
    if (kind === 'signin') return normalisedEmail(fields)
    const user = await sessions.get(req).catch(() => null)
    return user?.id
  }

  app.route({
    method: ['GET', 'POST'],
    url: '/*',
    schema: { hide: true },
    async handler(req, reply) {
      const url = new URL(req.url, config.publicUrl)
      const raw = req.method === 'POST' && Buffer.isBuffer(req.body) ? new Uint8Array(req.body) : undefined
      const headers = fromNodeHeaders(req.headers)
      // The address a new session records is the one the server resolved (TRUST_PROXY), never a client's claim.
      headers.set(CLIENT_ADDRESS_HEADER, req.ip)
      let request = new Request(url, { method: req.method, headers, body: raw })
      const body = await readAuthBody(request)
      const fields = body.kind === 'json' || body.kind === 'form' ? body.fields : undefined
      const kind = req.method === 'POST' ? GUESSES[url.pathname] : undefined

      // What is counted is what the auth library gets: a form sign-in goes on as the JSON it was read into,
      // and a password change always ends the account's other sessions (and their bearer tokens).
      let forwarded: Record<string, unknown> | undefined
      if (fields && kind === 'signin' && body.kind === 'form') forwarded = fields
      if (fields && body.kind === 'json' && url.pathname === '/api/auth/change-password') {
        forwarded = { ...fields, revokeOtherSessions: true }
      }
      // A reset may also remove passkeys added in the last 7 days (ticked on the reset page): the auth library
      // gets the reset without them, and they go once it succeeded.
      let removePasskeys: string[] = []
      if (
        fields &&
        body.kind === 'json' &&
        url.pathname === '/api/auth/reset-password' &&
        'removePasskeys' in fields
      ) {
        const ids = fields.removePasskeys
        if (
          !Array.isArray(ids) ||
          ids.length > 50 ||
          !ids.every((id) => typeof id === 'string' && id.length <= 100)
        ) {
          return sendError(reply, 400, 'VALIDATION', 'removePasskeys is a list of passkey ids')
        }
        removePasskeys = ids as string[]
        const { removePasskeys: _dropped, ...rest } = fields
        forwarded = rest
      }
      if (forwarded) {
        headers.set('content-type', 'application/json')
        headers.delete('content-length')
        request = new Request(url, { method: 'POST', headers, body: JSON.stringify(forwarded) })
      }

      // Whose password a reset or a change replaces: every reset link sent before then ends with it.
      let passwordOwner: string | undefined
      if (req.method === 'POST' && url.pathname === '/api/auth/reset-password') {
        const link = await resetTokenOf(auth, fields?.token)
        if (link && (await isStaleResetLink(db, link))) {
          return sendError(reply, 400, 'VALIDATION', STALE_RESET_LINK)
        }
        passwordOwner = link?.userId
      }
      if (req.method === 'POST' && url.pathname === '/api/auth/change-password') {
        passwordOwner = (await sessions.get(req).catch(() => null))?.id
      }
      // A passkey's name is shown back to its owner only, but it is still a short line of text.
      if (req.method === 'POST' && PASSKEY_NAMING.has(url.pathname) && fields?.name !== undefined) {
        const name = fields.name
        if (typeof name !== 'string' || name.length > 60 || hasLineBreakOrControl(name)) {
          return sendError(reply, 400, 'VALIDATION', 'A passkey name is at most 60 characters on one line')
        }
      }
      // Someone else's session is not the caller's to end: it is answered like one that does not exist.
      if (req.method === 'POST' && url.pathname === '/api/auth/revoke-session' && fields) {
        const caller = await sessions.get(req).catch(() => null)
        if (caller && !(await ownsSession(auth, caller.id, fields.token))) {
          return sendError(reply, 404, 'NOT_FOUND', 'No such session of yours')
        }
      }
      // Sign-ups from one client address are limited: accounts are free, and many cheap ones could
      // otherwise share out what each one is limited to (holds, bookings).
      if (
        req.method === 'POST' &&
        url.pathname === '/api/auth/sign-up/email' &&
        config.signupsPerAddressPerHour > 0
      ) {
        await countOrRefuse(
          counters,
          `signup:${req.ip}`,
          60 * 60_000,
          config.signupsPerAddressPerHour,
          (seconds) =>
            `Too many accounts were made from your network in the last hour. Please try again in ${Math.ceil(seconds / 60)} minutes.`,
        )
      }
      const security = await beforeSecurityCall(req, auth, url.pathname.slice(AUTH_PREFIX.length), fields)
      const record = async (status: number, body: Record<string, unknown>, setCookies: string[]) => {
        if (!security) return
        await afterSecurityCall(req, auth, security as SecurityCall, fields, {
          status,
          body,
          setCookies,
        }).catch((err) => req.log.error({ err }, 'could not write a security event to the audit log'))
      }

      // Changing a sign-in factor or the email address needs a fresh step-up (or, where the library checks the
      // password before changing anything, the password with the call).
      const stepUp = await authStepUpRefusal(req, url.pathname.slice(AUTH_PREFIX.length), fields)
      if (stepUp) {
        await record(stepUp.status, { code: stepUp.code }, [])
        return sendError(reply, stepUp.status, stepUp.code, stepUp.message)
      }

      const reservation = kind
        ? await limiter.reserve(kind, await accountOf(req, kind, fields ?? {}), req.ip)
        : undefined
      if (reservation?.blocked) {
        await record(429, { code: 'RATE_LIMITED' }, [])
        reply.header('retry-after', String(reservation.retryAfterSeconds))
        const what = kind === 'signin' ? 'failed sign-in attempts' : 'wrong passwords'
        return sendError(reply, 429, 'RATE_LIMITED', `Too many ${what}. Please try again later.`)
      }

      // Who confirms a code while signed in (turning two-step sign-in on), read before the library replaces the session.
      const codeConfirmer =
        req.method === 'POST' && url.pathname === '/api/auth/two-factor/verify-totp'
          ? await sessions.get(req).catch(() => null)
          : null
      let response: Response
      try {
        const refused =
          req.method === 'POST' && url.pathname === '/api/auth/two-factor/disable'
            ? await checkCurrentCode(auth, headers, fields?.code)
            : undefined
        response = refused ?? (await auth.handler(request))
      } catch (err) {
        if (reservation) await reservation.settle('other')
        throw err
      }
      const text = await response.text()
      let parsed: { message?: unknown; code?: unknown } = {}
      try {
        parsed = JSON.parse(text) as typeof parsed
      } catch {}

      if (reservation) {
        const failed =
          response.status === 401 ||
          response.status === 403 ||
          (kind === 'password' && parsed.code === 'INVALID_PASSWORD')
        await reservation.settle(failed ? 'failed' : response.ok ? 'succeeded' : 'other')
      }

      reply.code(response.status)
      for (const [name, value] of response.headers) {
        if (name !== 'set-cookie' && name !== 'content-length') reply.header(name, value)
      }
      const cookies = response.headers.getSetCookie()
      if (cookies.length > 0) reply.header('set-cookie', cookies)
      await record(response.status, parsed as Record<string, unknown>, cookies)

      if (response.ok && passwordOwner) await passwordChanged(db, passwordOwner)
      if (response.ok && url.pathname === '/api/auth/sign-in/email' && fields) {
        await askToChangeWeakPassword(db, fields)
      }
      if (response.ok)
        await afterSignInSteps(req, url.pathname, parsed as Record<string, unknown>, cookies, codeConfirmer)
      if (response.ok && carriesPassword(url.pathname.slice(AUTH_PREFIX.length), fields)) {
        // The library checked the password the call carried: the session has just proved itself.
        const user = await sessions.get(req).catch(() => null)
        if (user?.sessionId) await recordStepUp(db, user, 'password').catch(() => undefined)
      }
      if (response.ok) {
        const token = newSessionToken(cookies)
        const session = token ? await (await auth.$context).internalAdapter.findSession(token) : null
        await noteSignInDevice(req, reply, url.pathname, session?.user.id, Boolean(security?.before)).catch(
          (err) => req.log.error({ err }, 'could not note the device of a sign-in'),
        )
      }
      if (response.ok && passwordOwner && removePasskeys.length > 0) {
        const owner = passwordOwner
        await db.transaction(async (tx) => {
          for (const id of await removeRecentPasskeys(tx, owner, removePasskeys)) {
            await writeAudit(tx, {
              actorId: owner,
              kind: 'passkey.remove',
              target: `passkey:${id}`,
              ...auditOrigin(req),
              result: 'success',
              detail: 'removed at the password reset',
            })
          }
        })
      }

      if (response.status >= 400) {
        let message =
          typeof parsed.message === 'string' && parsed.message
            ? parsed.message
            : fallbackMessage(response.status, `${req.method} ${url.pathname}`, req.id)
        if (parsed.code === 'INVALID_ORIGIN' || /invalid origin/i.test(message)) {
          message = refusedOriginMessage(config, req.headers.origin)
        }
        if (response.status >= 500) req.log.error({ status: response.status, body: text }, 'auth failure')
        const code = CODE_BY_STATUS[response.status] ?? (response.status >= 500 ? 'INTERNAL' : 'VALIDATION')
        return sendError(reply, response.status, code, message)
      }
      return reply.send(withoutSessionTokens(text))
    },
  })
}

/**
 * The auth library answers the session's token in JSON (sign-up, sign-in, the second step, get-session,
 * list-sessions, a password change). The cookie that carries it is HttpOnly so that page scripts cannot read
 * it: no answer a browser gets carries it either. Sessions are named and ended by their id (/api/me/sessions).
 */
export function withoutSessionTokens(text: string): string {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return text
  }
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip)
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v)
          .filter(([key]) => key !== 'token')
          .map(([key, inner]) => [key, strip(inner)]),
      )
    }
    return v
  }
  return JSON.stringify(strip(value))
}

/** The session token a Set-Cookie header list gives the browser (the value before its signature). */
function newSessionToken(setCookies: string[]): string | undefined {
  for (const line of setCookies) {
    const match = /(?:^|\s)(?:__Secure-)?better-auth\.session_token=([^;]+)/.exec(line)
    if (!match?.[1]) continue
    const raw = decodeURIComponent(match[1])
    const dot = raw.lastIndexOf('.')
    return dot > 0 ? raw.slice(0, dot) : raw
  }
  return undefined
}

/**
 * What a successful answer changes about sessions: a password sign-in that asked no code because the device is
 * remembered after an earlier code is recorded as such; turning two-step sign-in on (the signed-in person's
 * first code) ends every other session of the account, which signed in without it.
 */
async function afterSignInSteps(
  req: FastifyRequest,
  path: string,
  body: Record<string, unknown>,
  setCookies: string[],
  codeConfirmer: SessionUser | null,
) {
  const { auth, sessions } = req.server.ctx
  if (path === '/api/auth/sign-in/email') {
    const user = body.user as { twoFactorEnabled?: unknown } | undefined
    const token = typeof body.token === 'string' ? body.token : newSessionToken(setCookies)
    if (user?.twoFactorEnabled === true && body.twoFactorRedirect !== true && token) {
      await (await auth.$context).internalAdapter.updateSession(token, { secondFactor: 'trusted_device' })
    }
    return
  }
  if (path === '/api/auth/two-factor/verify-totp') {
    const kept = newSessionToken(setCookies)
    if (codeConfirmer && !codeConfirmer.twoFactorEnabled && kept) {
      await sessions.endAllBut(codeConfirmer.id, kept)
    }
  }
}

/** True when the session token is one of this account's live sessions. */
async function ownsSession(auth: Auth, userId: string, token: unknown): Promise<boolean> {
  if (typeof token !== 'string' || !token) return false
  const found = await (await auth.$context).internalAdapter.findSession(token)
  return found?.session.userId === userId
}

function toMe(user: SessionUser): Me {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    verified: user.isVerified,
    two_factor: user.twoFactorEnabled ?? false,
    password_change_asked: user.isPasswordChangeAsked ?? false,
    buys: user.buys ?? user.role === 'buyer',
  }
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sessions, config } = app.ctx

  await app.register(betterAuthHandler, { prefix: '/auth' })
  await app.register(stepUpRoutes)

  app.get(
    '/auth-options',
    {
      schema: {
        tags: ['auth'],
        summary: 'Which ways of signing in are set up',
        response: { 200: z.object({ google: z.boolean() }) },
      },
    },
    async () => ({ google: config.google !== undefined }),
  )

  app.get(
    '/me',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        response: { 200: Me, ...errorResponses(401) },
      },
    },
    async (req) => toMe(caller(req)),
  )

  // What the web app asks on every page: a visitor is an answer (`{ user: null }`), not a 401, so a signed-out
  // visit logs no error in the browser. /me stays the guarded call for clients that need a signed-in user. A
  // bearer token that was sent but no longer holds (expired, or its account deleted) is still refused.
  app.get(
    '/session',
    {
      schema: {
        tags: ['auth'],
        summary: 'Who is asking: the signed-in user, or null for a visitor',
        response: { 200: SessionAnswer, ...errorResponses(401) },
      },
    },
    async (req, reply) => {
      const user = await sessions.get(req)
      // The answer depends on the cookie: no shared cache may keep it.
      reply.header('cache-control', 'private, no-store')
      return { user: user ? toMe(user) : null }
    },
  )

  app.get(
    '/jwt',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['auth'],
        summary: "A short-lived bearer token for the signed-in user's own email",
        querystring: EmailQuery,
        response: { 200: AccessToken, ...errorResponses(401, 403) },
      },
    },
    async (req) => {
      // Tokens come only from the session cookie: a bearer token that could renew itself would let a stolen
      // 15-minute token live as long as its session.
      if (req.headers.authorization !== undefined) {
        throw new AppError(
          'FORBIDDEN',
          'A new token is issued only to a signed-in browser session, not to a bearer token',
        )
      }
      const user = caller(req)
      if (user.email.toLowerCase() !== req.query.email.toLowerCase()) {
        throw new AppError('FORBIDDEN', 'A token is issued only for your own email')
      }
      if (!user.sessionId) throw new AppError('UNAUTHENTICATED', 'Please sign in')
      return { accessToken: await sessions.issueAccessToken({ ...user, sessionId: user.sessionId }) }
    },
  )
}
