import { eq } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import type { AuditKind } from '#contract/audit'
import { passkeys } from '#server/db/schema'
import { type AuditRecord, auditOrigin, writeAudit } from '#server/lib/audit'
import type { Auth } from '#server/lib/auth'
import { recordSecurityChange, type SecurityChange } from '#server/lib/security-change'
import type { SessionUser } from '#server/lib/session'
import { findUserIdByEmail } from '#server/modules/audit'

/** The auth library's calls that the audit log records, by path under /api/auth. */
const KINDS: Record<string, AuditKind> = {
  '/sign-in/email': 'sign_in',
  '/two-factor/verify-totp': 'sign_in.two_step',
  '/two-factor/verify-backup-code': 'sign_in.two_step',
  '/sign-out': 'sign_out',
  // A profile change is one when it names a new name (the name others see on listings, messages and reviews).
  '/update-user': 'account.name',
  '/change-password': 'password.change',
  '/request-password-reset': 'password.reset_request',
  '/reset-password': 'password.reset',
  '/two-factor/enable': 'two_step.setup',
  '/two-factor/disable': 'two_step.disable',
  '/two-factor/generate-backup-codes': 'two_step.backup_codes',
  '/two-factor/get-totp-uri': 'two_step.secret_read',
  '/passkey/verify-authentication': 'sign_in.passkey',
  '/passkey/verify-registration': 'passkey.add',
  '/passkey/update-passkey': 'passkey.rename',
  '/passkey/delete-passkey': 'passkey.remove',
  '/revoke-session': 'session.end',
  '/revoke-other-sessions': 'session.end_others',
  '/revoke-sessions': 'session.end_others',
}

const CALLBACK = /^\/(?:oauth2\/)?callback\//

/** The value of a cookie (of either name form), from a Cookie or a Set-Cookie header. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined
  const match = new RegExp(`(?:^|[;,]\\s*)(?:__Secure-)?better-auth\\.${name}=([^;,]+)`).exec(header)
  if (!match?.[1]) return undefined
  const raw = decodeURIComponent(match[1])
  // Signed cookies are `value.signature`.
  const dot = raw.lastIndexOf('.')
  return dot > 0 ? raw.slice(0, dot) : raw
}

export type SecurityCall = {
  kind: AuditKind
  /** The signed-in caller before the call (sign-out ends the session it names). */
  before: SessionUser | null
  /** The account a reset token or a sign-in's second step names, read before the call uses it up. */
  subjectId: string | null
}

/** What the audit log will say about this call, read before the auth library handles it. */
export async function beforeSecurityCall(
  req: FastifyRequest,
  auth: Auth,
  path: string,
  fields: Record<string, unknown> | undefined,
): Promise<SecurityCall | undefined> {
  const isCallback = req.method === 'GET' && CALLBACK.test(path)
  const kind = isCallback ? 'sign_in' : req.method === 'POST' ? KINDS[path] : undefined
  if (!kind) return undefined
  if (kind === 'account.name' && fields?.name === undefined) return undefined
  const before = await req.server.ctx.sessions.get(req).catch(() => null)
  let subjectId: string | null = null
  const context = await auth.$context
  if (path === '/reset-password' && typeof fields?.token === 'string') {
    const found = await context.internalAdapter.findVerificationValue(`reset-password:${fields.token}`)
    subjectId = found?.value ?? null
  }
  if (kind === 'sign_in.passkey') {
    // Whose passkey the browser answered with, so a failed passkey sign-in is written against its owner.
    const credentialId = (fields?.response as { id?: unknown } | undefined)?.id
    if (typeof credentialId === 'string' && credentialId.length <= 1024) {
      const [row] = await req.server.ctx.db
        .select({ userId: passkeys.userId })
        .from(passkeys)
        .where(eq(passkeys.credentialID, credentialId))
        .limit(1)
      subjectId = row?.userId ?? null
    }
  }
  if (kind === 'sign_in.two_step' && !before) {
    const challenge = cookieValue(req.headers.cookie, 'two_factor')
    const found = challenge ? await context.internalAdapter.findVerificationValue(challenge) : null
    subjectId = found?.value ?? null
  }
  return { kind, before, subjectId }
}

/** Writes the row once the auth library answered. */
export async function afterSecurityCall(
  req: FastifyRequest,
  auth: Auth,
  call: SecurityCall,
  fields: Record<string, unknown> | undefined,
  response: { status: number; body: Record<string, unknown>; setCookies: string[] },
): Promise<void> {
  const { db } = req.server.ctx
  let kind = call.kind
  let actorId = call.before?.id ?? call.subjectId
  let detail: string | null = null
  if (kind === 'sign_in' && typeof fields?.email === 'string') {
    actorId = await findUserIdByEmail(db, fields.email)
  } else if (kind === 'sign_in' || kind === 'sign_in.passkey' || (kind === 'sign_in.two_step' && !actorId)) {
    // A sign-in through Google (or a second step whose challenge was not found): the new session says who.
    const token = cookieValue(response.setCookies.join(', '), 'session_token')
    const found = token ? await (await auth.$context).internalAdapter.findSession(token) : null
    actorId = found?.user.id ?? actorId
    if (kind === 'sign_in' && req.method === 'GET') detail = 'google'
    if (kind === 'sign_in' && req.method === 'GET' && !found) {
      // Google said who it was, and two-step sign-in now asks for a code: the challenge names the person.
      const challenge = cookieValue(response.setCookies.join(', '), 'two_factor')
      const pending = challenge
        ? await (await auth.$context).internalAdapter.findVerificationValue(challenge)
        : null
      if (pending?.value) {
        actorId = pending.value
        detail = 'google, code asked'
      }
    }
  }
  if (kind === 'sign_in.two_step' && call.before) {
    // The signed-in person confirming their authenticator: two-step sign-in is on from now.
    kind = 'two_step.enable'
  }
  if (kind === 'sign_in' && response.body.twoFactorRedirect === true) detail = 'password right, code asked'
  let target = actorId ? `user:${actorId}` : null
  if (kind.startsWith('passkey.')) {
    const id = kind === 'passkey.add' ? response.body.id : fields?.id
    if (typeof id === 'string' && id.length <= 100) target = `passkey:${id}`
  }
  const ok = response.status < 400 && !(req.method === 'GET' && kind === 'sign_in' && !actorId)
  if (!ok) {
    const code = typeof response.body.code === 'string' ? response.body.code : 'ERROR'
    detail = `${code} ${response.status}`
  }
  const record: AuditRecord = {
    actorId,
    kind,
    target,
    ...auditOrigin(req),
    result: ok ? 'success' : response.status === 403 ? 'denied' : 'failure',
    detail,
  }
  const change = ok && actorId ? securityChangeOf(kind, response.body, fields) : undefined
  if (change && actorId) {
    // The row and the owner's email, together (server/lib/security-change.ts).
    const { db, mail, config } = req.server.ctx
    const who = { userId: actorId, origin: auditOrigin(req) }
    await withRetry(
      req,
      () => db.transaction((tx) => recordSecurityChange(tx, { mail, config }, who, change)),
      record,
    )
    return
  }
  await withRetry(req, () => writeAudit(req.server.ctx.db, record), record)
}

/** The auth library's changes that are told to the account's owner by email. */
function securityChangeOf(
  kind: AuditKind,
  body: Record<string, unknown>,
  fields: Record<string, unknown> | undefined,
): SecurityChange | undefined {
  switch (kind) {
    case 'two_step.enable':
    case 'two_step.disable':
    case 'password.change':
    case 'password.reset':
      return { kind }
    case 'passkey.add': {
      const name = typeof body.name === 'string' ? body.name : fields?.name
      return typeof body.id === 'string'
        ? { kind, passkeyId: body.id, passkeyName: typeof name === 'string' ? name : null }
        : undefined
    }
    default:
      return undefined
  }
}

const RETRY_DELAYS_MS = [50, 250, 1000]

/**
 * The auth library has already committed the change when its event is written, so a failed write cannot undo
 * it: the row is tried again, and if the database still refuses, the event itself goes to the error log
 * (it holds no secret), where it is not lost either.
 */
async function withRetry(
  req: FastifyRequest,
  write: () => Promise<unknown>,
  record: AuditRecord,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await write()
      return
    } catch (err) {
      const delay = RETRY_DELAYS_MS[attempt]
      if (delay === undefined) {
        req.log.error({ err, auditEvent: record }, 'a security event could not be written to the audit log')
        return
      }
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }
}
