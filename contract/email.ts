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
