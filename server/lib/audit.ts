import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import type { AuditKind, AuditResult } from '#contract/audit'
import type { Db } from '#server/db/client'
import { auditEvents } from '#server/db/schema'
import { AppError } from './errors'
import { caller, type Guard } from './guard'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the audit log calls this route's action. Required on every route an admin may call to change something. */
    audit?: AuditKind
  }
  interface FastifyRequest {
    /** Set once the request's audit row is written. */
    audited: boolean
  }
}

// The audit log's writer sits here, below the modules: audited routes (through `audited` below), sign-ins and
// the payouts' reconciliation all write rows; the audit module (server/modules/audit) reads them.

/** Where a request came from, as the audit log keeps it. */
export type AuditOrigin = { ip: string | null; userAgent: string | null }

export type AuditRecord = AuditOrigin & {
  actorId: string | null
  kind: AuditKind
  /** `type:id`, never a name, an address, a token or a code. */
  target?: string | null
  result: AuditResult
  /** An error code and status when it failed; never what was typed. */
  detail?: string | null
}

const MAX_USER_AGENT = 512

/** Appends one row. Pass the transaction of the change it records, so both are kept or neither. */
export async function writeAudit(db: Db, record: AuditRecord): Promise<void> {
  await db.insert(auditEvents).values({
    actorId: record.actorId,
    kind: record.kind,
    target: record.target ?? null,
    ip: record.ip?.slice(0, 64) ?? null,
    userAgent: record.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
    result: record.result,
    detail: record.detail?.slice(0, 200) ?? null,
  })
}

/** The caller's address (behind the configured proxies) and browser. */
export function auditOrigin(req: FastifyRequest): AuditOrigin {
  const agent = req.headers['user-agent']
  return { ip: req.ip ?? null, userAgent: typeof agent === 'string' ? agent : null }
}

/** How a refused or failed call is written: refusals of the caller's rights as denied, the rest as failures. */
export function auditOutcome(status: number): AuditResult {
  return status === 401 || status === 403 ? 'denied' : 'failure'
}

function errorStatus(err: unknown): { status: number; code: string } {
  if (err instanceof AppError) return { status: err.status, code: err.code }
  const status = (err as { statusCode?: unknown }).statusCode
  return typeof status === 'number' ? { status, code: 'ERROR' } : { status: 500, code: 'INTERNAL' }
}

/** True for a route an admin may call to change something: it must say what the audit log calls it. */
export function isAuditedRoute(method: string | string[], guard: Guard | undefined): boolean {
  if (!guard || guard.roles === 'any' || !guard.roles.includes('admin')) return false
  return [method].flat().some((m) => m !== 'GET' && m !== 'HEAD')
}

/**
 * Runs a change and writes its audit row in one transaction (both are kept, or neither); a change that
 * fails is rolled back and its row written on its own, with the error's code and status. `work` gets the
 * transaction and must do every database write through it.
 */
export async function audited<T>(
  req: FastifyRequest,
  target: string | null,
  work: (tx: Db) => Promise<T>,
): Promise<T> {
  const kind = req.routeOptions.config.audit
  if (!kind) throw new AppError('INTERNAL', 'This route declares no audit kind')
  const { db } = req.server.ctx
  const base = { actorId: caller(req).id, kind, target, ...auditOrigin(req) }
  try {
    const value = await db.transaction(async (tx) => {
      const done = await work(tx)
      await writeAudit(tx, { ...base, result: 'success' })
      return done
    })
    req.audited = true
    return value
  } catch (err) {
    const { status, code } = errorStatus(err)
    await writeAudit(db, { ...base, result: auditOutcome(status), detail: `${code} ${status}` })
    req.audited = true
    throw err
  }
}

/**
 * Every route an admin may call to change something declares `config.audit`, or the app does not start.
 * Such a call that succeeds without writing its row in its transaction (through `audited`) answers 500; one
 * refused before its handler ran (signed out, not allowed, bad input) is written as denied or failed.
 */
export function installAudit(app: FastifyInstance) {
  app.decorateRequest('audited', false)
  app.addHook('onRoute', (route: RouteOptions) => {
    const config = route.config as { guard?: Guard; audit?: AuditKind } | undefined
    if (isAuditedRoute(route.method, config?.guard) && !config?.audit) {
      throw new Error(
        `${[route.method].flat().join(',')} ${route.url} may be called by an admin to change something: ` +
          'declare config.audit and run its change through audited() (server/lib/audit.ts)',
      )
    }
    // Written into the OpenAPI operation, where the audit test finds every audited route.
    if (config?.audit) route.schema = { ...route.schema, 'x-audit': config.audit } as RouteOptions['schema']
  })
  // Before the answer leaves, so a client that reads the log next finds the row.
  // A callback hook: the many requests to routes that are not audited pass on at once, with no promise to wait on.
  app.addHook('onSend', (req, reply, payload, done) => {
    const kind = req.routeOptions.config.audit
    if (!kind || req.audited) return done(null, payload)
    if (reply.statusCode < 400) {
      req.log.error(
        { route: req.routeOptions.url },
        'an audited route changed something without its audit row',
      )
      return done(new AppError('INTERNAL', 'This action was not recorded in the audit log'))
    }
    req.audited = true
    writeRefusal(req, kind, reply.statusCode).then(() => done(null, payload), done)
  })
}

/** The audit row of a call to an audited route refused before its action ran; a failed write is logged. */
async function writeRefusal(req: FastifyRequest, kind: AuditKind, statusCode: number): Promise<void> {
  const actor = req.user ?? (await req.server.ctx.sessions.get(req).catch(() => null))
  await writeAudit(req.server.ctx.db, {
    actorId: actor?.id ?? null,
    kind,
    target: null,
    ...auditOrigin(req),
    result: auditOutcome(statusCode),
    detail: `refused before the action ${statusCode}`,
  }).catch((err) => req.log.error({ err }, 'could not write an audit row'))
}

/**
 * Runs a call whose own transactions record its outcome (a payment keeps its declined attempts), then
 * writes its audit row: success, or the error's code and status.
 */
export async function auditedAfter<T>(
  req: FastifyRequest,
  kind: AuditKind,
  target: string | null,
  work: () => Promise<T>,
): Promise<T> {
  const { db } = req.server.ctx
  const base = { actorId: caller(req).id, kind, target, ...auditOrigin(req) }
  try {
    const value = await work()
    await writeAudit(db, { ...base, result: 'success' })
    return value
  } catch (err) {
    const { status, code } = errorStatus(err)
    await writeAudit(db, { ...base, result: auditOutcome(status), detail: `${code} ${status}` })
    throw err
  }
}
