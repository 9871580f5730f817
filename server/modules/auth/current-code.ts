import type { Auth } from '#server/lib/auth'

/**
 * Turning two-step sign-in off takes the password (Better Auth checks it) and a current code from the
 * authenticator app or an unused backup code (checked here first, against the caller's own second factor).
 */
export async function checkCurrentCode(
  auth: Auth,
  headers: Headers,
  code: unknown,
): Promise<Response | undefined> {
  const refuse = (status: number, message: string, errorCode: string) =>
    new Response(JSON.stringify({ message, code: errorCode }), {
      status,
      headers: { 'content-type': 'application/json' },
    })
  // Spaces and dashes are how a code is shown (or typed), not part of it.
  if (typeof code !== 'string' || !/^[A-Za-z0-9]{6,32}$/.test(code.replace(/[\s-]+/g, ''))) {
    return refuse(400, 'Enter a code from your authenticator app, or a backup code', 'CODE_REQUIRED')
  }
  const trimmed = code.trim()
  const isBackupCode = code.replace(/[\s-]+/g, '').length > 8
  try {
    await auth.api.verifyTOTP({ body: { code: trimmed }, headers })
    return undefined
  } catch {}
  if (isBackupCode) {
    try {
      await auth.api.verifyBackupCode({ body: { code: trimmed, disableSession: true }, headers })
      return undefined
    } catch {}
  }
  return refuse(
    401,
    'That code is not right. Enter the current code from your authenticator app, or a backup code.',
    'INVALID_CODE',
  )
}
