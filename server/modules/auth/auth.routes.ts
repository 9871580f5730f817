import { fromNodeHeaders } from 'better-auth/node'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { ErrorBody, type ErrorCode } from '#contract/errors'
import { AccessToken, EmailQuery, Me } from '#contract/users'
import type { AppInstance } from '#server/app'
import { sendError } from '#server/lib/error-handler'
import { AppError } from '#server/lib/errors'
import { requireUser } from '#server/lib/session'

/** At most this many failed sign-ins per account, and per client address, in one window. */
export const SIGN_IN_LIMITS = { perAccount: 10, perAddress: 50, windowMs: 15 * 60 * 1000 }

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  422: 'VALIDATION',
  429: 'RATE_LIMITED',
}

/**
 * The email a sign-in names, read the way Better Auth reads the body: JSON, URL-encoded or multipart.
 * Reading JSON alone let a form-encoded sign-in skip the per-account limit.
 */
async function emailOf(request: Request): Promise<string | undefined> {
  const type = (request.headers.get('content-type') ?? '').toLowerCase()
  let email: unknown
  try {
    if (/^application\/([a-z0-9.+-]*\+)?json/.test(type)) {
      email = ((await request.clone().json()) as { email?: unknown } | null)?.email
    } else if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
      email = (await request.clone().formData()).get('email')
    }
  } catch {
    return undefined
  }
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 254) : undefined
}

/**
 * Better Auth owns /api/auth/*: email and password, Google (OIDC), sessions and sign-out. It gets the raw
 * body, in its own plugin, and its error answers are reshaped into ours.
 */
async function betterAuthHandler(app: AppInstance) {
  const { auth, counters, config } = app.ctx
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) =>
    done(null, body),
  )

  type SignInKeys = { account: string | undefined; address: string }
  const limitKeys = async (req: FastifyRequest, request: Request): Promise<SignInKeys> => {
    const email = await emailOf(request)
    return { account: email ? `signin:acct:${email}` : undefined, address: `signin:ip:${req.ip}` }
  }

  /**
   * Counts the attempt before it is tried, so that concurrent guesses cannot all pass the check before any
   * failure is recorded. A refused attempt, a success, or an answer that is not a failed sign-in gives the
   * reservation back; a failed sign-in keeps it. Returns the window that blocks the attempt, if any.
   */
  async function reserveAttempt(keys: SignInKeys) {
    const [byAccount, byAddress] = await Promise.all([
      keys.account ? counters.increment(keys.account, SIGN_IN_LIMITS.windowMs) : undefined,
      counters.increment(keys.address, SIGN_IN_LIMITS.windowMs),
    ])
    const blocked =
      byAccount && byAccount.count > SIGN_IN_LIMITS.perAccount
        ? byAccount
        : byAddress.count > SIGN_IN_LIMITS.perAddress
          ? byAddress
          : undefined
    if (blocked) await releaseAttempt(keys)
    return blocked
  }

  async function releaseAttempt(keys: SignInKeys) {
    await Promise.all([
      keys.account ? counters.decrement(keys.account) : undefined,
      counters.decrement(keys.address),
    ])
  }

  app.route({
    method: ['GET', 'POST'],
    url: '/*',
    schema: { hide: true },
    async handler(req, reply) {
      const url = new URL(req.url, config.publicUrl)
      const body = req.method === 'POST' && Buffer.isBuffer(req.body) ? new Uint8Array(req.body) : undefined
      const request = new Request(url, { method: req.method, headers: fromNodeHeaders(req.headers), body })
      const isEmailSignIn = req.method === 'POST' && url.pathname === '/api/auth/sign-in/email'
      const keys = isEmailSignIn ? await limitKeys(req, request) : undefined
      if (keys) {
        const blocked = await reserveAttempt(keys)
        if (blocked) {
          reply.header('retry-after', String(Math.max(1, Math.ceil(blocked.resetMs / 1000))))
          return sendError(
            reply,
            429,
            'RATE_LIMITED',
            'Too many failed sign-in attempts. Please try again later.',
          )
        }
      }

      let response: Response
      try {
        response = await auth.handler(request)
      } catch (err) {
        if (keys) await releaseAttempt(keys)
        throw err
      }

      if (keys) {
        const failed = response.status === 401 || response.status === 403
        if (!failed) await releaseAttempt(keys)
        if (response.ok && keys.account) await counters.reset(keys.account)
      }

      reply.code(response.status)
      for (const [name, value] of response.headers) {
        if (name !== 'set-cookie' && name !== 'content-length') reply.header(name, value)
      }
      const cookies = response.headers.getSetCookie()
      if (cookies.length > 0) reply.header('set-cookie', cookies)

      const text = await response.text()
      if (response.status >= 400) {
        let message = response.status === 404 ? `No route ${req.method} ${url.pathname}` : 'Sign-in failed'
        try {
          const parsed = JSON.parse(text) as { message?: unknown }
          if (typeof parsed.message === 'string' && parsed.message) message = parsed.message
        } catch {}
        const code = CODE_BY_STATUS[response.status] ?? (response.status >= 500 ? 'INTERNAL' : 'VALIDATION')
        return sendError(reply, response.status, code, message)
      }
      return reply.send(text)
    },
  })
}

export async function authRoutes(app: AppInstance) {
  const { sessions, config } = app.ctx

  await app.register(betterAuthHandler, { prefix: '/auth' })

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
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        response: { 200: Me, 401: ErrorBody },
      },
    },
    async (req) => {
      const user = await requireUser(req)
      return { id: user.id, name: user.name, email: user.email, role: user.role, verified: user.isVerified }
    },
  )

  app.get(
    '/jwt',
    {
      schema: {
        tags: ['auth'],
        summary: "A short-lived bearer token for the signed-in user's own email",
        querystring: EmailQuery,
        response: { 200: AccessToken, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (req) => {
      const user = await requireUser(req)
      if (user.email.toLowerCase() !== req.query.email.toLowerCase()) {
        throw new AppError('FORBIDDEN', 'A token is issued only for your own email')
      }
      return { accessToken: await sessions.issueAccessToken(user) }
    },
  )
}
