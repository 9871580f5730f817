import { fromNodeHeaders } from 'better-auth/node'
import { and, eq, gt } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose'
import { sameEmail } from '#contract/email'
import type { Role } from '#contract/users'
import type { Db } from '#server/db/client'
import { sessions, users } from '#server/db/schema'
import type { Auth } from './auth'
import { AppError } from './errors'

export type SessionUser = {
  id: string
  name: string
  email: string
  role: Role
  isVerified: boolean
  /** Two-step sign-in is on (admins need it where REQUIRE_ADMIN_TWO_FACTOR is on). */
  twoFactorEnabled?: boolean
  /** The password was found weak at a sign-in: the person is asked to change it. */
  isPasswordChangeAsked?: boolean
  /** The account buys: a buyer, or a buyer who started selling (its role is then seller). */
  buys?: boolean
  /** The session the caller signed in with (a bearer token carries its session's id). */
  sessionId?: string
  /** How that session signed in beyond the password (`totp`, `backup_code`, `passkey`, `trusted_device`), or null. */
  secondFactor?: string | null
}

const ISSUER = 'laptop-market'
const AUDIENCE = 'laptop-market-api'

export type Sessions = {
  /** The caller, from the session cookie or a bearer access token; null when signed out. */
  get(req: FastifyRequest): Promise<SessionUser | null>
  /** A bearer token that lives no longer than the session it is issued for. */
  issueAccessToken(user: SessionUser & { sessionId: string }): Promise<string>
  /** Ends every session of the account, in the database and in Redis (where other instances look first). */
  endAll(userId: string): Promise<void>
  /** Ends every session of the account but the one with this token. */
  endAllBut(userId: string, keepToken: string): Promise<number>
}

/**
 * Whether an account buys: every buyer, and a buyer who started selling (whose role became seller). Its isBuyer answer,
 * and what the web app's menu shows My Orders by.
 */
export function accountBuys(row: { role: Role; startedSellingAt: Date | null }): boolean {
  return row.role === 'buyer' || (row.role === 'seller' && row.startedSellingAt !== null)
}

export function createSessions(db: Db, auth: Auth, secret: string, accessTokenTtlSeconds: number): Sessions {
  const key = new TextEncoder().encode(`access-token:${secret}`)
  const cache = new WeakMap<FastifyRequest, Promise<SessionUser | null>>()

  async function loadActiveUser(id: string): Promise<SessionUser | null> {
    const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1)
    if (!row || row.disabledAt) return null
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      role: row.role,
      isVerified: row.verifiedAt !== null,
      twoFactorEnabled: row.twoFactorEnabled,
      isPasswordChangeAsked: row.passwordChangeAskedAt !== null,
      buys: accountBuys(row),
    }
  }

  async function resolve(req: FastifyRequest): Promise<SessionUser | null> {
    const header = req.headers.authorization
    if (header !== undefined) {
      const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header.trim())
      if (!match?.[1]) throw new AppError('UNAUTHENTICATED', 'Malformed authorization header')
      try {
        // Only our own HS256 tokens: `alg: none` and every other algorithm are refused.
        const { payload } = await jwtVerify(match[1], key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
        })
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') {
          throw new AppError('UNAUTHENTICATED', 'Invalid access token')
        }
        // Sign Out, a password change or an expired session end the token with its session.
        const [live] = await db
          .select({ id: sessions.id, secondFactor: sessions.secondFactor })
          .from(sessions)
          .where(
            and(
              eq(sessions.id, payload.sid),
              eq(sessions.userId, payload.sub),
              gt(sessions.expiresAt, new Date()),
            ),
          )
          .limit(1)
        if (!live) throw new AppError('UNAUTHENTICATED', 'This session has ended; please sign in again')
        const user = await loadActiveUser(payload.sub)
        if (!user) throw new AppError('UNAUTHENTICATED', 'This account is no longer active')
        return { ...user, sessionId: payload.sid, secondFactor: live.secondFactor }
      } catch (err) {
        if (err instanceof AppError) throw err
        const expired = err instanceof joseErrors.JWTExpired
        throw new AppError('UNAUTHENTICATED', expired ? 'Access token expired' : 'Invalid access token')
      }
    }
    if (!req.headers.cookie) return null
    const session = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) })
    if (!session) return null
    const user = await loadActiveUser(session.user.id)
    const secondFactor = (session.session as { secondFactor?: unknown }).secondFactor
    return (
      user && {
        ...user,
        sessionId: session.session.id,
        secondFactor: typeof secondFactor === 'string' ? secondFactor : null,
      }
    )
  }

  return {
    get(req) {
      let pending = cache.get(req)
      if (!pending) {
        pending = resolve(req)
        cache.set(req, pending)
      }
      return pending
    },
    async endAll(userId) {
      await (await auth.$context).internalAdapter.deleteUserSessions(userId)
    },
    async endAllBut(userId, keepToken) {
      const { internalAdapter } = await auth.$context
      const others = (await internalAdapter.listSessions(userId)).filter((s) => s.token !== keepToken)
      for (const other of others) await internalAdapter.deleteSession(other.token)
      return others.length
    },
    async issueAccessToken(user) {
      return new SignJWT({ email: user.email, role: user.role, sid: user.sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${accessTokenTtlSeconds}s`)
        .sign(key)
    },
  }
}

/** The caller, or 401. */
export async function requireUser(req: FastifyRequest): Promise<SessionUser> {
  const user = await req.server.ctx.sessions.get(req)
  if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in')
  return user
}

/** The caller when they hold one of the roles, 401 when signed out, 403 otherwise. */
export async function requireRole(req: FastifyRequest, ...roles: Role[]): Promise<SessionUser> {
  const user = await requireUser(req)
  if (!roles.includes(user.role)) {
    throw new AppError('FORBIDDEN', `Only ${roles.map((r) => `${r}s`).join(' or ')} can do this`)
  }
  return user
}

/** True when the caller may act for the account with this email: it is their own, or they are an admin. */
export function canActFor(user: SessionUser, email: string): boolean {
  return user.role === 'admin' || sameEmail(user.email, email)
}
