import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { getCurrentAdapter } from '@better-auth/core/context'
import type { SecondaryStorage } from '@better-auth/core/db'
import { passkey } from '@better-auth/passkey'
import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { APIError } from 'better-auth/api'
import { genericOAuth } from 'better-auth/plugins/generic-oauth'
import { twoFactor } from 'better-auth/plugins/two-factor'
import { eq } from 'drizzle-orm'
import { hasLineBreakOrControl, hasVisibleCharacter, withoutBidiControls } from '#contract/text'
import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import { hashPassword, verifyPassword } from '#server/db/password-hash'
import { accounts, passkeys, sessions, twoFactors, users, verifications } from '#server/db/schema'
import { generateBackupCode, hashedBackupCodes } from './backup-codes'
import { hasControlCharacter } from './control-characters'
import { ownOrigins } from './origin'
import { passwordRules } from './passwords'
import { totpStepsOnce } from './totp-steps'
import { twoStepAfterGoogle } from './two-step-after-google'

export const AUTH_BASE_PATH = '/api/auth'
export const SIGNUP_ROLES = ['buyer', 'seller'] as const

/**
 * The secret that signs session cookies and access tokens. Production must set AUTH_SECRET (several
 * instances share it); elsewhere one is generated once and kept in the data folder.
 */
export function resolveAuthSecret(config: Config): string {
  if (config.authSecret) return config.authSecret
  if (config.env === 'test') return 'Tq8vN2rXw5LmZ1pK7cYb4HsJ9eUa3GdF6oRi0Wn'
  const file = path.join(config.dataDir, 'auth-secret')
  try {
    return fs.readFileSync(file, 'utf8').trim()
  } catch {
    const secret = crypto.randomBytes(32).toString('base64url')
    fs.mkdirSync(config.dataDir, { recursive: true })
    fs.writeFileSync(file, secret, { mode: 0o600 })
    return secret
  }
}

/** A name as others see it in tables and toasts: trimmed, 1 to 100 characters. */
function checkedName(name: unknown): string {
  // Bidirectional controls are dropped (they make a name read backwards); a name must show something.
  const trimmed = typeof name === 'string' ? withoutBidiControls(name).trim() : ''
  if (!trimmed) throw new APIError('BAD_REQUEST', { message: 'Name is required', code: 'INVALID_NAME' })
  if (trimmed.length > 100) {
    throw new APIError('BAD_REQUEST', { message: 'Name is too long', code: 'INVALID_NAME' })
  }
  if (hasControlCharacter(trimmed) || hasLineBreakOrControl(trimmed)) {
    throw new APIError('BAD_REQUEST', {
      message: 'The name must not contain control characters',
      code: 'INVALID_NAME',
    })
  }
  if (!hasVisibleCharacter(trimmed)) {
    throw new APIError('BAD_REQUEST', {
      message: 'The name must have a visible character',
      code: 'INVALID_NAME',
    })
  }
  return trimmed
}

/** A profile picture is an https URL, or none: a plain-http picture would be fetched from any host by every viewer. */
function checkedImage(image: unknown): string | null {
  if (image === undefined || image === null || image === '') return null
  if (
    typeof image === 'string' &&
    image.length <= 2048 &&
    /^https:\/\//i.test(image) &&
    !hasControlCharacter(image) &&
    !image.includes(' ')
  )
    return image
  throw new APIError('BAD_REQUEST', { message: 'Image must be an https URL', code: 'INVALID_IMAGE' })
}

function userNotVerified() {
  return new APIError('UNAUTHORIZED', {
    message: 'Your device did not check it was you (fingerprint, face or PIN). Please try again.',
    code: 'USER_NOT_VERIFIED',
  })
}

/** How the auth library's emails leave (server/mail/auth-emails.ts queues them). */
export type AuthEmails = {
  /** A password-reset link for the account, valid for RESET_TOKEN_SECONDS. */
  sendResetPassword(user: { id: string; email: string }, token: string): Promise<void>
  /** A link that confirms the address, after sign-up or on request. */
  sendVerificationEmail(user: { id: string; email: string }, token: string): Promise<void>
}

/** The header our auth route sets to the client's address (any such header a client sends is replaced). */
export const CLIENT_ADDRESS_HEADER = 'x-laptop-market-client-ip'

/** The second factors a session can be made with, by the auth endpoint that makes it. */
const SECOND_FACTOR_BY_PATH: Record<string, string> = {
  '/two-factor/verify-totp': 'totp',
  '/two-factor/verify-backup-code': 'backup_code',
  '/passkey/verify-authentication': 'passkey',
}

/**
 * How a new session signed in beyond the password: by the endpoint that makes it (the second step, a passkey,
 * or turning two-step sign-in on with a code). A session the library makes in place of the caller's (a password
 * change) keeps the caller's; every other one (a password or Google alone, sign-up) has none.
 */
function secondFactorOf(ctx: { path?: string; context?: unknown } | null | undefined): string | null {
  const byPath = ctx?.path ? SECOND_FACTOR_BY_PATH[ctx.path] : undefined
  if (byPath) return byPath
  if (ctx?.path === '/change-password') {
    const prior = (ctx.context as { session?: { session?: { secondFactor?: unknown } } } | undefined)?.session
      ?.session?.secondFactor
    return typeof prior === 'string' ? prior : null
  }
  return null
}

export const RESET_TOKEN_SECONDS = 60 * 60
/** How long "remember this device" skips the sign-in code. */
export const TRUST_DEVICE_SECONDS = 30 * 24 * 60 * 60
export const VERIFY_TOKEN_SECONDS = 60 * 60 * 24

/** `sessionStore`: Redis when configured, so every instance finds a session without the database. */
export function createAuth(
  db: Db,
  config: Config,
  secret: string,
  emails: AuthEmails,
  sessionStore?: SecondaryStorage,
) {
  const google = config.google
  const backupCodes = hashedBackupCodes(secret)
  return betterAuth({
    appName: 'Laptop Market',
    logger: { level: config.env === 'test' ? 'error' : 'warn' },
    baseURL: config.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret,
    trustedOrigins: ownOrigins(config),
    database: drizzleAdapter(db, {
      provider: 'pg',
      usePlural: true,
      transaction: true,
      schema: { users, sessions, accounts, verifications, twoFactors, passkeys },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      // A reset ends every session of the account, in the database and in Redis (and so their bearer tokens).
      revokeSessionsOnPasswordReset: true,
      // The library's own scrypt and format, through the one place every hash is made and read (password-hash.ts).
      password: { hash: hashPassword, verify: verifyPassword },
      sendResetPassword: ({ user, token }) => emails.sendResetPassword(user, token),
    },
    // Sign-up sends a link that confirms the address; nothing waits for it (the address shows as verified).
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
      expiresIn: VERIFY_TOKEN_SECONDS,
      sendVerificationEmail: ({ user, token }) => emails.sendVerificationEmail(user, token),
    },
    user: {
      additionalFields: {
        // Not an input field: Better Auth would otherwise let POST /api/auth/update-user set it (self-promotion
        // to admin). Email signup's chosen role is read from the request in the create hook below.
        role: { type: 'string', required: false, defaultValue: 'buyer', input: false },
        disabledAt: { type: 'date', required: false, input: false, returned: false },
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
      storeSessionInDatabase: true,
      // How this session signed in beyond the password (set below when it is made); admin rights read it.
      additionalFields: { secondFactor: { type: 'string', required: false, input: false } },
    },
    secondaryStorage: sessionStore,
    // Sign-in attempts are limited by our own limiter (per account and per address, shared through Redis).
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: config.publicUrl.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      // The client's address as the server resolved it (TRUST_PROXY decides which hop to believe), written by
      // our auth route; a session records it, and the Security page names the session by it.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    databaseHooks: {
      user: {
        create: {
          // Email signup chooses buyer or seller; every other way in (Google) makes a buyer. Never an admin.
          before: async (user, ctx) => {
            const isEmailSignup = ctx?.path === '/sign-up/email'
            const role = isEmailSignup ? (ctx.body as { role?: unknown } | undefined)?.role : 'buyer'
            if (!SIGNUP_ROLES.includes(role as (typeof SIGNUP_ROLES)[number])) {
              throw new APIError('BAD_REQUEST', { message: 'User role is required', code: 'INVALID_ROLE' })
            }
            if (!isEmailSignup) return { data: { ...user, role } }
            return { data: { ...user, role, name: checkedName(user.name), image: checkedImage(user.image) } }
          },
        },
        update: {
          // Better Auth checks only that the name is a string; ours is never blank, nor the picture a script.
          before: async (data, ctx) => {
            if (ctx?.path !== '/update-user') return
            const checked: { name?: string; image?: string | null } = {}
            if (data.name !== undefined) checked.name = checkedName(data.name)
            if (data.image !== undefined) checked.image = checkedImage(data.image)
            return { data: { ...data, ...checked } }
          },
        },
      },
      session: {
        create: {
          // A deleted (disabled) account cannot start a session, whichever way it signs in. The lookup goes
          // through the adapter of the running transaction (signup creates the user and its session in one).
          before: async (session, ctx) => {
            const secondFactor = secondFactorOf(ctx)
            const user = ctx
              ? await (await getCurrentAdapter(ctx.context.adapter)).findOne<{ disabledAt: Date | null }>({
                  model: 'user',
                  where: [{ field: 'id', value: session.userId }],
                })
              : (
                  await db
                    .select({ disabledAt: users.disabledAt })
                    .from(users)
                    .where(eq(users.id, session.userId))
                    .limit(1)
                )[0]
            if (!user || user.disabledAt) {
              throw new APIError('FORBIDDEN', {
                message: 'This account has been disabled',
                code: 'ACCOUNT_DISABLED',
              })
            }
            return { data: { ...session, secondFactor } }
          },
        },
      },
    },
    plugins: [
      // Two-step sign-in: an authenticator app's code (TOTP) after the password, ten one-time backup codes,
      // and a device remembered for 30 days on request. The secret is stored encrypted, the backup codes one
      // way (server/lib/backup-codes.ts): they are shown once, when they are made.
      twoFactor({
        issuer: 'Laptop Market',
        trustDeviceMaxAge: TRUST_DEVICE_SECONDS,
        backupCodeOptions: {
          amount: 10,
          customBackupCodesGenerate: () => Array.from({ length: 10 }, generateBackupCode),
          storeBackupCodes: backupCodes.storeBackupCodes,
        },
        // Ten wrong codes lock the second step for 15 minutes (five per sign-in attempt before a new one).
        accountLockout: { enabled: true, maxFailedAttempts: 10, durationSeconds: 15 * 60 },
      }),
      // Passkeys (WebAuthn): made on a signed-in device, then a sign-in on their own. Each must be discoverable
      // (no email typed) and check the person (fingerprint, face or PIN), so a passkey is two factors in one
      // and its sign-in asks for no code (decision 0045).
      passkey({
        rpID: config.webauthnRpId,
        rpName: 'Laptop Market',
        origin: ownOrigins(config),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        registration: {
          afterVerification: async ({ verification }) => {
            if (!verification.registrationInfo?.userVerified) throw userNotVerified()
          },
        },
        authentication: {
          afterVerification: async ({ verification }) => {
            if (!verification.authenticationInfo.userVerified) throw userNotVerified()
          },
        },
      }),
      ...(google
        ? [
            genericOAuth({
              config: [
                {
                  providerId: 'google',
                  name: 'Google',
                  discoveryUrl: `${google.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
                  clientId: google.clientId,
                  clientSecret: google.clientSecret,
                  scopes: ['openid', 'email', 'profile'],
                  pkce: true,
                },
              ],
            }),
            twoStepAfterGoogle(),
          ]
        : []),
      backupCodes.plugin,
      passwordRules,
      totpStepsOnce(db),
    ],
  })
}

export type Auth = ReturnType<typeof createAuth>
