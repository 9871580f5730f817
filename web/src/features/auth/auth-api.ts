import { startAuthentication } from '@simplewebauthn/browser'
import { useQuery } from '@tanstack/react-query'
import type { RecentPasskeyList } from '#contract/account'
import type { Me } from '#contract/users'
import { api } from '../../lib/api-client'
import { sessionKeys } from '../../lib/query-keys'

export type SignupRole = 'buyer' | 'seller'

/** `twoFactorRedirect`: the password was right and a code from the authenticator app is asked next. */
export function signInWithEmail(input: { email: string; password: string }) {
  return api.post<{ twoFactorRedirect?: boolean }>('/auth/sign-in/email', input)
}

/** The second step of a sign-in: a code from the authenticator app, or a backup code. */
export function verifySignInCode(input: { code: string; backup: boolean; trustDevice: boolean }) {
  const code = input.code.trim()
  return input.backup
    ? api.post<unknown>('/auth/two-factor/verify-backup-code', { code, trustDevice: input.trustDevice })
    : api.post<unknown>('/auth/two-factor/verify-totp', {
        code: code.replace(/\s/g, ''),
        trustDevice: input.trustDevice,
      })
}

/**
 * Sign-in with a passkey: the server's challenge, the browser's passkey prompt (the person picks one of
 * theirs for this site and unlocks it with a fingerprint, face or PIN), and the server's check of the answer.
 */
export async function signInWithPasskey(): Promise<void> {
  const optionsJSON = await api.get<Parameters<typeof startAuthentication>[0]['optionsJSON']>(
    '/auth/passkey/generate-authenticate-options',
  )
  const response = await startAuthentication({ optionsJSON })
  await api.post<unknown>('/auth/passkey/verify-authentication', { response })
}

export function signUpWithEmail(input: { name: string; email: string; password: string; role: SignupRole }) {
  return api.post<unknown>('/auth/sign-up/email', input)
}

/** Better Auth emails a reset link when the address has an account; the answer is the same either way. */
export function requestPasswordReset(email: string) {
  return api.post<{ status: boolean; message: string }>('/auth/request-password-reset', { email })
}

/** Sets a new password with the token from the emailed link; every session of the account ends. */
export function resetPassword(token: string, newPassword: string, removePasskeys: string[] = []) {
  return api.post<{ status: boolean }>('/auth/reset-password', {
    token,
    newPassword,
    ...(removePasskeys.length > 0 ? { removePasskeys } : {}),
  })
}

/** The passkeys added in the last 7 days to the account a reset link is for, which the reset page offers to remove. */
export function findResetPasskeys(token: string) {
  return api.post<RecentPasskeyList>('/account/reset-passkeys', { token })
}

/** The seed's follow-up call after signup: the buyer or seller record (the server makes it idempotent). */
export function createOwnRecord(user: Pick<Me, 'name' | 'email'> & { role: SignupRole }) {
  return api.post<unknown>(user.role === 'seller' ? '/sellers' : '/buyers', {
    name: user.name,
    email: user.email,
    role: user.role,
  })
}

/**
 * Starts the OpenID Connect flow: the server answers with the provider's URL, the browser goes there and
 * comes back to `returnTo` signed in (or to the login page with `?error=` when the provider refused).
 */
export async function startGoogleSignIn(returnTo: string): Promise<void> {
  // Better Auth serves configured OpenID providers through its social sign-in endpoint.
  const { url } = await api.post<{ url: string; redirect: boolean }>('/auth/sign-in/social', {
    provider: 'google',
    callbackURL: returnTo,
    errorCallbackURL: `/login?from=${encodeURIComponent(returnTo)}`,
  })
  window.location.assign(url)
}

export function useAuthOptions() {
  return useQuery({
    queryKey: sessionKeys.authOptions(),
    queryFn: ({ signal }) => api.get<{ google: boolean }>('/auth-options', undefined, signal),
    staleTime: Number.POSITIVE_INFINITY,
  })
}

/**
 * Where to go after signing in: the `from` page when it is a path on this site, else home. Anything
 * else (`//evil.example`, `https://…`) is ignored so the login page cannot be used to send people away.
 * A path with whitespace or a control character is refused too: browsers drop tabs and newlines from a URL,
 * so `/log\tin` would lead back to the login page and `/\t/evil.example` off the site.
 */
export function safeReturnPath(from: string | null | undefined): string {
  if (!from?.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return '/'
  if (/[\s\p{Cc}\p{Cf}]/u.test(from)) return '/'
  if (from.startsWith('/login') || from.startsWith('/signup')) return '/'
  return from
}
