import { fromNodeHeaders } from 'better-auth/node'
import { and, eq } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  Ended,
  EraseAccount,
  ErasureCheck,
  LinkToken,
  NotMeLink,
  NotMeResult,
  RecentPasskeyList,
  SessionList,
  SessionParams,
} from '#contract/account'
import { SecurityEvent } from '#contract/audit'
import { Deleted } from '#contract/common'
import { accounts } from '#server/db/schema'
import { audited, auditedAfter, auditOrigin } from '#server/lib/audit'
import { ERRORS, errorResponses } from '#server/lib/error-responses'
import { AppError } from '#server/lib/errors'
import { caller, signedIn } from '#server/lib/guard'
import { findRecentPasskeys } from '#server/lib/security-change'
import { checkCurrentCode, createSignInLimiter, isStaleResetLink, resetTokenOf } from '#server/modules/auth'
import { eraseAccount, erasureBlocker } from './erase.service'
import { EXPORT_FORMAT, exportAccount, exportJson, exportSummaryHtml } from './export.service'
import { describeNotMeLink, secureAccount } from './not-me.service'
import { endOtherSessions, endSession, findSessions } from './sessions.service'

const Row = z.record(z.string(), z.unknown())
const Section = z.object({
  title: z.string(),
  about: z.string(),
  count: z.number().int(),
  items: z.array(Row),
})
/** The export file (docs/data-export.md): indented JSON in named sections. */
const AccountExportBody = z.object({
  about_this_file: z.string(),
  format: z.literal(EXPORT_FORMAT),
  exported_at: z.string(),
  you: Row,
  sections: z.array(Section),
  security_events: Section.extend({ items: z.array(SecurityEvent.extend({ what: z.string() })) }),
})

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, auth, counters, sessions } = app.ctx
  const limiter = createSignInLimiter(counters)

  /** The caller's password, checked by the auth library's own hasher; wrong guesses count like sign-in's. */
  async function checkPassword(userId: string, ip: string, password: string) {
    const reservation = await limiter.reserve('password', userId, ip)
    if (reservation.blocked)
      throw new AppError('RATE_LIMITED', 'Too many wrong passwords. Please try again later.')
    const [credential] = await db
      .select({ hash: accounts.password })
      .from(accounts)
      .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
      .limit(1)
    if (!credential?.hash) {
      await reservation.settle('other')
      throw new AppError(
        'VALIDATION',
        'Your account has no password yet. Set one with "Forgot password?" on the login page, then try again.',
      )
    }
    const ok = await (await auth.$context).password.verify({ hash: credential.hash, password })
    await reservation.settle(ok ? 'succeeded' : 'failed')
    if (!ok) throw new AppError('VALIDATION', 'Wrong password', { password: 'Wrong password' })
  }

  /** The caller's export, audited as a download of their data. */
  async function exportFor(req: FastifyRequest) {
    const user = caller(req)
    return auditedAfter(req, 'account.export', `user:${user.id}`, () => exportAccount(db, user.id))
  }

  app.get(
    '/me/export',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['account'],
        summary:
          'Everything we hold about you, as one indented JSON file in named sections (secrets such as your password hash left out)',
        response: { 200: AccountExportBody, ...ERRORS },
      },
    },
    async (req, reply) => {
      const data = await exportFor(req)
      // Sent as written: indented, one field a line, for a person to read too. A string with a JSON type goes out
      // unchanged (the schema above documents its shape; the type says object, hence the cast).
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="laptop-market-data-${data.exported_at.slice(0, 10)}.json"`,
        )
        .header('cache-control', 'no-store')
        .send(exportJson(data) as unknown as typeof data)
    },
  )

  app.get(
    '/me/export/summary',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['account'],
        summary:
          'A short HTML page that sums up your data export: how many records of each kind, your latest security events',
        produces: ['text/html'],
        response: { 200: z.string(), ...ERRORS },
      },
    },
    async (req, reply) => {
      const data = await exportFor(req)
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="laptop-market-data-${data.exported_at.slice(0, 10)}-summary.html"`,
        )
        .header('cache-control', 'no-store')
        .send(exportSummaryHtml(data))
    },
  )

  app.get(
    '/me/erasure',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['account'],
        summary:
          'Whether your account can be erased now, and if not, why (the rule the erasure itself checks)',
        response: { 200: ErasureCheck, ...ERRORS },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store')
      const reason = await erasureBlocker(db, caller(req).id)
      return { can_erase: reason === null, reason }
    },
  )

  app.delete(
    '/me',
    {
      config: { guard: signedIn, audit: 'account.erase' },
      schema: {
        tags: ['account'],
        summary:
          'Erase your account (password, and a code when two-step sign-in is on); refused while a sale of yours is open or money is held',
        body: EraseAccount,
        response: { 200: Deleted, ...ERRORS, ...errorResponses(429) },
      },
    },
    async (req) => {
      const user = caller(req)
      await checkPassword(user.id, req.ip, req.body.password)
      if (user.twoFactorEnabled) {
        const refused = await checkCurrentCode(auth, fromNodeHeaders(req.headers), req.body.code)
        if (refused) {
          const { message } = (await refused.json()) as { message: string }
          throw new AppError('VALIDATION', message, { code: message })
        }
      }
      await audited(req, `user:${user.id}`, (tx) => eraseAccount(tx, user.id, app.ctx.mail))
      // Redis (where other instances look first) forgets the sessions too.
      await sessions.endAll(user.id)
      return { acknowledged: true, deletedCount: 1 }
    },
  )

  app.get(
    '/me/sessions',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['account'],
        summary: 'Where you are signed in: browser, rough place, last seen (yours is marked current)',
        response: { 200: SessionList, ...ERRORS },
      },
    },
    async (req) => ({ items: await findSessions(db, caller(req)) }),
  )

  app.delete(
    '/me/sessions/:id',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['account'],
        summary: 'Sign out one of your sessions (your current one signs you out here)',
        params: SessionParams,
        response: { 200: Ended, ...ERRORS },
      },
    },
    async (req) => {
      const endedCount = await auditedAfter(req, 'session.end', `session:${req.params.id}`, () =>
        endSession(db, auth, caller(req), req.params.id),
      )
      return { acknowledged: true as const, endedCount }
    },
  )

  app.delete(
    '/me/sessions',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['account'],
        summary: 'Sign out everywhere else (every session but the one you are using)',
        response: { 200: Ended, ...ERRORS },
      },
    },
    async (req) => {
      const endedCount = await auditedAfter(req, 'session.end_others', null, () =>
        endOtherSessions(db, auth, caller(req)),
      )
      return { acknowledged: true as const, endedCount }
    },
  )

  // The "I did not do this" link of a security email: anyone holding it (it is signed, single-use and
  // expires), signed in or not. The first call says what it answers; the second secures the account.
  app.post(
    '/account/not-me/check',
    {
      schema: {
        tags: ['account'],
        summary: 'Which change an "I did not do this" link answers (changes nothing)',
        body: LinkToken,
        response: { 200: NotMeLink, ...errorResponses(400) },
      },
    },
    async (req) => describeNotMeLink(db, app.ctx.config, req.body.token),
  )

  app.post(
    '/account/not-me',
    {
      schema: {
        tags: ['account'],
        summary:
          'I did not do this: signs out every device, removes passkeys added in the last 7 days, takes the password away and answers a link to choose a new one',
        body: LinkToken,
        response: { 200: NotMeResult, ...errorResponses(400) },
      },
    },
    async (req) => secureAccount({ db, config: app.ctx.config, sessions }, req.body.token, auditOrigin(req)),
  )

  // The reset page offers to remove the passkeys added in the last 7 days: a passkey signs in without the
  // password, so one added by someone else would outlive the reset.
  app.post(
    '/account/reset-passkeys',
    {
      schema: {
        tags: ['account'],
        summary:
          'The passkeys added in the last 7 days to the account a password-reset link is for (the reset page offers to remove them)',
        body: LinkToken,
        response: { 200: RecentPasskeyList, ...errorResponses(400) },
      },
    },
    async (req) => {
      const link = await resetTokenOf(auth, req.body.token)
      if (!link || (await isStaleResetLink(db, link))) {
        throw new AppError('VALIDATION', 'This reset link has expired or was already used.')
      }
      const rows = await findRecentPasskeys(db, link.userId)
      return {
        items: rows.map((r) => ({
          id: r.id,
          name: r.name,
          created_at: (r.createdAt ?? new Date()).toISOString(),
        })),
      }
    },
  )
}
