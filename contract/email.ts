// One spelling of an email address for comparing and storing: accounts are found by it whatever case or
// surrounding spaces someone types.

/** The address as stored and compared: trimmed, lower case. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase()
}

/** True when both name the same account. */
export function sameEmail(a: string, b: string): boolean {
  return normalEmail(a) === normalEmail(b)
}

/**
 * Account emails a person can make us send (a reset link, a confirmation link): at most this many to one account
 * per window, so nobody can flood someone's inbox. Pages say so to everyone alike.
 */
export const ACCOUNT_EMAILS_PER_WINDOW = 3
export const ACCOUNT_EMAIL_WINDOW_MINUTES = 15
