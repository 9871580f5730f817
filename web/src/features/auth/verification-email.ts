import { api } from '../../lib/api-client'

// Apart from auth-api.ts: the settings page reaches it through the feature's index, which the home page's navbar
// and hearts import too, and anything auth-api.ts brings (React Query, the passkey prompt) would then be in `/`'s
// first download.

/**
 * Better Auth sends the confirmation link again. The server sends at most a few per quarter hour to one account
 * however often this is asked, and answers the same either way.
 */
export function resendVerificationEmail(email: string) {
  return api.post<{ status: boolean }>('/auth/send-verification-email', {
    email,
    callbackURL: '/dashboard/settings',
  })
}
