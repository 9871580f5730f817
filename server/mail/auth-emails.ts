// The auth library's emails (password reset, address verification) go through the queue like every other.
// Each account gets at most a few of each per quarter hour, so nobody can flood someone's inbox by asking
// again and again; the answer to the caller stays the same either way (it never says whether an account
// exists).
import { ACCOUNT_EMAIL_WINDOW_MINUTES, ACCOUNT_EMAILS_PER_WINDOW } from '#contract/email'
import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import { type AuthEmails, RESET_TOKEN_SECONDS } from '#server/lib/auth'
import type { CounterStore } from '#server/lib/rate-limit'
import type { Mail } from './mail'

export const EMAILS_PER_ACCOUNT = ACCOUNT_EMAILS_PER_WINDOW
const WINDOW_MS = ACCOUNT_EMAIL_WINDOW_MINUTES * 60_000

/** Where a reset link opens: the app's reset page, which posts the token to /api/auth/reset-password. */
export function resetPasswordUrl(siteUrl: string, token: string): string {
  return `${siteUrl}/reset-password?token=${encodeURIComponent(token)}`
}

/** Better Auth's own verify endpoint, which marks the address verified and comes back to the settings page. */
export function verifyEmailUrl(siteUrl: string, token: string): string {
  return `${siteUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=${encodeURIComponent('/dashboard/settings')}`
}

export function createAuthEmails(opts: {
  db: Db
  config: Config
  counters: CounterStore
  mail: Mail
  log: { warn(obj: object, msg: string): void }
}): AuthEmails {
  const siteUrl = opts.config.publicUrl.replace(/\/$/, '')
  const allowed = async (kind: string, userId: string) => {
    const { count } = await opts.counters.increment(`email:${kind}:${userId}`, WINDOW_MS)
    if (count > EMAILS_PER_ACCOUNT) opts.log.warn({ userId, kind }, 'Email not queued: too many asked for')
    return count <= EMAILS_PER_ACCOUNT
  }
  return {
    async sendResetPassword(user, token) {
      if (!(await allowed('password-reset', user.id))) return
      await opts.mail.queue(opts.db, {
        to: { userId: user.id },
        template: 'password-reset',
        data: { url: resetPasswordUrl(siteUrl, token), expiresInMinutes: RESET_TOKEN_SECONDS / 60 },
      })
    },
    async sendVerificationEmail(user, token) {
      if (!(await allowed('verify-email', user.id))) return
      await opts.mail.queue(opts.db, {
        to: { userId: user.id },
        template: 'verify-email',
        data: { url: verifyEmailUrl(siteUrl, token) },
      })
    },
  }
}
